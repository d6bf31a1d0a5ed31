import type { RollbackReport } from "codemode";

/** A call as a sentence names it: the method and its place in the run (`seq` counts from 0). */
const named = (call: { seq: number; connector: string; method: string }) =>
  `${call.connector}.${call.method} (seq ${call.seq})`;

/**
 * What a rollback did, in words a person can check: what was reverted, what was not and why, the
 * calls that never ran (`withdrawn`: a paused run rolled back ends without the calls it waited for),
 * and the status the run is in now.
 */
export function rollbackMessage(
  executionId: string,
  report: RollbackReport,
  status: string,
  withdrawn: ReadonlyArray<{ seq: number; connector: string; method: string }> = [],
): string {
  const reverted = report.calls.filter((call) => call.outcome === "reverted");
  const others = report.calls.filter((call) => call.outcome !== "reverted");
  const lines = [
    reverted.length > 0
      ? `Rolled back ${executionId}: reverted ${reverted.length} call${reverted.length === 1 ? "" : "s"}: ${reverted.map(named).join(", ")}.`
      : `Nothing of ${executionId} was reverted.`,
    ...others.map(
      (call) =>
        `Not reverted: ${named(call)}: ${call.reason ?? (call.outcome === "unrecorded" ? "its outcome was never recorded" : "it has no revert")}.`,
    ),
    ...(withdrawn.length > 0
      ? [`Never ran (withdrawn, not reverted): ${withdrawn.map(named).join(", ")}.`]
      : []),
    reverted.length > 0 || status === "rolled_back"
      ? `The run is now ${status}.`
      : `The run stays ${status}, because nothing could be undone.`,
  ];
  if (report.calls.length === 0)
    lines.splice(1, 0, "The run made no calls that reached a connector.");
  return lines.join("\n");
}
