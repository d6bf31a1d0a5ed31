import type { RunContext } from "../context/run-context.ts";
import { withdrawPending } from "../pending-calls.ts";

/** Runs untouched this long are stale for `expirePaused` by default. */
export const DEFAULT_EXPIRY_MS = 24 * 60 * 60 * 1000;

/**
 * `runtime.expirePaused`: ends paused runs untouched for `maxAgeMs`, and running runs whose pass is
 * gone: their lease lapsed (whatever `maxAgeMs`) and no pass in this process has them. Each is
 * taken by a conditional write that re-checks its status and that it is still stale (a paused run
 * untouched, a running run's lease lapsed), so a run decided or renewed meanwhile is kept.
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
      // a paused run only while nothing wrote it since it was found stale (approved meanwhile in
      // another process, it may have paused again at a call nobody has seen yet)
      paused ? { updatedBefore: time - maxAgeMs } : { lapsedBefore: time },
    );
    if (!changed) continue;
    await withdrawPending(context, record.id);
    await context.hooks(record.id, undefined, paused ? "rejected" : "error");
    expired.push(record.id);
  }
  return expired;
}
