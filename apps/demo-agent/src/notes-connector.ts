import { type McpConnector, mcpConnector } from "@codemode/connector-mcp";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createNotesMcpServer } from "./notes-mcp-server.ts";
import type { NotesStore } from "./notes-store.ts";

/**
 * The notes MCP server as the sandbox global `notes`. The same server the Worker serves to outside
 * clients at `/mcp` (Streamable HTTP), reached here over the SDK's in-memory transport: an MCP client
 * whose Streamable HTTP transport keeps I/O objects made during one sandbox pass into the next makes
 * local workerd abort ("tried to defer destruction during isolate shutdown"); plain in-memory
 * messages carry no such objects. The tools' annotations decide approvals: the reads run at once,
 * `delete_note` waits for a person.
 */
export function notesConnector(store: NotesStore): McpConnector {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  void createNotesMcpServer(store).connect(serverSide);
  return mcpConnector({
    name: "notes",
    transport: clientSide,
    clientInfo: { name: "codemode-demo-agent", version: "1.0.0" },
  });
}
