// codemode/mcp: a durable runtime served to MCP clients (the `codemode` tool registered onto any
// McpServer, approvals asked of the client's user through elicitation or left to the host
// application, replies bounded), and mcpConnector, which makes an MCP server's tools a namespace.
export {
  IDEMPOTENCY_KEY_META,
  type McpConnector,
  type McpConnectorOptions,
  type McpToolOptions,
  mcpConnector,
} from "@codemode/connector-mcp";
export { APPROVAL_STATE_PREFIX, type ApprovalStateKey } from "./mcp/approval-state.ts";
export { TASKS_EXTENSION } from "./mcp/client-capabilities.ts";
export { type CodeMcpServerOptions, codeMcpServer } from "./mcp/code-mcp-server.ts";
export type { CodemodeTasksOptions } from "./mcp/code-tasks.ts";
export {
  type CodemodeToolsOptions,
  type McpApprovals,
  type RegisteredCodemodeTools,
  registerCodemodeTools,
} from "./mcp/register-codemode-tools.ts";
export { MAX_REPLY_LENGTH } from "./mcp/reply.ts";
