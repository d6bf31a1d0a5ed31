// The offline demo model's one-step scenarios over the `tracker` connector: listing tasks (all, by
// status or by project), a summary per project, the stats, and the two approval-gated writes,
// creating a task and moving one, each from a precise pattern.
import { argumentOf } from "./request-text.ts";
import { type Matched, plural, program, type Scenario, scenario } from "./scenario.ts";

export interface TaskLike {
  id: number;
  title: string;
  status: string;
  priority?: string;
  projectId?: string;
  createdAt?: string;
}

/** The projects the seed has, and the words that name them. */
export const PROJECT_WORDS = `(website|site|web|mobile|app|mobile app|infra|infrastructure|ci)`;
const PROJECT_OF: Record<string, string> = {
  website: "website",
  site: "website",
  web: "website",
  mobile: "mobile",
  app: "mobile",
  "mobile app": "mobile",
  infra: "infra",
  infrastructure: "infra",
  ci: "infra",
};
export const projectOf = (word: string | undefined) =>
  word === undefined ? undefined : PROJECT_OF[word.toLowerCase()];

const STATUS_WORDS = `(open|not done|unfinished|pending|done|closed|finished|completed|todo|to do|to-do|doing|in progress|started|active)`;
type StatusFilter = "open" | "todo" | "doing" | "done";
function statusOf(word: string | undefined): StatusFilter | undefined {
  if (word === undefined) return undefined;
  const w = word.toLowerCase();
  if (["open", "not done", "unfinished", "pending"].includes(w)) return "open";
  if (["done", "closed", "finished", "completed"].includes(w)) return "done";
  if (["todo", "to do", "to-do"].includes(w)) return "todo";
  return "doing";
}

const statusWords: Record<string, string> = { todo: "to do", doing: "in progress", done: "done" };
const filterWords: Record<StatusFilter, string> = {
  open: "open (not done)",
  todo: "to do",
  doing: "in progress",
  done: "done",
};

function listTasks(status?: StatusFilter, projectId?: string): Scenario {
  const filter = [
    ...(projectId ? [`projectId: ${JSON.stringify(projectId)}`] : []),
    ...(status && status !== "open" ? [`status: ${JSON.stringify(status)}`] : []),
  ];
  const map =
    "tasks.map((t) => ({ id: t.id, title: t.title, status: t.status, priority: t.priority, projectId: t.projectId }))";
  const lines =
    status === "open"
      ? [
          `const tasks = (await tracker.list_tasks({${filter.length ? ` ${filter.join(", ")} ` : ""}})).filter((t) => t.status !== "done");`,
          `return ${map};`,
        ]
      : [
          `const tasks = await tracker.list_tasks({${filter.length ? ` ${filter.join(", ")} ` : ""}});`,
          `return ${map};`,
        ];
  const name = status || projectId ? "list-tasks-filtered" : "list-tasks";
  return scenario(name, program(lines), {
    completed(result) {
      const tasks = result as TaskLike[];
      const lines = tasks.map(
        (t) => `- #${t.id} ${t.title} (${t.status}, ${t.priority}, ${t.projectId})`,
      );
      if (!status && !projectId) {
        const counts = Object.entries(statusWords)
          .map(([s, words]) => `${tasks.filter((t) => t.status === s).length} ${words}`)
          .join(", ");
        return [`You have ${plural(tasks.length, "task")}: ${counts}.`, ...lines].join("\n");
      }
      const label = status ? `${filterWords[status]} ` : "";
      const place = projectId ? ` in ${projectId}` : "";
      if (tasks.length === 0) return `You have no ${label}tasks${place}.`;
      const head = `You have ${tasks.length} ${label}${tasks.length === 1 ? "task" : "tasks"}${place}:`;
      return [head, ...lines].join("\n");
    },
  });
}

function summarizeProjects(): Scenario {
  return scenario(
    "summarize-projects",
    program([
      "const projects = await tracker.list_projects({});",
      "const summary = [];",
      "for (const project of projects) {",
      "  const tasks = await tracker.list_tasks({ projectId: project.id });",
      '  const done = tasks.filter((t) => t.status === "done").length;',
      "  summary.push({ project: project.name, total: tasks.length, done, open: tasks.length - done });",
      "}",
      "return summary;",
    ]),
    {
      completed(result) {
        const rows = result as Array<{
          project: string;
          total: number;
          done: number;
          open: number;
        }>;
        const open = rows.reduce((sum, row) => sum + row.open, 0);
        return [
          `${plural(rows.length, "project")}, ${plural(open, "open task")} in all:`,
          ...rows.map((r) => `- ${r.project}: ${r.total} tasks, ${r.done} done, ${r.open} open`),
        ].join("\n");
      },
    },
  );
}

function stats(): Scenario {
  return scenario("stats", program(["return await tracker.stats({});"]), {
    completed(value) {
      const result = value as {
        total: number;
        byStatus: Record<string, number>;
        byProject: Record<string, number>;
      };
      const part = (counts: Record<string, number>) =>
        Object.entries(counts)
          .map(([key, n]) => `${key} ${n}`)
          .join(", ");
      return `${result.total} tasks. By status: ${part(result.byStatus)}. By project: ${part(result.byProject)}.`;
    },
  });
}

function createTask(title: string, projectId: string, named: boolean): Scenario {
  const where = named
    ? projectId
    : `${projectId} (the default project; say "in mobile" or "in infra" for another)`;
  return scenario(
    "create-task",
    program([
      "const projects = await tracker.list_projects({});",
      `const project = projects.find((p) => p.id === ${JSON.stringify(projectId)});`,
      `if (!project) return { missing: ${JSON.stringify(projectId)}, projects: projects.map((p) => p.id) };`,
      `return await tracker.create_task({ projectId: project.id, title: ${JSON.stringify(title)} });`,
    ]),
    {
      asked: `create "${title}" in ${where}`,
      gate: `creating the task "${title}" in ${projectId}`,
      writes: true,
      completed(result) {
        const outcome = result as TaskLike & { missing?: string; projects?: string[] };
        if (outcome.missing) {
          return `There is no project "${outcome.missing}" (the projects are ${outcome.projects?.join(", ")}), so I created nothing.`;
        }
        return `Created task #${outcome.id} "${outcome.title}" in ${outcome.projectId}.`;
      },
    },
  );
}

function updateStatus(id: number, status: string): Scenario {
  return scenario(
    "update-status",
    program([
      `const task = await tracker.get_task({ id: ${id} });`,
      `const change = await tracker.update_task_status({ id: task.id, status: ${JSON.stringify(status)} });`,
      "return { title: task.title, ...change };",
    ]),
    {
      asked: `move task #${id} to ${status}`,
      gate: `moving task #${id} to ${status}`,
      writes: true,
      completed(result) {
        const change = result as { title: string; previousStatus: string; status: string };
        return `Task #${id} "${change.title}" moved from ${change.previousStatus} to ${change.status}.`;
      },
    },
  );
}

/** Several tasks moved at once: the writes go together (Promise.all), so one approval covers all. */
function updateStatuses(ids: readonly number[], status: string): Scenario {
  const list = ids.map((id) => `#${id}`).join(", ");
  return scenario(
    "update-statuses",
    program([
      `const tasks = await Promise.all(${JSON.stringify(ids)}.map((id) => tracker.get_task({ id })));`,
      `const changes = await Promise.all(tasks.map((task) => tracker.update_task_status({ id: task.id, status: ${JSON.stringify(status)} })));`,
      "return tasks.map((task, i) => ({ id: task.id, title: task.title, ...changes[i] }));",
    ]),
    {
      asked: `move tasks ${list} to ${status}, all at once (one approval covers every move)`,
      gate: `moving tasks ${list} to ${status}`,
      writes: true,
      completed(result) {
        const moved = result as Array<{ id: number; title: string; previousStatus: string }>;
        return [
          `Moved ${plural(moved.length, "task")} to ${status}:`,
          ...moved.map((task) => `- #${task.id} "${task.title}" (was ${task.previousStatus})`),
        ].join("\n");
      },
    },
  );
}

const CREATE =
  /^(?:create|add|make|open)(?: me)?(?: a| an| one)?(?: new)? task(?: (?:called|named|titled))?:? (.+)$/i;
const IN_PROJECT = new RegExp(
  `^(.+?) (?:in|for|to|under) (?:the )?${PROJECT_WORDS}(?: project)?$`,
  "i",
);
const IN_UNKNOWN_PROJECT = /^(.+?) (?:in|for|to|under) (?:the )?([\w-]+) project$/i;
const TARGET = `(todo|to do|to-do|doing|in progress|done|complete|completed|finished|closed)`;
/** The most tasks one request moves at once. */
export const MAX_TASKS_MOVED = 10;
/** One task's number, or several: "2", "#2", "2, 3 and 5" (at most MAX_TASKS_MOVED). */
const IDS = String.raw`((?:#|number )?\d{1,9}(?:(?:,? and |, ?)#?\d{1,9}){0,${MAX_TASKS_MOVED - 1}})`;
const MOVES: ReadonlyArray<[RegExp, ((word: string) => string) | string]> = [
  [
    new RegExp(
      String.raw`^(?:mark|move|set|put|change) tasks? ${IDS} (?:as |to |in(?:to)? )?(?:status )?${TARGET}$`,
      "i",
    ),
    (word) => {
      const w = word.toLowerCase();
      if (["todo", "to do", "to-do"].includes(w)) return "todo";
      if (["doing", "in progress"].includes(w)) return "doing";
      return "done";
    },
  ],
  [new RegExp(String.raw`^(?:close|complete|finish|resolve) tasks? ${IDS}$`, "i"), "done"],
  [new RegExp(String.raw`^reopen tasks? ${IDS}$`, "i"), "todo"],
  [new RegExp(String.raw`^(?:start|begin)(?: working on)? tasks? ${IDS}$`, "i"), "doing"],
];
const LISTS = [
  new RegExp(
    `^(?:(?:list|show|get|display|see|view)(?: me)?(?: all)?(?: of)? (?:my |the |our |all )?|what(?: are)? (?:my |the |our )?|my )?(?:${STATUS_WORDS} )?tasks(?: do (?:i|we) have)?(?: (?:in|for|of) (?:the )?${PROJECT_WORDS}(?: project)?)?$`,
    "i",
  ),
  new RegExp(`^which tasks are ${STATUS_WORDS}$`, "i"),
];
const SUMMARIES = [
  /^(?:summari[sz]e|recap)(?: the| my| our| all)? projects$/i,
  /^(?:give me |show me |show )?(?:an? )?overview(?: of (?:the |my |our |all )?projects)?$/i,
  /^(?:(?:a |the )?projects? summary|summary of (?:the |my |our |all )?projects)$/i,
  /^(?:list|show)(?: me)?(?: the| my| our| all)? projects$/i,
];
const STATS = [
  /^(?:show |get |give me )?(?:me )?(?:the )?(?:task )?(?:stats|statistics)$/i,
  /^how many tasks (?:are there|do (?:i|we) have|are in the tracker)$/i,
  /^count (?:my |the |all )?tasks$/i,
];

/** The tracker scenario the tidied words ask for, a refusal, or undefined when they are not about it. */
export function matchTrackerScenario(words: string): Matched | undefined {
  const create = CREATE.exec(words);
  if (create) {
    const rest = create[1] ?? "";
    const inProject = IN_PROJECT.exec(rest);
    const unknown = inProject ? undefined : IN_UNKNOWN_PROJECT.exec(rest);
    if (unknown) {
      return {
        cannot: `there is no project "${unknown[2]}"; the projects are website, mobile and infra`,
      };
    }
    const projectId = projectOf(inProject?.[2]) ?? "website";
    const title = argumentOf(inProject ? (inProject[1] ?? "") : rest);
    if (!title.ok) return { cannot: `I cannot take the task's title: ${title.why}` };
    if (title.text.length > 120) return { cannot: "a task's title has at most 120 characters" };
    return createTask(title.text, projectId, inProject !== null);
  }
  for (const [pattern, target] of MOVES) {
    const move = pattern.exec(words);
    if (move) {
      const status = typeof target === "string" ? target : target(move[2] ?? "");
      const ids = [...new Set((move[1] ?? "").match(/\d+/g)?.map(Number) ?? [])];
      return ids.length === 1
        ? updateStatus(ids[0] as number, status)
        : updateStatuses(ids, status);
    }
  }
  for (const pattern of LISTS) {
    const list = pattern.exec(words);
    if (list) return listTasks(statusOf(list[1]), projectOf(list[2]));
  }
  if (SUMMARIES.some((pattern) => pattern.test(words))) return summarizeProjects();
  if (STATS.some((pattern) => pattern.test(words))) return stats();
  return undefined;
}
