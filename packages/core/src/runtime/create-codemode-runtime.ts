import type { CatalogOptions, DescribeOutput, SearchOutput } from "@codemode/typegen";
import { checkJournal, checkJournalStore } from "../check-journal-store.ts";
import { CodemodeError } from "../codemode-error.ts";
import type { Connector } from "../connector.ts";
import type { DecisionHandle } from "../decision-handle.ts";
import type { ExecuteLimits, Executor } from "../executor.ts";
import { checkText, DEFAULT_LEASE_MS, MAX_LEASE_MS, MIN_LEASE_MS } from "../invariants.ts";
import type { JournalStore } from "../journal-store.ts";
import {
  DEFAULT_MAX_LOOKUPS,
  DEFAULT_MAX_SNIPPET_RUNS,
  MAX_QUERY_LENGTH,
  MAX_TARGET_LENGTH,
} from "../sandbox-protocol.ts";
import type { SyncSqlite } from "../sql-driver.ts";
import { sqliteStore } from "../sql-store/sqlite-store.ts";
import type { CodeModeOutput, PendingAction } from "../types.ts";
import { begin } from "./commands/begin-run.ts";
import { type CancelResult, cancel } from "./commands/cancel.ts";
import { approve, reject, resolve } from "./commands/decisions.ts";
import { deleteExecution } from "./commands/delete-run.ts";
import { DEFAULT_EXPIRY_MS, expirePaused } from "./commands/expire.ts";
import { type RevertResolutions, revertResolutionsOf } from "./commands/revert-in-doubt.ts";
import { type RollbackReport, rollback } from "./commands/rollback.ts";
import { createConfigurator } from "./context/configuration.ts";
import type { RunContext, RuntimeLimits } from "./context/run-context.ts";
import { eventSink, type RuntimeEvent } from "./context/runtime-event.ts";
import { localOf } from "./context/store-local.ts";
import { toolCallMemory } from "./context/tool-call-memory.ts";
import { connectorHooks } from "./context/values.ts";
import { describeTarget, saveSnippet, snippetCatalog } from "./pass/snippets.ts";
import type { CodemodeApprovalDescriptor, CodemodeTool } from "./tool/code-tool.ts";
import {
  approvalDescriptor,
  type RuntimeToolOptions,
  rejectDenied,
  runtimeTool,
} from "./tool/runtime-tool.ts";
import { decodeExecution, pending, type RuntimeExecution } from "./views/history.ts";
import { previewRollback, type RollbackPreview } from "./views/rollback-preview.ts";

/** Runs kept after a new one starts (terminal runs beyond it are pruned). */
export const DEFAULT_MAX_EXECUTIONS = 50;

export interface CodemodeRuntimeOptions {
  /** where the journal lives: `sqliteStore(db)`, `memoryStore()`, … */
  store?: JournalStore;
  /** inside a Durable Object: the journal lives in its own SQLite */
  ctx?: { storage: SyncSqlite };
  executor: Executor;
  connectors: readonly Connector[];
  /** separate histories per name (default "default") */
  name?: string;
  /** terminal runs kept when a new one starts (default 50) */
  maxExecutions?: number;
  /** shapes what the model gets from a completed run, after the original is recorded */
  transformResult?: (result: unknown) => unknown;
  /**
   * per pass: time and memory limits for the executor; a budget of connector calls and steps
   * (`maxCalls`, default 10,000); of lookups the program asks of the host, `codemode.search`,
   * `codemode.describe` and `codemode.run` together (`maxLookups`, default 256); and of saved
   * programs `codemode.run` starts, however they nest (`maxSnippetRuns`, default 16). Past a budget
   * the call throws `BUDGET_EXCEEDED`, which the code may catch; every pass of a program is refused
   * at the same point.
   */
  limits?: ExecuteLimits & { maxCalls?: number; maxLookups?: number; maxSnippetRuns?: number };
  /** injectable clock */
  now?: () => number;
  /**
   * how long a pass's lease on its run lasts without renewal, in ms (default 30,000; 100 to
   * 86,400,000): the pass renews it every third of that, and once it lapses another process's
   * `expirePaused` may end the run. Every process over one journal should use the same value.
   */
  leaseMs?: number;
  /**
   * how `codemode.search` ranks: an optional `embed(texts)` for a semantic re-rank (Workers AI
   * embeddings, for example; search works offline without it), the `semanticWeight` of that re-rank,
   * and how many results a search returns (`limit`, default 8)
   */
  search?: Pick<CatalogOptions, "embed" | "semanticWeight" | "limit">;
  /**
   * hears what happens as runs go (passes, calls live or replayed, waits, decisions, reverts), to
   * draw a timeline or to log; it only watches, and a failing observer changes nothing
   */
  onEvent?: (event: RuntimeEvent) => void;
}

export interface CodemodeRuntime {
  /**
   * Resolves once every connector has listed its methods and the configuration is checked (it
   * rejects on a bad one). Connectors that list asynchronously (MCP) make `tool().description`
   * generic until then: await this before handing the tool to a model.
   */
  ready(): Promise<void>;
  /**
   * The `codemode` tool for the AI SDK (and anything that takes JSON Schema tools): `execute` yields
   * preliminary results (the calls so far) and then the outcome, `toModelOutput` keeps what the model
   * reads compact, and with `approvals: "ai-sdk"` (default) a run that pauses becomes the AI SDK's
   * tool approval request, and the tool's result the run's outcome once the person has answered.
   */
  tool(options?: RuntimeToolOptions): CodemodeTool;
  /**
   * What the approval request of the `codemode` call `toolCallId` with `code` shows: its run and the
   * calls it waits for, with their exact input (`withApprovalDetails` of `codemode/ai` puts it in
   * the UI message stream); nothing when the call has no paused run.
   */
  approvalDescriptor(
    toolCallId: string,
    code: string,
  ): Promise<CodemodeApprovalDescriptor | undefined>;
  /**
   * Rejects the paused run of every `codemode` call that the conversation's messages (model or UI
   * messages) say a person denied; returns their ids. Call it with the incoming messages before the
   * model runs: the AI SDK does not call a tool whose approval was denied.
   */
  rejectDenied(messages: unknown): Promise<string[]>;
  execute(input: { code: string }): Promise<CodeModeOutput>;
  /**
   * Starts a run and resolves once it is recorded (the journal's readers find it: `execution`,
   * `pending`, `cancel`), with its id and the outcome to come, which `execute` would have returned.
   * Code refused before a run is recorded resolves with that outcome and the id `""`. For hosts that
   * answer before the run ends (an MCP task).
   */
  start(input: { code: string }): Promise<{
    executionId: string;
    outcome: Promise<CodeModeOutput>;
  }>;
  /**
   * Approves calls of a paused run; each runs once, with the input recorded when it paused, and
   * `reason` is kept with the decision. With `handle` (what the person was shown:
   * `decisionHandleOf(pending)`), it approves the handle's calls (or `seqs` of them) only if each
   * still waits with the same input, and refuses otherwise with `code: "DECISION_STALE"`; a handle
   * approves once. Every surface that shows calls to a person decides this way. Without a handle it
   * approves whatever waits when it is called (or those of them `seqs` names): the host's own call.
   */
  approve(options: {
    executionId: string;
    handle?: DecisionHandle;
    seqs?: readonly number[];
    reason?: string;
  }): Promise<CodeModeOutput>;
  /**
   * ends the paused run without the call at `seq` or any other it waits for; with `handle`, only
   * while the calls it names still wait as shown (`false` otherwise, as for a run not waiting)
   */
  reject(options: {
    executionId: string;
    seq: number;
    handle?: DecisionHandle;
    reason?: string;
  }): Promise<boolean>;
  resolve(options: { executionId: string; seq: number; result: unknown }): Promise<CodeModeOutput>;
  /**
   * Ends a running or paused run now, as a decision the journal keeps (`by`, `reason` and the time
   * in the run's `error`; a `decision` event). A paused run ends `cancelled` at once: its waiting
   * calls never run. A pass in this process is aborted (the executor's signal and every connector
   * call's), no call starts after, and the run ends `cancelled` once the pass has settled, each
   * call it started recorded as what it was (applied, failed, or in doubt); `cancel` returns after.
   * A pass in another process over the same journal stops at its next journal write or lease
   * renewal (within a third of `leaseMs`). A run that has ended is left as it is (`cancelled: false`,
   * with its status), as `approve` leaves one. A cancelled run rolls back like a failed one.
   */
  cancel(options: { executionId: string; reason?: string; by?: string }): Promise<CancelResult>;
  /**
   * reverts the run's applied calls, newest first; a revert an earlier rollback started and never
   * recorded is not run again by itself: `revertAgain` names such calls to revert again under the
   * same key, `markReverted` those the host checked were undone
   */
  rollback(options: { executionId: string } & RevertResolutions): Promise<RollbackReport>;
  /** what `rollback` would revert now and what it cannot (and why), without changing anything */
  previewRollback(options: { executionId: string }): Promise<RollbackPreview>;
  pending(executionId?: string): Promise<PendingAction[]>;
  executions(limit?: number): Promise<RuntimeExecution[]>;
  execution(id: string): Promise<RuntimeExecution | undefined>;
  deleteExecution(id: string): Promise<boolean>;
  pruneExecutions(keep?: number): Promise<number>;
  clearHistory(): Promise<number>;
  expirePaused(options?: { maxAgeMs?: number }): Promise<string[]>;
  saveSnippet(
    name: string,
    options: { executionId: string; description?: string; inputSchema?: unknown },
  ): Promise<void>;
  snippets(): Promise<
    Array<{
      name: string;
      description?: string;
      code: string;
      connectors: string[];
      savedAt: number;
    }>
  >;
  deleteSnippet(name: string): Promise<boolean>;
  search(query: string): Promise<SearchOutput>;
  describe(target: string): Promise<DescribeOutput>;
}

/** The checked options as every step uses them. */
function createContext(options: CodemodeRuntimeOptions): RunContext {
  if (!options || typeof options.executor?.execute !== "function") {
    throw new CodemodeError("INVALID_CONFIG", "createCodemodeRuntime needs an executor.");
  }
  if (!Array.isArray(options.connectors)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "createCodemodeRuntime needs connectors: an array (it may be empty).",
    );
  }
  const store = options.store ?? (options.ctx ? sqliteStore(options.ctx.storage) : undefined);
  if (!store) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "createCodemodeRuntime needs a store (sqliteStore(db), memoryStore()) or a Durable Object ctx.",
    );
  }
  checkJournalStore(store);
  const name = options.name ?? "default";
  if (typeof name !== "string" || !/^[A-Za-z0-9_.-]+$/.test(name)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `Runtime name "${String(name)}" may only use letters, digits, "_", "." and "-".`,
    );
  }
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (
    typeof leaseMs !== "number" ||
    !Number.isFinite(leaseMs) ||
    leaseMs < MIN_LEASE_MS ||
    leaseMs > MAX_LEASE_MS
  ) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `leaseMs must be a number of milliseconds from ${MIN_LEASE_MS} to ${MAX_LEASE_MS}; got ${String(leaseMs)}.`,
    );
  }
  const journal = store.journal(name);
  checkJournal(journal);
  const local = localOf(store);
  return {
    journal,
    leaseMs,
    executor: options.executor,
    configurator: createConfigurator(options.connectors, options.search, options.now),
    now: options.now ?? (() => Date.now()),
    limits: options.limits,
    maxCalls: options.limits?.maxCalls ?? 10_000,
    maxLookups: budgetOf(options.limits, "maxLookups", DEFAULT_MAX_LOOKUPS),
    maxSnippetRuns: budgetOf(options.limits, "maxSnippetRuns", DEFAULT_MAX_SNIPPET_RUNS),
    maxExecutions: options.maxExecutions ?? DEFAULT_MAX_EXECUTIONS,
    transformResult: options.transformResult,
    hooks: connectorHooks(options.connectors),
    live: local.live,
    asks: local.asks,
    toolCalls: toolCallMemory(),
    emit: eventSink(options.onEvent),
  };
}

/** A budget of `limits`: a whole number from 0 on, or its default when not given. */
function budgetOf(
  limits: RuntimeLimits | undefined,
  name: "maxLookups" | "maxSnippetRuns",
  fallback: number,
): number {
  const value = limits?.[name];
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `limits.${name} must be a whole number from 0 on; got ${String(value).slice(0, 100)}.`,
    );
  }
  return value;
}

/**
 * The durable runtime: runs the model's code through an executor, numbers every connector call and
 * step, journals them, pauses for approvals, replays recorded results on later passes, rolls back,
 * keeps snippets, and turns every failure of the code into data.
 */
export function createCodemodeRuntime(options: CodemodeRuntimeOptions): CodemodeRuntime {
  const context = createContext(options);
  const { journal, configurator } = context;
  const execute = (input: { code: string }) => begin(context, input);
  const start = (input: { code: string }) =>
    new Promise<{ executionId: string; outcome: Promise<CodeModeOutput> }>((resolve, reject) => {
      const outcome: Promise<CodeModeOutput> = begin(context, input, {
        onStarted: (executionId) => resolve({ executionId, outcome }),
      });
      // settled before it was recorded (refused code, a configuration that fails) or after
      outcome.then((output) => resolve({ executionId: output.executionId, outcome }), reject);
    });
  const runtime: CodemodeRuntime = {
    tool: (toolOptions) => runtimeTool(context, toolOptions),
    approvalDescriptor: (toolCallId, code) => approvalDescriptor(context, toolCallId, code),
    rejectDenied: (messages) => rejectDenied(context, messages),
    execute,
    start,
    async ready() {
      await configurator.configure();
    },
    approve: ({ executionId, handle, seqs, reason }) =>
      approve(context, executionId, {
        ...(handle === undefined ? {} : { handle }),
        ...(seqs === undefined ? {} : { seqs }),
        ...(reason === undefined ? {} : { reason }),
      }),
    reject: ({ executionId, seq, handle, reason }) =>
      reject(context, executionId, seq, reason, "api", handle),
    resolve: ({ executionId, seq, result }) => resolve(context, executionId, seq, result),
    cancel: (options) =>
      cancel(context, options?.executionId, {
        ...(options?.reason === undefined ? {} : { reason: options.reason }),
        ...(options?.by === undefined ? {} : { by: options.by }),
      }),
    rollback: async (options) =>
      rollback(context, options.executionId, revertResolutionsOf(options, context.maxCalls)),
    previewRollback: ({ executionId }) => previewRollback(context, executionId),
    pending: (executionId) => pending(context, executionId),
    async executions(limit = 20) {
      return Promise.all(
        (await journal.listExecutions({ limit })).map((record) => decodeExecution(context, record)),
      );
    },
    async execution(id) {
      const record = await journal.getExecution(id);
      return record && decodeExecution(context, record);
    },
    deleteExecution: (id) => deleteExecution(context, id),
    async pruneExecutions(keep = context.maxExecutions) {
      return (await journal.pruneExecutions(keep)).length;
    },
    async clearHistory() {
      return (await journal.pruneExecutions(0)).length;
    },
    expirePaused: (expiry = {}) => expirePaused(context, expiry.maxAgeMs ?? DEFAULT_EXPIRY_MS),
    saveSnippet: (name, snippet) => saveSnippet(context, name, snippet),
    async snippets() {
      return (await journal.listSnippets()).map(({ inputSchema: _schema, ...snippet }) => snippet);
    },
    deleteSnippet: (name) => journal.deleteSnippet(name),
    async search(query) {
      const text = checkText(query, "A search query", MAX_QUERY_LENGTH);
      return (await snippetCatalog(journal, await configurator.configure())).search(text);
    },
    async describe(target) {
      const text = checkText(target, "A describe target", MAX_TARGET_LENGTH);
      return describeTarget(journal, await configurator.configure(), text);
    },
  };
  // an asynchronous configuration is prepared now, so the tool description is ready when it is read
  if (!configurator.current) configurator.configure().catch(() => {});
  return runtime;
}
