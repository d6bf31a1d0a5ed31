// codemode/browser in Chromium: the page's own tools through createBrowserCodeTool and the iframe
// sandbox, and the durable runtime backed by the iframe executor and memoryStore() in a page.
import { afterAll, describe, expect, it } from "vitest";
import {
  createBrowserCodeTool,
  IframeSandboxExecutor,
  type JsonSchemaExecutableToolDescriptors,
} from "./browser.ts";
import { createCodemodeRuntime, functionConnector, memoryStore } from "./index.ts";

// a limit for passes that end on their own: room for a loaded machine, none of these tests reach it
const executor = new IframeSandboxExecutor({ timeout: 20_000 });
afterAll(() => executor.dispose());

function pageTools(): { tools: JsonSchemaExecutableToolDescriptors; todos: string[] } {
  const todos: string[] = [];
  const tools: JsonSchemaExecutableToolDescriptors = {
    getPageInfo: {
      description: "Get information about the current browser page",
      inputSchema: { type: "object", properties: {}, required: [] },
      execute: async () => ({ title: document.title, url: location.href }),
    },
    addTodo: {
      description: "Add an item to the page's to-do list",
      inputSchema: {
        type: "object",
        properties: { text: { type: "string", description: "what to do" } },
        required: ["text"],
      },
      outputSchema: {
        type: "object",
        properties: { id: { type: "number" } },
        required: ["id"],
      },
      execute: async ({ text }: { text: string }) => {
        todos.push(text);
        return { id: todos.length };
      },
    },
    clearTodos: {
      description: "Remove every item",
      inputSchema: { type: "object", properties: {} },
      needsApproval: true,
      execute: async () => {
        todos.length = 0;
      },
    },
    deleteAccount: {
      description: "Delete the account",
      inputSchema: { type: "object", properties: {} },
      needsApproval: () => true,
      execute: async () => "deleted",
    },
    "get-selection": {
      description: "The selected text",
      inputSchema: { type: "object", properties: {} },
      execute: async () => ({ text: "selected words" }),
    },
  };
  return { tools, todos };
}

describe("createBrowserCodeTool", () => {
  it("describes the page's tools as TypeScript and leaves out those that need approval", () => {
    const tool = createBrowserCodeTool({ tools: pageTools().tools, executor });
    expect(tool.name).toBe("codemode");
    expect(tool.inputSchema).toMatchObject({ type: "object", required: ["code"] });
    expect(tool.description).toContain("getPageInfo");
    expect(tool.description).toMatch(/addTodo\(input: \w+\): Promise<\w+>/);
    expect(tool.description).toContain("what to do");
    expect(tool.description, "a name that is not an identifier is declared as one").toContain(
      "get_selection(",
    );
    expect(tool.description).not.toContain("clearTodos");
    expect(tool.description).not.toContain("deleteAccount");
    expect(tool.omitted).toEqual(["clearTodos", "deleteAccount"]);
  });

  it("runs the model's code against the page's tools in the iframe sandbox", async () => {
    const { tools, todos } = pageTools();
    const tool = createBrowserCodeTool({ tools, executor });
    const output = await tool.execute({
      code: `\`\`\`js
async () => {
  const page = await codemode.getPageInfo({});
  const { text } = await codemode.get_selection({});
  const ids = [];
  for (const item of ["milk", "bread"]) ids.push((await codemode.addTodo({ text: item })).id);
  console.log("added", ids.length);
  return { title: page.title, text, ids };
}
\`\`\``,
    });
    expect(output.result).toEqual({ title: document.title, text: "selected words", ids: [1, 2] });
    expect(output.logs).toEqual(["added 2"]);
    expect(output.code.startsWith("async () =>")).toBe(true);
    expect(todos).toEqual(["milk", "bread"]);
  });

  it("throws a failure with the console output, and refuses an approval-gated tool", async () => {
    const { tools, todos } = pageTools();
    const tool = createBrowserCodeTool({ tools, executor });
    await expect(
      tool.execute({
        code: "async () => { console.log('before'); await codemode.clearTodos({}); }",
      }),
    ).rejects.toThrow(/clearTodos[\s\S]*Console output:\nbefore/);
    expect(todos).toEqual([]);
    await expect(tool.execute({} as { code: string })).rejects.toMatchObject({
      code: "INVALID_CONFIG",
    });
  });

  it("makes its own IframeSandboxExecutor when none is given", async () => {
    const tool = createBrowserCodeTool({ tools: pageTools().tools });
    const output = await tool.execute({ code: "async () => (await codemode.getPageInfo({})).url" });
    expect(output.result).toBe(location.href);
  });
});

describe("the durable runtime in a page", () => {
  it("pauses for approval and resumes with the iframe executor and memoryStore()", async () => {
    const sent: string[] = [];
    const mail = functionConnector({
      name: "mail",
      methods: {
        draft: {
          inputSchema: { type: "object", properties: { to: { type: "string" } } },
          execute: async ({ to }: { to: string }) => ({ body: `Hello ${to}` }),
        },
        send: {
          inputSchema: { type: "object", properties: { body: { type: "string" } } },
          requiresApproval: true,
          execute: async ({ body }: { body: string }) => {
            sent.push(body);
            return { sent: true };
          },
        },
      },
    });
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [mail] });
    const first = await runtime.execute({
      code: `async () => {
        const { body } = await mail.draft({ to: "team" });
        const receipt = await mail.send({ body });
        return { body, receipt };
      }`,
    });
    expect(first).toMatchObject({
      status: "paused",
      pending: [{ connector: "mail", method: "send", args: { body: "Hello team" } }],
    });
    expect(sent).toEqual([]);
    const second = await runtime.approve({ executionId: first.executionId });
    expect(second).toMatchObject({
      status: "completed",
      result: { body: "Hello team", receipt: { sent: true } },
    });
    expect(sent).toEqual(["Hello team"]);
  });
});
