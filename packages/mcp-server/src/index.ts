// @codemode/mcp-server: a durable runtime served to MCP clients: the `codemode` tool registered onto
// any McpServer (MCP SDK v2), approvals asked of the client's user through elicitation or left to the
// host application, replies bounded; `codeMcpServer` makes an McpServer with nothing else.
export { APPROVAL_STATE_PREFIX, type ApprovalStateKey } from "./approval-state.ts";
export { TASKS_EXTENSION } from "./client-capabilities.ts";
export { type CodeMcpServerOptions, codeMcpServer } from "./code-mcp-server.ts";
export type { CodemodeTasksOptions } from "./code-tasks.ts";
export {
  type CodemodeToolsOptions,
  type McpApprovals,
  type RegisteredCodemodeTools,
  registerCodemodeTools,
} from "./register-codemode-tools.ts";
export { MAX_REPLY_LENGTH } from "./reply.ts";
