import type { AbortSignalLike } from "./abort-signal.ts";
import type { CodemodeErrorCode } from "./codemode-error.ts";

/** A host method as the sandbox calls it: one argument in, a promise out. */
export type HostFunction = (input: unknown) => Promise<unknown>;

/** Every namespace the sandbox sees as a global: name → method → function. */
export type HostNamespaces = Record<string, Record<string, HostFunction>>;

/** What an executor may enforce; each executor documents which it can. */
export interface ExecuteLimits {
  /** wall time of the pass */
  timeoutMs?: number;
  /** heap of the sandbox */
  memoryBytes?: number;
  /** stack of the sandbox */
  stackBytes?: number;
}

/** A call an earlier pass recorded, which this pass will make again and get the same answer to. */
export interface RecordedCall {
  namespace: string;
  method: string;
  /** the input in the value codec's canonical text (object keys sorted) */
  input: string;
  /** the result in the value codec's text */
  result: string;
}

/**
 * What a pass that replays a journal may answer inside the sandbox. An executor may ignore it (every
 * call then reaches `globals`, which replay from the journal themselves). One that uses it answers
 * the program's first calls from `calls` while they match in order (namespace, method, canonical
 * input), without a round trip, and calls `advance(n)` with how many it answered so, before the next
 * call reaches `globals` and when the pass ends. After the first call that does not match, none is
 * answered locally any more.
 */
export interface ReplayHint {
  calls: readonly RecordedCall[];
  advance(count: number): void;
}

/** One pass of one program. */
export interface ExecuteRequest {
  /** one function expression (what `normalizeCode` returns); it is called with no arguments and awaited */
  code: string;
  /**
   * The host namespaces. A sandbox call `ns.method(input)` reaches `globals.ns.method(input)`; values
   * cross the boundary through the value codec, so `Date`, `Map`, `Set`, `bigint`, `undefined` and
   * binary data arrive as they left, and a rejection arrives in the sandbox as a thrown `Error` with the
   * same name and message.
   */
  globals: HostNamespaces;
  /**
   * JavaScript run in the sandbox after the namespaces exist and before the code; it may add members
   * to them (this is how `codemode.step` runs its closure in the sandbox). Its own members shadow
   * host methods of the same name.
   */
  prelude?: string;
  /** ends the pass at once; after it fires, no host call of this pass reaches `globals` */
  signal?: AbortSignalLike;
  limits?: ExecuteLimits;
  /** the calls this pass will replay; optional to use (see `ReplayHint`) */
  replay?: ReplayHint;
  /**
   * An executor that runs the program on the host's own thread (QuickJS) calls this at least every
   * second while the program runs without yielding, so the host can tell its run is alive (the
   * runtime renews the run's liveness from it); it never throws and returns at once.
   */
  heartbeat?: () => void;
}

/**
 * The codes a pass may end with (`SandboxError.code`), a subset of `CodemodeErrorCode`;
 * docs/errors.md says when an executor gives each (errors-doc.test.ts keeps the two in step).
 */
export const SANDBOX_ERROR_CODES = [
  "SYNTAX_ERROR",
  "THROWN",
  "TIMEOUT",
  "MEMORY",
  "ABORTED",
  "NOT_SERIALIZABLE",
  "UNKNOWN_METHOD",
] as const satisfies readonly CodemodeErrorCode[];

/** A failure of the pass, as data. */
export interface SandboxError {
  name: string;
  message: string;
  stack?: string;
  code: (typeof SANDBOX_ERROR_CODES)[number];
  /**
   * With `UNKNOWN_METHOD`: the namespace and the method the code asked for, as the executor saw them
   * (the runtime answers with the nearest methods)
   */
  method?: { namespace: string; name: string };
}

/** What a pass ends with; `logs` holds console output either way. */
export type ExecuteResult =
  | { result: unknown; logs: string[] }
  | { error: SandboxError; logs: string[] };

/**
 * Runs the model's code in a sandbox, one pass at a time. It keeps nothing between passes and never
 * throws for anything the code did: failures come back as `error`.
 */
export interface Executor {
  readonly specificationVersion: "v1";
  execute(request: ExecuteRequest): Promise<ExecuteResult>;
}
