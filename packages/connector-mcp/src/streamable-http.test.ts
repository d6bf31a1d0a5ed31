// The connector over Streamable HTTP on loopback: a Node http server with the SDK's
// StreamableHTTPServerTransport (one session per client), the connector connecting its own client.
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { CallContext } from "@codemode/core";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CatalogLog, createCatalogServer, INSTRUCTIONS } from "../test/catalog-server.ts";
import { IDEMPOTENCY_KEY_META, mcpConnector } from "./index.ts";

const context = (seq: number): CallContext => ({
  executionId: "exec_http",
  seq,
  idempotencyKey: `exec_http:${seq}`,
  signal: new AbortController().signal,
});

const log: CatalogLog = { metas: [], aborted: [], deleted: [] };
const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
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
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server });
      },
    });
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  for (const { server } of sessions.values()) await server.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

describe("mcpConnector over Streamable HTTP", () => {
  it("connects to a url, lists, calls and unwraps", async () => {
    const connector = mcpConnector({ name: "warehouse", url });
    try {
      const methods = await connector.methods();
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
      await vi.waitFor(async () =>
        expect(Object.keys(await connector.methods())).toContain("ping"),
      );
      expect(await connector.invoke("ping", {}, context(1))).toBe("pong");
    } finally {
      await connector.close();
    }
  });
});
