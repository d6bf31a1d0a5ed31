// The offline demo model's multi-step scenarios: one program doing what would take many tool calls,
// with a loop, a filter and (for some) approval-gated writes. Each answers from the run's real
// result, and says what a rejection left.
import {
  dollars,
  type ItemLike,
  PRICE_WORDS,
  type PriceCondition,
  priceCondition,
  priceTest,
} from "./catalog-scenarios.ts";
import {
  type Matched,
  plural,
  program,
  type Scenario,
  scenario,
  type ToolOutcome,
} from "./scenario.ts";
import { PROJECT_WORDS, projectOf, type TaskLike } from "./tracker-scenarios.ts";

/** The most tasks one request creates; a program that would create more creates none. */
export const MAX_TASKS_PER_REQUEST = 10;

/** Tasks the person approved earlier in this turn: each pause after an approval is one more. */
const approvedBefore = (earlier: readonly ToolOutcome[]) =>
  earlier.filter((outcome) => outcome.status === "paused").length;

function tasksForProducts(
  condition: PriceCondition | undefined,
  projectId: string,
  named: boolean,
): Scenario {
  const which = condition ? `catalog item ${condition.words}` : "catalog item";
  const where = named ? projectId : `${projectId} (the default project)`;
  return scenario(
    "tasks-for-products",
    program([
      "const items = await catalog.listItems({});",
      `const chosen = items.filter((i) => ${priceTest(condition)});`,
      `if (chosen.length > ${MAX_TASKS_PER_REQUEST}) return { matched: chosen.length, created: [], skipped: [] };`,
      `const tasks = await tracker.list_tasks({ projectId: ${JSON.stringify(projectId)} });`,
      "const titles = new Set(tasks.map((t) => t.title));",
      "const created = [];",
      "const skipped = [];",
      "for (const item of chosen) {",
      '  const title = item.name + " (" + item.sku + ")";',
      "  if (titles.has(title)) {",
      "    skipped.push(title);",
      "    continue;",
      "  }",
      `  const task = await tracker.create_task({ projectId: ${JSON.stringify(projectId)}, title });`,
      "  created.push({ id: task.id, title: task.title, price: item.price });",
      "}",
      "return { matched: chosen.length, created, skipped };",
    ]),
    {
      asked: `create a task in ${where} for every ${which}, one after another (each creation needs your approval)`,
      gate: "creating the first task",
      writes: true,
      rejected(earlier) {
        const k = approvedBefore(earlier);
        if (k === 0) {
          return "nothing was changed: before it the program had only read the catalog and the tasks.";
        }
        return `the ${plural(k, "task")} you approved before it ${k === 1 ? "was" : "were"} created and ${k === 1 ? "stays" : "stay"} (the run's journal under Executions lists ${k === 1 ? "it" : "them"}; rolling the run back removes ${k === 1 ? "it" : "them"}).`;
      },
      completed(value) {
        const result = value as {
          matched: number;
          created: Array<{ id: number; title: string; price: number }>;
          skipped: string[];
        };
        const matched = condition
          ? `${plural(result.matched, "catalog item")} ${result.matched === 1 ? "costs" : "cost"} ${condition.words}`
          : `the catalog has ${plural(result.matched, "item")}`;
        if (result.matched > MAX_TASKS_PER_REQUEST) {
          return `I read the catalog: ${matched}. I create at most ${MAX_TASKS_PER_REQUEST} tasks in one request, so I created none; try a narrower price.`;
        }
        if (result.matched === 0) return `I read the catalog: ${matched}, so I created no task.`;
        const lines = [
          `I read the catalog: ${matched}.`,
          result.created.length === 0
            ? "I created no task."
            : `I created ${plural(result.created.length, "task")} in ${projectId}, one per item, titled with its name and SKU:`,
          ...result.created.map((t) => `- #${t.id} ${t.title} (${dollars(t.price)})`),
        ];
        if (result.skipped.length > 0) {
          lines.push(
            `Skipped ${plural(result.skipped.length, "item")} that already had a task: ${result.skipped.join(", ")}.`,
          );
        }
        return lines.join("\n");
      },
    },
  );
}

function closeOldestOpenTask(): Scenario {
  return scenario(
    "close-oldest-open-task",
    program([
      "const tasks = await tracker.list_tasks({});",
      'const open = tasks.filter((t) => t.status !== "done");',
      "const listed = open.map((t) => ({ id: t.id, title: t.title, status: t.status, createdAt: t.createdAt }));",
      "const oldest = [...open].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id)[0];",
      "if (!oldest) return { open: listed, closed: null };",
      'const change = await tracker.update_task_status({ id: oldest.id, status: "done" });',
      "return { open: listed, closed: { id: oldest.id, title: oldest.title, previousStatus: change.previousStatus } };",
    ]),
    {
      asked: "close your oldest open task (moving it to done needs your approval)",
      gate: "closing your oldest open task",
      writes: true,
      completed(value) {
        const result = value as {
          open: Array<TaskLike & { createdAt: string }>;
          closed: { id: number; title: string; previousStatus: string } | null;
        };
        if (result.open.length === 0)
          return "You have no open tasks, so there was nothing to close.";
        const closed = result.closed;
        return [
          `You had ${plural(result.open.length, "open task")} (not done):`,
          ...result.open.map(
            (t) =>
              `- #${t.id} ${t.title} (${t.status}, created ${t.createdAt.slice(0, 16).replace("T", " ")})`,
          ),
          closed
            ? `I closed the oldest, #${closed.id} "${closed.title}" (it was ${closed.previousStatus}, now done); ${plural(result.open.length - 1, "open task")} ${result.open.length - 1 === 1 ? "remains" : "remain"}.`
            : "I closed nothing.",
        ].join("\n");
      },
    },
  );
}

function noteAboutItem(cheapest: boolean): Scenario {
  const which = cheapest ? "cheapest" : "most expensive";
  const op = cheapest ? "<" : ">";
  return scenario(
    cheapest ? "note-cheapest-item" : "note-priciest-item",
    program([
      "const items = await catalog.listItems({});",
      "if (items.length === 0) return { item: null, count: 0, note: null };",
      `const pick = items.reduce((best, i) => (i.price ${op} best.price ? i : best));`,
      `const title = ${JSON.stringify(`${cheapest ? "Cheapest" : "Most expensive"} catalog item: `)} + pick.name;`,
      `const body = pick.name + " (" + pick.sku + ") is the ${which} of the " + items.length + " catalog items at $" + pick.price.toFixed(2) + ", with " + pick.stock + " in stock.";`,
      'const note = await notes.add_note({ title, body, tags: ["catalog"] });',
      "return { item: { name: pick.name, sku: pick.sku, price: pick.price }, count: items.length, note: { id: note.id, title: note.title, body: note.body } };",
    ]),
    {
      asked: `write a note about the catalog's ${which} item`,
      gate: "adding the note",
      writes: true,
      completed(value) {
        const result = value as {
          item: ItemLike | null;
          count: number;
          note: { id: number; title: string; body: string } | null;
        };
        if (!result.item || !result.note) return "The catalog is empty, so I wrote no note.";
        return [
          `I read the ${plural(result.count, "catalog item")}: the ${which} is ${result.item.name} (${result.item.sku}) at ${dollars(result.item.price)}.`,
          `I added note #${result.note.id} "${result.note.title}": ${result.note.body}`,
          "It ran at once: the notes server marks add_note as not destructive, so it needs no approval.",
        ].join("\n");
      },
    },
  );
}

interface ProjectRow {
  project: string;
  id: string;
  open: Array<{ id: number; title: string; status: string }>;
  notes: Array<{ id: number; title: string }>;
}

function projectReport(): Scenario {
  return scenario(
    "project-report",
    program([
      "const projects = await tracker.list_projects({});",
      "return await Promise.all(projects.map(async (project) => {",
      "  const [tasks, found] = await Promise.all([",
      "    tracker.list_tasks({ projectId: project.id }),",
      "    notes.search_notes({ query: project.id, limit: 5 }),",
      "  ]);",
      '  const open = tasks.filter((t) => t.status !== "done");',
      "  return {",
      "    project: project.name,",
      "    id: project.id,",
      "    open: open.map((t) => ({ id: t.id, title: t.title, status: t.status })),",
      "    notes: found.notes.map((n) => ({ id: n.id, title: n.title })),",
      "  };",
      "}));",
    ]),
    {
      completed(value) {
        const rows = value as ProjectRow[];
        return [
          `A report on ${plural(rows.length, "project")}: open tasks from the tracker, and the notes (from the notes MCP server) that mention the project's id.`,
          ...rows.map((row) => {
            const open =
              row.open.length === 0
                ? "no open task"
                : `${plural(row.open.length, "open task")}: ${row.open.map((t) => `#${t.id} ${t.title} (${t.status})`).join(", ")}`;
            const found =
              row.notes.length === 0
                ? "no note mentions it"
                : `notes: ${row.notes.map((n) => `#${n.id} ${n.title}`).join(", ")}`;
            return `- ${row.project} (${row.id}): ${open}; ${found}.`;
          }),
        ].join("\n");
      },
    },
  );
}

const TASKS_FOR_PRODUCTS = new RegExp(
  `^(?:create|add|make|open)(?: a| one)?(?: new)? tasks? for (?:every|each|all(?: of)?(?: the)?) (?:catalog )?(?:products?|items?)(?: in the catalog(?:ue)?)?(?: (?:that (?:costs?|are|is) |costing |priced )?${PRICE_WORDS})?(?: (?:in|for|to) (?:the )?${PROJECT_WORDS}(?: project)?)?$`,
  "i",
);
const CLOSE_OLDEST = [
  /^(?:list|show)(?: me)? (?:my |the |all )?(?:open|unfinished|not done) tasks,? (?:and|then|and then) (?:close|complete|finish|mark as done|mark done) the oldest(?: one| open one| task| open task)?$/i,
  /^(?:close|complete|finish) (?:my |the )?oldest (?:open |unfinished )?task$/i,
  /^mark (?:my |the )?oldest (?:open |unfinished )?task (?:as )?done$/i,
];
const ITEM = `(?:the )?(?:catalog(?:ue)?'s |catalog(?:ue)? )?(cheapest|least expensive|most expensive|priciest|dearest) (?:catalog )?(?:item|product)(?: in the catalog(?:ue)?)?`;
const NOTE_ABOUT_ITEM = [
  new RegExp(
    `^(?:add|write|create|take|make)(?: a| an)?(?: new)? note (?:summari[sz]ing|about|describing|on|with) ${ITEM}$`,
    "i",
  ),
  new RegExp(`^(?:summari[sz]e|describe) ${ITEM} in a note$`, "i"),
];
const PROJECT_REPORT = [
  /^(?:(?:give me|show me|show|make|write|build|create) )?(?:a |the )?(?:report (?:on|for|of|about) (?:each|every|all(?: the)?|the|my) projects?|project report|per[- ]project report|report per project)(?:: (?:its |their )?open tasks and (?:the )?notes (?:that|which) mention (?:it|them))?$/i,
  /^for (?:each|every) project,? (?:list|show|give me) (?:its |the )?open tasks and (?:the )?notes (?:that |which )?mention(?:ing)? it$/i,
];

/** The multi-step scenario the tidied words ask for, or undefined. */
export function matchMultiStepScenario(words: string): Matched | undefined {
  const products = TASKS_FOR_PRODUCTS.exec(words);
  if (products) {
    const projectId = projectOf(products[3]);
    return tasksForProducts(
      priceCondition(products[1], products[2]),
      projectId ?? "website",
      projectId !== undefined,
    );
  }
  if (CLOSE_OLDEST.some((pattern) => pattern.test(words))) return closeOldestOpenTask();
  for (const pattern of NOTE_ABOUT_ITEM) {
    const note = pattern.exec(words);
    if (note) return noteAboutItem(/cheapest|least/i.test(note[1] ?? ""));
  }
  if (PROJECT_REPORT.some((pattern) => pattern.test(words))) return projectReport();
  return undefined;
}
