// codemode/mcp: a durable runtime served to MCP clients (`@codemode/mcp-server`: the `codemode` tool
// registered onto any McpServer, approvals asked of the client's user through elicitation or left to
// the host application, replies bounded), and mcpConnector (`@codemode/connector-mcp`), which makes
// an MCP server's tools a namespace.
export {
  IDEMPOTENCY_KEY_META,
  type McpConnector,
  type McpConnectorOptions,
  type McpToolOptions,
  mcpConnector,
} from "@codemode/connector-mcp";
export {
  APPROVAL_STATE_PREFIX,
  type ApprovalStateKey,
  type CodeMcpServerOptions,
  type CodemodeTasksOptions,
  type CodemodeToolsOptions,
  codeMcpServer,
  MAX_REPLY_LENGTH,
  type McpApprovals,
  type RegisteredCodemodeTools,
  registerCodemodeTools,
  TASKS_EXTENSION,
} from "@codemode/mcp-server";
