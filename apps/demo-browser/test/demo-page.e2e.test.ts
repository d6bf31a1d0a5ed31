// The browser demo as a person uses it: `wrangler dev` (which builds the page bundle) with the
// offline model, the page in Chromium. The code box runs programs in the page's iframe sandbox; the
// chat's model calls the page's codemode tool, the page runs it and the list in the DOM changes.
// Screenshots go to test-results/ so a run can be looked at.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, eventually, pageSession } from "@codemode/demo-kit/testing";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

describe("the browser demo page", () => {
  const session = pageSession({ appDir, name: "demo-browser" });
  const { screenshot } = session;
  let server: DevServer;
  let page: Page;
  beforeAll(() => {
    ({ server, page } = session);
  });

  /** Sends a chat message and waits until the whole turn (call, run in the page, answer) is over. */
  const chat = async (text: string) => {
    await session.chat(text);
    return {
      answer: () => page.locator('.msg[data-role="assistant"]').last().textContent(),
      call: page.locator("[data-tool-call]").last(),
    };
  };

  const todoTexts = () => page.locator("#todos li[data-todo] .todo-text").allTextContents();

  it("shows the offline model, the tool's declarations and what was left out", async () => {
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready]");
    const model = page.locator("#model");
    await eventually(() => model.textContent()).toContain("OFFLINE DEMO MODEL");
    expect(await model.getAttribute("data-provider")).toBe("offline");
    const description = (await page.locator("#tool-description").textContent()) ?? "";
    expect(description).toContain("```ts");
    for (const name of [
      "getPageInfo",
      "getSelectionText",
      "listTodos",
      "addTodo",
      "completeTodo",
    ]) {
      expect(description).toContain(name);
    }
    expect(description).not.toContain("clearTodos");
    expect(await page.locator("#omitted").textContent()).toContain("clearTodos (needs approval)");
    expect(await todoTexts()).toEqual([
      "Water the plants",
      "Book the train to the conference",
      "Write the release notes",
    ]);
    expect(session.pageErrors).toEqual([]);
    await screenshot("loaded");
  });

  it("runs code from the code box in the iframe sandbox, over the page's tools", async () => {
    await page.click("#run-button");
    await page.waitForSelector('#run-output[data-state="ok"]');
    expect(JSON.parse((await page.locator(".run-result").textContent()) ?? "null")).toEqual([
      "Water the plants",
      "Write the release notes",
    ]);
    expect(await page.locator(".run-logs").textContent()).toBe(
      '3 to-dos on "Code Mode in the browser"',
    );
    // the runs happen in hidden sandboxed iframes: the run's is gone, at most a spare one for the
    // next run is left
    const frames = await page
      .locator("iframe")
      .evaluateAll((elements) => elements.map((element) => element.getAttribute("sandbox")));
    expect(frames.length).toBeLessThanOrEqual(1);
    for (const sandbox of frames) expect(sandbox).toBe("allow-scripts");

    await page.fill(
      "#run-code",
      'async () => (await codemode.addTodo({ text: "From the code box" })).id',
    );
    await page.click("#run-button");
    await page.waitForSelector('#run-output[data-state="ok"]');
    expect(await page.locator(".run-result").textContent()).toBe("4");
    expect(await todoTexts()).toContain("From the code box");
    await screenshot("code-box");

    await page.fill("#run-code", "async () => { await codemode.completeTodo({ id: 99 }); }");
    await page.click("#run-button");
    await page.waitForSelector('#run-output[data-state="error"]');
    expect(await page.locator(".run-error").textContent()).toContain("No to-do has id 99");
  });

  it("chats: the model's code adds a to-do, and the list on the page changes", async () => {
    const { answer, call } = await chat("add a todo Buy oat milk");
    expect(await call.getAttribute("data-state")).toBe("output-available");
    expect(await call.locator(".tool-code").textContent()).toContain(
      'codemode.addTodo({ text: "Buy oat milk" })',
    );
    expect(await answer()).toBe('Added to-do #5 "Buy oat milk". You have 5 to-dos now, 4 open.');
    expect(await todoTexts()).toEqual([
      "Water the plants",
      "Book the train to the conference",
      "Write the release notes",
      "From the code box",
      "Buy oat milk",
    ]);
    expect(await page.locator('.msg[data-role="user"]').last().textContent()).toBe(
      "add a todo Buy oat milk",
    );
    await screenshot("chat-add-todo");
  });

  it("chats: what page is this", async () => {
    const { answer, call } = await chat("what page is this?");
    expect(await call.locator(".tool-logs").textContent()).toBe("5 to-dos, 4 open");
    const text = await answer();
    expect(text).toContain(`This is "Code Mode in the browser" at ${server.url}/.`);
    expect(text).toContain("Its sections: Chat, This page, To-do list, Run code");
    expect(text).toContain("Its to-do list has 4 open to-dos:");
    await screenshot("chat-page-info");
  });

  it("reads the text selected on the page, and adds it as a to-do", async () => {
    await page.evaluate(() => {
      const about = document.getElementById("about");
      const node = about?.firstChild;
      if (!node?.textContent) throw new Error("no text in #about");
      const start = node.textContent.indexOf("owns its tools");
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, start + "owns its tools".length);
      document.getSelection()?.removeAllRanges();
      document.getSelection()?.addRange(range);
    });
    await eventually(() => page.locator("#selection").textContent()).toBe("owns its tools");
    // typing into the chat moves the selection into the input; the page keeps the last one
    const selection = await chat("what did I select?");
    expect(await selection.answer()).toBe(
      'You selected "owns its tools" (3 words) on "Code Mode in the browser".',
    );
    const added = await chat("add my selection as a todo");
    expect(await added.answer()).toBe(
      'Added your selection as to-do #6 "owns its tools". The list has 6 to-dos now.',
    );
    expect((await todoTexts()).at(-1)).toBe("owns its tools");
    await screenshot("chat-selection");
  });

  it("completes the first open to-do and summarizes the list", async () => {
    const { answer } = await chat("complete the first todo");
    expect(await answer()).toBe('Done: #1 "Water the plants". 4 open to-dos left.');
    await page.waitForSelector('#todos li[data-todo="1"][data-done]');
    const summary = await chat("summarize my todos");
    expect(await summary.answer()).toContain("6 to-dos: 4 open, 2 done.");
    await screenshot("chat-summary");
  });

  it("keeps clearTodos out of the model's reach; the page's button asks first", async () => {
    const { answer } = await chat("clear all my todos");
    expect(await answer()).toContain("left clearTodos out of the codemode tool");
    expect(await page.locator("#todos li[data-todo]").count()).toBe(6);
    page.once("dialog", (dialog) => void dialog.accept());
    await page.click("#todo-clear");
    await page.waitForSelector('#todos[data-count="0"]');
    expect(session.pageErrors).toEqual([]);
    await screenshot("cleared");
  });
});
