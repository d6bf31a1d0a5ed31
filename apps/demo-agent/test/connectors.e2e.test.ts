// The MCP and OpenAPI connectors as a person uses them: `wrangler dev` with the offline model, the
// page in Chromium. The notes MCP server the Worker serves at /mcp and its catalog REST API (described
// by /openapi.json), each through the chat, the code box and an approval on the page; the catalog's
// POST shows in the journal and rolls back. Screenshots go to test-results/.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, eventually, pageSession } from "@codemode/demo-kit/testing";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";

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
    expect(await call.locator(".tool-output").textContent()).toContain('"status": "completed"');
    const answer = await page.locator('.msg[data-role="assistant"]').last().textContent();
    expect(answer).toContain('2 notes mention "release":');
    expect(answer).toContain("note #1 Release checklist");

    await page
      .locator("#executions li[data-execution]", { hasText: "search_notes" })
      .first()
      .click();
    await page.waitForSelector("#execution-detail .execution-code:has-text('search_notes')");
    const rows = page.locator("#execution-detail table.journal tbody tr");
    await eventually(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toMatch(/^0notes\.search_notesapplied/);
    expect(await rows.nth(1).textContent()).toMatch(/^1tracker\.list_tasksapplied/);
    await screenshot("chat-search-notes");
  });

  it("runs code over the notes and the catalog, and serves /mcp to outside MCP clients", async () => {
    await page.fill(
      "#run-code",
      "async () => [(await notes.get_note({ id: 4 })).title, (await catalog.listItems({ maxPrice: 10 }))[0].name]",
    );
    await page.click("#run-button");
    await eventually(() => page.locator("#run-output").textContent()).toContain('"status"');
    const ran = await page.locator("#run-output").textContent();
    expect(ran).toContain('"Pricing page copy"');
    expect(ran).toContain('"Sticker pack"');
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    const listed = (await response.json()) as { result: { tools: Array<{ name: string }> } };
    expect(listed.result.tools.map((tool) => tool.name)).toContain("delete_note");
  });

  it("pauses a destructive MCP tool, and approving it on the page deletes the note", async () => {
    await chat("delete note 3");
    const approval = page.locator(".approval").first();
    await approval.waitFor();
    expect(await approval.locator(".approval-call").textContent()).toBe("notes.delete_note");
    expect(await approval.locator(".approval-args").textContent()).toContain('"id": 3');
    expect(await page.locator('table.notes tr[data-note="3"]').count()).toBe(1);
    await screenshot("mcp-approval-pending");

    await approval.locator("button.approve").click();
    await eventually(() => page.locator("#approval-output").textContent()).toContain(
      '"title": "On-call handbook"',
    );
    await page.waitForSelector('table.notes tr[data-note="3"]', { state: "detached" });
    await eventually(() => page.locator(".approval").count()).toBe(0);
    await screenshot("mcp-approved");
  });

  it("pauses a catalog POST from the OpenAPI connector; approved on the page, it shows in the journal", async () => {
    await chat("add a catalog item Blue mug for 12.50");
    const approval = page.locator(".approval").first();
    await approval.waitFor();
    expect(await approval.locator(".approval-call").textContent()).toBe("catalog.createItem");
    expect(await approval.locator(".approval-args").textContent()).toContain('"name": "Blue mug"');
    expect(await page.locator("table.catalog tbody tr").count()).toBe(4);
    await screenshot("openapi-approval-pending");

    await approval.locator("button.approve").click();
    await eventually(() => page.locator("#approval-output").textContent()).toContain(
      '"sku": "BLUE-005"',
    );
    await page.waitForSelector('table.catalog td.item-name:text-is("Blue mug")');

    await page.locator("#executions li[data-execution]", { hasText: "createItem" }).first().click();
    await page.waitForSelector("#execution-detail .execution-code:has-text('createItem')");
    const rows = page.locator("#execution-detail table.journal tbody tr");
    await eventually(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toMatch(/^0catalog\.listItemsapplied/);
    expect(await rows.nth(1).textContent()).toMatch(/^1catalog\.createItemapplied/);
    expect(await rows.nth(1).textContent()).toContain('"price": 12.5');
    await screenshot("openapi-journal");

    await page.click("#execution-detail button.rollback");
    await page.waitForSelector('#execution-detail tr[data-seq="1"] [data-status="reverted"]');
    await page.waitForSelector('table.catalog td.item-name:text-is("Blue mug")', {
      state: "detached",
    });
  });
});
