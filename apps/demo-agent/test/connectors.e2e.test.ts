// The MCP and OpenAPI connectors as a person uses them: `wrangler dev` with the offline model, the
// page in Chromium. The notes MCP server the Worker serves at /mcp and its catalog REST API (described
// by /openapi.json), each through the chat, the code box and an approval from the page's queue (the
// chat's card shows the answer); the catalog's POST shows in the journal and rolls back after its
// preview. Screenshots go to test-results/.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, eventually, pageSession } from "@codemode/demo-kit/testing";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { andTheTurn, jsonField, openPanel } from "./demo-page-helpers.ts";
import { mcpResult } from "./mcp-result.ts";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

describe("the MCP and OpenAPI connectors on the demo page", () => {
  const session = pageSession({ appDir, name: "connectors" });
  const { screenshot } = session;
  let server: DevServer;
  let page: Page;
  beforeAll(() => {
    ({ server, page } = session);
  });
  const chat = session.chat;

  it("shows the notes and catalog declarations and data", async () => {
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready]");
    await page.waitForSelector("#connection.online");
    await openPanel(page, "connectors-panel");
    await page.locator('[data-connector="notes"] > summary').click();
    const notes = page.locator('[data-connector="notes"] pre');
    await notes.waitFor();
    expect(await notes.textContent()).toContain(
      "search_notes(input: SearchNotesInput): Promise<SearchNotesOutput>;",
    );
    expect(await notes.textContent()).toMatch(/Delete a note for good\.[^\n]*@approval/);
    const catalog = await page.locator('[data-connector="catalog"] pre').textContent();
    expect(catalog).toContain("createItem(input: CreateItemInput): Promise<CreateItemOutput>;");
    expect(catalog).toMatch(/Add an item to the catalog\. @approval/);
    expect(await page.locator("table.notes tbody tr").count()).toBe(5);
    expect(await page.locator("table.catalog tbody tr").count()).toBe(4);
    await screenshot("loaded");
  });

  it("searches the notes through the MCP connector from the chat", async () => {
    await chat("search the notes for release");
    const call = page.locator("[data-tool-call]").last();
    expect(await call.locator(".tool-code").textContent()).toContain(
      'await notes.search_notes({ query: "release" })',
    );
    expect(await call.getAttribute("data-state")).toBe("completed");
    const answer = await page.locator('.msg[data-role="assistant"]').last().textContent();
    expect(answer).toContain('2 notes mention "release":');
    expect(answer).toContain("note #1 Release checklist");

    const run = page.locator("#executions li[data-execution]", { hasText: "search_notes" }).first();
    await run.click();
    await eventually(() => page.locator("#run-detail h2 code").textContent()).toBe(
      await run.getAttribute("data-execution"),
    );
    const rows = page.locator("#run-detail table.journal tbody tr");
    await eventually(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toMatch(/^1notes\.search_notesapplied/);
    expect(await rows.nth(1).textContent()).toMatch(/^2tracker\.list_tasksapplied/);
    await screenshot("chat-search-notes");
  });

  it("runs code over the notes and the catalog, and serves /mcp to outside MCP clients", async () => {
    await openPanel(page, "run-panel");
    await page.fill(
      "#run-code",
      "async () => [(await notes.get_note({ id: 4 })).title, (await catalog.listItems({ maxPrice: 10 }))[0].name]",
    );
    await page.click("#run-button");
    const outcome = page.locator('#run-output .outcome[data-status="completed"]');
    await outcome.waitFor();
    expect(await outcome.locator(".j-row .j-string").allTextContents()).toEqual([
      "Pricing page copy",
      "Sticker pack",
    ]);
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    const listed = await mcpResult<{ tools: Array<{ name: string }> }>(response);
    expect(listed.tools.map((tool) => tool.name)).toContain("delete_note");
  });

  it("pauses a destructive MCP tool, and approving it in the queue deletes the note", async () => {
    await chat("delete note 3");
    const approval = page.locator("#approvals .approval").first();
    await approval.waitFor();
    expect(await approval.locator(".approval-call").textContent()).toBe("notes.delete_note");
    expect(await jsonField(approval.locator(".approval-args"), "id")).toBe("3");
    const card = page.locator("#chat-log .approval-card").last();
    expect(await card.locator(".effect-summary").textContent()).toContain(
      'Deletes note #3 "On-call handbook"',
    );
    expect(await page.locator('table.notes tr[data-note="3"]').count()).toBe(1);
    await screenshot("mcp-approval-pending");

    // the queue answers the chat's card, and the chat goes on
    await andTheTurn(page, () => approval.locator("button.approve").click());
    await eventually(() => card.getAttribute("data-answered")).toBe("approved");
    expect(await card.locator(".card-answer").textContent()).toContain("Approved in the queue");
    await eventually(() => page.locator("#approval-output").textContent()).toContain(
      "Approved: run",
    );
    await page.waitForSelector('table.notes tr[data-note="3"]', { state: "detached" });
    await eventually(() => page.locator("#approvals .approval").count()).toBe(0);
    await screenshot("mcp-approved");

    // a rollback's preview says the delete cannot be undone, and why
    await page.locator("#chat-log .approval-card button.show-run").last().click();
    await page.click("#run-detail button.rollback");
    const dialog = page.locator("dialog.confirm");
    const kept = dialog.locator('[data-action="cannot_revert"] li', {
      hasText: "notes.delete_note",
    });
    await kept.waitFor();
    expect(await kept.locator(".preview-reason").textContent()).toMatch(/^Why: \S/);
    expect(await dialog.locator('[data-action="revert"]').count()).toBe(0);
    await screenshot("mcp-rollback-preview");
    await dialog.locator("button.confirm-no").click();
    await dialog.waitFor({ state: "detached" });
  });

  it("pauses a catalog POST from the OpenAPI connector; approved in the chat, it shows in the journal", async () => {
    await chat("add a catalog item Blue mug for 12.50");
    const card = page.locator("#chat-log .approval-card").last();
    await card.waitFor();
    expect(await card.locator(".approval-call").textContent()).toBe("catalog.createItem");
    // where the call goes, as the OpenAPI connector names the operation: the card shows it
    expect(await card.locator(".call-operation").textContent()).toMatch(
      /^sends (GET|POST|PUT|PATCH|DELETE) \S+/,
    );
    expect(await jsonField(card.locator(".approval-args"), "name")).toBe("Blue mug");
    expect(await page.locator("table.catalog tbody tr").count()).toBe(4);
    await screenshot("openapi-approval-pending");

    await andTheTurn(page, () => card.locator("button.card-approve").click());
    const continued = page.locator("[data-continues]").last();
    expect(await jsonField(continued.locator(".tool-output"), "sku")).toBe("BLUE-005");
    await openPanel(page, "catalog-panel");
    await page.waitForSelector('table.catalog td.item-name:text-is("Blue mug")');

    const run = page.locator("#executions li[data-execution]", { hasText: "createItem" }).first();
    await run.click();
    await eventually(() => page.locator("#run-detail h2 code").textContent()).toBe(
      await run.getAttribute("data-execution"),
    );
    const rows = page.locator("#run-detail table.journal tbody tr");
    await eventually(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toMatch(/^1catalog\.listItemsapplied/);
    expect(await rows.nth(1).textContent()).toMatch(/^2catalog\.createItemapplied/);
    expect(await jsonField(rows.nth(1).locator(".journal-args"), "price")).toBe("12.5");
    await screenshot("openapi-journal");

    await page.click("#run-detail button.rollback");
    await page.locator('dialog.confirm [data-action="revert"] li[data-seq="1"]').waitFor();
    await page.click("dialog.confirm button.confirm-yes");
    await page.waitForSelector(
      '#run-detail .rollback-result li[data-seq="1"][data-outcome="reverted"]',
    );
    await eventually(() =>
      page.locator('#run-detail tr[data-seq="1"] [data-status]').getAttribute("data-status"),
    ).toBe("reverted");
    await page.waitForSelector('table.catalog td.item-name:text-is("Blue mug")', {
      state: "detached",
    });
  });
});
