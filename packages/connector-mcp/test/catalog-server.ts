// Real MCP servers of the SDK (v2, `@modelcontextprotocol/server`): an McpServer with one tool for
// each shape of result and annotation the connector handles, served in-process over the in-memory
// transport (2025-11-25) or per request through createMcpHandler (2026-07-28, and 2025 stateless),
// and a paging server built on the SDK's low-level Server.

import {
  type CreateMcpHandlerOptions,
  createMcpHandler,
  inputRequired,
  McpServer,
  Server,
  type Tool,
} from "@modelcontextprotocol/server";
import { z } from "zod";

export const INSTRUCTIONS = "A warehouse: look items up, add and delete them.";

/** What the tools saw: the idempotency keys of the calls, the signals that fired. */
export interface CatalogLog {
  metas: Array<Record<string, unknown> | undefined>;
  aborted: string[];
  deleted: string[];
}

export const emptyLog = (): CatalogLog => ({ metas: [], aborted: [], deleted: [] });

export function createCatalogServer(log: CatalogLog = emptyLog()) {
  const server = new McpServer(
    { name: "warehouse", version: "1.0.0" },
    { instructions: INSTRUCTIONS },
  );
  server.registerTool(
    "get-item",
    {
      title: "Get item",
      description: "Look an item up by its id.",
      inputSchema: z.object({ id: z.string().describe("the item id") }),
      outputSchema: z.object({ id: z.string(), name: z.string(), stock: z.number().int() }),
      annotations: { readOnlyHint: true },
    },
    async ({ id }, ctx) => {
      log.metas.push(ctx.mcpReq._meta);
      const item = { id, name: `Item ${id}`, stock: 3 };
      return { structuredContent: item, content: [{ type: "text", text: JSON.stringify(item) }] };
    },
  );
  server.registerTool(
    "list_items",
    { description: "All items, as JSON text.", annotations: { readOnlyHint: true } },
    async () => ({
      content: [{ type: "text", text: JSON.stringify([{ id: "a" }, { id: "b" }]) }],
    }),
  );
  server.registerTool(
    "greet",
    {
      description: "A greeting in plain text.",
      inputSchema: z.object({ name: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ name }) => ({ content: [{ type: "text", text: `Hello, ${name}!` }] }),
  );
  server.registerTool(
    "photo",
    { description: "A caption and a picture.", annotations: { readOnlyHint: true } },
    async () => ({
      content: [
        { type: "text", text: "A red pixel" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      ],
    }),
  );
  server.registerTool(
    "restock",
    {
      description: "Order more of an item.",
      inputSchema: z.object({ id: z.string() }),
      annotations: { readOnlyHint: true },
    },
    async ({ id }) => ({
      isError: true,
      content: [{ type: "text", text: `The supplier of ${id} is closed until Monday.` }],
    }),
  );
  server.registerTool(
    "delete-item",
    {
      description: "Delete an item for good.",
      inputSchema: z.object({ id: z.string() }),
      outputSchema: z.object({ deleted: z.string() }),
      annotations: { destructiveHint: true },
    },
    async ({ id }, ctx) => {
      log.metas.push(ctx.mcpReq._meta);
      log.deleted.push(id);
      return { structuredContent: { deleted: id }, content: [] };
    },
  );
  server.registerTool(
    "add_item",
    {
      description: "Add an item.",
      inputSchema: z.object({ name: z.string() }),
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    async ({ name }) => ({ content: [{ type: "text", text: JSON.stringify({ id: name }) }] }),
  );
  server.registerTool("audit", { description: "Annotated with nothing." }, async () => ({
    content: [],
  }));
  server.registerTool(
    "wait",
    {
      description: "Waits until the call is cancelled.",
      annotations: { readOnlyHint: true },
    },
    (ctx) =>
      new Promise((resolve) => {
        ctx.mcpReq.signal.addEventListener("abort", () => {
          log.aborted.push(String(ctx.mcpReq.id));
          resolve({ content: [] });
        });
      }),
  );
  server.registerTool(
    "confirm",
    {
      description: "Asks the person to confirm before it answers.",
      annotations: { readOnlyHint: true },
    },
    async (ctx) => {
      if (ctx.mcpReq.inputResponses?.ok !== undefined) {
        return { content: [{ type: "text", text: "confirmed" }] };
      }
      return inputRequired({
        inputRequests: {
          ok: inputRequired.elicit({
            message: "Go ahead?",
            requestedSchema: { type: "object", properties: { yes: { type: "boolean" } } },
          }),
        },
      });
    },
  );
  return { server, log };
}

/**
 * The catalog served per request over HTTP (`fetch` of a web `Request`), both eras by default;
 * `legacy: "reject"` serves 2026-07-28 only. `extra` adds tools to every server it makes from then
 * on; `notify.toolsChanged()` tells the listening clients.
 */
export function catalogHandler(
  log: CatalogLog = emptyLog(),
  options: CreateMcpHandlerOptions = {},
) {
  const extra: Array<(server: McpServer) => void> = [];
  const eras: string[] = [];
  const handler = createMcpHandler(({ era }) => {
    eras.push(era);
    const { server } = createCatalogServer(log);
    for (const add of extra) add(server);
    return server;
  }, options);
  return { handler, log, extra, eras };
}

/** A low-level server that lists `count` tools `pageSize` at a time and echoes calls. */
export function createPagingServer(count: number, pageSize: number) {
  const server = new Server({ name: "pager", version: "1.0.0" }, { capabilities: { tools: {} } });
  const tools: Tool[] = Array.from({ length: count }, (_, index) => ({
    name: `tool.${index}`,
    description: `Tool number ${index}.`,
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true },
  }));
  const requests: Array<string | undefined> = [];
  server.setRequestHandler("tools/list", async (request) => {
    const cursor = request.params?.cursor;
    requests.push(cursor);
    const start = cursor === undefined ? 0 : Number(cursor);
    const next = start + pageSize;
    return {
      tools: tools.slice(start, next),
      ...(next < tools.length ? { nextCursor: String(next) } : {}),
    };
  });
  server.setRequestHandler("tools/call", async (request) => ({
    content: [{ type: "text", text: JSON.stringify({ called: request.params.name }) }],
  }));
  return { server, requests };
}
