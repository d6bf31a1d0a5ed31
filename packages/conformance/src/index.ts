export type { ExecutorCapability, ExecutorSettings, SandboxGlobal } from "./capabilities.ts";
export {
  type ConnectorConformanceOptions,
  type ConnectorSample,
  runConnectorConformance,
  type WaitingCall,
} from "./connector-conformance.ts";
export {
  type ExecutorConformanceGroup,
  type ExecutorConformanceOptions,
  runExecutorConformance,
} from "./executor-conformance.ts";
export * from "./hostile-server-suite.ts";
export { GUARANTEES, type Guarantee } from "./integrity-invariants.ts";
export { type JournalIntegrityOptions, runJournalIntegrity } from "./journal-integrity.ts";
export {
  type JournalStoreConformanceOptions,
  runJournalStoreConformance,
} from "./journal-store-conformance.ts";
export {
  type ConformanceTest,
  conformanceTest,
  type DeclareTest,
  type KnownGap,
} from "./known-gaps.ts";
export { expectSchemaOneMigrated, SCHEMA_ONE_JOURNAL } from "./schema-one.ts";
export type {
  McpClientSession,
  McpElicitResult,
  McpReply,
  McpSessionOptions,
  McpSurface,
  SurfaceAdapters,
  TanstackAnswer,
  TanstackPayload,
  TanstackShownCall,
  TanstackSurface,
  TanstackTurn,
} from "./surface-adapters.ts";
export { runSurfaceIntegrity, type SurfaceIntegrityOptions } from "./surface-integrity.ts";
