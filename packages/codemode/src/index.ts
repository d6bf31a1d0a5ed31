export {
  type FunctionConnectorOptions,
  type FunctionMethod,
  functionConnector,
} from "@codemode/connector-function";
export {
  type CodeModeInput,
  type CodeModeOutput,
  CodemodeError,
  type CodemodeErrorCode,
  type CodemodeRuntime,
  type CodemodeRuntimeOptions,
  type CodemodeTool,
  type Connector,
  createCodemodeRuntime,
  type DescribeOutput,
  type Executor,
  type JournalStore,
  memoryStore,
  type PendingAction,
  type RollbackCall,
  type RollbackReport,
  type RuntimeExecution,
  type SearchOutput,
  sqliteStore,
} from "@codemode/core";
export { normalizeCode } from "@codemode/typegen";
