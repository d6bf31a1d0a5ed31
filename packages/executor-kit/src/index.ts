export {
  callHost,
  decodeResult,
  describeNamespaces,
  type ErrorInfo,
  errorInfoOf,
  messageOf,
  type ReplyLimit,
  resultReply,
} from "./host-call.ts";
export { hostTimers, type TimerHandle } from "./host-timers.ts";
export { LogSink } from "./log-sink.ts";
export { type BootstrapSpec, type SandboxApi, sandboxBootstrap } from "./sandbox-bootstrap.ts";
export { type CallQueue, type QueuedCall, sandboxCallQueue } from "./sandbox-call-queue.ts";
export {
  type BuiltinReader,
  ENCODER_BUILTINS,
  type EncoderSink,
  sandboxEncoder,
  type TaggedWriter,
} from "./sandbox-encoder.ts";
export { thrownError } from "./sandbox-error.ts";
export {
  abortedError,
  mebibytes,
  positive,
  positiveInteger,
  stackError,
  timeoutError,
  tooManyCallsMessage,
  tooMuchInFlightMessage,
  unserializableResultError,
} from "./sandbox-errors.ts";
export {
  type Described,
  type HelperRequest,
  type SandboxErrors,
  sandboxCanonical,
  sandboxErrors,
} from "./sandbox-parts.ts";
export { createRenderer, type SandboxRenderer } from "./sandbox-renderer.ts";
export { sandboxSource } from "./sandbox-source.ts";
export { sandboxTaggedWriter, TAGGED_WRITER_BUILTINS } from "./sandbox-tagged-writer.ts";
export {
  type BatchedCall,
  type ErrorReply,
  errorReply,
  type HostReply,
  isHostReply,
  type LoadOutcome,
  type NumberedCall,
  type OkOutcome,
  type OkReply,
  type OutcomeKind,
  type OutcomeOf,
  okReply,
  outcomeError,
  type PassOutcome,
  type ProblemOutcome,
  type RpcReply,
  readPassOutcome,
  rpcReply,
  type SyntaxOutcome,
  type ThrownOutcome,
  type TimeoutOutcome,
  type UnserializableOutcome,
} from "./sandbox-wire.ts";
