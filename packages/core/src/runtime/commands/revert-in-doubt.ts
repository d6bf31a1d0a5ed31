import { CodemodeError } from "../../codemode-error.ts";
import { messageOf } from "../../invariants.ts";
import type { JournalEntry } from "../../journal-store.ts";
import { createAbortController } from "../../platform.ts";
import type { ResolvedConnector } from "../context/configuration.ts";
import type { RunContext } from "../context/run-context.ts";
import { codec, retried, revertKey } from "../context/values.ts";

/**
 * What the host decided about reverts in doubt, by the calls' seqs (`runtime.rollback` options):
 * revert them again under the same revert key, or record them reverted (the host checked).
 */
export interface RevertResolutions {
  revertAgain?: readonly number[];
  markReverted?: readonly number[];
}

/** The host's decisions as `runtime.rollback` takes them: lists of at most `maxCalls` seqs, or absent. */
export function revertResolutionsOf(options: object, maxCalls: number): RevertResolutions {
  const out: { revertAgain?: number[]; markReverted?: number[] } = {};
  for (const name of ["revertAgain", "markReverted"] as const) {
    const value = (options as Record<string, unknown>)[name];
    if (value === undefined) continue;
    const fine =
      Array.isArray(value) &&
      value.length <= maxCalls &&
      value.every((seq) => Number.isSafeInteger(seq) && seq >= 0);
    if (!fine) {
      throw new CodemodeError(
        "INVALID_INPUT",
        `${name} must be a list of at most ${maxCalls} seq numbers of calls whose revert is in doubt (each a rollback report's \`calls[].seq\`).`,
      );
    }
    out[name] = [...(value as number[])];
  }
  return out;
}

/** What a rollback does with a revert an earlier rollback started and never recorded. */
export type RevertInDoubtDecision =
  /** run the revert (again), under the same key */
  | { kind: "revert" }
  /** recorded reverted now: its connector read back that it took effect, or the host said so */
  | { kind: "reverted"; reason: string }
  /** nobody can tell: it stays as it is, reported unrecorded, for the host to decide */
  | { kind: "unrecorded"; reason: string };

/**
 * A `reverting` entry no rollback renews any more: a rollback started its revert and never
 * recorded what became of it. No rollback reverts it again by itself. The host's decision (by seq)
 * comes first, then the connector's `reconcileRevert`; otherwise it stays in doubt. When its method
 * now names another operation (`moved`), nothing goes through it, neither the revert nor the
 * connector's check: only the host can record it reverted.
 */
export async function decideRevertInDoubt(
  context: RunContext,
  entry: JournalEntry,
  resolved: ResolvedConnector,
  method: string,
  resolutions: RevertResolutions,
  moved = false,
): Promise<RevertInDoubtDecision> {
  const { executionId, seq } = entry;
  const key = revertKey(executionId, seq);
  if (resolutions.markReverted?.includes(seq)) {
    return record(context, entry, "recorded reverted by the host");
  }
  if (moved) {
    return {
      kind: "unrecorded",
      reason: `a rollback started its revert and never recorded what became of it, and its method now names another operation than the call was recorded for, so it is not reverted again through it: check it by the revert's key ${key}, then roll back with markReverted: [${seq}] once it is undone`,
    };
  }
  if (resolutions.revertAgain?.includes(seq)) return { kind: "revert" };
  const reconcile = resolved.connector.reconcileRevert;
  let found: unknown;
  if (typeof reconcile === "function") {
    try {
      found = await reconcile.call(
        resolved.connector,
        method,
        entry.args === undefined ? undefined : codec.decode(entry.args),
        entry.result === undefined ? undefined : codec.decode(entry.result),
        { executionId, seq, idempotencyKey: key, signal: createAbortController().signal },
      );
    } catch {
      // what it cannot tell, the host decides
    }
  }
  const status = (found as { status?: unknown } | undefined)?.status;
  if (status === "not-applied") return { kind: "revert" };
  if (status === "applied") return record(context, entry, "its connector read back that it ran");
  return {
    kind: "unrecorded",
    reason:
      `a rollback started its revert and never recorded what became of it, so it may be undone already: check it by the revert's key ${key}, ` +
      `then roll back with revertAgain: [${seq}] to revert it again under that key, or markReverted: [${seq}]`,
  };
}

/** Records the revert done (the entry must still be `reverting`). */
async function record(
  context: RunContext,
  entry: JournalEntry,
  reason: string,
): Promise<RevertInDoubtDecision> {
  const { journal, now } = context;
  try {
    const written = await retried(() =>
      journal.updateEntry(entry.executionId, entry.seq, ["reverting"], {
        state: "reverted",
        updatedAt: now(),
      }),
    );
    if (written) return { kind: "reverted", reason };
    return { kind: "unrecorded", reason: "another rollback took its revert in the meantime" };
  } catch (error) {
    return {
      kind: "unrecorded",
      reason: `${reason}, but that could not be recorded (${messageOf(error)})`,
    };
  }
}
