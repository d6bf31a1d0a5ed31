import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createNotesMcpServer } from "./notes-mcp-server.ts";
import type { NotesStore } from "./notes-store.ts";

/**
 * `/mcp`: the notes MCP server over Streamable HTTP, stateless. Every POST gets a fresh server and
 * transport that answer it with JSON; GET (a standing event stream) and DELETE (ending a session)
 * mean nothing without sessions, so they get 405, which MCP clients take as "not offered".
 */
export async function handleNotesMcp(request: Request, store: NotesStore): Promise<Response> {
  if (request.method !== "POST") {
    return Response.json(
      {
        jsonrpc: "2.0",
        error: { code: -32000, message: "This stateless MCP server takes POST requests only." },
        id: null,
      },
      { status: 405, headers: { allow: "POST" } },
    );
  }
  const server = createNotesMcpServer(store);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
