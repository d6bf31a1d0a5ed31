import { CodemodeError } from "../../codemode-error.ts";
import { messageOf } from "../../invariants.ts";
import type { RunContext } from "../context/run-context.ts";
import { retried } from "../context/values.ts";
import type { PassState } from "./pass-state.ts";

/**
 * Records what a call gave (`applyEntry`), trying again after a store error (a dropped connection,
 * a restarting server). When it still fails, the outcome is known here but not in the journal: the
 * pass stops (nothing after the call runs, and the program does not get the outcome) and the run
 * ends in failure when the pass reports, so no later pass runs the call again. Its entry stays
 * `executing`: a rollback reports it as unrecorded.
 */
export async function applyOutcome(
  context: RunContext,
  pass: PassState,
  seq: number,
  what: string,
  outcome: { result?: string; error?: string },
): Promise<void> {
  try {
    await retried(() =>
      context.journal.applyEntry(pass.executionId, seq, { ...outcome, updatedAt: context.now() }),
    );
    return;
  } catch (error) {
    const message = `The outcome of ${what} (#${seq}) could not be recorded (${messageOf(error)}): it ran, so the run stops here and nothing runs it again.`;
    pass.endInFailure(message);
    throw new CodemodeError("ABORTED", message);
  }
}
