// The scripted scenarios the offline demo model plays, keyed on the user's words: the program it
// writes for the `codemode` tool, and the short answer it gives once it has seen the tool's result.
import { matchCatalogScenario } from "./catalog-scenarios.ts";
import { matchNotesScenario } from "./notes-scenarios.ts";
import { program, type Scenario, unfinished } from "./scenario.ts";

interface TaskLike {
  id: number;
  title: string;
  status: string;
  priority?: string;
  projectId?: string;
}

const PROJECT_WORDS: Array<[RegExp, string]> = [
  [/\b(mobile|app)\b/i, "mobile"],
  [/\b(infra|infrastructure|ci)\b/i, "infra"],
  [/\b(website|site|web)\b/i, "website"],
];

export const HELP_TEXT = [
  "I am the offline demo model: I play a few scripted scenarios so the demo works without an AI provider.",
  "Try one of these:",
  '- "list my tasks": a program that reads every task',
  '- "summarize projects": a program that makes several calls and aggregates them',
  '- "create a task Write release notes in mobile": a call that needs your approval, so the run pauses',
  '- "mark task 2 as done": a status change, also approval-gated',
  '- "show stats": counts by status and project',
  '- "search the notes for release": the notes MCP server and the tracker in one program',
  '- "add a note Deploy freeze: no deploys on Fridays": an MCP tool that runs at once',
  '- "delete note 3": a destructive MCP tool, so the run pauses for your approval',
  '- "show the catalog": the catalog REST API, called through its OpenAPI document',
  '- "add a catalog item Blue mug for 12.50": a POST, so the run pauses; rolling it back deletes the item',
  "Configure Workers AI or an OpenAI-compatible endpoint to talk to a real model (see the README).",
].join("\n");

const statusWords: Record<string, string> = { todo: "to do", doing: "in progress", done: "done" };

function listTasks(): Scenario {
  return {
    name: "list-tasks",
    code: program([
      "const tasks = await tracker.list_tasks({});",
      "return tasks.map((t) => ({ id: t.id, title: t.title, status: t.status, priority: t.priority, projectId: t.projectId }));",
    ]),
    answer(output) {
      const problem = unfinished(output, "");
      if (problem || output?.status !== "completed") return problem ?? "";
      const tasks = output.result as TaskLike[];
      const counts = Object.entries(statusWords)
        .map(([status, words]) => `${tasks.filter((t) => t.status === status).length} ${words}`)
        .join(", ");
      const lines = tasks.map(
        (t) => `- #${t.id} ${t.title} (${t.status}, ${t.priority}, ${t.projectId})`,
      );
      return [`You have ${tasks.length} tasks: ${counts}.`, ...lines].join("\n");
    },
  };
}

function summarizeProjects(): Scenario {
  return {
    name: "summarize-projects",
    code: program([
      "const projects = await tracker.list_projects({});",
      "const summary = [];",
      "for (const project of projects) {",
      "  const tasks = await tracker.list_tasks({ projectId: project.id });",
      '  const done = tasks.filter((t) => t.status === "done").length;',
      "  summary.push({ project: project.name, total: tasks.length, done, open: tasks.length - done });",
      "}",
      "return summary;",
    ]),
    answer(output) {
      const problem = unfinished(output, "");
      if (problem || output?.status !== "completed") return problem ?? "";
      const rows = output.result as Array<{
        project: string;
        total: number;
        done: number;
        open: number;
      }>;
      const open = rows.reduce((sum, row) => sum + row.open, 0);
      return [
        `${rows.length} projects, ${open} open tasks in all:`,
        ...rows.map((r) => `- ${r.project}: ${r.total} tasks, ${r.done} done, ${r.open} open`),
      ].join("\n");
    },
  };
}

function stats(): Scenario {
  return {
    name: "stats",
    code: program(["return await tracker.stats({});"]),
    answer(output) {
      const problem = unfinished(output, "");
      if (problem || output?.status !== "completed") return problem ?? "";
      const result = output.result as {
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
  };
}

function createTask(title: string, projectId: string): Scenario {
  return {
    name: "create-task",
    code: program([
      "const projects = await tracker.list_projects({});",
      `const project = projects.find((p) => p.id === ${JSON.stringify(projectId)}) ?? projects[0];`,
      `return await tracker.create_task({ projectId: project.id, title: ${JSON.stringify(title)} });`,
    ]),
    answer(output) {
      const problem = unfinished(output, `I asked to create "${title}" in ${projectId}.`);
      if (problem || output?.status !== "completed") return problem ?? "";
      const task = output.result as TaskLike;
      return `Created task #${task.id} "${task.title}".`;
    },
  };
}

function updateStatus(id: number, status: string): Scenario {
  return {
    name: "update-status",
    code: program([
      `const task = await tracker.get_task({ id: ${id} });`,
      `const change = await tracker.update_task_status({ id: task.id, status: ${JSON.stringify(status)} });`,
      "return { title: task.title, ...change };",
    ]),
    answer(output) {
      const problem = unfinished(output, `I asked to move task #${id} to ${status}.`);
      if (problem || output?.status !== "completed") return problem ?? "";
      const change = output.result as { title: string; previousStatus: string; status: string };
      return `Task #${id} "${change.title}" moved from ${change.previousStatus} to ${change.status}.`;
    },
  };
}

function help(): Scenario {
  return { name: "help", answer: () => HELP_TEXT };
}

/** Splits "create a task X in mobile" into its title and project. */
function parseCreate(rest: string): { title: string; projectId: string } {
  let title = rest.trim().replace(/[.!?]+$/, "");
  let projectId = "website";
  const suffix = /\s+(?:in|for|on|to)\s+(?:the\s+)?([\w-]+)(?:\s+project)?\s*$/i.exec(title);
  if (suffix) {
    const word = suffix[1] ?? "";
    const match = PROJECT_WORDS.find(([pattern]) => pattern.test(word));
    if (match) {
      projectId = match[1];
      title = title.slice(0, suffix.index);
    }
  }
  title = title
    .replace(/^(?:called|named|titled)\s+/i, "")
    .replace(/^[:\s"'“]+|["'”.!\s]+$/g, "")
    .trim();
  return { title: title || "New task", projectId };
}

/** The scenario the user's words ask for; anything unknown gets the help text. */
export function matchScenario(text: string): Scenario {
  const words = text.trim();
  const create = /\b(?:create|add|new)\s+(?:a\s+)?(?:new\s+)?task\b[:\s]*(.*)$/is.exec(words);
  if (create) {
    const { title, projectId } = parseCreate(create[1] ?? "");
    return createTask(title, projectId);
  }
  const move = /\b(?:mark|move|set)\s+task\s+#?(\d+)\s+(?:as\s+|to\s+)?(todo|doing|done)\b/i.exec(
    words,
  );
  if (move) return updateStatus(Number(move[1]), (move[2] ?? "done").toLowerCase());
  const other = matchNotesScenario(words) ?? matchCatalogScenario(words);
  if (other) return other;
  if (/\b(summar\w*|overview)\b/i.test(words) || /\bprojects?\b/i.test(words)) {
    return summarizeProjects();
  }
  if (/\b(stats|statistics|how many|count)\b/i.test(words)) return stats();
  if (/\btasks?\b/i.test(words)) return listTasks();
  return help();
}
