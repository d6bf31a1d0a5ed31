import type { ExecutionStatus } from "../journal-store.ts";
import {
  classify,
  REVERT_IN_DOUBT,
  revertKey,
  rollbackCandidates,
  rollbackTarget,
} from "./rollback.ts";
import { codec, type RunContext } from "./run-context.ts";

/** One call a rollback would look at, and what it would do with it. */
export interface RollbackPreviewCall {
  seq: number;
  connector: string;
  method: string;
  /** the input the call was made with, decoded */
  input: unknown;
  /** `revert`: its connector's revert would run; otherwise why nothing undoes it */
  action: "revert" | "cannot_revert" | "unrecorded";
  reason?: string;
}

/** What `runtime.rollback` would do now, computed without changing anything. */
export interface RollbackPreview {
  executionId: string;
  status: ExecutionStatus;
  /** every call that reached a connector, newest first (the order a rollback reverts in) */
  calls: RollbackPreviewCall[];
}

/**
 * `runtime.previewRollback`: which calls a rollback would revert, which it cannot and why; it
 * writes nothing, so a person can look before confirming. (A rollback decides again when it runs.)
 */
export async function previewRollback(
  context: RunContext,
  executionId: string,
): Promise<RollbackPreview> {
  const execution = await rollbackTarget(context, executionId);
  const config = await context.configurator.configure();
  const entries = await rollbackCandidates(context, executionId);
  const now = context.now();
  const calls = entries.reverse().map((entry): RollbackPreviewCall => {
    const live = context.live.has(revertKey(executionId, entry.seq));
    const verdict = classify(entry, now, live, config.connectors);
    const call = {
      seq: entry.seq,
      connector: entry.connector,
      method: entry.method,
      input: entry.args === undefined ? undefined : codec.decode(entry.args),
    };
    if (verdict === "revert") return { ...call, action: "revert" };
    if (verdict === "revert-in-doubt") {
      return { ...call, action: "unrecorded", reason: REVERT_IN_DOUBT };
    }
    return {
      ...call,
      action: verdict.outcome === "unrecorded" ? "unrecorded" : "cannot_revert",
      ...(verdict.reason ? { reason: verdict.reason } : {}),
    };
  });
  return { executionId, status: execution.status, calls };
}
