import { callDigest } from "../decision-handle.ts";
import type { ExecutionRecord, JournalEntry } from "../journal-store.ts";
import type { PendingAction } from "../types.ts";
import { withdrawPending } from "./decisions.ts";
import { codec, type RunContext } from "./run-context.ts";

/** Runs untouched this long are stale for `expirePaused` by default. */
export const DEFAULT_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** A run with its journal, as the audit view shows it. */
export interface RuntimeExecution {
  id: string;
  status: ExecutionRecord["status"];
  code: string;
  result?: unknown;
  error?: string;
  logs?: string[];
  connectors: string[];
  createdAt: number;
  updatedAt: number;
  calls: Array<{
    seq: number;
    kind: "call" | "step";
    connector: string;
    method: string;
    args?: unknown;
    result?: unknown;
    state: JournalEntry["state"];
    error?: string;
  }>;
}

/** The calls a run waits for: only a paused run waits for any. */
export async function pendingOf(
  context: RunContext,
  executionId: string,
): Promise<PendingAction[]> {
  if ((await context.journal.getExecution(executionId))?.status !== "paused") return [];
  return pendingEntries(context, executionId);
}

/** The run's pending entries as the person sees them (the caller knows the run is paused). */
export async function pendingEntries(
  context: RunContext,
  executionId: string,
): Promise<PendingAction[]> {
  const entries = (await context.journal.listEntries(executionId, { states: ["pending"] })).filter(
    (entry) => entry.state === "pending",
  );
  return Promise.all(
    entries.map(async (entry) => ({
      executionId,
      seq: entry.seq,
      connector: entry.connector,
      method: entry.method,
      args: entry.args === undefined ? undefined : codec.decode(entry.args),
      digest: await callDigest(entry.connector, entry.method, entry.args, entry.error),
      ...(entry.error !== undefined ? { inDoubt: entry.error } : {}),
      ...(entry.deferred ? { deferred: true as const } : {}),
    })),
  );
}

/** `runtime.pending`: of one run, or of every paused run. */
export async function pending(context: RunContext, executionId?: string): Promise<PendingAction[]> {
  if (executionId !== undefined) return pendingOf(context, executionId);
  const paused = await context.journal.listExecutions({ statuses: ["paused"] });
  return (await Promise.all(paused.map((record) => pendingOf(context, record.id)))).flat();
}

export async function decodeExecution(
  context: RunContext,
  record: ExecutionRecord,
): Promise<RuntimeExecution> {
  return {
    id: record.id,
    status: record.status,
    code: record.code,
    ...(record.result !== undefined ? { result: codec.decode(record.result) } : {}),
    ...(record.error !== undefined ? { error: record.error } : {}),
    ...(record.logs ? { logs: record.logs } : {}),
    connectors: record.connectors,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    calls: (await context.journal.listEntries(record.id)).map((entry) => ({
      seq: entry.seq,
      kind: entry.kind,
      connector: entry.connector,
      method: entry.method,
      ...(entry.args !== undefined ? { args: codec.decode(entry.args) } : {}),
      ...(entry.result !== undefined && entry.error === undefined
        ? { result: codec.decode(entry.result) }
        : {}),
      state: entry.state,
      ...(entry.error !== undefined ? { error: entry.error } : {}),
    })),
  };
}

/** `runtime.deleteExecution`: removes a run; a run that had not ended hears it ended. */
export async function deleteExecution(context: RunContext, id: string): Promise<boolean> {
  const record = await context.journal.getExecution(id);
  if (!record) return false;
  const removed = await context.journal.deleteExecution(id);
  if (record.status === "running" || record.status === "paused") {
    await context.hooks(id, undefined, record.status === "paused" ? "rejected" : "error");
  }
  return removed;
}

/**
 * `runtime.expirePaused`: ends paused runs untouched for `maxAgeMs`, and running runs whose pass is
 * gone: their lease lapsed (whatever `maxAgeMs`) and no pass in this process has them. Each is
 * taken by a conditional write that re-checks its status (and, for a running run, that its lease
 * is still lapsed), so a pass that renewed meanwhile keeps its run.
 */
export async function expirePaused(
  context: RunContext,
  maxAgeMs = DEFAULT_EXPIRY_MS,
): Promise<string[]> {
  const { journal, now } = context;
  const time = now();
  const expired: string[] = [];
  const stale = [
    ...(await journal.listStale(["paused"], time - maxAgeMs)),
    ...(await journal.listLapsed(time)),
  ];
  for (const record of stale) {
    // a pass of this process still holds it: running, or paused and not yet reported (its pause is
    // for the person it reports to, who has not seen it yet)
    if (context.live.has(record.id)) continue;
    const paused = record.status === "paused";
    const changed = await journal.updateExecution(
      record.id,
      [record.status],
      {
        status: paused ? "rejected" : "error",
        error: paused
          ? "Expired while waiting for approval."
          : "Expired while running: its pass's lease lapsed (the process that ran it ended or stalled) before the pass finished.",
        updatedAt: now(),
        lease: undefined,
      },
      paused ? undefined : { lapsedBefore: time },
    );
    if (!changed) continue;
    await withdrawPending(context, record.id);
    await context.hooks(record.id, undefined, paused ? "rejected" : "error");
    expired.push(record.id);
  }
  return expired;
}
