import { CodemodeError } from "../../codemode-error.ts";
import { decodeErrorRecord, LIVENESS_MS } from "../../invariants.ts";
import type { ExecutionRecord, ExecutionStatus, JournalEntry } from "../../journal-store.ts";
import { operationMoved } from "../../operation.ts";
import type { Configuration } from "../context/configuration.ts";
import type { RunContext } from "../context/run-context.ts";
import type { RevertOutcome } from "../context/runtime-event.ts";
import { codec, revertKey } from "../context/values.ts";

/** What a rollback did with one call that reached its connector. */
export interface RollbackCall {
  seq: number;
  connector: string;
  method: string;
  outcome: RevertOutcome;
  /** why it was skipped, failed, or has no recorded outcome */
  reason?: string;
}

/** What a preview says of a revert in doubt (a rollback asks its connector first). */
export const REVERT_IN_DOUBT =
  "a rollback started its revert and never recorded what became of it, so it may be undone already; a rollback asks its connector's reconcileRevert, else the host decides (revertAgain or markReverted)";

/** Why a call whose method now names another operation is not reverted. */
export const MOVED =
  "its method now names another operation than the one the call was recorded for, so a revert through it could undo something else";

/**
 * What rollback does with an entry, before any revert runs: report it as it is, revert it, or (a
 * revert an earlier rollback started and never recorded) decide what became of that revert first.
 */
export function classify(
  entry: JournalEntry,
  now: number,
  /** a rollback in this process is reverting it */
  live: boolean,
  connectors: Configuration["connectors"],
): RollbackCall | "revert" | "revert-in-doubt" {
  const call = { seq: entry.seq, connector: entry.connector, method: entry.method };
  if (entry.state === "executing") {
    return {
      ...call,
      outcome: "unrecorded",
      reason: "the process stopped before its outcome was recorded",
    };
  }
  if (entry.state === "pending" || entry.state === "approved") {
    // in doubt (see in-doubt.ts): a pass started it, and nobody knows what became of it
    return {
      ...call,
      outcome: "unrecorded",
      reason: "it may have run: a pass started it and its outcome was never recorded",
    };
  }
  if (entry.state === "error") {
    return {
      ...call,
      outcome: "unrecorded",
      reason: `it ran, but its result was not recorded: ${entry.error ?? "unknown"}`,
    };
  }
  if (entry.state === "reverting") {
    // a claim no rollback renews any more: its revert may have run (see revert-in-doubt.ts)
    if (!live && now - entry.updatedAt >= LIVENESS_MS) return "revert-in-doubt";
    return { ...call, outcome: "skipped", reason: "another rollback is reverting it" };
  }
  if (entry.error !== undefined) {
    const record = decodeErrorRecord(entry.error, entry.result);
    if (record.code === "TIMEOUT") {
      return {
        ...call,
        outcome: "unrecorded",
        reason: "it was abandoned at its time limit and may have run",
      };
    }
    return {
      ...call,
      outcome: "skipped",
      reason: `the call failed (${record.message.slice(0, 200)})`,
    };
  }
  const resolved = connectors.get(entry.connector);
  const method = resolved?.methods.get(entry.method);
  if (!resolved || !method) {
    return { ...call, outcome: "skipped", reason: "its connector or method is not configured now" };
  }
  if (operationMoved(entry, method.definition))
    return { ...call, outcome: "skipped", reason: MOVED };
  if (!method.definition.revertible || !resolved.connector.revert) {
    return { ...call, outcome: "skipped", reason: "the method is not revertible" };
  }
  return "revert";
}

/** The run a rollback (or its preview) is for: it exists and no pass of it is running. */
export async function rollbackTarget(
  context: RunContext,
  executionId: string,
): Promise<ExecutionRecord> {
  const execution = await context.journal.getExecution(executionId);
  if (!execution) {
    throw new CodemodeError(
      "NOT_FOUND",
      `No execution has the id "${String(executionId).slice(0, 100)}".`,
    );
  }
  if (execution.status === "running") {
    throw new CodemodeError(
      "NOT_PAUSED",
      `Execution "${executionId}" is running; roll it back once its pass has ended.`,
    );
  }
  return execution;
}

/** The calls a rollback looks at: every call that may have reached its connector, oldest first. */
export async function rollbackCandidates(
  context: RunContext,
  executionId: string,
): Promise<JournalEntry[]> {
  return (
    await context.journal.listEntries(executionId, {
      states: ["applied", "executing", "error", "reverting", "pending", "approved"],
    })
  ).filter(
    // a call that waits (or was approved and not yet taken) reached no connector, unless it is in
    // doubt (it may have)
    (entry) =>
      entry.kind === "call" &&
      ((entry.state !== "pending" && entry.state !== "approved") || entry.error !== undefined),
  );
}

/** One call a rollback would look at, and what it would do with it. */
export interface RollbackPreviewCall {
  seq: number;
  connector: string;
  method: string;
  /** the input the call was made with, decoded */
  input: unknown;
  /** `revert`: its connector's revert would run; otherwise why nothing undoes it */
  action: "revert" | "cannot_revert" | "unrecorded";
  reason?: string;
}

/** What `runtime.rollback` would do now, computed without changing anything. */
export interface RollbackPreview {
  executionId: string;
  status: ExecutionStatus;
  /** every call that reached a connector, newest first (the order a rollback reverts in) */
  calls: RollbackPreviewCall[];
}

/**
 * `runtime.previewRollback`: which calls a rollback would revert, which it cannot and why; it
 * writes nothing, so a person can look before confirming. (A rollback decides again when it runs.)
 */
export async function previewRollback(
  context: RunContext,
  executionId: string,
): Promise<RollbackPreview> {
  const execution = await rollbackTarget(context, executionId);
  const config = await context.configurator.configure();
  const entries = await rollbackCandidates(context, executionId);
  const now = context.now();
  const calls = entries.reverse().map((entry): RollbackPreviewCall => {
    const live = context.live.has(revertKey(executionId, entry.seq));
    const verdict = classify(entry, now, live, config.connectors);
    const call = {
      seq: entry.seq,
      connector: entry.connector,
      method: entry.method,
      input: entry.args === undefined ? undefined : codec.decode(entry.args),
    };
    if (verdict === "revert") return { ...call, action: "revert" };
    if (verdict === "revert-in-doubt") {
      return { ...call, action: "unrecorded", reason: REVERT_IN_DOUBT };
    }
    return {
      ...call,
      action: verdict.outcome === "unrecorded" ? "unrecorded" : "cannot_revert",
      ...(verdict.reason ? { reason: verdict.reason } : {}),
    };
  });
  return { executionId, status: execution.status, calls };
}
