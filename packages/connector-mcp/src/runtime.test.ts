// End to end: the durable runtime runs the model's code in QuickJS; the code calls MCP tools through
// the connector; the destructive tool pauses the run and runs exactly once after approval. As in an
// application, the client lives on and the runtime and connector are made again for each request.
import { type CodeModeOutput, createCodemodeRuntime, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalogServer } from "../test/catalog-server.ts";
import { mcpConnector } from "./index.ts";
import { IDEMPOTENCY_KEY_META } from "./mcp-connector.ts";

const { server, log } = createCatalogServer();
const client = new Client({ name: "e2e", version: "1.0.0" });
const store = memoryStore();

beforeAll(async () => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await server.close();
});

/** What an application does on each request. */
const runtime = () =>
  createCodemodeRuntime({
    store,
    executor: new QuickJSExecutor(),
    // the warehouse is the application's own server: its annotations decide approvals
    connectors: [mcpConnector({ name: "warehouse", client, trustAnnotations: true })],
  });

const CODE = `async () => {
  const item = await warehouse.get_item({ id: "7" });
  let refused;
  try {
    await warehouse.restock({ id: item.id });
  } catch (error) {
    refused = error.message;
  }
  const greeting = await warehouse.greet({ name: item.name });
  const deleted = await warehouse.delete_item({ id: item.id });
  return { item, refused, greeting, deleted };
}`;

describe("mcpConnector in the durable runtime", () => {
  it("types the tools for the model from their input and output schemas", async () => {
    const current = runtime();
    // the connector lists its tools asynchronously: the description is complete once they are known
    const described = await current.describe("warehouse.get_item");
    expect(JSON.stringify(described)).toMatch(/stock: number/);
    const { description } = current.tool();
    expect(description).toContain("warehouse");
    expect(description).toContain("A warehouse: look items up, add and delete them.");
  });

  it("pauses at the destructive tool and runs it exactly once after approve", async () => {
    const first = await runtime().execute({ code: CODE });
    expect(first.status).toBe("paused");
    const { executionId, pending } = first as Extract<CodeModeOutput, { status: "paused" }>;
    expect(pending).toEqual([
      {
        executionId,
        seq: expect.any(Number),
        connector: "warehouse",
        method: "delete_item",
        args: { id: "7" },
        digest: expect.any(String),
      },
    ]);
    expect(log.deleted).toEqual([]);
    const lookups = log.metas.length;

    const second = await runtime().approve({ executionId });
    expect(second).toEqual({
      status: "completed",
      executionId,
      result: {
        item: { id: "7", name: "Item 7", stock: 3 },
        refused: "The supplier of 7 is closed until Monday.",
        greeting: "Hello, Item 7!",
        deleted: { deleted: "7" },
      },
    });
    expect(log.deleted).toEqual(["7"]);
    // get_item was replayed from the journal, not called again; delete_item got its idempotency key
    expect(log.metas.slice(lookups)).toEqual([
      expect.objectContaining({
        [IDEMPOTENCY_KEY_META]: `${executionId}:${pending[0]?.seq}`,
      }),
    ]);

    const again = await runtime().approve({ executionId });
    expect(again.status).not.toBe("paused");
    expect(log.deleted).toEqual(["7"]);
  });
});
