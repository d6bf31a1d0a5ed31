export { approvalFromAnnotations } from "./approval-from-annotations.ts";
export { listAllTools, MAX_TOOLS } from "./list-all-tools.ts";
export {
  IDEMPOTENCY_KEY_META,
  type McpConnector,
  type McpConnectorOptions,
  type McpToolOptions,
  mcpConnector,
} from "./mcp-connector.ts";
export { type ToolCallAnswer, unwrapToolResult } from "./unwrap-tool-result.ts";
