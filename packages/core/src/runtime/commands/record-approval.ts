import { CodemodeError } from "../../codemode-error.ts";
import { sameCallDigest } from "../../decision-handle.ts";
import { messageOf } from "../../invariants.ts";
import type { JournalEntry } from "../../journal-store.ts";
import type { CodeModeOutput } from "../../types.ts";
import type { RunContext } from "../context/run-context.ts";
import { retried } from "../context/values.ts";

/** What an approval covers, as the approval read each call before it took the run. */
type Covered = Pick<JournalEntry, "seq" | "connector" | "method" | "args" | "error">;

/**
 * Writes the calls an approval covers `pending` → `approved`, once the approval has taken the run
 * (`running` under `owner`'s lease, so nothing else changes its calls): the decision is in the
 * journal, and a pass that pauses first at an earlier call that still waits leaves them approved
 * for the pass that reaches them. Returns the seqs written.
 *
 * Each call must still wait as the approval read it (the same digest): a call another process's
 * pass changed between that read and the take (one now in doubt) is not approved; the run goes
 * back to `paused` and the approval is `DECISION_STALE`. Each write renews the run's lease, however
 * many calls the approval covers. A store that still fails after a few tries gets `STORE_FAILED`:
 * the run is put back as the approval found it (each call `pending`, then the run `paused`) and the
 * person may approve again; the run goes back to `paused` only once every call is `pending` again,
 * never with one left `approved` that `pending()` would not show. A store down through those writes
 * too leaves the run `running` under this lease, which nothing else changes until it lapses; the
 * error says so.
 */
export async function recordApproval(
  context: RunContext,
  executionId: string,
  owner: string,
  covered: readonly Covered[],
): Promise<Set<number> | CodeModeOutput> {
  const { journal, now, leaseMs } = context;
  const claim = { owner };
  // a write of the approval renews the lease it holds: a long approval does not lapse under itself
  const renewing = () => ({ owner, renewUntil: now() + leaseMs });
  const release = () =>
    retried(() =>
      journal.updateExecution(
        executionId,
        ["running"],
        { status: "paused", updatedAt: now(), lease: undefined },
        claim,
      ),
    );
  const written = new Set<number>();
  try {
    const waiting = new Map(
      (await retried(() => journal.listEntries(executionId, { states: ["pending"] }))).map(
        (entry) => [entry.seq, entry],
      ),
    );
    for (const call of covered) {
      const current = waiting.get(call.seq);
      if (current?.state !== "pending" || !sameCallDigest(current, call)) {
        await release();
        return {
          status: "error",
          executionId,
          error: `Call #${call.seq} (${call.connector}.${call.method}) changed after this approval read it: another decision came first. Read the run's pending calls again.`,
          code: "DECISION_STALE",
        };
      }
    }
    for (const { seq } of covered) {
      // a write the store made and then reported failed is found approved when tried again
      const kept = await retried(() =>
        journal.updateEntry(
          executionId,
          seq,
          ["pending", "approved"],
          { state: "approved", updatedAt: now() },
          renewing(),
        ),
      );
      if (kept) written.add(seq);
    }
    return written;
  } catch (error) {
    let restored = true;
    for (const { seq } of covered) {
      // `pending` already (never written, or put back by a try whose answer was lost) counts
      const back = await retried(() =>
        journal.updateEntry(
          executionId,
          seq,
          ["approved", "pending"],
          { state: "pending", updatedAt: now() },
          renewing(),
        ),
      ).catch(() => false);
      if (!back) restored = false;
    }
    const waits = restored && (await release().catch(() => false));
    const why = messageOf(error);
    throw new CodemodeError(
      "STORE_FAILED",
      waits
        ? `The approval could not be recorded (${why}): nothing ran, and the run still waits. Approve again.`
        : `The approval could not be recorded (${why}), nor the run put back to wait: nothing ran, and nothing will. The run stays held by this approval until its lease lapses; expiry (\`expirePaused\`) then ends it.`,
      { cause: error },
    );
  }
}
