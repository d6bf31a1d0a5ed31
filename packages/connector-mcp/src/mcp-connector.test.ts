import { type CallContext, CodemodeError } from "@codemode/core";
import { Client } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as V1InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer as V1McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { InMemoryTransport, type McpServer, type Server } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createCatalogServer, createPagingServer, INSTRUCTIONS } from "../test/catalog-server.ts";
import { IDEMPOTENCY_KEY_META, type McpConnector, mcpConnector } from "./index.ts";

/** vi.waitFor gives up after 1 s by default: an outer bound for a loaded machine instead. */
const WAIT = { timeout: 20_000 };

const context = (seq = 0, signal = new AbortController().signal): CallContext => ({
  executionId: "exec_1",
  seq,
  idempotencyKey: `exec_1:${seq}`,
  signal,
});

/** The error a promise rejects with. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error as CodemodeError,
  );

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** The server linked to a transport the connector connects itself. */
async function linked(server: McpServer | Server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  closing.push(() => server.close());
  return clientSide;
}

async function connected(server: McpServer | Server): Promise<Client> {
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(await linked(server));
  closing.push(() => client.close());
  return client;
}

async function warehouse(options: Partial<Parameters<typeof mcpConnector>[0]> = {}) {
  const { server, log } = createCatalogServer();
  const connector = mcpConnector({
    name: "warehouse",
    transport: await linked(server),
    ...options,
  });
  closing.push(() => connector.close());
  return { connector, server, log };
}

describe("mcpConnector over InMemoryTransport (MCP 2025-11-25)", () => {
  it("falls back from server/discover to initialize on a server of the 2025 era", async () => {
    const { connector } = await warehouse();
    expect((await connector.client()).getProtocolEra()).toBe("legacy");
  });

  it("lists tools as identifiers with their schemas, descriptions and keywords", async () => {
    const { connector } = await warehouse();
    const methods = await connector.methods();
    expect(Object.keys(methods)).toEqual([
      "get_item",
      "list_items",
      "greet",
      "photo",
      "restock",
      "delete_item",
      "add_item",
      "audit",
      "wait",
      "confirm",
    ]);
    expect(methods.get_item).toMatchObject({
      description: "Look an item up by its id.",
      inputSchema: {
        type: "object",
        properties: { id: { type: "string", description: "the item id" } },
        required: ["id"],
      },
      outputSchema: {
        type: "object",
        properties: { id: { type: "string" }, name: { type: "string" } },
      },
      replay: "record",
      revertible: false,
      keywords: ["get-item", "Get item"],
    });
    expect(methods.greet?.outputSchema).toBeUndefined();
    expect(methods.greet?.keywords).toBeUndefined();
  });

  it("asks for approval of every tool unless the host trusts the server's annotations", async () => {
    const approvals = async (connector: McpConnector) =>
      Object.fromEntries(
        Object.entries(await connector.methods()).map(([name, method]) => [
          name,
          method.requiresApproval === true,
        ]),
      );
    const { connector } = await warehouse();
    expect(Object.values(await approvals(connector)).every(Boolean)).toBe(true);
    const trusted = await warehouse({ trustAnnotations: true });
    expect(await approvals(trusted.connector)).toMatchObject({
      get_item: false, // readOnlyHint
      delete_item: true, // destructiveHint
      add_item: false, // destructiveHint: false
      audit: true, // no annotations: the default
    });
    const relaxed = await warehouse({
      trustAnnotations: true,
      defaultApproval: false,
      tools: {
        "get-item": { requiresApproval: true },
        "delete-item": { requiresApproval: false, replay: "reexecute" },
      },
    });
    expect(await approvals(relaxed.connector)).toMatchObject({
      get_item: true,
      delete_item: false,
      audit: false,
    });
    expect((await relaxed.connector.methods()).delete_item?.replay).toBe("reexecute");
    // untrusted, the default decides every tool but a destructive one; a tool's own setting wins
    const untrusted = await warehouse({
      defaultApproval: false,
      tools: { "get-item": { requiresApproval: true } },
    });
    expect(await approvals(untrusted.connector)).toMatchObject({
      get_item: true,
      delete_item: true,
      add_item: false,
      audit: false,
    });
    const timed = await warehouse({ timeoutMs: 5000, tools: { greet: { timeoutMs: 100 } } });
    const methods = await timed.connector.methods();
    expect([methods.greet?.timeoutMs, methods.get_item?.timeoutMs]).toEqual([100, 5000]);
  });

  it("refuses replay reexecute on a tool that needs approval", async () => {
    expect(() =>
      mcpConnector({
        name: "w",
        transport: InMemoryTransport.createLinkedPair()[0],
        tools: { x: { requiresApproval: true, replay: "reexecute" } },
      }),
    ).toThrow(/replaying would apply the approved call again/);
    const { connector } = await warehouse({ tools: { "delete-item": { replay: "reexecute" } } });
    const error = await failure(Promise.resolve(connector.methods()));
    expect(error.code).toBe("INVALID_CONFIG");
    expect(error.message).toMatch(
      /"delete-item".*needs approval \(from its annotations or defaultApproval\)/,
    );
  });

  it("unwraps structuredContent, JSON text, plain text and mixed content", async () => {
    const { connector } = await warehouse();
    expect(await connector.invoke("get_item", { id: "7" }, context())).toEqual({
      id: "7",
      name: "Item 7",
      stock: 3,
    });
    expect(await connector.invoke("list_items", {}, context())).toEqual([{ id: "a" }, { id: "b" }]);
    expect(await connector.invoke("greet", { name: "Ada" }, context())).toBe("Hello, Ada!");
    expect(await connector.invoke("photo", undefined, context())).toEqual([
      { type: "text", text: "A red pixel" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
    ]);
    expect(await connector.invoke("audit", {}, context())).toBeUndefined();
  });

  it("turns isError into a CodemodeError with the server's message", async () => {
    const { connector } = await warehouse();
    const error = await failure(connector.invoke("restock", { id: "7" }, context()));
    expect(CodemodeError.isInstance(error)).toBe(true);
    expect(error.code).toBe("CONNECTOR_FAILED");
    expect(error.message).toBe("The supplier of 7 is closed until Monday.");
    const invalid = await failure(connector.invoke("greet", { name: 5 }, context()));
    expect(invalid.code).toBe("CONNECTOR_FAILED");
    expect(invalid.message).toMatch(/name/);
    const notObject = await failure(connector.invoke("greet", "Ada", context()));
    expect(notObject.code).toBe("INVALID_INPUT");
  });

  it("names an unknown method, including one known only by its MCP name", async () => {
    const { connector } = await warehouse();
    for (const method of ["nope", "get-item", "toString"]) {
      const error = await failure(connector.invoke(method, {}, context()));
      expect(error.code).toBe("UNKNOWN_METHOD");
      expect(error.message).toContain(`"${method}"`);
    }
  });

  it("sends the idempotency key in _meta and the call's signal with the request", async () => {
    const { connector, log } = await warehouse();
    await connector.invoke("get_item", { id: "1" }, context(4));
    expect(log.metas.at(-1)).toMatchObject({ [IDEMPOTENCY_KEY_META]: "exec_1:4" });

    const controller = new AbortController();
    const waiting = connector.invoke("wait", {}, context(5, controller.signal));
    const reason = new Error("pass over");
    setTimeout(() => controller.abort(reason), 20);
    await expect(waiting).rejects.toBe(reason);
    await vi.waitFor(() => expect(log.aborted).toHaveLength(1), WAIT);
  });

  it("uses the server's instructions unless given its own", async () => {
    const { connector } = await warehouse();
    await connector.methods();
    expect(connector.instructions).toBe(INSTRUCTIONS);
    const own = await warehouse({ instructions: "Ours." });
    expect(own.connector.instructions).toBe("Ours.");
    const client = await connected(createCatalogServer().server);
    expect(mcpConnector({ name: "w", client }).instructions).toBe(INSTRUCTIONS);
  });

  it("wraps a connected client, shares its listing and never closes it", async () => {
    const { server } = createCatalogServer();
    const client = await connected(server);
    const requests = vi.spyOn(client, "request");
    const first = mcpConnector({ name: "warehouse", client });
    const second = mcpConnector({ name: "warehouse", client });
    expect(await second.methods()).toEqual(await first.methods());
    const listings = requests.mock.calls.filter(([request]) => request.method === "tools/list");
    expect(listings).toHaveLength(1);
    await first.close();
    expect(await first.invoke("greet", { name: "Bo" }, context())).toBe("Hello, Bo!");
    expect(await first.client()).toBe(client);
  });

  it("refuses a client that is not connected and a closed connector", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    const error = await failure(Promise.resolve(mcpConnector({ name: "w", client }).methods()));
    expect(error.message).toMatch(/not connected/);
    const { connector } = await warehouse();
    await connector.methods();
    await connector.close();
    expect((await failure(connector.invoke("greet", { name: "x" }, context()))).message).toMatch(
      /was closed/,
    );
  });

  it.each<[string, () => unknown, RegExp]>([
    ["no name", () => mcpConnector({ name: "" } as never), /needs a name/],
    ["no source", () => mcpConnector({ name: "w" }), /exactly one of client/],
    [
      "two sources",
      () =>
        mcpConnector({
          name: "w",
          url: "http://127.0.0.1:1/mcp",
          transport: InMemoryTransport.createLinkedPair()[0],
        }),
      /exactly one of client/,
    ],
    [
      "bad replay",
      () =>
        mcpConnector({
          name: "w",
          url: "http://127.0.0.1:1/mcp",
          tools: { x: { replay: "sometimes" as never } },
        }),
      /use "record" or "reexecute"/,
    ],
    [
      "bad timeout",
      () => mcpConnector({ name: "w", url: "http://127.0.0.1:1/mcp", timeoutMs: -1 }),
      /use a positive number/,
    ],
    [
      "a Client of SDK v1",
      () =>
        mcpConnector({
          name: "w",
          client: new V1Client({ name: "v1", version: "1.0.0" }) as unknown as Client,
        }),
      /Client of @modelcontextprotocol\/sdk \(SDK v1\).*pass an unconnected transport/,
    ],
  ])("refuses a bad configuration at once: %s", (_name, make, message) => {
    expect(make).toThrow(message);
    try {
      make();
    } catch (error) {
      expect(CodemodeError.isInstance(error) && error.code).toBe("INVALID_CONFIG");
    }
  });

  it("makes two tools that become one identifier a configuration error, fixed by a rename", async () => {
    const { server } = createCatalogServer();
    server.registerTool("get_item", { description: "Twin." }, async () => ({
      content: [{ type: "text", text: "twin" }],
    }));
    const client = await connected(server);
    const error = await failure(Promise.resolve(mcpConnector({ name: "w", client }).methods()));
    expect(error.code).toBe("INVALID_CONFIG");
    expect(error.message).toMatch(
      /"get-item" and "get_item" both become the identifier "get_item"/,
    );
    const renamed = mcpConnector({ name: "w", client, tools: { get_item: { name: "get_twin" } } });
    const methods = await renamed.methods();
    expect(methods.get_twin?.keywords).toContain("get_item");
    expect(await renamed.invoke("get_twin", {}, context())).toBe("twin");
    const filtered = mcpConnector({
      name: "w",
      client,
      filter: (tool) => tool.name !== "get_item",
    });
    expect(Object.keys(await filtered.methods())).toContain("get_item");
  });

  it("follows nextCursor across pages", async () => {
    const { server, requests } = createPagingServer(7, 3);
    const connector = mcpConnector({ name: "pager", transport: await linked(server) });
    closing.push(() => connector.close());
    const methods = await connector.methods();
    expect(Object.keys(methods)).toEqual([
      "tool_0",
      "tool_1",
      "tool_2",
      "tool_3",
      "tool_4",
      "tool_5",
      "tool_6",
    ]);
    expect(requests).toEqual([undefined, "3", "6"]);
    expect(await connector.invoke("tool_6", {}, context())).toEqual({ called: "tool.6" });
  });

  it("lists again after notifications/tools/list_changed", async () => {
    const { connector, server } = await warehouse();
    expect(Object.keys(await connector.methods())).not.toContain("count_items");
    server.registerTool(
      "count-items",
      {
        description: "How many items there are.",
        outputSchema: { count: z.number() },
        annotations: { readOnlyHint: true },
      },
      async () => ({ structuredContent: { count: 2 }, content: [] }),
    );
    await vi.waitFor(
      async () => expect(Object.keys(await connector.methods())).toContain("count_items"),
      WAIT,
    );
    expect(await connector.invoke("count_items", {}, context())).toEqual({ count: 2 });
  });

  it("connects its own client over a transport of SDK v1 to a server of SDK v1", async () => {
    const server = new V1McpServer({ name: "old", version: "1.0.0" }, { instructions: "Old." });
    server.registerTool("ping", { description: "Pong." }, async () => ({
      content: [{ type: "text", text: "pong" }],
    }));
    const [clientSide, serverSide] = V1InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    closing.push(() => server.close());
    const connector = mcpConnector({ name: "old", transport: clientSide });
    closing.push(() => connector.close());
    expect(Object.keys(await connector.methods())).toEqual(["ping"]);
    expect(await connector.invoke("ping", {}, context())).toBe("pong");
    expect(connector.instructions).toBe("Old.");
    expect((await connector.client()).getProtocolEra()).toBe("legacy");
  });

  it("fails a call whose server asks for input, at once, saying why", async () => {
    // the connector's client declares no elicitation: the server's legacy shim refuses to ask it
    const { connector } = await warehouse();
    const refused = await failure(connector.invoke("confirm", {}, context()));
    expect(refused.code).toBe("CONNECTOR_FAILED");
    expect(refused.message).toMatch(/elicitation/i);
    // a client that declares elicitation is asked; the connector's client has no one to answer
    const declaring = await warehouse({ clientOptions: { capabilities: { elicitation: {} } } });
    const declined = await failure(declaring.connector.invoke("confirm", {}, context()));
    expect(declined.code).toBe("CONNECTOR_FAILED");
    expect(declined.message).toMatch(/answers no elicitation request: no person or model/);
  });
});
