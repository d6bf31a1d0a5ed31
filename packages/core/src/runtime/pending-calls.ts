// The pending calls of a run, read and withdrawn: what the steps that end a pass, a decision, a
// rollback and expiry share.
import { callDigest } from "../decision-handle.ts";
import type { PendingAction } from "../types.ts";
import type { RunContext } from "./context/run-context.ts";
import { codec, retried } from "./context/values.ts";

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

/**
 * Marks every call of a run that ended without them `withdrawn` (never run): those that waited, and
 * those approved that no pass had reached yet; returns their seqs.
 */
export async function withdrawPending(context: RunContext, executionId: string): Promise<number[]> {
  const withdrawn: number[] = [];
  // the run has ended already: a store that fails here is tried again, so that no call is left
  // waiting in an ended run nobody visits again (found by the PostgreSQL fault suite)
  const waiting = await retried(() =>
    context.journal.listEntries(executionId, { states: ["pending", "approved"] }),
  );
  for (const entry of waiting) {
    if (entry.state !== "pending" && entry.state !== "approved") continue;
    const { state } = entry;
    await retried(() =>
      context.journal.updateEntry(executionId, entry.seq, [state], {
        state: "withdrawn",
        updatedAt: context.now(),
      }),
    );
    withdrawn.push(entry.seq);
  }
  return withdrawn;
}
