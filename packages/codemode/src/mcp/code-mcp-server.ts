// codeMcpServer: a whole MCP server that serves nothing but a durable runtime's tools.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CodemodeToolsOptions, registerCodemodeTools } from "./register-codemode-tools.ts";

export interface CodeMcpServerOptions extends CodemodeToolsOptions {
  /** the server's name in `initialize`; default "codemode" */
  name?: string;
  version?: string;
}

/**
 * An MCP `Server` (the SDK's low-level server, the `server` of an `McpServer`; connect it to one
 * transport) that serves a durable runtime through `registerCodemodeTools`. To add Code Mode to a
 * server with tools of its own, or to serve many clients, call `registerCodemodeTools` on an
 * `McpServer` instead.
 */
export function codeMcpServer(options: CodeMcpServerOptions): Server {
  const server = new McpServer({
    name: options?.name ?? "codemode",
    version: options?.version ?? "0.0.0",
  });
  registerCodemodeTools(server, options);
  return server.server;
}
