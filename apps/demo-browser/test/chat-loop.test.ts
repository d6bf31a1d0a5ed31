// The chat loop in Node, with the page's pieces and the Worker's handler: the AI SDK's AbstractChat
// (page-chat.ts) sends the codemode tool's schema, the offline model calls it, onToolCall runs the
// program over the page tools (QuickJSExecutor stands in for the iframe, which needs a browser),
// adds the output, and the chat sends again for the answer. No network: the transport's fetch is
// the Worker's handler.

import { isToolUIPart, type UIMessage } from "ai";
import { createBrowserCodeTool } from "codemode/browser";
import { QuickJSExecutor } from "codemode/quickjs";
import { beforeEach, describe, expect, it } from "vitest";
import type { ClientToolsBody } from "../src/client-tools.ts";
import { handleChat } from "../src/handle-chat.ts";
import { createPageChat, type PageChat } from "../src/page/page-chat.ts";
import { createPageTools, type PageSource } from "../src/page/page-tools.ts";
import { TodoList } from "../src/page/todos.ts";
import { offlinePageModel } from "../src/select-model.ts";

const textOf = (message: UIMessage | undefined) =>
  (message?.parts ?? []).map((part) => (part.type === "text" ? part.text : "")).join("");

describe("the page's chat loop", () => {
  let todos: TodoList;
  let selected: string;
  let chat: PageChat;
  let omitted: readonly string[];
  let requests: ClientToolsBody[];

  beforeEach(() => {
    todos = new TodoList([
      "Water the plants",
      { text: "Book the train", done: true },
      "Write the release notes",
    ]);
    selected = "";
    requests = [];
    const page: PageSource = {
      title: () => "Test page",
      url: () => "http://demo.test/",
      headings: () => ["Chat", "This page"],
      selection: () => selected,
    };
    const codeTool = createBrowserCodeTool({
      tools: createPageTools(todos, page),
      executor: new QuickJSExecutor(),
    });
    omitted = codeTool.omitted;
    chat = createPageChat({
      codeTool,
      api: "http://demo.test/api/chat",
      fetch: async (input, init) => {
        const request = new Request(input, init);
        requests.push((await request.clone().json()) as ClientToolsBody);
        return handleChat(request, offlinePageModel());
      },
    });
  });

  it("runs the model's program in the page and answers from its output", async () => {
    await chat.sendMessage({ text: "add a todo Buy oat milk" });
    expect(chat.status).toBe("ready");
    expect(todos.list().map((todo) => todo.text)).toEqual([
      "Water the plants",
      "Book the train",
      "Write the release notes",
      "Buy oat milk",
    ]);
    // two requests: the question, then the conversation with the page's output
    expect(requests).toHaveLength(2);
    const [first] = requests;
    expect(first?.clientTools.map((tool) => tool.name)).toEqual(["codemode"]);
    expect(first?.clientTools[0]?.description).toContain("addTodo");
    expect(first?.clientTools[0]?.description).not.toContain("clearTodos");
    expect(omitted).toEqual(["clearTodos"]);

    const [, answer] = chat.messages;
    const call = answer?.parts.find(isToolUIPart);
    expect(call?.state).toBe("output-available");
    expect(call?.output).toMatchObject({
      result: { added: { id: 4, text: "Buy oat milk", done: false }, total: 4, open: 3 },
      logs: [],
    });
    expect(textOf(answer)).toBe('Added to-do #4 "Buy oat milk". You have 4 to-dos now, 3 open.');
  });

  it("keeps the conversation: a second turn reads the page as it is now", async () => {
    await chat.sendMessage({ text: "complete the first todo" });
    expect(todos.list()[0]).toEqual({ id: 1, text: "Water the plants", done: true });
    expect(textOf(chat.lastMessage)).toBe('Done: #1 "Water the plants". 1 open to-do left.');
    await chat.sendMessage({ text: "summarize my todos" });
    expect(chat.messages).toHaveLength(4);
    expect(textOf(chat.lastMessage)).toBe(
      "3 to-dos: 1 open, 2 done.\nOpen:\n- #3 Write the release notes\nDone:\n- #1 Water the plants\n- #2 Book the train",
    );
  });

  it("reads the selection and composes tools in one program", async () => {
    selected = "owns its tools";
    await chat.sendMessage({ text: "add my selection as a todo" });
    expect(todos.list().at(-1)?.text).toBe("owns its tools");
    expect(textOf(chat.lastMessage)).toBe(
      'Added your selection as to-do #4 "owns its tools". The list has 4 to-dos now.',
    );
  });

  it("sends a failed run back as a tool error, and the model says what failed", async () => {
    await chat.sendMessage({ text: `add a todo ${"x".repeat(250)}` });
    const call = chat.lastMessage?.parts.find(isToolUIPart);
    expect(call?.state).toBe("output-error");
    expect(call?.errorText).toContain("at most 200 characters");
    expect(textOf(chat.lastMessage)).toMatch(/^The program failed in the page: .*at most 200/);
    expect(todos.list()).toHaveLength(3);
  });
});
