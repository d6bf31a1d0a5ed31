// The `catalog` connector end to end in Node: the agent's OpenAPI document read by openApiConnector,
// its requests answered by the agent's own REST handler in process, under the durable runtime with
// the offline model: reads at once, a POST that pauses, its approval and its rollback (a DELETE).
import { describe, expect, it } from "vitest";
import { handleServices } from "../src/handle-services.ts";
import { SELF_ORIGIN, selfFetch } from "../src/self-fetch.ts";
import { agentInNode } from "./agent-in-node.ts";

describe("the catalog API and connector", () => {
  it("are declared from the OpenAPI document, with approvals for writes", async () => {
    const demo = agentInNode();
    await demo.runtime.ready();
    expect(demo.runtime.tool().description).toContain("- catalog: The shop's catalog");
    const { types } = (await demo.runtime.describe("catalog")) as { types: string };
    expect(types).toContain("type CreateItemInput = { body: NewCatalogItem };");
    expect(types).toContain("listItems(input?: ListItemsInput): Promise<ListItemsOutput>;");
    expect(types).toMatch(/Add an item to the catalog\. @approval/);
    expect(types).toMatch(/Remove an item from the catalog\. @approval/);
    expect(types).not.toContain("request(");
  });

  it("lists the catalog from the chat", async () => {
    const demo = agentInNode();
    const { answer, output } = await demo.say("show the catalog");
    expect(output).toMatchObject({ status: "completed" });
    expect(answer).toContain("The catalog has 4 items:");
    expect(answer).toContain("- #1 Code Mode mug (MUG-001): $12.00, 40 in stock");
  });

  it("pauses a POST, creates on approval, and deletes it on rollback", async () => {
    const demo = agentInNode();
    const { card } = await demo.say("add a catalog item Blue mug for 12.50");
    expect(card?.pending[0]?.effect?.summary).toBe('Adds "Blue mug" at $12.50 to the catalog');
    // the card carries where the call goes, as the OpenAPI connector names it, for the page to show
    expect(card?.pending[0]?.operation).toMatch(/^POST \S+/);
    const [pending] = await demo.runtime.pending();
    expect(pending).toMatchObject({
      seq: 1,
      connector: "catalog",
      method: "createItem",
      args: { body: { name: "Blue mug", price: 12.5 } },
    });
    expect(demo.catalog.list()).toHaveLength(4);

    const executionId = pending?.executionId ?? "";
    const approved = await demo.runtime.approve({ executionId });
    expect(approved).toMatchObject({
      status: "completed",
      result: { created: { id: 5, sku: "BLUE-005", name: "Blue mug", price: 12.5 } },
    });
    expect(demo.catalog.list()).toHaveLength(5);
    const run = await demo.runtime.execution(executionId);
    expect(run?.calls.map((call) => [call.seq, call.method, call.state])).toEqual([
      [0, "listItems", "applied"],
      [1, "createItem", "applied"],
    ]);

    expect(await demo.runtime.rollback({ executionId })).toMatchObject({
      reverted: [1],
      skipped: [0],
    });
    expect(demo.catalog.get(5)).toBeUndefined();
  });

  it("answers a missing item with a 404 the program can catch", async () => {
    const demo = agentInNode();
    const output = await demo.runtime.execute({
      code: "async () => { try { await catalog.getItem({ itemId: 99 }); } catch (error) { return [error.name, error.message]; } }",
    });
    expect(output).toMatchObject({ status: "completed" });
    const [name, message] = output.status === "completed" ? (output.result as string[]) : [];
    expect(name).toBe("HttpError");
    expect(message).toContain("404");
    expect(message).toContain("No catalog item has the id 99.");
  });

  it("serves the document and the API; a repeated Idempotency-Key adds nothing", async () => {
    const { stores } = agentInNode();
    const fetch = selfFetch(
      async (request) =>
        (await handleServices(request, stores)) ?? new Response(null, { status: 404 }),
    );
    const document = (await (await fetch(`${SELF_ORIGIN}/openapi.json`)).json()) as {
      openapi: string;
      servers: Array<{ url: string }>;
    };
    expect(document.openapi).toBe("3.1.0");
    expect(document.servers[0]?.url).toBe(`${SELF_ORIGIN}/api/catalog`);
    const post = () =>
      fetch(`${SELF_ORIGIN}/api/catalog/items`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": "exec_1:3" },
        body: JSON.stringify({ name: "Tote bag", price: 9 }),
      });
    const first = await post();
    const second = await post();
    expect(first.status).toBe(201);
    expect(await second.json()).toEqual(await first.json());
    expect(stores.catalog.list()).toHaveLength(5);
    const bad = await fetch(`${SELF_ORIGIN}/api/catalog/items`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "", price: -1 }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: '"name" must be a text of 1 to 120 characters.' });
    expect((await fetch(`${SELF_ORIGIN}/api/catalog/items/5`, { method: "DELETE" })).status).toBe(
      204,
    );
    expect((await fetch(`${SELF_ORIGIN}/api/catalog/items/5`)).status).toBe(404);
  });
});
