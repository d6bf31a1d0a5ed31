// The browser demo's scripted scenarios: which words pick which program, and how the answer reads
// the page's `{ code, result, logs }` output (or the error the page sent back).
import { describe, expect, it } from "vitest";
import {
  HELP_TEXT,
  matchPageScenario,
  type PageToolOutput,
  readPageToolOutput,
} from "../src/page-scenarios.ts";

const ran = (result: unknown): PageToolOutput => ({ code: "", result, logs: [] });

describe("matchPageScenario", () => {
  it.each([
    ["what page is this?", "page-info"],
    ["Where am I?", "page-info"],
    ["what did I select?", "selection"],
    ["read my selection", "selection"],
    ["add my selection as a todo", "add-selection"],
    ["add a todo Buy oat milk", "add-todo"],
    ["Add a new to-do: call the plumber", "add-todo"],
    ["remind me to water the plants", "add-todo"],
    ["summarize my todos", "summarize-todos"],
    ["show my tasks", "summarize-todos"],
    ["complete the first todo", "complete-todo"],
    ["mark todo 3 as done", "complete-todo"],
    ["remove the done todos", "remove-done"],
    ["delete todo 2", "remove-todo"],
    ["clear all my todos", "clear-todos"],
    ["hello", "help"],
  ])("%s → %s", (text, name) => {
    expect(matchPageScenario(text).name).toBe(name);
  });

  it("writes programs that call several page tools", () => {
    const add = matchPageScenario('add a todo "Buy oat milk".').code ?? "";
    expect(add).toContain('codemode.addTodo({ text: "Buy oat milk" })');
    expect(add).toContain("codemode.listTodos({})");
    const info = matchPageScenario("what page is this").code ?? "";
    expect(info).toContain("codemode.getPageInfo({})");
    expect(info).toContain("console.log");
    expect(matchPageScenario("complete todo 3").code).toContain("todos.find((t) => t.id === 3)");
    expect(matchPageScenario("complete the last todo").code).toContain("open[open.length - 1]");
    expect(matchPageScenario("remove the done todos").code).toMatch(
      /for \(const todo of todos\.filter\(\(t\) => t\.done\)\)[\s\S]*codemode\.removeTodo/,
    );
    expect(matchPageScenario("add a todo").code).toBeUndefined();
    expect(matchPageScenario("clear all my todos").code).toBeUndefined();
  });

  it("answers from the real result", () => {
    expect(
      matchPageScenario("what page is this").answer(
        ran({
          title: "Code Mode in the browser",
          url: "http://localhost:8787/",
          headings: ["Chat", "This page"],
          open: ["Water the plants"],
        }),
      ),
    ).toBe(
      'This is "Code Mode in the browser" at http://localhost:8787/. Its sections: Chat, This page.\nIts to-do list has 1 open to-do:\n- Water the plants',
    );
    const selection = matchPageScenario("what did I select?");
    expect(selection.answer(ran({ text: " owns its tools ", words: 3, title: "T" }))).toBe(
      'You selected "owns its tools" (3 words) on "T".',
    );
    expect(selection.answer(ran({ text: "", words: 0, title: "T" }))).toMatch(
      /^Nothing is selected/,
    );
    expect(
      matchPageScenario("summarize my todos").answer(
        ran({ total: 3, open: ["#1 A", "#3 C"], done: ["#2 B"] }),
      ),
    ).toBe("3 to-dos: 2 open, 1 done.\nOpen:\n- #1 A\n- #3 C\nDone:\n- #2 B");
    expect(
      matchPageScenario("complete the first todo").answer(
        ran({ completed: { id: 1, text: "A", done: true }, open: 1 }),
      ),
    ).toBe('Done: #1 "A". 1 open to-do left.');
    expect(matchPageScenario("complete todo 7").answer(ran({ completed: null, open: 2 }))).toBe(
      "There is no to-do #7.",
    );
  });

  it("says what failed, or that there was no result", () => {
    const scenario = matchPageScenario("summarize my todos");
    expect(scenario.answer({ error: "TypeError: boom" })).toBe(
      "The program failed in the page: TypeError: boom",
    );
    expect(scenario.answer(undefined)).toBe("The page gave no result.");
    expect(matchPageScenario("hi").answer(undefined)).toBe(HELP_TEXT);
  });
});

describe("readPageToolOutput", () => {
  it("reads the page's output and its errors", () => {
    expect(
      readPageToolOutput({ type: "json", value: { code: "c", result: [1], logs: ["hi"] } }),
    ).toEqual({ code: "c", result: [1], logs: ["hi"] });
    expect(readPageToolOutput({ type: "error-text", value: "boom" })).toEqual({ error: "boom" });
    expect(readPageToolOutput({ type: "error-json", value: { a: 1 } })).toEqual({
      error: '{"a":1}',
    });
    expect(readPageToolOutput({ type: "json", value: 3 })).toEqual({
      code: "",
      result: 3,
      logs: [],
    });
  });
});
