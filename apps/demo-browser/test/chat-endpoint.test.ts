// POST /api/chat in Node with the offline model: what it refuses, the client tool call it streams
// back (no `execute` on the Worker), and the answer once the page's output is in the messages.
import type { UIMessage, UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import type { ClientToolSchema } from "../src/client-tools.ts";
import { handleChat } from "../src/handle-chat.ts";
import { offlinePageModel } from "../src/select-model.ts";

const codemode: ClientToolSchema = {
  name: "codemode",
  description: "Run JavaScript over the page's tools.\n```ts\ndeclare const codemode: {};\n```",
  inputSchema: { type: "object", properties: { code: { type: "string" } }, required: ["code"] },
};

const user = (text: string, id = "u1"): UIMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text }],
});

function post(body: unknown): Request {
  return new Request("http://demo.test/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The UI message chunks of a streamed response (server-sent events). */
async function chunksOf(response: Response): Promise<UIMessageChunk[]> {
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice("data: ".length)) as UIMessageChunk);
}

const textOf = (chunks: UIMessageChunk[]) =>
  chunks.map((chunk) => (chunk.type === "text-delta" ? chunk.delta : "")).join("");

async function chat(messages: UIMessage[], clientTools: ClientToolSchema[] = [codemode]) {
  const response = await handleChat(post({ id: "c1", messages, clientTools }), offlinePageModel());
  expect(response.status).toBe(200);
  return chunksOf(response);
}

describe("POST /api/chat", () => {
  it("refuses a body that is not a chat request", async () => {
    const model = offlinePageModel();
    const cases: Array<[unknown, RegExp]> = [
      ["not json", /must be JSON/],
      [{ messages: [user("hi")], clientTools: {} }, /clientTools must be an array/],
      [{ messages: [user("hi")], clientTools: [{ name: "bad name!" }] }, /needs a name/],
      [{ messages: [user("hi")], clientTools: [{ ...codemode, inputSchema: 3 }] }, /inputSchema/],
      [{ messages: [user("hi")], clientTools: [codemode, codemode] }, /listed twice/],
      [{ messages: "hi" }, /^messages:/],
      [{ messages: [{ id: "x", role: "user" }] }, /^messages:/],
    ];
    for (const [body, error] of cases) {
      const response = await handleChat(post(body), model);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(error);
    }
  });

  it("streams a call of the page's codemode tool for the page to run", async () => {
    const chunks = await chat([user("add a todo Buy oat milk")]);
    const call = chunks.find((chunk) => chunk.type === "tool-input-available");
    expect(call).toMatchObject({ type: "tool-input-available", toolName: "codemode" });
    const code = (call as { input: { code: string } }).input.code;
    expect(code).toContain('await codemode.addTodo({ text: "Buy oat milk" })');
    expect(code).toContain("await codemode.listTodos({})");
    // no output: the Worker has no implementation, so the stream ends with the call
    expect(chunks.some((chunk) => chunk.type === "tool-output-available")).toBe(false);
    expect(chunks.at(-1)?.type).toBe("finish");
  });

  it("answers from the output the page added to the conversation", async () => {
    const assistant: UIMessage = {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-codemode",
          toolCallId: "call_1",
          state: "output-available",
          input: { code: "async () => ..." },
          output: {
            code: "async () => ...",
            result: { added: { id: 4, text: "Buy oat milk", done: false }, total: 4, open: 3 },
            logs: [],
          },
        },
      ],
    };
    const chunks = await chat([user("add a todo Buy oat milk"), assistant]);
    expect(chunks.some((chunk) => chunk.type === "tool-input-available")).toBe(false);
    expect(textOf(chunks)).toBe('Added to-do #4 "Buy oat milk". You have 4 to-dos now, 3 open.');
  });

  it("tells the model what failed when the page's run threw", async () => {
    const assistant: UIMessage = {
      id: "a1",
      role: "assistant",
      parts: [
        {
          type: "tool-codemode",
          toolCallId: "call_1",
          state: "output-error",
          input: { code: "async () => ..." },
          errorText: "No to-do has id 9 (ids: 1, 2, 3). Call listTodos first.",
        },
      ],
    };
    const chunks = await chat([user("complete todo 9"), assistant]);
    expect(textOf(chunks)).toBe(
      "The program failed in the page: No to-do has id 9 (ids: 1, 2, 3). Call listTodos first.",
    );
  });

  it("answers in text when the page sends no tools, and for what needs approval", async () => {
    expect(textOf(await chat([user("hello")], []))).toContain("I am the offline demo model");
    const chunks = await chat([user("clear all my todos")]);
    expect(chunks.some((chunk) => chunk.type === "tool-input-available")).toBe(false);
    expect(textOf(chunks)).toContain("left clearTodos out of the codemode tool");
  });
});
