// @codemode/core/internal: what executors and the runtime share as plumbing, not API. It may change
// in any release; applications do not import it.
export {
  decodeErrorRecord,
  encodeErrorRecord,
  errorFromRecord,
  errorRecordOf,
  messageOf,
} from "./invariants.ts";
export { noSuchRun } from "./journal-store.ts";
export { knownEncodings } from "./known-encodings.ts";
export { sha256Hex } from "./platform.ts";
export {
  determinismPrelude,
  installDeterminism,
  type RunDeterminism,
} from "./sandbox-determinism.ts";
export {
  PRELUDE_CHANNEL,
  SANDBOX_EVALUATE_HOOK,
  SANDBOX_PRELUDE,
  SANDBOX_SEED_HOOK,
  type SnippetReply,
  type StepDecideReply,
  type StepRecordReply,
  type StepRecordRequest,
} from "./sandbox-protocol.ts";
export { sandboxSource } from "./sandbox-source.ts";
export { installZone } from "./sandbox-zone.ts";
export {
  BINDING_ROW,
  type ColumnDialect,
  ENTRY_COLUMNS,
  ENTRY_ROW,
  EXECUTION_COLUMNS,
  EXECUTION_ROW,
  flatLease,
  SNIPPET_ROW,
  type SqlRows,
  sqlRows,
} from "./sql-store/rows.ts";
