// The page's own tools: JSON Schema for the model, and an `execute` that runs here, in the page.
// createBrowserCodeTool turns them into `codemode.<name>(input)` inside the sandbox. The schemas only
// tell the model the types; every `execute` checks its input itself, since the model's code may
// send anything.
import type { Todo, TodoList } from "./todos.ts";

/** What the tools read from the page (the DOM in the browser; plain values in tests). */
export interface PageSource {
  title(): string;
  url(): string;
  /** the page's section headings, in order */
  headings(): string[];
  /** the text the user selected last (see main.ts) */
  selection(): string;
}

export interface PageTool {
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  needsApproval?: boolean;
  execute(input: unknown): unknown;
}

const noInput = { type: "object", properties: {}, required: [], additionalProperties: false };
const idInput = {
  type: "object",
  properties: { id: { type: "integer", description: "the to-do's id, from listTodos" } },
  required: ["id"],
  additionalProperties: false,
};
const todoSchema = {
  type: "object",
  properties: {
    id: { type: "integer" },
    text: { type: "string" },
    done: { type: "boolean" },
  },
  required: ["id", "text", "done"],
};

function idOf(input: unknown): number {
  const id = (input as { id?: unknown } | null)?.id;
  if (typeof id !== "number" || !Number.isInteger(id)) {
    throw new TypeError("Pass { id } with the to-do's integer id, e.g. { id: 2 }.");
  }
  return id;
}

function textOf(input: unknown): string {
  const text = (input as { text?: unknown } | null)?.text;
  if (typeof text !== "string") {
    throw new TypeError('Pass { text } with the to-do\'s text, e.g. { text: "Buy oat milk" }.');
  }
  return text;
}

const copy = (todo: Todo): Todo => ({ ...todo });

export function createPageTools(todos: TodoList, page: PageSource): Record<string, PageTool> {
  return {
    getPageInfo: {
      description:
        "The page the user is on: its title, address, section headings and to-do counts.",
      inputSchema: noInput,
      outputSchema: {
        type: "object",
        properties: {
          title: { type: "string" },
          url: { type: "string" },
          headings: { type: "array", items: { type: "string" } },
          counts: {
            type: "object",
            properties: {
              todos: { type: "integer" },
              open: { type: "integer" },
              done: { type: "integer" },
            },
            required: ["todos", "open", "done"],
          },
        },
        required: ["title", "url", "headings", "counts"],
      },
      execute: () => {
        const list = todos.list();
        const done = list.filter((todo) => todo.done).length;
        return {
          title: page.title(),
          url: page.url(),
          headings: page.headings(),
          counts: { todos: list.length, open: list.length - done, done },
        };
      },
    },
    getSelectionText: {
      description:
        "The text the user selected on the page (the last selection, kept while they type in the chat); empty when nothing is selected.",
      inputSchema: noInput,
      outputSchema: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      },
      execute: () => ({ text: page.selection() }),
    },
    listTodos: {
      description: "Every to-do on the page's list, in order.",
      inputSchema: noInput,
      outputSchema: { type: "array", items: todoSchema },
      execute: () => todos.list(),
    },
    addTodo: {
      description: "Add a to-do to the end of the list; returns it with its new id.",
      inputSchema: {
        type: "object",
        properties: {
          text: { type: "string", description: "what to do (at most 200 characters)" },
        },
        required: ["text"],
        additionalProperties: false,
      },
      outputSchema: todoSchema,
      execute: (input) => copy(todos.add(textOf(input))),
    },
    completeTodo: {
      description: "Mark a to-do as done; returns it.",
      inputSchema: idInput,
      outputSchema: todoSchema,
      execute: (input) => copy(todos.complete(idOf(input))),
    },
    removeTodo: {
      description: "Remove a to-do from the list; returns the removed to-do.",
      inputSchema: idInput,
      outputSchema: todoSchema,
      execute: (input) => copy(todos.remove(idOf(input))),
    },
    clearTodos: {
      description: "Remove every to-do. Needs the user's approval.",
      inputSchema: noInput,
      outputSchema: {
        type: "object",
        properties: { removed: { type: "integer" } },
        required: ["removed"],
      },
      // createBrowserCodeTool leaves this tool out: the sandbox cannot pause for an approval. The
      // page offers it as a button that asks first.
      needsApproval: true,
      execute: () => ({ removed: todos.clear() }),
    },
  };
}
