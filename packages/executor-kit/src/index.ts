export {
  callHost,
  decodeResult,
  describeNamespaces,
  type ErrorInfo,
  errorInfoOf,
  errorReply,
  messageOf,
  type ReplyLimit,
  resultReply,
} from "./host-call.ts";
export { hostTimers, type TimerHandle } from "./host-timers.ts";
export { LogSink } from "./log-sink.ts";
export { type BootstrapSpec, type SandboxApi, sandboxBootstrap } from "./sandbox-bootstrap.ts";
export { type EncoderHelper, sandboxEncoder } from "./sandbox-encoder.ts";
export {
  abortedError,
  mebibytes,
  positive,
  stackError,
  timeoutError,
  unserializableResultError,
} from "./sandbox-errors.ts";
export { createRenderer, type SandboxRenderer } from "./sandbox-renderer.ts";
export { sandboxSource } from "./sandbox-source.ts";
