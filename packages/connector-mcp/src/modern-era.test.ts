// The connector against a server of MCP 2026-07-28 only (createMcpHandler with legacy: "reject":
// server/discover, no initialize, a _meta envelope on every request, a fresh server per request),
// driven in-process through the handler's fetch as the SDK's testing guide does, and over
// loopback HTTP through @modelcontextprotocol/node.
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type CallContext, CodemodeError } from "@codemode/core";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { fromJsonSchema, type McpServer } from "@modelcontextprotocol/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { catalogHandler, INSTRUCTIONS } from "../test/catalog-server.ts";
import { IDEMPOTENCY_KEY_META, type McpConnector, mcpConnector } from "./index.ts";

/** vi.waitFor gives up after 1 s by default: an outer bound for a loaded machine instead. */
const WAIT = { timeout: 20_000 };

const context = (seq = 0, signal = new AbortController().signal): CallContext => ({
  executionId: "exec_modern",
  seq,
  idempotencyKey: `exec_modern:${seq}`,
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
  for (const close of closing.splice(0).reverse()) await close();
});

/** A URL never dialed: the handler's fetch serves every request in-process. */
const LOCAL = "http://modern.test/mcp";

function modernOnly() {
  const served = catalogHandler(undefined, { legacy: "reject" });
  closing.push(() => served.handler.close());
  const fetch = (url: string | URL | Request, init?: RequestInit) =>
    served.handler.fetch(new Request(url, init));
  return { ...served, fetch };
}

function connect(
  fetch: (url: string | URL | Request, init?: RequestInit) => Promise<Response>,
  options: Partial<Parameters<typeof mcpConnector>[0]> = {},
): McpConnector {
  const connector = mcpConnector({ name: "warehouse", url: LOCAL, http: { fetch }, ...options });
  closing.push(() => connector.close());
  return connector;
}

/** A JSON Schema with the SEP-2243 extension keyword, which the SDK's schema type does not name. */
const withMarks = <T>(schema: Record<string, unknown>) =>
  fromJsonSchema<T>(schema as Parameters<typeof fromJsonSchema>[0]);

/** A tool whose `region` argument is sent as the `Mcp-Param-Region` header (SEP-2243). */
function regional(server: McpServer) {
  server.registerTool(
    "weather",
    {
      description: "The weather in a region.",
      inputSchema: withMarks<{ region: string; day?: number }>({
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          day: { type: "integer" },
        },
        required: ["region"],
      }),
      annotations: { readOnlyHint: true },
    },
    async ({ region }, ctx) => ({
      content: [
        {
          type: "text",
          text: JSON.stringify({ region, header: ctx.http?.req?.headers.get("mcp-param-region") }),
        },
      ],
    }),
  );
  // a mark under `items` breaks SEP-2243: a client must not offer this tool
  server.registerTool(
    "broken",
    {
      description: "Marks a header where no header can come from.",
      inputSchema: withMarks({
        type: "object",
        properties: {
          regions: { type: "array", items: { type: "string", "x-mcp-header": "Regions" } },
        },
      }),
    },
    async () => ({ content: [{ type: "text", text: "called" }] }),
  );
}

describe("mcpConnector against a 2026-07-28-only server, through the handler's fetch", () => {
  it("negotiates the modern era with server/discover and takes its instructions", async () => {
    const { fetch, eras } = modernOnly();
    const connector = connect(fetch);
    const methods = await connector.methods();
    const client = await connector.client();
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getDiscoverResult()).toBeDefined();
    expect(connector.instructions).toBe(INSTRUCTIONS);
    expect(Object.keys(methods)).toContain("get_item");
    expect(methods.get_item?.outputSchema).toMatchObject({ type: "object" });
    expect(new Set(eras)).toEqual(new Set(["modern"]));
  });

  it("calls tools and unwraps their results, with the idempotency key in _meta", async () => {
    const { fetch, log } = modernOnly();
    const connector = connect(fetch);
    expect(await connector.invoke("get_item", { id: "4" }, context(3))).toEqual({
      id: "4",
      name: "Item 4",
      stock: 3,
    });
    expect(log.metas.at(-1)).toMatchObject({ [IDEMPOTENCY_KEY_META]: "exec_modern:3" });
    expect(await connector.invoke("greet", { name: "Di" }, context())).toBe("Hello, Di!");
    expect(await connector.invoke("list_items", {}, context())).toEqual([{ id: "a" }, { id: "b" }]);
    const error = await failure(connector.invoke("restock", { id: "4" }, context()));
    expect(CodemodeError.isInstance(error) && error.code).toBe("CONNECTOR_FAILED");
    expect(error.message).toBe("The supplier of 4 is closed until Monday.");
  });

  it("cancels a call when its signal aborts (the request's stream closes)", async () => {
    const { fetch, log } = modernOnly();
    const connector = connect(fetch);
    await connector.methods();
    const controller = new AbortController();
    const waiting = connector.invoke("wait", {}, context(1, controller.signal));
    const reason = new Error("pass over");
    setTimeout(() => controller.abort(reason), 50);
    await expect(waiting).rejects.toBe(reason);
    await vi.waitFor(() => expect(log.aborted).toHaveLength(1), WAIT);
  });

  it("lists again when the server publishes tools/list_changed on the listen stream", async () => {
    const { fetch, extra, handler } = modernOnly();
    const connector = connect(fetch);
    expect(Object.keys(await connector.methods())).not.toContain("ping");
    const client = await connector.client();
    expect(client.autoOpenedSubscription?.honoredFilter).toEqual({ toolsListChanged: true });
    extra.push((server) =>
      server.registerTool("ping", { annotations: { readOnlyHint: true } }, async () => ({
        content: [{ type: "text", text: "pong" }],
      })),
    );
    handler.notify.toolsChanged();
    await vi.waitFor(
      async () => expect(Object.keys(await connector.methods())).toContain("ping"),
      WAIT,
    );
    expect(await connector.invoke("ping", {}, context())).toBe("pong");
  });

  it("opens the listen stream itself on a modern client it was given", async () => {
    const { fetch, extra, handler } = modernOnly();
    const client = new Client(
      { name: "host", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(LOCAL), { fetch }));
    closing.push(() => client.close());
    expect(client.autoOpenedSubscription).toBeUndefined();
    const requests = vi.spyOn(client, "request");
    const connector = mcpConnector({ name: "warehouse", client });
    expect(Object.keys(await connector.methods())).not.toContain("pong");
    await connector.methods();
    const listings = () =>
      requests.mock.calls.filter(([request]) => request.method === "tools/list").length;
    expect(listings()).toBe(1);
    extra.push((server) =>
      server.registerTool("pong", { annotations: { readOnlyHint: true } }, async () => ({
        content: [{ type: "text", text: "ping" }],
      })),
    );
    handler.notify.toolsChanged();
    await vi.waitFor(
      async () => expect(Object.keys(await connector.methods())).toContain("pong"),
      WAIT,
    );
    expect(listings()).toBe(2);
  });

  it("declines a server's request for input: the call fails at once, saying why", async () => {
    const { fetch } = modernOnly();
    // no elicitation declared: the server refuses to ask (-32021)
    const refused = await failure(connect(fetch).invoke("confirm", {}, context()));
    expect(refused.code).toBe("CONNECTOR_FAILED");
    expect(refused.message).toMatch(
      /asked for input during the call .*mcpConnector answers none: no person or model/,
    );
    expect(refused.details).toMatchObject({ declined: "input_required" });
    // elicitation declared: the server asks (input_required), the client answers no one
    const declaring = connect(fetch, { clientOptions: { capabilities: { elicitation: {} } } });
    const declined = await failure(declaring.invoke("confirm", {}, context()));
    expect(declined.code).toBe("CONNECTOR_FAILED");
    expect(declined.message).toMatch(/answers no elicitation request: no person or model/);
  });

  it("sends x-mcp-header arguments as Mcp-Param headers and leaves out a tool whose marks are wrong", async () => {
    const { fetch, extra } = modernOnly();
    extra.push(regional);
    const connector = connect(fetch);
    const methods = await connector.methods();
    expect(Object.keys(methods)).toContain("weather");
    expect(Object.keys(methods)).not.toContain("broken");
    expect(await connector.invoke("weather", { region: "eu-west", day: 2 }, context())).toEqual({
      region: "eu-west",
      header: "eu-west",
    });
  });

  it("cannot be reached on the 2025 era: a connector pinned to it fails to connect", async () => {
    const { fetch } = modernOnly();
    const pinned = connect(fetch, { clientOptions: { versionNegotiation: { mode: "legacy" } } });
    const error = await failure(Promise.resolve(pinned.methods()));
    expect(error.code).toBe("CONNECTOR_FAILED");
    expect(error.message).toMatch(/could not connect/);
  });
});

describe("mcpConnector against a 2026-07-28-only server over loopback HTTP", () => {
  const served = catalogHandler(undefined, { legacy: "reject" });
  served.extra.push(regional);
  let http: HttpServer;
  let url: string;

  beforeAll(async () => {
    http = createServer(toNodeHandler(served.handler));
    // no idle timeout: ending a kept-alive connection as a late client reuses it fails that fetch
    http.keepAliveTimeout = 0;
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });

  afterAll(async () => {
    await served.handler.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  it("connects to the url, lists, calls with headers and hears changes", async () => {
    const connector = mcpConnector({ name: "warehouse", url });
    try {
      const methods = await connector.methods();
      expect((await connector.client()).getProtocolEra()).toBe("modern");
      expect(Object.keys(methods)).toEqual(expect.arrayContaining(["get_item", "weather"]));
      expect(Object.keys(methods)).not.toContain("broken");
      expect(connector.instructions).toBe(INSTRUCTIONS);
      expect(await connector.invoke("get_item", { id: "8" }, context(8))).toEqual({
        id: "8",
        name: "Item 8",
        stock: 3,
      });
      expect(served.log.metas.at(-1)).toMatchObject({ [IDEMPOTENCY_KEY_META]: "exec_modern:8" });
      expect(await connector.invoke("weather", { region: "us-east" }, context())).toEqual({
        region: "us-east",
        header: "us-east",
      });
      served.extra.push((server) =>
        server.registerTool("later", { annotations: { readOnlyHint: true } }, async () => ({
          content: [{ type: "text", text: "now" }],
        })),
      );
      served.handler.notify.toolsChanged();
      await vi.waitFor(
        async () => expect(Object.keys(await connector.methods())).toContain("later"),
        WAIT,
      );
      expect(await connector.invoke("later", {}, context())).toBe("now");
    } finally {
      await connector.close();
    }
  });
});
