// A real in-process MCP server (the SDK's McpServer) with one tool for each shape of result and
// annotation the connector handles, and a paging server built on the SDK's low-level Server.

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export const INSTRUCTIONS = "A warehouse: look items up, add and delete them.";

/** What the tools saw: the idempotency keys of the calls, the signals that fired. */
export interface CatalogLog {
  metas: Array<Record<string, unknown> | undefined>;
  aborted: string[];
  deleted: string[];
}

export function createCatalogServer(log: CatalogLog = { metas: [], aborted: [], deleted: [] }) {
  const server = new McpServer(
    { name: "warehouse", version: "1.0.0" },
    { instructions: INSTRUCTIONS },
  );
  server.registerTool(
    "get-item",
    {
      title: "Get item",
      description: "Look an item up by its id.",
      inputSchema: { id: z.string().describe("the item id") },
      outputSchema: { id: z.string(), name: z.string(), stock: z.number().int() },
      annotations: { readOnlyHint: true },
    },
    async ({ id }, extra) => {
      log.metas.push(extra._meta);
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
      inputSchema: { name: z.string() },
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
      inputSchema: { id: z.string() },
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
      inputSchema: { id: z.string() },
      outputSchema: { deleted: z.string() },
      annotations: { destructiveHint: true },
    },
    async ({ id }, extra) => {
      log.metas.push(extra._meta);
      log.deleted.push(id);
      return { structuredContent: { deleted: id }, content: [] };
    },
  );
  server.registerTool(
    "add_item",
    {
      description: "Add an item.",
      inputSchema: { name: z.string() },
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
    (_extra) =>
      new Promise((resolve) => {
        _extra.signal.addEventListener("abort", () => {
          log.aborted.push(String(_extra.requestId));
          resolve({ content: [] });
        });
      }),
  );
  return { server, log };
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
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const cursor = request.params?.cursor;
    requests.push(cursor);
    const start = cursor === undefined ? 0 : Number(cursor);
    const next = start + pageSize;
    return {
      tools: tools.slice(start, next),
      ...(next < tools.length ? { nextCursor: String(next) } : {}),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: "text", text: JSON.stringify({ called: request.params.name }) }],
  }));
  return { server, requests };
}
