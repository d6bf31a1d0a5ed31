import { CodemodeError } from "../../codemode-error.ts";
import { LIVENESS_MS, messageOf } from "../../invariants.ts";
import { operationMoved } from "../../operation.ts";
import { createAbortController, every } from "../../platform.ts";
import type { RunContext } from "../context/run-context.ts";
import { codec, retried, revertKey } from "../context/values.ts";
import { withdrawPending } from "../pending-calls.ts";
import {
  classify,
  REVERT_IN_DOUBT,
  type RollbackCall,
  rollbackCandidates,
  rollbackTarget,
} from "../views/rollback-preview.ts";
import { decideRevertInDoubt, type RevertResolutions } from "./revert-in-doubt.ts";

/** What a rollback did. */
export interface RollbackReport {
  /** sequence numbers reverted, newest first */
  reverted: number[];
  /** calls that ran and are not reverted: no revert, the connector is gone, or the call failed */
  skipped: number[];
  /**
   * Calls whose connector may have run but whose outcome was never recorded (the process died in
   * between, the result could not be recorded, or the call was abandoned at its time limit), newest
   * first; present only when there are some. Nothing reverts them: check them by their idempotency
   * key, `<executionId>:<seq>`.
   */
  unrecorded?: number[];
  /** calls whose revert threw, newest first; present only when there are some */
  failed?: number[];
  /** every call that reached a connector, newest first, with what happened to it and why */
  calls: RollbackCall[];
}

/** The report's lists of seqs, derived from what happened to each call. */
function reportOf(calls: RollbackCall[]): RollbackReport {
  const seqs = (outcome: RollbackCall["outcome"]) =>
    calls.filter((call) => call.outcome === outcome).map((call) => call.seq);
  const unrecorded = seqs("unrecorded");
  const failed = seqs("failed");
  return {
    reverted: seqs("reverted"),
    skipped: seqs("skipped"),
    ...(unrecorded.length ? { unrecorded } : {}),
    ...(failed.length ? { failed } : {}),
    calls,
  };
}

/**
 * `runtime.rollback`: reverts the run's applied calls, newest first, through their connectors'
 * `revert`, and reports every call that reached a connector. A paused run is taken first, so an
 * approval racing the rollback either resumes it before or finds it rolled back; it ends rolled
 * back, its waiting calls withdrawn, even when nothing could be reverted.
 */
export async function rollback(
  context: RunContext,
  executionId: string,
  resolutions: RevertResolutions = {},
): Promise<RollbackReport> {
  const { journal, now } = context;
  const execution = await rollbackTarget(context, executionId);
  const config = await context.configurator.configure();
  const claimed = execution.status === "paused";
  if (
    claimed &&
    !(await journal.updateExecution(executionId, ["paused"], {
      status: "rolled_back",
      updatedAt: now(),
    }))
  ) {
    return rollback(context, executionId, resolutions);
  }
  const calls: RollbackCall[] = [];
  /** what happened to a call: reported, and told to the observer */
  const done = (call: RollbackCall, startedAt = now()) => {
    calls.push(call);
    context.emit({ type: "revert", executionId, ...call, startedAt, endedAt: now() });
  };
  const failures: string[] = [];
  const entries = await rollbackCandidates(context, executionId);
  for (const entry of entries.reverse()) {
    const verdict = classify(
      entry,
      now(),
      context.live.has(revertKey(executionId, entry.seq)),
      config.connectors,
    );
    if (verdict !== "revert" && verdict !== "revert-in-doubt") {
      // a call still running in a stalled pass may record itself later: it stays what this report
      // says it is (unrecorded), since its `executing` → `applied` write no longer matches
      if (entry.state === "executing") {
        await journal.updateEntry(executionId, entry.seq, ["executing"], {
          state: "error",
          error: `the run was rolled back while this call ran; what it did was not recorded (${verdict.reason ?? "unrecorded"})`,
          updatedAt: now(),
        });
      }
      done(verdict);
      continue;
    }
    const resolved = config.connectors.get(entry.connector);
    const method = resolved?.methods.get(entry.method);
    const call = { seq: entry.seq, connector: entry.connector, method: entry.method };
    if (verdict === "revert-in-doubt") {
      const decided = resolved
        ? await decideRevertInDoubt(
            context,
            entry,
            resolved,
            method?.original ?? entry.method,
            resolutions,
            method !== undefined && operationMoved(entry, method.definition),
          )
        : ({ kind: "unrecorded", reason: REVERT_IN_DOUBT } as const);
      if (decided.kind !== "revert") {
        done({ ...call, outcome: decided.kind, reason: decided.reason });
        continue;
      }
    }
    // taken first (one taker across callers and processes); a rollback that died after taking it
    // left it reverting, and a later one takes it again once that is stale: that take keeps the
    // state, so it is conditioned on the claim as read, and of two rollbacks taking it over at once
    // only one does
    const taken = await journal.updateEntry(
      executionId,
      entry.seq,
      [entry.state],
      { state: "reverting", updatedAt: now() },
      entry.state === "reverting" ? { unchangedSince: entry.updatedAt } : undefined,
    );
    if (!taken) {
      done({ ...call, outcome: "skipped", reason: "another rollback is reverting it" });
      continue;
    }
    const startedAt = now();
    context.live.add(revertKey(executionId, entry.seq));
    // the claim is kept fresh (its `updatedAt`) while the revert runs: another rollback takes a
    // claim again only once it is `LIVENESS_MS` old, so none takes a slow revert over
    const stopRenewal = every(LIVENESS_MS / 3, () =>
      journal.updateEntry(executionId, entry.seq, ["reverting"], { updatedAt: now() }),
    );
    let failure: { error: unknown } | undefined;
    try {
      await resolved?.connector.revert?.(
        method?.original ?? entry.method,
        entry.args === undefined ? undefined : codec.decode(entry.args),
        entry.result === undefined ? undefined : codec.decode(entry.result),
        {
          executionId,
          seq: entry.seq,
          idempotencyKey: revertKey(executionId, entry.seq),
          signal: createAbortController().signal,
        },
      );
    } catch (error) {
      failure = { error };
    } finally {
      stopRenewal();
    }
    // what the revert did is recorded apart from the revert itself: a store error here is not the
    // revert's failure, and a revert that ran is never put back to be reverted again at once
    try {
      if (failure === undefined) {
        await retried(() =>
          journal.updateEntry(executionId, entry.seq, ["reverting"], {
            state: "reverted",
            updatedAt: now(),
          }),
        );
        done({ ...call, outcome: "reverted" }, startedAt);
      } else {
        const reason = messageOf(failure.error);
        // it stays applied: a later rollback tries again
        await retried(() =>
          journal.updateEntry(executionId, entry.seq, ["reverting"], {
            state: "applied",
            updatedAt: now(),
          }),
        );
        failures.push(`#${entry.seq} ${entry.connector}.${entry.method}: ${reason}`);
        done({ ...call, outcome: "failed", reason }, startedAt);
      }
    } catch (error) {
      // left `reverting`, as by a rollback that died: a later one takes it once that is stale
      done(
        {
          ...call,
          outcome: "unrecorded",
          reason: `its revert ${failure === undefined ? "ran" : "failed"}, but that could not be recorded (${messageOf(error)})`,
        },
        startedAt,
      );
    } finally {
      context.live.delete(revertKey(executionId, entry.seq));
    }
  }
  const report = reportOf(calls);
  // a paused run rolled back ends, whatever was reverted: the calls it waits for are withdrawn and
  // no answer can approve them any more; an ended run is marked only once something was undone
  if (report.reverted.length > 0 || claimed) {
    await journal.updateExecution(
      executionId,
      ["completed", "error", "rejected", "cancelled", "paused"],
      {
        status: "rolled_back",
        updatedAt: now(),
      },
    );
    await withdrawPending(context, executionId);
    await context.hooks(executionId, undefined, "rolled_back");
  }
  context.emit({
    type: "rollback-end",
    executionId,
    at: now(),
    status: (await journal.getExecution(executionId))?.status ?? execution.status,
    reverted: report.reverted.length,
    notReverted: calls.length - report.reverted.length,
  });
  if (failures.length > 0) {
    throw new CodemodeError(
      "CONNECTOR_FAILED",
      `Rollback could not revert ${failures.length} call(s): ${failures.join("; ")}`,
      { details: { ...report, failures } },
    );
  }
  return report;
}
