// The pending calls of a run, read and withdrawn: what the steps that end a pass, a decision, a
// rollback and expiry share.
import { digestOf } from "../decision-handle.ts";
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
      ...(entry.operation !== undefined ? { operation: entry.operation } : {}),
      digest: await digestOf(entry),
      ...(entry.error !== undefined ? { inDoubt: entry.error } : {}),
      ...(entry.deferred ? { deferred: true as const } : {}),
    })),
  );
}

/**
 * Marks every call of a run that ended without them `withdrawn` (never run): those that wait (by
 * default), and those approved that no pass took; returns the seqs it withdrew. A call that changed
 * state meanwhile (an approval written as the run ended elsewhere) is read again and withdrawn in
 * its new state.
 */
export async function withdrawPending(
  context: RunContext,
  executionId: string,
  states: readonly ("pending" | "approved")[] = ["pending", "approved"],
): Promise<number[]> {
  const withdrawn: number[] = [];
  // the run has ended already: a store that fails here is tried again, so that no call is left
  // waiting in an ended run nobody visits again (found by the PostgreSQL fault suite)
  const waiting = await retried(() => context.journal.listEntries(executionId, { states }));
  const withdrawable = (state: string | undefined): state is "pending" | "approved" =>
    (states as readonly (string | undefined)[]).includes(state);
  for (const listed of waiting) {
    // read again once when it changed meanwhile, and withdrawn in its new state
    let state: string | undefined = listed.state;
    for (let tries = 0; tries < 2 && withdrawable(state); tries++) {
      const expected = state;
      const written = await retried(() =>
        context.journal.updateEntry(executionId, listed.seq, [expected], {
          state: "withdrawn",
          updatedAt: context.now(),
        }),
      );
      if (written) {
        withdrawn.push(listed.seq);
        break;
      }
      state = (await retried(() => context.journal.getEntry(executionId, listed.seq)))?.state;
    }
  }
  return withdrawn;
}
