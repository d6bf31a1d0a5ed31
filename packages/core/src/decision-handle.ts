import { CodemodeError } from "./codemode-error.ts";
import { sha256Hex } from "./platform.ts";
import type { PendingAction } from "./types.ts";

/**
 * What a person decides about, as they were shown it: a paused run's id and, for each call shown,
 * its seq and the digest of its connector, method and recorded input text. A decision carries its
 * handle back; the runtime refuses one whose calls no longer wait or wait with another input
 * (`DECISION_STALE`), so a repeated, late or stale answer never approves what waits now.
 */
export interface DecisionHandle {
  version: 1;
  executionId: string;
  calls: DecisionCall[];
}

/** One call a person was shown. */
export interface DecisionCall {
  seq: number;
  /** `callDigest` of the call as it was recorded when the run paused */
  digest: string;
}

/** The most calls one handle names. */
export const MAX_HANDLE_CALLS = 1000;

/**
 * The digest of a journaled call: SHA-256 (hex) over its connector, method and recorded input text
 * (the codec text, as the journal keeps it), each length-prefixed so no two calls share one, and
 * the operation it was recorded for when it has one (a call without one keeps the digest it had
 * before operations were recorded).
 */
export function callDigest(
  connector: string,
  method: string,
  args: string | undefined,
  /** `PendingAction.inDoubt`: a call that waits in doubt is another thing to decide than one that never ran */
  inDoubt?: string,
  /** `JournalEntry.operation`: where the call goes */
  operation?: string,
): Promise<string> {
  const part = (text: string | undefined) => (text === undefined ? "-" : `${text.length}:${text}`);
  const doubt = inDoubt === undefined ? "" : "\nin-doubt";
  const where = operation === undefined ? "" : `\noperation ${part(operation)}`;
  return sha256Hex(
    `codemode-call/1\n${part(connector)}\n${part(method)}\n${part(args)}${doubt}${where}`,
  );
}

/** What `callDigest` is made of, as a journal entry holds it (`error` set: the call waits in doubt). */
export interface DigestedCall {
  connector: string;
  method: string;
  args?: string | undefined;
  error?: string | undefined;
  operation?: string | undefined;
}

/** `callDigest` of a recorded call. */
export const digestOf = (call: DigestedCall): Promise<string> =>
  callDigest(call.connector, call.method, call.args, call.error, call.operation);

/** Whether two recorded calls have the same `callDigest`, told without hashing: the same parts. */
export function sameCallDigest(a: DigestedCall, b: DigestedCall): boolean {
  return (
    a.connector === b.connector &&
    a.method === b.method &&
    a.args === b.args &&
    (a.error === undefined) === (b.error === undefined) &&
    a.operation === b.operation
  );
}

/**
 * The handle of the calls of one run a person was shown (`runtime.pending(id)`, a paused output's
 * `pending`). Every action must be of the same run: `executionId` when given, else the first's.
 */
export function decisionHandleOf(
  pending: readonly PendingAction[],
  executionId: string | undefined = pending[0]?.executionId,
): DecisionHandle {
  if (!Array.isArray(pending) || pending.length === 0) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "A decision handle needs the pending calls a person was shown.",
    );
  }
  if (typeof executionId !== "string" || executionId.length === 0) {
    throw new CodemodeError("INVALID_CONFIG", "A decision handle needs the run's execution id.");
  }
  return {
    version: 1,
    executionId,
    calls: pending.map((action) => {
      if (action.executionId !== executionId) {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `A decision handle is for one run: call #${action.seq} is of "${action.executionId}", not "${executionId}".`,
        );
      }
      if (typeof action.digest !== "string") {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `Pending call #${action.seq} has no digest: take the calls from runtime.pending() or a paused output.`,
        );
      }
      return { seq: action.seq, digest: action.digest };
    }),
  };
}

/** Tells what is wrong with a handle from outside (a request, a message), if anything. */
export function badHandle(handle: unknown, executionId?: string): string | undefined {
  const value = handle as Partial<DecisionHandle> | null;
  const fine =
    typeof value === "object" &&
    value !== null &&
    value.version === 1 &&
    typeof value.executionId === "string" &&
    (executionId === undefined || value.executionId === executionId) &&
    Array.isArray(value.calls) &&
    value.calls.length > 0 &&
    value.calls.length <= MAX_HANDLE_CALLS &&
    value.calls.every(
      (call) =>
        typeof call === "object" &&
        call !== null &&
        Number.isSafeInteger(call.seq) &&
        call.seq >= 0 &&
        typeof call.digest === "string" &&
        /^[0-9a-f]{64}$/.test(call.digest),
    ) &&
    new Set(value.calls.map((call) => call.seq)).size === value.calls.length;
  return fine
    ? undefined
    : `A decision handle is { version: 1, executionId, calls: [{ seq, digest }] } with 1 to ${MAX_HANDLE_CALLS} distinct calls, as decisionHandleOf(pending) makes it${executionId === undefined ? "" : `, for run "${executionId.slice(0, 100)}"`}.`;
}

/**
 * A handle from outside (a request body, a message), checked whole and copied to its fields, for
 * `approve` / `reject`; throws `INVALID_INPUT` saying what a handle is. That its calls still wait
 * as shown is for the runtime to check when it decides.
 */
export function parseDecisionHandle(value: unknown, executionId?: string): DecisionHandle {
  const wrong = badHandle(value, executionId);
  if (wrong) throw new CodemodeError("INVALID_INPUT", wrong);
  const handle = value as DecisionHandle;
  return {
    version: 1,
    executionId: handle.executionId,
    calls: handle.calls.map(({ seq, digest }) => ({ seq, digest })),
  };
}
