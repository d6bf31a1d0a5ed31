import { type McpConnector, mcpConnector } from "@codemode/connector-mcp";
import { SELF_ORIGIN, type SelfFetch } from "./self-fetch.ts";

/**
 * The notes MCP server as the sandbox global `notes`: an MCP client over Streamable HTTP to the
 * Worker's own `/mcp`, the endpoint outside clients use, whose `fetch` is `selfFetch` (the agent's
 * handler, in process). The tools' annotations decide approvals: the reads run at once,
 * `delete_note` waits for a person.
 */
export function notesConnector(fetch: SelfFetch): McpConnector {
  return mcpConnector({
    name: "notes",
    url: `${SELF_ORIGIN}/mcp`,
    http: { fetch },
    clientInfo: { name: "codemode-demo-agent", version: "1.0.0" },
    // the notes server is this Worker's own: its annotations may decide which tools need approval
    trustAnnotations: true,
  });
}
