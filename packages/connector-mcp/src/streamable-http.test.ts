// The connector over Streamable HTTP on loopback, to servers of MCP 2025-11-25 only: a Node http
// server with the SDK's NodeStreamableHTTPServerTransport (one session per client), and the
// connector connecting its own client, which asks server/discover first and falls back to
// initialize. And to createMcpHandler serving both eras at one endpoint.
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { CallContext } from "@codemode/core";
import { NodeStreamableHTTPServerTransport, toNodeHandler } from "@modelcontextprotocol/node";
import type { McpServer } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type CatalogLog,
  catalogHandler,
  createCatalogServer,
  INSTRUCTIONS,
} from "../test/catalog-server.ts";
import { IDEMPOTENCY_KEY_META, mcpConnector } from "./index.ts";

/** vi.waitFor gives up after 1 s by default: an outer bound for a loaded machine instead. */
const WAIT = { timeout: 20_000 };

const context = (seq: number): CallContext => ({
  executionId: "exec_http",
  seq,
  idempotencyKey: `exec_http:${seq}`,
  signal: new AbortController().signal,
});

const log: CatalogLog = { metas: [], aborted: [], deleted: [] };
const sessions = new Map<
  string,
  { transport: NodeStreamableHTTPServerTransport; server: McpServer }
>();
let http: HttpServer;
let url: string;

beforeAll(async () => {
  http = createServer((request, response) => {
    const id = request.headers["mcp-session-id"];
    const session = typeof id === "string" ? sessions.get(id) : undefined;
    if (session) {
      void session.transport.handleRequest(request, response);
      return;
    }
    const { server } = createCatalogServer(log);
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server });
      },
    });
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  // no idle timeout: ending a kept-alive connection as a late client reuses it fails that fetch
  http.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  for (const { server } of sessions.values()) await server.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

describe("mcpConnector over Streamable HTTP to a sessionful server of MCP 2025-11-25", () => {
  it("connects to a url, lists, calls and unwraps", async () => {
    const connector = mcpConnector({ name: "warehouse", url });
    try {
      const methods = await connector.methods();
      expect((await connector.client()).getProtocolEra()).toBe("legacy");
      expect(Object.keys(methods)).toContain("get_item");
      expect(methods.delete_item?.requiresApproval).toBe(true);
      expect(connector.instructions).toBe(INSTRUCTIONS);
      expect(await connector.invoke("get_item", { id: "9" }, context(1))).toEqual({
        id: "9",
        name: "Item 9",
        stock: 3,
      });
      expect(log.metas.at(-1)).toMatchObject({ [IDEMPOTENCY_KEY_META]: "exec_http:1" });
      expect(await connector.invoke("greet", { name: "Cy" }, context(2))).toBe("Hello, Cy!");
      await expect(connector.invoke("restock", { id: "9" }, context(3))).rejects.toThrow(
        "The supplier of 9 is closed until Monday.",
      );
    } finally {
      await connector.close();
    }
  });

  it("hears tools/list_changed on the session's stream", async () => {
    const connector = mcpConnector({ name: "warehouse", url });
    try {
      const before = new Set(sessions.keys());
      await connector.methods();
      const [sessionId] = [...sessions.keys()].filter((id) => !before.has(id));
      const session = sessions.get(sessionId as string);
      session?.server.registerTool("ping", { annotations: { readOnlyHint: true } }, async () => ({
        content: [{ type: "text", text: "pong" }],
      }));
      await vi.waitFor(
        async () => expect(Object.keys(await connector.methods())).toContain("ping"),
        WAIT,
      );
      expect(await connector.invoke("ping", {}, context(1))).toBe("pong");
    } finally {
      await connector.close();
    }
  });
});

describe("mcpConnector over Streamable HTTP to createMcpHandler serving both eras", () => {
  const served = catalogHandler();
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

  it.each([
    ["auto: 2026-07-28", undefined, "modern"],
    [
      "pinned to the 2025 initialize",
      { versionNegotiation: { mode: "legacy" as const } },
      "legacy",
    ],
  ])("%s", async (_name, clientOptions, era) => {
    served.eras.length = 0;
    const connector = mcpConnector({
      name: "warehouse",
      url,
      ...(clientOptions ? { clientOptions } : {}),
    });
    try {
      expect(Object.keys(await connector.methods())).toContain("get_item");
      expect((await connector.client()).getProtocolEra()).toBe(era);
      expect(connector.instructions).toBe(INSTRUCTIONS);
      expect(await connector.invoke("greet", { name: "Ed" }, context(1))).toBe("Hello, Ed!");
      expect(new Set(served.eras)).toEqual(new Set([era]));
    } finally {
      await connector.close();
    }
  });
});
