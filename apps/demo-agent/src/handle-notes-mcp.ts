import { createMcpHandler } from "@modelcontextprotocol/server";
import { createNotesMcpServer } from "./notes-mcp-server.ts";
import type { NotesStore } from "./notes-store.ts";

/**
 * `/mcp`: the notes MCP server over Streamable HTTP, stateless, on MCP SDK v2's `createMcpHandler`:
 * the 2026-07-28 protocol and 2025-era clients alike, a fresh server for every request, answered
 * with JSON. Without sessions, a 2025-era GET (a standing event stream) or DELETE (ending a session)
 * gets 405, which MCP clients take as "not offered".
 */
export function handleNotesMcp(request: Request, store: NotesStore): Promise<Response> {
  const handler = createMcpHandler(() => createNotesMcpServer(store), { responseMode: "json" });
  return handler.fetch(request);
}
