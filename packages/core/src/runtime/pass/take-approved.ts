import type { RunContext } from "../context/run-context.ts";
import { retried } from "../context/values.ts";
import type { PassState } from "./pass-state.ts";

/**
 * Takes the approved call at `seq` for this pass: `approved` → `executing`, one taker, written only
 * while the run is `running` under this pass's lease (renewed in the same write when due). It
 * returns only when the call is this pass's to start; otherwise it throws, and the call never
 * reaches its connector:
 *
 * - the run is no longer this pass's (cancelled, expired, rolled back or deleted by another
 *   process, or its lease taken): the pass stops as one that lost its lease and writes nothing
 *   over the run; the call stays `pending`, for whoever ended the run to withdraw;
 * - the run is still this pass's but the call no longer waits (another taker won, or it was
 *   withdrawn): the run fails;
 * - the call was taken, but the pass lost its lease while the take was under way (its heartbeat
 *   found the run ended or taken): it stops as one that lost its lease, the entry left
 *   `executing`, never invoked (a pass whose run was taken writes nothing more; the entry reads
 *   as in doubt).
 *
 * A pass stopped for another reason is let through, as it is for a new call it wrote `executing`:
 * a call beside this one paused (the taken call runs and settles before the pause is reported), or
 * this process cancelled the run (the caller records the call `withdrawn`, never invoked).
 *
 * A store error is tried again (`retried`): a lost write does not fail the pass. A try that threw
 * may still have committed; when a later try then finds the call no longer `approved`, the call is
 * this pass's only if it reads `executing` while the run is still `running` under this pass's lease
 * (nobody else can take it under that lease). When every try throws, the error is thrown and the
 * call is not invoked.
 */
export async function takeApproved(
  context: RunContext,
  pass: PassState,
  seq: number,
): Promise<void> {
  let threw = false;
  // each try claims anew: a later try never writes an older lease renewal than the heartbeat's
  let claim = pass.claim();
  const taken = await retried(async () => {
    if (threw) claim = pass.claim();
    try {
      return await context.journal.updateEntry(
        pass.executionId,
        seq,
        ["approved"],
        { state: "executing", updatedAt: context.now() },
        claim,
      );
    } catch (error) {
      threw = true;
      throw error;
    }
  });
  if (taken) {
    pass.held(claim);
  } else {
    // which condition failed: the run, read after the refused write, says whether it is still
    // this pass's (a run that changes hands after the read is not written by `failRun` either)
    const run = await retried(() => context.journal.getExecution(pass.executionId));
    const ours = run?.status === "running" && run.lease?.owner === pass.owner;
    // after a try that threw, the take may have committed: the call reads `executing` under this
    // pass's lease, which no other pass can hold. A renewal that lost answer carried is not counted
    // (`held` is not called): the heartbeat renews sooner, never later
    const committed =
      threw &&
      ours &&
      (await retried(() => context.journal.getEntry(pass.executionId, seq)))?.state === "executing";
    if (!committed) {
      if (!ours) pass.leaseLost();
      await pass.failRun(`Call #${seq} is no longer waiting for approval; the run stopped.`);
      pass.guard();
    }
  }
  // a renewal refused while the take was under way: the run is someone else's now
  if (!pass.holdsLease) pass.leaseLost();
}
