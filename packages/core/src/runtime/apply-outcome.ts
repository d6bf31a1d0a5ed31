import { CodemodeError } from "../codemode-error.ts";
import { messageOf } from "../invariants.ts";
import { after } from "../platform.ts";
import type { PassState } from "./pass-state.ts";
import type { RunContext } from "./run-context.ts";

/** How many times the write of a call's outcome is tried before the run gives up on recording it. */
export const RECORD_ATTEMPTS = 3;
/** The wait before the second try (ms); each later wait is four times longer. */
const FIRST_RETRY_MS = 50;

/**
 * A journal write tried again after a store error (a dropped connection, a restarting server), up
 * to `RECORD_ATTEMPTS` times in all; the last error is thrown.
 */
export async function retried<T>(write: () => Promise<T>): Promise<T> {
  let last: unknown;
  for (let attempt = 0; attempt < RECORD_ATTEMPTS; attempt++) {
    if (attempt > 0) {
      await new Promise<void>((resolve) => {
        after(FIRST_RETRY_MS * 4 ** (attempt - 1), resolve);
      });
    }
    try {
      return await write();
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

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
