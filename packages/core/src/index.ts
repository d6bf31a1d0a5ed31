export type { AbortSignalLike } from "./abort-signal.ts";
export { CodemodeError, type CodemodeErrorCode } from "./codemode-error.ts";
export {
  type CodeInputSchema,
  type CodemodeRuntime,
  type CodemodeRuntimeOptions,
  type CodemodeTool,
  createCodemodeRuntime,
  DEFAULT_EXPIRY_MS,
  DEFAULT_MAX_EXECUTIONS,
  MAX_RECORDED_LENGTH,
  type RollbackReport,
  type RuntimeExecution,
} from "./codemode-runtime.ts";
export type {
  ApprovalRule,
  CallContext,
  Connector,
  ConnectorMethod,
  ExecutionEndStatus,
  PassEndStatus,
  ReplayPolicy,
} from "./connector.ts";
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
export {
  type EntryState,
  type ExecutionRecord,
  type ExecutionStatus,
  type Journal,
  type JournalEntry,
  type JournalStore,
  type SnippetRecord,
  TERMINAL_STATUSES,
} from "./journal-store.ts";
export { knownEncodings } from "./known-encodings.ts";
export { memoryStore } from "./memory-store.ts";
export { SANDBOX_EVALUATE_HOOK } from "./sandbox-prelude.ts";
export type { SqlDriver, SqlRow, SyncSqlite } from "./sql-driver.ts";
export { SCHEMA_VERSION, sqliteStore } from "./sql-store.ts";
export type {
  CodeModeInput,
  CodeModeOutput,
  DescribeOutput,
  PendingAction,
  SearchOutput,
} from "./types.ts";
export { createValueCodec, type ValueCodec } from "./value-codec.ts";
