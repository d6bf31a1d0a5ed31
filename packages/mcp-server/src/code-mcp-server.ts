// codeMcpServer: a whole MCP server that serves nothing but a durable runtime's tools.
import { McpServer } from "@modelcontextprotocol/server";
import { type CodemodeToolsOptions, registerCodemodeTools } from "./register-codemode-tools.ts";

export interface CodeMcpServerOptions extends CodemodeToolsOptions {
  /** the server's name (`serverInfo`); default "codemode" */
  name?: string;
  version?: string;
}

/**
 * An MCP SDK v2 `McpServer` that serves a durable runtime through `registerCodemodeTools`: return
 * it from `createMcpHandler`'s factory (a fresh one per request, over one runtime), pass a factory
 * making it to `serveStdio`, or connect it to one transport. To add Code Mode to a server with tools
 * of its own, call `registerCodemodeTools` on that `McpServer` instead.
 */
export function codeMcpServer(options: CodeMcpServerOptions): McpServer {
  const server = new McpServer({
    name: options?.name ?? "codemode",
    version: options?.version ?? "0.0.0",
  });
  registerCodemodeTools(server, options);
  return server;
}
