import type { DecisionHandle, PendingAction } from "codemode";

type Call = { seq: number; digest: string };

const callsOf = (value: unknown): Call[] | undefined => {
  const calls = (value as { calls?: unknown } | null)?.calls;
  if (!Array.isArray(calls)) return undefined;
  const read = calls.map((call: unknown) => {
    const { seq, digest } = (call ?? {}) as Partial<Call>;
    return typeof seq === "number" && typeof digest === "string" ? { seq, digest } : undefined;
  });
  return read.every((call) => call !== undefined) ? (read as Call[]) : undefined;
};

/**
 * Whether `given` (from a request: anything) names exactly the calls of `shown`, the handle a card
 * or the queue showed: the same run, the same calls in the same order, with the same digests.
 */
export function sameHandle(given: unknown, shown: DecisionHandle): boolean {
  if (typeof given !== "object" || given === null) return false;
  const calls = callsOf(given);
  return (
    (given as { version?: unknown }).version === shown.version &&
    (given as { executionId?: unknown }).executionId === shown.executionId &&
    calls !== undefined &&
    calls.length === shown.calls.length &&
    calls.every(
      (call, index) =>
        call.seq === shown.calls[index]?.seq && call.digest === shown.calls[index]?.digest,
    )
  );
}

/** Whether each call of `handle` still waits, with the input it was shown with. */
export function waitsAsShown(handle: DecisionHandle, pending: readonly PendingAction[]): boolean {
  return handle.calls.every((call) =>
    pending.some(
      (action) =>
        action.executionId === handle.executionId &&
        action.seq === call.seq &&
        action.digest === call.digest,
    ),
  );
}
