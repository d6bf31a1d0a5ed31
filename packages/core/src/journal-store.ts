import { CodemodeError } from "./codemode-error.ts";

/**
 * Where a run stands. `cancelled`: the host (or the AI SDK, aborting the tool call) stopped it with
 * `runtime.cancel` while it ran or waited; the run's `error` says who, when and why.
 */
export type ExecutionStatus =
  | "running"
  | "paused"
  | "completed"
  | "error"
  | "rejected"
  | "cancelled"
  | "rolled_back";

/** Statuses a run does not leave by itself (it may still be rolled back). */
export const TERMINAL_STATUSES: readonly ExecutionStatus[] = [
  "completed",
  "error",
  "rejected",
  "cancelled",
  "rolled_back",
];

/**
 * Where one journaled call stands: decided and running (`executing`, the crash window), done with its
 * result recorded (`applied`), waiting for a person or an outside result (`pending`), approved by a
 * person and not yet taken by a pass (`approved`: the pass that reaches it runs it; one that pauses
 * first, at an earlier call that still waits, leaves it approved for the next), taken by a
 * rollback whose revert is running (`reverting`), undone by a rollback (`reverted`), never run
 * because its run ended while it waited (`withdrawn`: a rejection, a cancellation, a rollback,
 * expiry, or a call a cancelled pass had recorded but not yet started), or failed
 * the run (`error`).
 */
export type EntryState =
  | "executing"
  | "applied"
  | "pending"
  | "approved"
  | "reverting"
  | "reverted"
  | "withdrawn"
  | "error";

/**
 * A running pass's hold on its run: a random `owner` per pass and the time (ms) it lapses. Only
 * the owner renews it; once `expiresAt` has passed, expiry may end the run, and nothing else may.
 */
export interface Lease {
  owner: string;
  expiresAt: number;
}

/**
 * Which writer an update is for: the pass that holds the lease (`owner`), one that ends a run
 * whose lease has lapsed (`lapsedBefore`: its `expiresAt` is earlier; a run without a lease counts
 * as lapsed), or one that ends a run nothing has written since a time (`updatedBefore`: its
 * `updatedAt` is earlier, as `listStale` found it).
 */
export type LeaseCondition =
  | { owner: string }
  | { lapsedBefore: number }
  | { updatedBefore: number };

/**
 * How a pass writes an entry: only while it holds the run's lease (the run is `running` and its
 * lease is `owner`'s), renewing it to `renewUntil` in the same write when given.
 */
export interface LeaseClaim {
  owner: string;
  renewUntil?: number;
}

/**
 * What an entry's update may be conditioned on beside its state: a pass's claim on the run
 * (`LeaseClaim`), or the entry's `updatedAt` as the writer read it (`unchangedSince`: a take of an
 * entry whose state the taker does not change, such as a stale claim taken over, by one taker).
 */
export type EntryCondition = LeaseClaim | { unchangedSince: number };

/** A run, as the journal keeps it. Values are text of the value codec. */
export interface ExecutionRecord {
  id: string;
  code: string;
  status: ExecutionStatus;
  /** the codec text of the final result, or a placeholder when it was too big to record */
  result?: string;
  error?: string;
  logs?: string[];
  /** the connectors configured when the run started; a resumed pass needs all of them */
  connectors: string[];
  createdAt: number;
  updatedAt: number;
  /** held while a pass runs (status `running`); set by the write that takes the run, cleared by the one that ends the pass */
  lease?: Lease;
  /**
   * A secret chosen when the run starts, never shown: it seeds the generator behind the sandbox's
   * `Math.random()` and `crypto`, the same on every pass. Runs of older versions have none (their
   * id seeds it).
   */
  seed?: string;
}

/** One connector call or step of a run, numbered by `seq`. */
export interface JournalEntry {
  executionId: string;
  seq: number;
  kind: "call" | "step";
  /** the connector (`codemode.step` for a step) */
  connector: string;
  /** the connector's method, or the step's name */
  method: string;
  /** codec text of the input (calls) */
  args?: string;
  /** codec text of the result or step value; absent for `replay: "reexecute"` */
  result?: string;
  state: EntryState;
  requiresApproval: boolean;
  deferred: boolean;
  replay: "record" | "reexecute";
  /**
   * the operation the method named when the call was recorded (`ConnectorMethod.operation`); a store
   * keeps it as written, and one that drops it makes every approval of such a call diverge
   */
  operation?: string;
  error?: string;
  createdAt: number;
  updatedAt: number;
}

/** A saved program the model can find, describe and run. */
export interface SnippetRecord {
  name: string;
  description?: string;
  code: string;
  /** JSON Schema text of the input */
  inputSchema?: string;
  /** the connectors of the run it was saved from */
  connectors: string[];
  savedAt: number;
}

/**
 * A `codemode` tool call's claim on a run, kept apart from the run and longer than it (runs are
 * pruned, deleted, rolled back; a late answer to the tool call must still find that its run ended,
 * and never start one again). One per tool call: the first writer of a key wins.
 */
export interface ToolCallBinding {
  /** a digest of the tool call's id and its code (`toolCallKey`) */
  key: string;
  /** the run the tool call stands for */
  executionId: string;
  /**
   * the decision handle (JSON text) the tool call's approval request showed the person, set once,
   * by the first request that asked; an answer to that request decides exactly these calls
   */
  shown?: string;
  createdAt: number;
}

/**
 * The journal of one named runtime: executions, their entries, and snippets. Every method returns a
 * promise (so a remote database can implement it); correctness under concurrency comes from
 * conditional updates that change a row only where it still has the expected status. What a store
 * must implement is said at `JournalStore`.
 */
export interface Journal {
  /** the version of this contract the journal implements */
  readonly specificationVersion: "v1";
  createExecution(record: ExecutionRecord): Promise<void>;
  getExecution(id: string): Promise<ExecutionRecord | undefined>;
  /** newest first */
  listExecutions(options?: {
    limit?: number;
    statuses?: readonly ExecutionStatus[];
  }): Promise<ExecutionRecord[]>;
  /**
   * applies `patch` only if the status is one of `expected` (and, with `lease`, only for the lease's
   * owner or only once it has lapsed); tells whether it did
   */
  updateExecution(
    id: string,
    expected: readonly ExecutionStatus[],
    patch: Partial<Omit<ExecutionRecord, "id" | "createdAt">>,
    lease?: LeaseCondition,
  ): Promise<boolean>;
  /** removes the run and its entries, at once: no read finds the run without its entries */
  deleteExecution(id: string): Promise<boolean>;
  /** removes terminal runs beyond the newest `keep` (never `except`); returns their ids */
  pruneExecutions(keep: number, except?: string): Promise<string[]>;
  /** runs in one of `statuses` last updated before `before` */
  listStale(statuses: readonly ExecutionStatus[], before: number): Promise<ExecutionRecord[]>;
  /** `running` runs whose lease lapsed before `now` (or that have none), oldest first */
  listLapsed(now: number): Promise<ExecutionRecord[]>;

  getEntry(executionId: string, seq: number): Promise<JournalEntry | undefined>;
  /**
   * in `seq` order; with `states`, only the entries in one of them (a run of a thousand calls has
   * one pending entry: the store finds it without handing over the other rows)
   */
  listEntries(
    executionId: string,
    options?: { states?: readonly EntryState[] },
  ): Promise<JournalEntry[]>;
  /**
   * inserts or replaces the entry at (executionId, seq); rejects with `noSuchRun` if there is no such
   * run. With `lease`, writes only while the run is `running` under the claim's owner (renewing the
   * lease when the claim says until when), in one write, and tells whether it did.
   */
  putEntry(entry: JournalEntry, lease?: LeaseClaim): Promise<boolean>;
  /**
   * applies `patch` only if the state is one of `expected`; tells whether it did. With `lease`, as
   * `putEntry`'s: only while the run is `running` under the claim's owner, checked in the same
   * write as the state (an approved call's take: a run cancelled, expired or taken meanwhile keeps
   * its call waiting, never started), renewing the lease to `renewUntil` in that write when given
   * and only when the patch applies. With `{ unchangedSince }`, only while the entry's `updatedAt`
   * is still that, checked in the same write as the state.
   */
  updateEntry(
    executionId: string,
    seq: number,
    expected: readonly EntryState[],
    patch: Partial<Omit<JournalEntry, "executionId" | "seq" | "createdAt">>,
    condition?: EntryCondition,
  ): Promise<boolean>;
  /**
   * Marks an `executing` entry `applied` with its outcome: the codec text of its result (none for a
   * `reexecute` call) or its error, the other left empty. The write after every connector call and
   * step, so stores keep it cheap; tells whether the entry was still executing.
   */
  applyEntry(
    executionId: string,
    seq: number,
    outcome: { result?: string; error?: string; updatedAt: number },
  ): Promise<boolean>;

  /** keeps `binding` unless one has its key already; returns the binding kept (the first writer's) */
  bindToolCall(binding: ToolCallBinding): Promise<ToolCallBinding>;
  getToolCallBinding(key: string): Promise<ToolCallBinding | undefined>;
  /** sets the binding's `shown` unless it has one already; returns the binding as kept (undefined if none) */
  showToolCall(key: string, shown: string): Promise<ToolCallBinding | undefined>;
  /** removes the bindings beyond the newest `keep` (by `createdAt`, then insertion); returns how many */
  pruneToolCallBindings(keep: number): Promise<number>;

  putSnippet(snippet: SnippetRecord): Promise<void>;
  getSnippet(name: string): Promise<SnippetRecord | undefined>;
  /** by name */
  listSnippets(): Promise<SnippetRecord[]>;
  deleteSnippet(name: string): Promise<boolean>;
}

/**
 * Whether a run allows a write under `condition`: the lease owner's while it holds it (lapsed or
 * not, until someone else ends the run), anyone's once the lease lapsed before `lapsedBefore`, or
 * once nothing has written the run since `updatedBefore`.
 */
export function leaseAllows(
  run: Pick<ExecutionRecord, "lease" | "updatedAt">,
  condition: LeaseCondition,
): boolean {
  if ("owner" in condition) return run.lease?.owner === condition.owner;
  if ("updatedBefore" in condition) return run.updatedAt < condition.updatedBefore;
  return run.lease === undefined || run.lease.expiresAt < condition.lapsedBefore;
}

/**
 * Keeps the journals of any number of named runtimes apart. What a third-party store implements,
 * checked by `checkJournalStore` and held to the behaviour of the built-in stores by
 * `runJournalStoreConformance` and `runJournalIntegrity` of `@codemode/conformance`:
 *
 * - `specificationVersion: "v1"` on the store and on each journal: the version of this contract.
 *   It changes with the next change a store must follow (a new required method, a new meaning),
 *   and a runtime refuses a store of a version it does not know.
 * - `journal(name)`, and on the journal every method of `Journal`: the minimum, as the runtime calls
 *   each of them. A run's life (start, calls, steps, pauses, decisions, cancel, rollback, expiry,
 *   pruning) calls the execution and entry methods, `createExecution` to `applyEntry`, on every
 *   runtime; every search and describe lists the snippets (`listSnippets`); the other snippet
 *   methods serve `codemode.run` of a saved program (`getSnippet`) and `runtime.saveSnippet` and
 *   `deleteSnippet`; the four tool-call binding methods (`bindToolCall` to `pruneToolCallBindings`)
 *   serve the `codemode` tool (`runtime.tool()`). The contract has no optional method: a store
 *   for a host that never uses a feature still implements its methods.
 * - Optional: `local`, below.
 */
export interface JournalStore {
  /** the version of this contract the store implements */
  readonly specificationVersion: "v1";
  journal(name: string): Journal;
  /**
   * What the runtimes of this process keep about this storage and never persist (the passes
   * running, the approvals in flight; see `StoreLocal`): made once per storage with
   * `createStoreLocal()` and the same for every store made over that storage (a database handle, a
   * Durable Object's storage), so runtimes made per request know each other's passes. Without it,
   * the runtimes over this very store object share one, and another object is another process.
   */
  readonly local?: StoreLocal;
}

declare const storeLocal: unique symbol;

/**
 * What the runtimes of one process keep about one storage beside its journal (the passes running
 * here, the approvals in flight), opaque to a store: made with `createStoreLocal()` once per storage.
 */
export interface StoreLocal {
  readonly [storeLocal]: true;
}

/** What a journal's `putEntry` throws for an entry whose run it does not have. */
export function noSuchRun(entry: Pick<JournalEntry, "executionId" | "seq">): CodemodeError {
  return new CodemodeError(
    "STORE_FAILED",
    `No execution "${entry.executionId}" in this journal to record entry #${entry.seq} in.`,
  );
}
