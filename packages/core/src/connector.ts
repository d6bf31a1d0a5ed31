import type { JsonSchema } from "@codemode/typegen";
import type { AbortSignalLike } from "./abort-signal.ts";

/** How a later pass of the same run treats a call that was recorded. */
export type ReplayPolicy = "record" | "reexecute";

/** The status a pass ends with, as a connector's `onPassEnd` hears it. */
export type PassEndStatus = "completed" | "error" | "paused";

/** The status a run ends with, as a connector's `disposeExecution` hears it. */
export type ExecutionEndStatus = "completed" | "error" | "rejected" | "cancelled" | "rolled_back";

/** What a connector method receives besides its input. */
export interface CallContext {
  /** stable across every pass of one run */
  executionId: string;
  /** the call's number in the run, shared with steps */
  seq: number;
  /** derived from both: the same call in a later pass carries the same key */
  idempotencyKey: string;
  /**
   * Fires when the pass ends or the call's timeout passes. A call that stops because it fired
   * rejects with `signal.reason` itself, not an error that wraps it: that is how the runtime tells
   * an abort it caused from a failure of the connector's own, which it records.
   */
  signal: AbortSignalLike;
}

/** What `Connector.reconcile` found out about a call whose outcome was never recorded. */
export type Reconciled = { status: "applied"; result?: unknown } | { status: "not-applied" };

/** Decides, on the host, whether one call waits for a person; throwing counts as "yes". */
export type ApprovalRule = (
  input: unknown,
  call: { executionId: string; seq: number },
) => boolean | PromiseLike<boolean>;

/**
 * Whether a method's `requiresApproval` asks on every call without deciding per call: any value
 * but a function, `false`, `undefined` or `null` (a truthy flag of another type from plain
 * JavaScript, `1` or `"yes"`, asks rather than letting the call run unasked).
 */
export function asksAlways(rule: ConnectorMethod["requiresApproval"]): boolean {
  return typeof rule !== "function" && rule !== undefined && rule !== null && rule !== false;
}

/** One method of a connector, as the runtime sees it. */
export interface ConnectorMethod {
  description?: string;
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  /**
   * A person approves each call before it runs: the run pauses there. A function decides per call,
   * on the host, from the call's input (a failing decision asks for approval). Read closed: any
   * value but `false`, `undefined` or `null` asks (`asksAlways`), whatever its type.
   */
  requiresApproval?: boolean | ApprovalRule;
  /** the result comes from outside (a client, a long job): the run pauses until `runtime.resolve` */
  deferred?: boolean;
  /** default "record"; "reexecute" may not be combined with `requiresApproval` or `deferred` */
  replay?: ReplayPolicy;
  /** the call fails with a catchable error after this long */
  timeoutMs?: number;
  /** words that name the method for search (HTTP method and path, tags) */
  keywords?: readonly string[];
  /** whether `revert` can undo this method */
  revertible?: boolean;
  /**
   * What a call of this method is sent to, as one line a person can read (an HTTP method, a base
   * URL and a path template, with a digest of how the request is formed): at most
   * `MAX_OPERATION_LENGTH` characters, checked by `operationProblem`. Each call is recorded with it
   * and shown with it when it waits; a recorded call that may still run (waiting, approved, in
   * doubt, or run again) runs only while the method names the same operation, else the run ends
   * with `DIVERGENCE`. Absent: the method and its connector are all a call is bound to.
   */
  operation?: string;
}

/**
 * A namespace of methods the sandbox can call. Connectors are re-created by the application for
 * every request: nothing may depend on instance memory between passes.
 */
export interface Connector {
  readonly specificationVersion: "v1";
  /** the sandbox global (checked and made an identifier when the runtime is configured) */
  readonly name: string;
  /** a line or two on what the connector is for */
  readonly instructions?: string;
  /**
   * The document that local `$ref`s in the method schemas point into (an OpenAPI document's
   * `components`, shared `$defs`), read after `methods()` has resolved, so named and recursive types
   * are declared once.
   */
  readonly schemaRoot?: unknown;
  /** the methods, by their names in the connector */
  methods(): Record<string, ConnectorMethod> | Promise<Record<string, ConnectorMethod>>;
  invoke(method: string, input: unknown, context: CallContext): Promise<unknown>;
  /** undoes an applied call (rollback); methods without `revertible` are skipped */
  revert?(method: string, input: unknown, result: unknown, context: CallContext): Promise<void>;
  /**
   * Reads back what became of a call an earlier pass started and never recorded (the process
   * stopped, the store failed), by its idempotency key: `applied` with what it gave (recorded and
   * replayed, not run again), `not-applied` (it runs now, under the same key), or undefined when the
   * connector cannot tell (a person decides; see `PendingAction.inDoubt`). Throwing counts as
   * undefined.
   */
  reconcile?(method: string, input: unknown, context: CallContext): Promise<Reconciled | undefined>;
  /**
   * Reads back whether a revert a rollback started and never recorded (its process stopped, the
   * store failed) took effect, by the revert's idempotency key (`<executionId>:<seq>:revert`):
   * `applied` (recorded reverted, not run again), `not-applied` (the revert runs now, under the same
   * key), or undefined when the connector cannot tell (the rollback reports it unrecorded; the host
   * decides with `rollback`'s `revertAgain` or `markReverted`). Throwing counts as undefined.
   */
  reconcileRevert?(
    method: string,
    input: unknown,
    result: unknown,
    context: CallContext,
  ): Promise<Reconciled | undefined>;
  /** after every pass of a run, whatever its outcome */
  onPassEnd?(executionId: string, status: PassEndStatus): Promise<void> | void;
  /** after a run ends (never after a pause); may be called again, must be idempotent */
  disposeExecution?(executionId: string, status: ExecutionEndStatus): Promise<void> | void;
}
