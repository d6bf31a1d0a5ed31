import { type ExecutionStatus, TERMINAL_STATUSES } from "../../journal-store.ts";
import { type Cancellation, cancellationOf } from "../context/cancellation.ts";
import type { RunContext } from "../context/run-context.ts";
import type { DecisionSource } from "../context/runtime-event.ts";
import { endCancelled } from "../pass/finish-pass.ts";

/** What `runtime.cancel` did. */
export type CancelResult =
  | {
      cancelled: true;
      executionId: string;
      status: "cancelled";
      /** what the run was doing when the cancellation came */
      was: "running" | "paused";
      /**
       * Where its pass was: `settled` (in this process: stopped at once, and settled and recorded
       * before `cancel` returned), `elsewhere` (another process holds its lease: that pass stops at
       * its next journal write or lease renewal, within a third of `leaseMs`), or `none` (the run
       * waited, or its pass is gone: its lease had lapsed).
       */
      pass: "settled" | "elsewhere" | "none";
      /** the cancellation as the journal keeps it (the run's `error`): who, when, why */
      error: string;
    }
  | {
      cancelled: false;
      executionId: string;
      /** the status of a run that had ended already (nothing to cancel); undefined: no such run */
      status: ExecutionStatus | undefined;
      error: string;
    };

export interface CancelOptions {
  /** why: kept with the decision (the run's `error`, its `decision` event), at most 1,000 characters */
  reason?: string;
  /** who: kept with the decision, at most 200 characters */
  by?: string;
  source?: DecisionSource;
}

/** Rounds of the loop below: each one ends a pass or meets a run that another writer changed. */
const MAX_ROUNDS = 20;

/**
 * `runtime.cancel`: ends a running or paused run now, as a decision (who, why, when) the journal
 * keeps. A paused run ends `cancelled` at once and its waiting calls are withdrawn. A pass of this
 * process is stopped at once (its signal aborts the executor and every connector call in flight;
 * no call starts after, not even one whose entry was written already), and the run ends
 * `cancelled` once that pass has settled, its calls recorded as what they were; `cancel` returns
 * after. A run whose pass is in another process is marked `cancelled` in the journal: that pass's
 * next entry write, approved call or lease renewal fails, and it stops there (its calls in flight
 * get their signal then and are recorded as they end). A run that has ended is not changed.
 */
export async function cancel(
  context: RunContext,
  executionId: string,
  options: CancelOptions = {},
): Promise<CancelResult> {
  if (typeof executionId !== "string" || executionId === "") {
    return {
      cancelled: false,
      executionId: "",
      status: undefined,
      error: "cancel needs the executionId of a run.",
    };
  }
  const cancellation: Cancellation = cancellationOf({
    at: context.now(),
    by: options.by,
    reason: options.reason,
    source: options.source ?? "api",
  });
  // from now until it returns, every pass of this process on the run (one that is about to take
  // it too) is stopped: none of them starts a call after this line
  const release = context.live.cancelling(executionId, cancellation);
  try {
    return await cancelRun(context, executionId, cancellation);
  } finally {
    release();
  }
}

async function cancelRun(
  context: RunContext,
  executionId: string,
  cancellation: Cancellation,
): Promise<CancelResult> {
  const { journal, now } = context;
  const { text } = cancellation;
  let stopped = false;
  /** a pass this cancellation stopped (not an earlier one's) */
  let mine = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // a pass of this process (or one about to take the run) settles before anything is read
    const tickets = context.live.tickets(executionId);
    if (tickets.length > 0) {
      stopped = true;
      if (tickets.some((ticket) => ticket.cancelled === cancellation)) mine = true;
      await Promise.all(tickets.map((ticket) => ticket.reported));
    }
    const record = await journal.getExecution(executionId);
    if (!record) {
      return {
        cancelled: false,
        executionId,
        status: undefined,
        error: `No execution has the id "${executionId.slice(0, 100)}".`,
      };
    }
    if (record.status === "cancelled" && mine) {
      return {
        cancelled: true,
        executionId,
        status: "cancelled",
        was: "running",
        pass: "settled",
        error: record.error ?? text,
      };
    }
    if (TERMINAL_STATUSES.includes(record.status)) {
      return {
        cancelled: false,
        executionId,
        status: record.status,
        error: `Execution "${executionId}" has ended (${record.status.replace("_", " ")}): there is nothing to cancel.`,
      };
    }
    // a pass of this process came meanwhile: the next round stops it
    if (context.live.tickets(executionId).length > 0) continue;
    const ended = {
      status: "cancelled" as const,
      error: text,
      updatedAt: now(),
      lease: undefined,
    };
    if (record.status === "paused") {
      // one taker: an approval racing this either took the run first (the next round stops its
      // pass) or finds it cancelled
      if (!(await journal.updateExecution(executionId, ["paused"], ended))) continue;
      await endCancelled(context, executionId, cancellation, text, undefined);
      return {
        cancelled: true,
        executionId,
        status: "cancelled",
        was: stopped ? "running" : "paused",
        pass: stopped ? "settled" : "none",
        error: text,
      };
    }
    // running, and no pass of this process has it: the lease's owner is another process (it sees
    // the run cancelled at its next write under the lease), or a pass that is gone
    if (!(await journal.updateExecution(executionId, ["running"], ended))) continue;
    await endCancelled(context, executionId, cancellation, text, undefined);
    const lapsed = record.lease === undefined || record.lease.expiresAt < now();
    return {
      cancelled: true,
      executionId,
      status: "cancelled",
      was: "running",
      pass: stopped ? "settled" : lapsed ? "none" : "elsewhere",
      error: text,
    };
  }
  const status = (await journal.getExecution(executionId))?.status;
  return {
    cancelled: false,
    executionId,
    status,
    error: `Execution "${executionId}" kept changing while it was being cancelled; try again.`,
  };
}
