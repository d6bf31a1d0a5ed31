// Runs made from the demo page's side panels, in Chromium against `wrangler dev` at 1366×768: code
// run directly (its error with real line breaks), a run saved as a snippet and run again with a
// JSON input (a malformed one refused on the page, readably), a waiting run cancelled from its
// detail, and a snippet deleted after a confirm.
// Screenshots go to test-results/.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, eventually, pageSession } from "@codemode/demo-kit/testing";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { openPanel, overflowing } from "./demo-page-helpers.ts";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

const TITLES_BY_STATUS =
  'async (input) => (await tracker.list_tasks({ status: input?.status ?? "todo" })).map((t) => t.title)';

describe("runs from the demo page's panels", () => {
  const session = pageSession({ appDir, name: "demo-runs" });
  const { screenshot } = session;
  let server: DevServer;
  let page: Page;
  beforeAll(() => {
    ({ server, page } = session);
  });
  const runCount = async () =>
    ((await (await fetch(`${server.url}/api/executions?limit=100`)).json()) as unknown[]).length;
  const titles = async (status: string) => {
    const { tasks } = (await (await fetch(`${server.url}/api/tracker`)).json()) as {
      tasks: Array<{ title: string; status: string }>;
    };
    return tasks.filter((task) => task.status === status).map((task) => task.title);
  };

  it("runs code directly and shows its error with real line breaks", async () => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready]");
    await openPanel(page, "run-panel");
    await page.fill("#run-code", 'async () => { throw new Error("first line\\nsecond line"); }');
    await page.click("#run-button");
    const outcome = page.locator('#run-output .outcome[data-status="error"]');
    await outcome.waitFor();
    const error = outcome.locator(".error-text");
    const text = await error.textContent();
    expect(text).toContain("first line\nsecond line");
    expect(text).not.toContain("\\n");
    // shown as lines, not run together
    expect(await error.evaluate((element) => getComputedStyle(element).whiteSpace)).toBe(
      "pre-wrap",
    );
    // the run opens in the run detail, its error as readable
    const detail = page.locator("#run-detail");
    await eventually(() => detail.locator("h2 [data-status]").getAttribute("data-status")).toBe(
      "error",
    );
    expect(await detail.locator(".execution-error").textContent()).toContain(
      "first line\nsecond line",
    );
    expect(await detail.locator(".tl-pass").count()).toBe(1);
    expect(await overflowing(page)).toEqual([]);
    await screenshot("run-error");
  });

  it("saves a run as a snippet and runs the snippet with a JSON input, refusing a malformed one", async () => {
    await page.fill("#run-code", TITLES_BY_STATUS);
    await page.click("#run-button");
    const outcome = page.locator('#run-output .outcome[data-status="completed"]');
    await outcome.waitFor();
    expect(await outcome.locator(".j-row .j-string").allTextContents()).toEqual(
      await titles("todo"),
    );
    const detail = page.locator("#run-detail");
    await eventually(() => detail.locator("h2 [data-status]").getAttribute("data-status")).toBe(
      "completed",
    );
    await detail.locator("input.snippet-name").fill("titles-by-status");
    await detail.locator("button.save-snippet").click();
    await eventually(() => detail.locator(".run-report").textContent()).toContain(
      'Saved as the snippet "titles-by-status"',
    );

    await openPanel(page, "snippets-panel");
    const snippet = page.locator('#snippets li[data-snippet="titles-by-status"]');
    await snippet.waitFor();
    const before = await runCount();
    await snippet.locator("textarea.snippet-input").fill("{status: done}");
    await snippet.locator("button.run-snippet").click();
    const problem = snippet.locator(".input-error");
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/^The input is not valid JSON: .+/);
    expect(await snippet.locator("textarea.snippet-input").getAttribute("aria-invalid")).toBe(
      "true",
    );
    expect(await runCount()).toBe(before);
    await screenshot("snippet-input-refused");

    await snippet.locator("textarea.snippet-input").fill('{ "status": "done" }');
    await snippet.locator("button.run-snippet").click();
    const ran = snippet.locator('.snippet-output .outcome[data-status="completed"]');
    await ran.waitFor();
    const done = await titles("done");
    expect(done.length).toBeGreaterThan(0);
    expect(await ran.locator(".j-row .j-string").allTextContents()).toEqual(done);
    expect(await snippet.locator("textarea.snippet-input").getAttribute("aria-invalid")).toBeNull();
    expect(await runCount()).toBe(before + 1);
    await screenshot("snippet-ran");
  });

  it("approves a run from the queue: the timeline says the queue decided", async () => {
    await page.fill(
      "#run-code",
      'async () => (await tracker.create_task({ projectId: "mobile", title: "Pack the booth" })).id',
    );
    await page.click("#run-button");
    await page.locator('#run-output .outcome[data-status="paused"]').waitFor();
    const executionId = await page
      .locator("#run-output .outcome button.show-run")
      .getAttribute("data-execution");
    const queued = page.locator(`#approvals .approval[data-execution="${executionId}"]`);
    await queued.waitFor();
    expect(await queued.locator(".pending-call").textContent()).toContain("call 1 of the run");
    await queued.locator("button.approve").click();
    await eventually(() =>
      page.locator("#approval-output .queue-decision").getAttribute("data-status"),
    ).toBe("completed");
    const detail = page.locator("#run-detail");
    await eventually(() => detail.locator("h2 code").textContent()).toBe(executionId);
    const wait = detail.locator(".tl-wait");
    await eventually(() => wait.getAttribute("data-by")).toBe("queue");
    expect(await wait.textContent()).toContain("approved in the queue at");
    expect(await detail.locator(".tl-pass").count()).toBe(2);
    expect(await titles("todo")).toContain("Pack the booth");
    await screenshot("queue-approved");
  });

  it("cancels a waiting run from its detail, after a confirm: it ends cancelled and its call never runs", async () => {
    await page.fill(
      "#run-code",
      'async () => (await tracker.create_task({ projectId: "mobile", title: "Never packed" })).id',
    );
    await page.click("#run-button");
    await page.locator('#run-output .outcome[data-status="paused"]').waitFor();
    const executionId = await page
      .locator("#run-output .outcome button.show-run")
      .getAttribute("data-execution");
    await page.locator(`#approvals .approval[data-execution="${executionId}"]`).waitFor();
    const detail = page.locator("#run-detail");
    await eventually(() => detail.locator("h2 code").textContent()).toBe(executionId);
    const dialog = page.locator("dialog.confirm");
    // asked first: Cancel in the dialog leaves the run waiting
    await detail.locator("button.cancel-run").click();
    expect(await dialog.locator("h3").textContent()).toBe("Cancel this run?");
    expect(await dialog.locator(".confirm-body").textContent()).toContain(
      "the calls it waits for never run",
    );
    await dialog.locator("button.confirm-no").click();
    await dialog.waitFor({ state: "detached" });
    expect(await detail.locator("h2 [data-status]").getAttribute("data-status")).toBe("paused");

    await detail.locator("button.cancel-run").click();
    await dialog.locator("button.confirm-yes").click();
    await eventually(() => detail.locator("h2 [data-status]").getAttribute("data-status")).toBe(
      "cancelled",
    );
    expect(await detail.locator(".cancel-result").getAttribute("data-cancelled")).toBe("true");
    expect(await detail.locator(".execution-error").textContent()).toMatch(
      /^Cancelled by a person on the demo page at /,
    );
    // an ended run offers no Cancel; the timeline says who decided; the queue no longer has it
    expect(await detail.locator("button.cancel-run").count()).toBe(0);
    const wait = detail.locator(".tl-wait");
    await eventually(() => wait.getAttribute("data-decision")).toBe("cancelled");
    expect(await wait.textContent()).toContain("cancelled through the API at");
    await page
      .locator(`#approvals .approval[data-execution="${executionId}"]`)
      .waitFor({ state: "detached" });
    expect(await titles("todo")).not.toContain("Never packed");
    expect(await overflowing(page)).toEqual([]);
    await screenshot("run-cancelled");
  });

  it("asks before deleting a snippet", async () => {
    const snippet = page.locator('#snippets li[data-snippet="titles-by-status"]');
    const dialog = page.locator("dialog.confirm");
    await snippet.locator("button.delete-snippet").click();
    expect(await dialog.locator("h3").textContent()).toBe('Delete the snippet "titles-by-status"?');
    await dialog.locator("button.confirm-no").click();
    await dialog.waitFor({ state: "detached" });
    expect(await snippet.count()).toBe(1);

    await snippet.locator("button.delete-snippet").click();
    await dialog.locator("button.confirm-yes").click();
    await snippet.waitFor({ state: "detached" });
    const listed = (await (await fetch(`${server.url}/api/snippets`)).json()) as unknown[];
    expect(listed).toEqual([]);
  });

  it("threw no error on the page", () => {
    expect(session.pageErrors).toEqual([]);
  });
});
