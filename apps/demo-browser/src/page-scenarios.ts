// The scripted scenarios the offline demo model plays in the browser demo, keyed on the user's words:
// the program it writes for the page's `codemode` tool (several page tools per program), and the
// short answer it gives from the tool's real output. That output is what the page's
// createBrowserCodeTool returned, `{ code, result, logs }`, or the error text the page sent back.
import type { LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import { program, type Scenario, type ScenarioScript } from "@codemode/demo-kit";

/** The page's `codemode` tool output as the scenarios read it. */
export type PageToolOutput = { code: string; result: unknown; logs: string[] } | { error: string };

type PageScenario = Scenario<PageToolOutput>;

interface TodoLike {
  id: number;
  text: string;
  done: boolean;
}

export const HELP_TEXT = [
  "I am the offline demo model: I play a few scripted scenarios so the demo works without an AI provider.",
  "Each one is a small program that runs in this page, in a sandboxed iframe, over the page's own tools.",
  "Try one of these:",
  '- "what page is this?": page info and the open to-dos',
  '- "add a todo Buy oat milk": adds it, then counts the list',
  '- "what did I select?": select some text on the page first',
  '- "add my selection as a todo"',
  '- "summarize my todos"',
  '- "complete the first todo" (or "complete todo 3")',
  '- "remove the done todos": a loop over the list',
  '- "clear all my todos": left out of the code tool, because it needs your approval',
  "Configure Workers AI or an OpenAI-compatible endpoint to talk to a real model (see the README).",
].join("\n");

/** The result of a run, or the sentence that says why there is none. */
function resultOf(output: PageToolOutput | undefined): { result: unknown } | { problem: string } {
  if (!output) return { problem: "The page gave no result." };
  if ("error" in output) return { problem: `The program failed in the page: ${output.error}` };
  return { result: output.result };
}

/** A scenario whose answer reads a completed run's result. */
function scenario(
  name: string,
  lines: string[],
  answer: (result: unknown) => string,
): PageScenario {
  return {
    name,
    code: program(lines),
    answer(output) {
      const read = resultOf(output);
      return "problem" in read ? read.problem : answer(read.result);
    },
  };
}

const quoted = (text: string) => `"${text}"`;
const listed = (items: string[]) => items.map((item) => `- ${item}`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function pageInfo(): PageScenario {
  return scenario(
    "page-info",
    [
      "const info = await codemode.getPageInfo({});",
      "const todos = await codemode.listTodos({});",
      "const open = todos.filter((t) => !t.done).map((t) => t.text);",
      'console.log(todos.length + " to-dos, " + open.length + " open");',
      "return { title: info.title, url: info.url, headings: info.headings, open };",
    ],
    (result) => {
      const info = result as { title: string; url: string; headings: string[]; open: string[] };
      return [
        `This is ${quoted(info.title)} at ${info.url}. Its sections: ${info.headings.join(", ")}.`,
        info.open.length === 0
          ? "Its to-do list has nothing open."
          : `Its to-do list has ${plural(info.open.length, "open to-do")}:`,
        ...listed(info.open),
      ].join("\n");
    },
  );
}

function selection(): PageScenario {
  return scenario(
    "selection",
    [
      "const { text } = await codemode.getSelectionText({});",
      "const info = await codemode.getPageInfo({});",
      "const words = text.split(/\\s+/).filter(Boolean).length;",
      "return { text, words, title: info.title };",
    ],
    (result) => {
      const { text, words, title } = result as { text: string; words: number; title: string };
      if (!text.trim()) return "Nothing is selected. Select some text on the page, then ask again.";
      return `You selected ${quoted(text.trim())} (${plural(words, "word")}) on ${quoted(title)}.`;
    },
  );
}

function addSelection(): PageScenario {
  return scenario(
    "add-selection",
    [
      "const { text } = await codemode.getSelectionText({});",
      "const wanted = text.trim().replace(/\\s+/g, ' ').slice(0, 120);",
      "if (!wanted) return { added: null };",
      "const added = await codemode.addTodo({ text: wanted });",
      "const todos = await codemode.listTodos({});",
      "return { added, total: todos.length };",
    ],
    (result) => {
      const { added, total } = result as { added: TodoLike | null; total: number };
      if (!added) return "Nothing is selected. Select some text on the page, then ask again.";
      return `Added your selection as to-do #${added.id} ${quoted(added.text)}. The list has ${plural(total, "to-do")} now.`;
    },
  );
}

function addTodo(text: string): PageScenario {
  return scenario(
    "add-todo",
    [
      `const added = await codemode.addTodo({ text: ${JSON.stringify(text)} });`,
      "const todos = await codemode.listTodos({});",
      "const open = todos.filter((t) => !t.done).length;",
      "return { added, total: todos.length, open };",
    ],
    (result) => {
      const { added, total, open } = result as { added: TodoLike; total: number; open: number };
      return `Added to-do #${added.id} ${quoted(added.text)}. You have ${plural(total, "to-do")} now, ${open} open.`;
    },
  );
}

/** Which to-do "complete …" means: the first or last open one, or an id. */
type Target = { kind: "first" | "last" } | { kind: "id"; id: number };

function completeTodo(target: Target): PageScenario {
  const pick =
    target.kind === "id"
      ? `const target = todos.find((t) => t.id === ${target.id});`
      : `const target = ${target.kind === "first" ? "open[0]" : "open[open.length - 1]"};`;
  return scenario(
    "complete-todo",
    [
      "const todos = await codemode.listTodos({});",
      "const open = todos.filter((t) => !t.done);",
      pick,
      "if (!target) return { completed: null, open: open.length };",
      "if (target.done) return { completed: null, already: target, open: open.length };",
      "const completed = await codemode.completeTodo({ id: target.id });",
      "return { completed, open: open.length - 1 };",
    ],
    (result) => {
      const { completed, already, open } = result as {
        completed: TodoLike | null;
        already?: TodoLike;
        open: number;
      };
      if (already) return `To-do #${already.id} ${quoted(already.text)} was done already.`;
      if (!completed) {
        return target.kind === "id"
          ? `There is no to-do #${target.id}.`
          : "There is no open to-do to complete.";
      }
      return `Done: #${completed.id} ${quoted(completed.text)}. ${plural(open, "open to-do")} left.`;
    },
  );
}

function removeDone(): PageScenario {
  return scenario(
    "remove-done",
    [
      "const todos = await codemode.listTodos({});",
      "const removed = [];",
      "for (const todo of todos.filter((t) => t.done)) {",
      "  await codemode.removeTodo({ id: todo.id });",
      "  removed.push(todo.text);",
      "}",
      "return { removed, left: todos.length - removed.length };",
    ],
    (result) => {
      const { removed, left } = result as { removed: string[]; left: number };
      if (removed.length === 0) return "No to-do is done yet; nothing to remove.";
      return [
        `Removed ${plural(removed.length, "done to-do")}, ${left} left:`,
        ...listed(removed),
      ].join("\n");
    },
  );
}

function removeTodo(id: number): PageScenario {
  return scenario(
    "remove-todo",
    [
      "const todos = await codemode.listTodos({});",
      `const target = todos.find((t) => t.id === ${id});`,
      "if (!target) return { removed: null };",
      "const removed = await codemode.removeTodo({ id: target.id });",
      "return { removed, left: todos.length - 1 };",
    ],
    (result) => {
      const { removed, left } = result as { removed: TodoLike | null; left: number };
      if (!removed) return `There is no to-do #${id}.`;
      return `Removed to-do #${removed.id} ${quoted(removed.text)}. ${plural(left, "to-do")} left.`;
    },
  );
}

function summarize(): PageScenario {
  return scenario(
    "summarize-todos",
    [
      "const todos = await codemode.listTodos({});",
      'const open = todos.filter((t) => !t.done).map((t) => "#" + t.id + " " + t.text);',
      'const done = todos.filter((t) => t.done).map((t) => "#" + t.id + " " + t.text);',
      "return { total: todos.length, open, done };",
    ],
    (result) => {
      const { total, open, done } = result as { total: number; open: string[]; done: string[] };
      if (total === 0) return "The to-do list is empty.";
      return [
        `${plural(total, "to-do")}: ${open.length} open, ${done.length} done.`,
        ...(open.length ? ["Open:", ...listed(open)] : []),
        ...(done.length ? ["Done:", ...listed(done)] : []),
      ].join("\n");
    },
  );
}

const clearAll: PageScenario = {
  name: "clear-todos",
  answer: () =>
    "Clearing every to-do needs your approval, so the page left clearTodos out of the codemode tool and I cannot call it. Use the Clear all button under the list; it asks you first.",
};

const help: PageScenario = { name: "help", answer: () => HELP_TEXT };

const TODO = "(?:to-?dos?|tasks?)";

/** Splits "complete the first todo" / "complete todo 3" / "mark #2 as done" into its target. */
function targetOf(words: string): Target {
  const id = /#\s*(\d+)|\b(?:to-?do|task|number|item)\s+#?(\d+)/i.exec(words);
  if (id) return { kind: "id", id: Number(id[1] ?? id[2]) };
  return /\blast\b/i.test(words) ? { kind: "last" } : { kind: "first" };
}

/** The text of a new to-do: what follows "add a todo", without quotes and a final full stop. */
const todoText = (rest: string) =>
  rest
    .trim()
    .replace(/^(?:called|named|saying|that says|to)\s+/i, "")
    .replace(/^[:\s"'“]+|["'”.!\s]+$/g, "")
    .trim();

/** The scenario the user's words ask for; anything unknown gets the help text. */
export function matchPageScenario(text: string): PageScenario {
  const words = text.trim();
  if (/\b(?:add|save|turn|make)\b.*\bselect(?:ed|ion)\b/i.test(words)) return addSelection();
  const add =
    new RegExp(
      String.raw`\b(?:add|create|new)\s+(?:a\s+)?(?:new\s+)?${TODO}\b[:\s]*(.*)$`,
      "is",
    ).exec(words) ?? /\bremind me to\s+(.*)$/is.exec(words);
  if (add) {
    const todo = todoText(add[1] ?? "");
    return todo
      ? addTodo(todo)
      : {
          name: "add-todo",
          answer: () => 'What should the to-do say? Try "add a todo Buy oat milk".',
        };
  }
  if (/\b(?:remove|delete|clean|clear)\b.*\b(?:done|completed|finished)\b/i.test(words)) {
    return removeDone();
  }
  const remove = new RegExp(
    String.raw`\b(?:remove|delete)\s+(?:the\s+)?${TODO}\s+#?(\d+)|\b(?:remove|delete)\s+#(\d+)`,
    "i",
  ).exec(words);
  if (remove) return removeTodo(Number(remove[1] ?? remove[2]));
  if (
    new RegExp(
      String.raw`\b(?:clear|delete|remove|empty)\b.*\b(?:all|every|list|${TODO})`,
      "i",
    ).test(words)
  ) {
    return clearAll;
  }
  if (/\b(?:complete|finish|check off|tick off|mark)\b|\bdone\b/i.test(words)) {
    return completeTodo(targetOf(words));
  }
  if (/\bselect(?:ed|ion)?\b|\bhighlight(?:ed)?\b/i.test(words)) return selection();
  if (
    /\b(?:what|which)\s+(?:page|site)\b|\bwhere am i\b|\bthis page\b|\bpage info\b/i.test(words)
  ) {
    return pageInfo();
  }
  if (new RegExp(String.raw`\b(?:summar\w*|overview|list|show)\b|\b${TODO}\b`, "i").test(words)) {
    return summarize();
  }
  return help;
}

/** The page's tool output from a tool-result part: `{ code, result, logs }` or an error text. */
export function readPageToolOutput(
  output: LanguageModelV3ToolResultOutput,
): PageToolOutput | undefined {
  switch (output.type) {
    case "json": {
      const value = output.value as { result?: unknown; code?: unknown; logs?: unknown } | null;
      if (value && typeof value === "object" && "result" in value) {
        return {
          code: typeof value.code === "string" ? value.code : "",
          result: value.result,
          logs: Array.isArray(value.logs) ? value.logs.map(String) : [],
        };
      }
      return { code: "", result: value, logs: [] };
    }
    case "text":
      return { code: "", result: output.value, logs: [] };
    case "error-text":
      return { error: output.value };
    case "error-json":
      return { error: JSON.stringify(output.value) };
    case "execution-denied":
      return { error: output.reason ?? "The tool call was denied." };
    default:
      return undefined;
  }
}

export const pageScenarios: ScenarioScript<PageToolOutput> = {
  match: matchPageScenario,
  readOutput: readPageToolOutput,
};
