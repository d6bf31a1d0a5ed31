import { CodemodeError } from "../../codemode-error.ts";
import { messageOf } from "../../invariants.ts";
import type { RunContext } from "../context/run-context.ts";
import { retried } from "../context/values.ts";

/**
 * Writes the calls an approval covers `pending` → `approved`, once the approval has taken the run
 * (`running`, so what it covers is fixed): the decision is in the journal, and a pass that pauses
 * first at an earlier call that still waits leaves them approved for the pass that reaches them.
 * Returns the seqs written; a call that no longer waits (removed meanwhile) is left out.
 *
 * A store that still fails after a few tries leaves the run as the approval found it: the calls it
 * wrote go back to `pending`, the run back to `paused`, and the host gets `STORE_FAILED`; the
 * person may approve again.
 */
export async function recordApproval(
  context: RunContext,
  executionId: string,
  seqs: Iterable<number>,
): Promise<Set<number>> {
  const { journal, now } = context;
  const written = new Set<number>();
  try {
    for (const seq of seqs) {
      const kept = await retried(() =>
        journal.updateEntry(executionId, seq, ["pending"], { state: "approved", updatedAt: now() }),
      );
      if (kept) written.add(seq);
    }
    return written;
  } catch (error) {
    for (const seq of written) {
      await journal
        .updateEntry(executionId, seq, ["approved"], { state: "pending", updatedAt: now() })
        .catch(() => false);
    }
    await journal
      .updateExecution(executionId, ["running"], {
        status: "paused",
        updatedAt: now(),
        lease: undefined,
      })
      .catch(() => false);
    throw new CodemodeError(
      "STORE_FAILED",
      `The approval could not be recorded (${messageOf(error)}): nothing ran, and the run still waits. Approve again.`,
      { cause: error },
    );
  }
}
