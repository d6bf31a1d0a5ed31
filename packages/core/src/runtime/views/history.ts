import type { ExecutionRecord, JournalEntry } from "../../journal-store.ts";
import type { PendingAction } from "../../types.ts";
import type { RunContext } from "../context/run-context.ts";
import { codec } from "../context/values.ts";
import { pendingEntries } from "../pending-calls.ts";

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
