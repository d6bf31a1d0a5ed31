import { CodemodeError } from "../../codemode-error.ts";
import { badHandle, type DecisionHandle } from "../../decision-handle.ts";
import { encodeForJournal, messageOf } from "../../invariants.ts";
import type { CodeModeOutput } from "../../types.ts";
import { type PassTicket, reasonText } from "../context/cancellation.ts";
import { missingConnectors } from "../context/configuration.ts";
import type { RunContext } from "../context/run-context.ts";
import type { DecisionSource } from "../context/runtime-event.ts";
import type { CallObserver } from "../pass/host-globals.ts";
import { leaseOwner } from "../pass/pass-state.ts";
import { runPass } from "../pass/run-pass.ts";
import { withdrawPending } from "../pending-calls.ts";
import { staleCalls } from "../views/shown-calls.ts";
import { recordApproval } from "./record-approval.ts";

const notPaused = (executionId: string, status: string | undefined): CodeModeOutput =>
  status === undefined
    ? {
        status: "error",
        executionId,
        error: `No execution has the id "${String(executionId).slice(0, 100)}".`,
        code: "NOT_FOUND",
      }
    : {
        status: "error",
        executionId,
        error: `Execution "${executionId}" is ${status}; only a paused run can resume.`,
        code: "NOT_PAUSED",
      };

/**
 * Takes a paused run (a conditional update to `running`: one caller wins) and runs its next pass;
 * `claimed` runs in between, while no other caller can change the run (it gets the owner of the
 * run's lease), and may refuse the pass.
 * A run whose connectors are not all configured now is not taken: it stays paused.
 */
export async function resume(
  context: RunContext,
  executionId: string,
  claimed?: (owner: string) => Promise<CodeModeOutput | undefined>,
  onCall?: CallObserver,
  signal?: unknown,
): Promise<CodeModeOutput> {
  // a cancellation finds the pass from before the write that takes the run on
  const ticket = context.live.enter(executionId);
  try {
    ticket.cancelOn(signal, context.now);
    return await takeAndRun(context, executionId, ticket, claimed, onCall);
  } finally {
    ticket.leave();
  }
}

async function takeAndRun(
  context: RunContext,
  executionId: string,
  ticket: PassTicket,
  claimed: ((owner: string) => Promise<CodeModeOutput | undefined>) | undefined,
  onCall: CallObserver | undefined,
): Promise<CodeModeOutput> {
  const { journal, now } = context;
  const execution = await journal.getExecution(executionId);
  if (execution?.status !== "paused") return notPaused(executionId, execution?.status);
  const missing = missingConnectors(await context.configurator.configure(), execution.connectors);
  if (missing.length > 0) {
    return {
      status: "error",
      executionId,
      error: `This run needs connectors that are not configured now: ${missing.join(", ")}. It stays paused: configure them again to resume it.`,
      code: "INVALID_CONFIG",
    };
  }
  // one taker: the write that moves the run to running gives it this pass's lease
  const owner = leaseOwner();
  const time = now();
  if (
    !(await journal.updateExecution(executionId, ["paused"], {
      status: "running",
      updatedAt: time,
      lease: { owner, expiresAt: time + context.leaseMs },
    }))
  ) {
    return notPaused(executionId, (await journal.getExecution(executionId))?.status);
  }
  const refused = await claimed?.(owner);
  if (refused) return refused;
  // the lease as the take set it: the pass's heartbeat counts from the take, not from when the
  // pass starts (`claimed`'s writes may have renewed it since; it is then renewed early, never late)
  return runPass(
    context,
    { ...execution, status: "running", lease: { owner, expiresAt: time + context.leaseMs } },
    { owner, ticket, resumed: true, ...(onCall ? { onCall } : {}) },
  );
}

/** Tells what is wrong with the `seqs` an approval names, if anything. */
function badSeqs(seqs: unknown, maxCalls: number): string | undefined {
  const fine =
    Array.isArray(seqs) &&
    seqs.length > 0 &&
    seqs.length <= maxCalls &&
    seqs.every((seq) => Number.isSafeInteger(seq) && seq >= 0);
  return fine
    ? undefined
    : `seqs must name the waiting calls the person approved: a non-empty list of at most ${maxCalls} seq numbers (each a \`pending[].seq\`).`;
}

export interface ApproveOptions {
  /** why the person approved: kept with the decision (its `decision` event), at most 1,000 characters */
  reason?: string;
  /**
   * what the person was shown (`decisionHandleOf(pending)`): the approval runs only if each of its
   * calls still waits with the same input, and covers those calls only (or `seqs` of them)
   */
  handle?: DecisionHandle;
  /** the calls the person approved (`pending[].seq`): the approval covers only these (default: all that wait, or all of `handle`) */
  seqs?: readonly number[];
  onCall?: CallObserver;
  source?: DecisionSource;
  /** cancels the run when it aborts while the approved pass runs (an AI SDK tool call's `abortSignal`) */
  signal?: unknown;
}

/**
 * `runtime.approve`: the person approved every call the paused run waits for (its `pending`), or
 * those of them it names; the run resumes and each runs once, with the input recorded when it
 * paused.
 */
export async function approve(
  context: RunContext,
  executionId: string,
  options: ApproveOptions = {},
): Promise<CodeModeOutput> {
  const { onCall, source = "api", handle } = options;
  const said = reasonText(options.reason);
  const wrongHandle = handle === undefined ? undefined : badHandle(handle, executionId);
  if (wrongHandle)
    return { status: "error", executionId, error: wrongHandle, code: "INVALID_INPUT" };
  const handleSeqs = handle?.calls.map((call) => call.seq);
  const seqs = options.seqs ?? handleSeqs;
  // the list is checked (bounded) before anything walks it
  const bad = seqs === undefined ? undefined : badSeqs(seqs, context.maxCalls);
  if (bad) return { status: "error", executionId, error: bad, code: "INVALID_INPUT" };
  const shownSeqs = handleSeqs && new Set(handleSeqs);
  if (shownSeqs && options.seqs?.some((seq) => !shownSeqs.has(seq))) {
    return {
      status: "error",
      executionId,
      error:
        "seqs must name calls of the decision's handle: a person approves only calls they were shown.",
      code: "INVALID_INPUT",
    };
  }
  // what waits now, as the person was shown it: the approval covers these calls and no later one,
  // not even one another approval's pass paused at between this ask and the read below
  const asked = context.asks.ask(executionId);
  try {
    const named = seqs === undefined ? undefined : new Set(seqs);
    const seen = (await context.journal.listEntries(executionId, { states: ["pending"] })).filter(
      (entry) => entry.state === "pending" && !asked.unseen.has(entry.seq),
    );
    if (handle) {
      const stale = await staleCalls(handle, seen);
      if (stale) {
        const execution = await context.journal.getExecution(executionId);
        const error =
          execution?.status === "paused"
            ? stale
            : (notPaused(executionId, execution?.status) as { error: string }).error;
        return { status: "error", executionId, error, code: "DECISION_STALE" };
      }
    }
    const waiting = seen.filter((entry) => named === undefined || named.has(entry.seq));
    if (named && waiting.length === 0) {
      const execution = await context.journal.getExecution(executionId);
      if (execution?.status !== "paused") return notPaused(executionId, execution?.status);
      return {
        status: "error",
        executionId,
        error: `No call this approval names (seq ${[...named].slice(0, 10).join(", ")}) waits for approval now: another decision has resumed the run since. Read its pending calls again.`,
        code: "DECISION_STALE",
      };
    }
    const deferred = waiting.find((entry) => entry.deferred);
    if (deferred) {
      return {
        status: "error",
        executionId,
        error: `Call #${deferred.seq} (${deferred.connector}.${deferred.method}) waits for a result, not an approval: use runtime.resolve.`,
        code: "NOT_PAUSED",
      };
    }
    // once this approval has taken the run, no other pass can make a call wait: what it covers is
    // fixed, written if each call still waits as read (`approved`, so a pass that pauses before it
    // reaches one leaves it approved for the next, not asked again) and told (one that lost a race
    // decided nothing)
    const taken = async (owner: string) => {
      const covered = waiting.filter((entry) => !asked.unseen.has(entry.seq));
      asked.done();
      const approved = await recordApproval(context, executionId, owner, covered);
      if (!(approved instanceof Set)) return approved;
      context.emit({
        type: "decision",
        executionId,
        decision: "approved",
        seqs: [...approved],
        at: context.now(),
        source,
        ...(said ? { reason: said } : {}),
      });
      return undefined;
    };
    return await resume(context, executionId, taken, onCall, options.signal);
  } finally {
    asked.done();
  }
}

/** `runtime.reject`: the run ends without the call at `seq`, and without any other it waits for. */
export async function reject(
  context: RunContext,
  executionId: string,
  seq: number,
  reason?: string,
  source: DecisionSource = "api",
  handle?: DecisionHandle,
): Promise<boolean> {
  const { journal, now } = context;
  if (handle !== undefined) {
    if (badHandle(handle, executionId)) return false;
    if (!handle.calls.some((call) => call.seq === seq)) return false;
  }
  const entry = await journal.getEntry(executionId, seq);
  if (entry?.state !== "pending") return false;
  const said = reasonText(reason);
  // one taker, as for an approval: the run is held (running, under this rejection's lease) while
  // the call is read again, so a rejection ends the pause it names, never one that an approval
  // racing it made later, after that call ran
  const owner = leaseOwner();
  const time = now();
  const held = { owner };
  if (
    !(await journal.updateExecution(executionId, ["paused"], {
      status: "running",
      updatedAt: time,
      lease: { owner, expiresAt: time + context.leaseMs },
    }))
  )
    return false;
  // what waits while the rejection holds the run is what it ends, and what its event names: a
  // deletion racing it may remove those calls before they are withdrawn
  const waiting = (await journal.listEntries(executionId, { states: ["pending"] })).filter(
    (candidate) => candidate.state === "pending",
  );
  const stillShown =
    waiting.some((candidate) => candidate.seq === seq) &&
    (handle === undefined || (await staleCalls(handle, waiting)) === undefined);
  if (!stillShown) {
    await journal.updateExecution(
      executionId,
      ["running"],
      { status: "paused", updatedAt: now(), lease: undefined },
      held,
    );
    return false;
  }
  if (
    !(await journal.updateExecution(
      executionId,
      ["running"],
      {
        status: "rejected",
        error: `A person rejected ${entry.connector}.${entry.method} (seq ${seq}, counting from 0)${said ? `: ${said}` : "."}`,
        updatedAt: now(),
        lease: undefined,
      },
      held,
    ))
  )
    return false;
  await withdrawPending(context, executionId);
  context.emit({
    type: "decision",
    executionId,
    decision: "rejected",
    seqs: waiting.map((candidate) => candidate.seq),
    at: now(),
    source,
    ...(said ? { reason: said } : {}),
  });
  await context.hooks(executionId, undefined, "rejected");
  return true;
}

/**
 * `runtime.resolve`: a deferred call's result arrives, or the host records what a call in doubt
 * gave; the run resumes with it recorded.
 */
export async function resolve(
  context: RunContext,
  executionId: string,
  seq: number,
  result: unknown,
): Promise<CodeModeOutput> {
  const { journal, now } = context;
  const notWaiting = `Call #${seq} of execution "${executionId}" is not waiting for a result.`;
  const entry = await journal.getEntry(executionId, seq);
  // a deferred call's result, or what a call in doubt gave (the host found out: see in-doubt.ts)
  if (entry?.state !== "pending" || !(entry.deferred || entry.error !== undefined)) {
    const known = entry !== undefined || (await journal.getExecution(executionId)) !== undefined;
    return {
      status: "error",
      executionId,
      error: notWaiting,
      code: known ? "NOT_PAUSED" : "NOT_FOUND",
    };
  }
  let text: string;
  try {
    text = encodeForJournal(result, `The result of ${entry.connector}.${entry.method}`);
  } catch (error) {
    return {
      status: "error",
      executionId,
      error: messageOf(error),
      ...(CodemodeError.isInstance(error) ? { code: error.code } : {}),
    };
  }
  // the run is taken first, so a racing rejection either wins before it or finds it running:
  // a refused result is never recorded in a rejected run
  return resume(context, executionId, async () => {
    if (
      await journal.updateEntry(executionId, seq, ["pending"], {
        state: "applied",
        result: text,
        error: undefined,
        updatedAt: now(),
      })
    ) {
      const at = now();
      context.emit({
        type: "decision",
        executionId,
        decision: "resolved",
        seqs: [seq],
        at,
        source: "api",
      });
      return undefined;
    }
    await journal.updateExecution(executionId, ["running"], {
      status: "paused",
      updatedAt: now(),
      lease: undefined,
    });
    return { status: "error", executionId, error: notWaiting, code: "NOT_PAUSED" };
  });
}
