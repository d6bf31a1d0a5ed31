export type { AbortSignalLike } from "./abort-signal.ts";
export { checkJournal, checkJournalStore } from "./check-journal-store.ts";
export { CodemodeError, type CodemodeErrorCode } from "./codemode-error.ts";
export type {
  ApprovalRule,
  CallContext,
  Connector,
  ConnectorMethod,
  ExecutionEndStatus,
  PassEndStatus,
  Reconciled,
  ReplayPolicy,
} from "./connector.ts";
export {
  callDigest,
  type DecisionCall,
  type DecisionHandle,
  decisionHandleOf,
  MAX_HANDLE_CALLS,
  parseDecisionHandle,
} from "./decision-handle.ts";
export type {
  ExecuteLimits,
  ExecuteRequest,
  ExecuteResult,
  Executor,
  HostFunction,
  HostNamespaces,
  RecordedCall,
  ReplayHint,
  SandboxError,
} from "./executor.ts";
export { MAX_RECORDED_LENGTH } from "./invariants.ts";
export {
  type EntryCondition,
  type EntryState,
  type ExecutionRecord,
  type ExecutionStatus,
  type Journal,
  type JournalEntry,
  type JournalStore,
  type Lease,
  type LeaseClaim,
  type LeaseCondition,
  type SnippetRecord,
  type StoreLocal,
  TERMINAL_STATUSES,
  type ToolCallBinding,
} from "./journal-store.ts";
export { memoryStore } from "./memory-store.ts";
export { MAX_OPERATION_LENGTH, operationProblem } from "./operation.ts";
export type { CancelResult } from "./runtime/commands/cancel.ts";
export { DEFAULT_EXPIRY_MS } from "./runtime/commands/expire.ts";
export type { RevertResolutions } from "./runtime/commands/revert-in-doubt.ts";
export type { RollbackReport } from "./runtime/commands/rollback.ts";
export type { DecisionSource, RuntimeEvent } from "./runtime/context/runtime-event.ts";
export { createStoreLocal } from "./runtime/context/store-local.ts";
export {
  type CodemodeRuntime,
  type CodemodeRuntimeOptions,
  createCodemodeRuntime,
  DEFAULT_MAX_EXECUTIONS,
} from "./runtime/create-codemode-runtime.ts";
export { type ApprovalResponse, approvalResponsesOf } from "./runtime/tool/approval-responses.ts";
export {
  type CodeInputSchema,
  type CodemodeApprovalCall,
  type CodemodeApprovalDescriptor,
  type CodemodeApprovalStatus,
  type CodemodeModelOutput,
  type CodemodeProgress,
  type CodemodeTool,
  type CodemodeToolApproval,
  type CodemodeToolCallOptions,
  type CodemodeToolOutput,
  MODEL_LOG_LINES,
  modelOutputOf,
  type ProgressCall,
} from "./runtime/tool/code-tool.ts";
export { PROGRESS_RECENT_CALLS, type RuntimeToolOptions } from "./runtime/tool/runtime-tool.ts";
export { MAX_TOOL_CALL_ID_LENGTH } from "./runtime/tool/tool-call-runs.ts";
export type { RuntimeExecution } from "./runtime/views/history.ts";
export type {
  RollbackCall,
  RollbackPreview,
  RollbackPreviewCall,
} from "./runtime/views/rollback-preview.ts";
export {
  DEFAULT_MAX_LOOKUPS,
  DEFAULT_MAX_SNIPPET_RUNS,
  type ErrorRecord,
  MAX_QUERY_LENGTH,
  MAX_SNIPPET_NAME_LENGTH,
  MAX_STEP_NAME_LENGTH,
  MAX_TARGET_LENGTH,
  SDK_METHODS,
} from "./sandbox-protocol.ts";
export { shownValue } from "./shown-value.ts";
export type { SqlDriver, SqlRow, SyncSqlite } from "./sql-driver.ts";
export { SCHEMA_VERSION } from "./sql-store/migrate.ts";
export { sqliteStore } from "./sql-store/sqlite-store.ts";
export type {
  CodeModeInput,
  CodeModeOutput,
  DescribeOutput,
  PendingAction,
  SearchOutput,
} from "./types.ts";
export { createValueCodec, type ValueCodec } from "./value-codec.ts";
export { escapeUnseen, firstUnseen, visibleText } from "./visible-text.ts";
