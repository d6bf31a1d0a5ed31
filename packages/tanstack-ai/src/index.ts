export {
  type CodemodeApprovalCall,
  type CodemodeApprovalPayload,
  type CodemodeApprovalResponse,
  codemodeApproval,
} from "./codemode-approval.ts";
export {
  CODEMODE_DECISION_EVENT,
  type CodemodeApprovalsOptions,
  codemodeApprovals,
  MAX_SHOWN_LENGTH,
} from "./codemode-approvals.ts";
export { CODEMODE_TOOL_NAME, type CodemodeToolOptions, codemodeTool } from "./codemode-tool.ts";
export { type CodemodeToolOutput, PAUSED_MESSAGE } from "./tool-output.ts";
