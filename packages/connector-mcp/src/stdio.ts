import {
  StdioClientTransport,
  type StdioServerParameters,
} from "@modelcontextprotocol/client/stdio";
import { type McpConnector, type McpConnectorOptions, mcpConnector } from "./mcp-connector.ts";

export type { StdioServerParameters } from "@modelcontextprotocol/client/stdio";

/** What `mcpStdioConnector` takes: the connector's options and the server process to start. */
export type McpStdioConnectorOptions = Omit<
  McpConnectorOptions,
  "client" | "transport" | "url" | "http"
> &
  StdioServerParameters;

/**
 * An MCP server started as a child process and spoken to over stdio (Node only), as a connector.
 * The process starts on first use and ends with `close()`. `env` is added to a minimal default
 * environment (PATH, HOME, …), never the whole of `process.env`.
 */
export function mcpStdioConnector(options: McpStdioConnectorOptions): McpConnector {
  const { command, args, env, cwd, stderr, ...connector } = options;
  return mcpConnector({
    ...connector,
    transport: new StdioClientTransport({
      command,
      ...(args ? { args } : {}),
      ...(env ? { env } : {}),
      ...(cwd ? { cwd } : {}),
      ...(stderr !== undefined ? { stderr } : {}),
    }),
  });
}
