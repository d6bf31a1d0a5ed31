export {
  type ToolApprovalCallOptions,
  type ToolApprovalInputOptions,
  type ToolApprovalRules,
  type ToolApprovalStatusLike,
  type ToolSetConnectorOptions,
  toolSetConnector,
} from "./tool-set-connector.ts";
