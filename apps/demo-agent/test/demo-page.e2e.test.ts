// The demo as a person uses it: `wrangler dev` with the offline model, the page in Chromium. Chat,
// a run that pauses for approval, approving it on the page, its journal, and a rollback.
// Screenshots go to test-results/ so a failure can be looked at.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, eventually, pageSession } from "@codemode/demo-kit/testing";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

describe("the demo page", () => {
  const session = pageSession({ appDir, name: "demo-page" });
  const { screenshot } = session;
  let server: DevServer;
  let page: Page;
  beforeAll(() => {
    ({ server, page } = session);
  });
  const chat = session.chat;

  it("shows the offline model and what the connectors offer", async () => {
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready]");
    await page.waitForSelector("#connection.online");
    const model = page.locator("#model");
    await eventually(() => model.textContent()).toContain("OFFLINE DEMO MODEL");
    expect(await model.getAttribute("data-provider")).toBe("offline");
    const declarations = await page.locator('[data-connector="tracker"] pre').textContent();
    expect(declarations).toContain("list_tasks");
    expect(declarations).toContain("create_task");
    expect(await page.locator("table.tasks tbody tr").count()).toBe(7);
    await screenshot("loaded");
  });

  it("chats: a message, the tool call, and an answer with the real data", async () => {
    await chat("list my tasks");
    const call = page.locator("[data-tool-call]").last();
    expect(await call.locator(".tool-code").textContent()).toContain("tracker.list_tasks({})");
    expect(await call.locator(".tool-output").textContent()).toContain('"status": "completed"');
    const answer = await page.locator('.msg[data-role="assistant"]').last().textContent();
    expect(answer).toContain("You have 7 tasks: 3 to do, 2 in progress, 2 done.");
    expect(answer).toContain("#1 Redesign the pricing page");
    await screenshot("chat-list-tasks");
  });

  it("pauses a run that creates a task, and approving it on the page creates it", async () => {
    await chat("create a task Write release notes in mobile");
    const call = page.locator("[data-tool-call]").last();
    expect(await call.locator(".tool-output").textContent()).toContain('"status": "paused"');
    expect(await page.locator('.msg[data-role="assistant"]').last().textContent()).toContain(
      "waits for your approval",
    );
    const approval = page.locator(".approval").first();
    await approval.waitFor();
    expect(await approval.locator(".approval-call").textContent()).toBe("tracker.create_task");
    expect(await approval.locator(".approval-args").textContent()).toContain(
      '"title": "Write release notes"',
    );
    expect(await page.locator("table.tasks tbody tr").count()).toBe(7);
    await screenshot("approval-pending");

    await approval.locator("button.approve").click();
    await page.waitForSelector("#approval-output:not([hidden])");
    await eventually(() => page.locator("#approval-output").textContent()).toContain(
      '"status": "completed"',
    );
    await page.waitForSelector('table.tasks td.task-title:text-is("Write release notes")');
    await page.waitForSelector('.msg[data-role="note"]:has-text("Approved")');
    await eventually(() => page.locator(".approval").count()).toBe(0);
    await screenshot("approved");
  });

  it("shows the run's journal and rolls it back", async () => {
    await page
      .locator("#executions li[data-execution]", { hasText: "create_task" })
      .first()
      .click();
    const journal = page.locator("#execution-detail table.journal");
    await journal.waitFor();
    const rows = await journal.locator("tbody tr").allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^0tracker\.list_projectsapplied/);
    expect(rows[1]).toMatch(/^1tracker\.create_taskapplied/);
    expect(rows[1]).toContain('"title": "Write release notes"');
    await screenshot("journal");

    await page.click("#execution-detail button.rollback");
    await page.waitForSelector('#execution-detail h3 [data-status="rolled_back"]');
    await page.waitForSelector('#execution-detail tr[data-seq="1"] [data-status="reverted"]');
    await eventually(() => page.locator("table.tasks tbody tr").count()).toBe(7);
    expect(
      await page.locator('table.tasks td.task-title:text-is("Write release notes")').count(),
    ).toBe(0);
    await screenshot("rolled-back");
  });

  it("runs code directly, saves it as a snippet and deletes the snippet", async () => {
    await page.fill("#run-code", "async () => (await tracker.stats({})).byStatus");
    await page.click("#run-button");
    await eventually(() => page.locator("#run-output").textContent()).toContain(
      '"status": "completed"',
    );
    expect(await page.locator("#run-output").textContent()).toContain('"todo": 3');

    await page.locator("#executions li[data-execution]", { hasText: "byStatus" }).first().click();
    await page.waitForSelector("#execution-detail .execution-code:has-text('byStatus')");
    await page.fill("#execution-detail .snippet-name", "status-counts");
    await page.click("#execution-detail button.save-snippet");
    await page.waitForSelector('#snippets li[data-snippet="status-counts"]');
    await screenshot("snippet-saved");
    await page.click('#snippets li[data-snippet="status-counts"] button.delete-snippet');
    await page.waitForSelector('#snippets li[data-snippet="status-counts"]', { state: "detached" });
  });

  it("rejects a status change on the page: nothing changes", async () => {
    await chat("mark task 2 as done");
    const approval = page.locator(".approval").first();
    await approval.waitFor();
    expect(await approval.locator(".approval-call").textContent()).toBe(
      "tracker.update_task_status",
    );
    await approval.locator("button.reject").click();
    await eventually(() => page.locator("#approval-output").textContent()).toContain(
      '"rejected": true',
    );
    await page.waitForSelector('#executions li[data-execution] [data-status="rejected"]');
    expect(await page.locator('table.tasks tr[data-task="2"] td').nth(3).textContent()).toBe(
      "todo",
    );
    await eventually(() => page.locator(".approval").count()).toBe(0);
  });

  it("keeps the chat in the agent's storage across a reload", async () => {
    await page.reload();
    await page.waitForSelector("body[data-ready]");
    await page.waitForSelector('.msg[data-role="user"]:has-text("list my tasks")');
    expect(await page.locator("[data-tool-call]").count()).toBe(3);
    await screenshot("reloaded");
  });
});
