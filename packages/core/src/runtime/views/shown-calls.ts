import { type DecisionHandle, digestOf } from "../../decision-handle.ts";
import type { JournalEntry } from "../../journal-store.ts";

/**
 * Why a decision's handle no longer matches the run, if it does not: each call it names must wait
 * now (among `waiting`) with the digest the person was shown. A handle whose calls ran, were
 * withdrawn or wait with another input decides nothing: the decision was made already, or another
 * came first.
 */
export async function staleCalls(
  handle: DecisionHandle,
  waiting: readonly JournalEntry[],
): Promise<string | undefined> {
  const bySeq = new Map(waiting.map((entry) => [entry.seq, entry]));
  for (const call of handle.calls) {
    const entry = bySeq.get(call.seq);
    if (!entry) {
      return `Call #${call.seq} of this decision no longer waits: it was decided already, or another decision came first. Read the run's pending calls again.`;
    }
    if ((await digestOf(entry)) !== call.digest) {
      return `Call #${call.seq} (${entry.connector}.${entry.method}) waits with another input than the one this decision was shown. Read the run's pending calls again.`;
    }
  }
  return undefined;
}
