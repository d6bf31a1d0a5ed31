import { CodemodeError } from "../../codemode-error.ts";
import { asksAlways, type ConnectorMethod } from "../../connector.ts";
import {
  decodeErrorRecord,
  encodeErrorRecord,
  encodeForJournal,
  errorFromRecord,
  errorRecordOf,
  messageOf,
} from "../../invariants.ts";
import type { JournalEntry } from "../../journal-store.ts";
import { operationMoved } from "../../operation.ts";
import type { ResolvedConnector } from "../context/configuration.ts";
import type { RunContext } from "../context/run-context.ts";
import { codec, preview } from "../context/values.ts";
import { applyOutcome } from "./apply-outcome.ts";
import { decideInDoubt } from "./in-doubt.ts";
import { invokeConnector } from "./invoke-connector.ts";
import type { PassState } from "./pass-state.ts";
import { takeApproved } from "./take-approved.ts";

/** What a pass that stops at a call that waits says (the run pauses). */
export const PAUSE =
  "The run is paused: a call is waiting for approval. Nothing after it runs in this pass.";

/** What the journal says a call does in this pass. */
export type Decision =
  /** recorded: the code gets what the live call gave it, the connector is not called */
  | { kind: "replay"; entry: JournalEntry }
  /** the entry is `executing` now: call the connector with this input */
  | { kind: "execute"; input: unknown }
  /** recorded `pending`: the pass has stopped, the run pauses (`inDoubt`: on a call that may have run) */
  | { kind: "pause"; inDoubt?: true };

/** Whether this call waits for a person: a method's flag, or its decision for this input. */
export function approvalNeeded(
  definition: ConnectorMethod,
  input: unknown,
  executionId: string,
  seq: number,
): boolean | Promise<boolean> {
  const rule = definition.requiresApproval;
  // a flag answers at once: the common call does not wait for a promise here
  if (typeof rule !== "function") return asksAlways(rule);
  return (async () => {
    try {
      return (await rule(input, { executionId, seq })) !== false;
    } catch {
      return true;
    }
  })();
}

/** Whether a recorded entry is this call: same connector, method and input (keys in any order). */
function sameCall(
  recorded: JournalEntry,
  connector: string,
  method: string,
  args: string,
  input: unknown,
): boolean {
  return (
    recorded.kind === "call" &&
    recorded.connector === connector &&
    recorded.method === method &&
    recorded.args !== undefined &&
    (recorded.args === args ||
      codec.encode(codec.decode(recorded.args), { canonical: true }) ===
        codec.encode(input, { canonical: true }))
  );
}

/** Fails the run with a divergence at `seq` and throws it. */
export async function diverge(
  pass: PassState,
  seq: number,
  recorded: JournalEntry,
  connector: string,
  method: string,
  args?: string,
): Promise<never> {
  const message =
    `Replay divergence at call #${seq}: the journal recorded ${recorded.connector}.${recorded.method}(${preview(recorded.args)}) ` +
    `but this pass called ${connector}.${method}(${preview(args)}). The clock, Math.random(), crypto's random values, timers and the ` +
    "order of results read the same on every pass; other platform values do not: wrap such a value in codemode.step().";
  await pass.failRun(message);
  throw new CodemodeError("DIVERGENCE", message, { details: { seq } });
}

/** The states of a recorded call, other than a recorded outcome, in which a pass may still run it. */
const MAY_RUN: ReadonlySet<JournalEntry["state"]> = new Set([
  "pending",
  "approved",
  "executing",
  "applied",
]);

/**
 * Fails the run at `seq`, a recorded call that may still run whose method now names another
 * operation than the one it was recorded (and shown, and perhaps approved) for, and throws it:
 * nothing is sent where the person did not see it go.
 */
async function divergeFromOperation(
  pass: PassState,
  seq: number,
  recorded: JournalEntry,
  operation: string | undefined,
): Promise<never> {
  const name = (text: string | undefined) => (text === undefined ? "none" : `"${preview(text)}"`);
  const message =
    `Replay divergence at call #${seq}: ${recorded.connector}.${recorded.method} was recorded for operation ${name(recorded.operation)} ` +
    `but now names operation ${name(operation)}, so it does not run (the connector's document or server changed, ` +
    "or the store did not keep the call's operation). Start a new run to call it where it goes now.";
  await pass.failRun(message);
  throw new CodemodeError("DIVERGENCE", message, { details: { seq } });
}

/**
 * `decideCall` of ARCHITECTURE §3: what the call at `seq` does, written to the journal before
 * anything runs. A recorded call replays; an approved one is taken (`approved` → `executing`, one
 * taker) and runs with the input the person was shown; a new gated call is recorded `pending` and
 * stops the pass; any other new call is recorded `executing`.
 */
export async function decideCall(
  context: RunContext,
  pass: PassState,
  resolved: ResolvedConnector,
  method: string,
  input: unknown,
  args: string,
  seq: number,
): Promise<Decision> {
  const { journal, now } = context;
  const { executionId } = pass;
  const { definition } = resolved.methods.get(method) as { definition: ConnectorMethod };
  const recorded = pass.recorded.get(seq);
  if (recorded) {
    if (!sameCall(recorded, resolved.name, method, args, input)) {
      return diverge(pass, seq, recorded, resolved.name, method, args);
    }
    if (recorded.state === "applied" && recorded.replay === "record") {
      // a replay writes nothing: the lease is renewed only when its heartbeat is due
      if (pass.renewDue() && !(await pass.renew())) pass.leaseLost();
      return { kind: "replay", entry: recorded };
    }
    // anything else may still run (waiting, approved, in doubt, run again): only where it was
    // recorded, shown and perhaps approved to go
    if (MAY_RUN.has(recorded.state) && operationMoved(recorded, definition)) {
      return divergeFromOperation(pass, seq, recorded, definition.operation);
    }
    // still waiting (a result for a deferred sibling, or an approval of other calls, came): the run
    // pauses here again
    if (recorded.state === "pending") return pauseHere(pass, recorded.error !== undefined);
    if (recorded.state === "approved") {
      // a person approved it: it runs now, once, with exactly the input the person was shown
      await takeApproved(context, pass, seq);
      return { kind: "execute", input: codec.decode(recorded.args as string) };
    }
    if (recorded.state !== "executing" && recorded.state !== "applied") {
      // calls are withdrawn only as their run ends: one withdrawn under this pass (expired or
      // cancelled once its lease lapsed) means the run is no longer this pass's, not a divergence
      if (recorded.state === "withdrawn" && !(await pass.renew())) pass.leaseLost();
      return diverge(pass, seq, recorded, resolved.name, method, args);
    }
    if (recorded.state === "executing" && recorded.replay === "record") {
      const decided = await decideInDoubt(context, pass, resolved, method, input, recorded);
      if (decided.kind === "replay") return decided;
      if (decided.kind === "wait") return pauseHere(pass, true);
      if (!(await pass.renew())) pass.leaseLost();
      return { kind: "execute", input };
    }
    // a reexecute entry (a read the connector says may run again): it runs again, unless the method
    // now needs a person where it did not. Then it waits as a recorded call (the configuration
    // allows no gated method to reexecute): once decided, its outcome is replayed, never run again
    if (!recorded.requiresApproval && (await gated(definition, input, executionId, seq))) {
      pass.guard();
      pass.waitAt(seq);
      await journal.updateEntry(executionId, seq, [recorded.state], {
        state: "pending",
        requiresApproval: true,
        deferred: definition.deferred === true,
        replay: "record",
        args,
        updatedAt: now(),
      });
      return pauseHere(pass);
    }
    // nothing is written before it runs again: the lease is checked (and renewed) first
    if (!(await pass.renew())) pass.leaseLost();
    return { kind: "execute", input };
  }
  const decision = approvalNeeded(definition, input, executionId, seq);
  const needsApproval = typeof decision === "boolean" ? decision : await decision;
  pass.guard();
  const waits = needsApproval || definition.deferred === true;
  const time = now();
  if (waits) pass.waitAt(seq);
  // written only while this pass holds the run's lease (renewed in the same write when due)
  const claim = pass.claim();
  const written = await journal.putEntry(
    {
      executionId,
      seq,
      kind: "call",
      connector: resolved.name,
      method,
      args,
      state: waits ? "pending" : "executing",
      requiresApproval: needsApproval,
      deferred: definition.deferred === true,
      replay: definition.replay ?? "record",
      ...(definition.operation !== undefined ? { operation: definition.operation } : {}),
      createdAt: time,
      updatedAt: time,
    },
    claim,
  );
  if (!written) pass.leaseLost();
  pass.held(claim);
  if (!waits) return { kind: "execute", input };
  return pauseHere(pass);
}

/**
 * The pass stops at a call that waits: the run pauses once the pass has settled. It stops once the
 * calls the program made in the same turn (a `Promise.all`) have reached the host, a microtask
 * later: each is decided as it would have been had nothing waited (an approved one runs and
 * settles before the pause is reported), whether this call was decided at once from the journal or
 * after a write. Stopped at once, an approved later call of the turn ran nothing. The window is a
 * microtask of the host, not a turn of the program: an executor that runs the sandbox's jobs within
 * the host call (QuickJS answering recorded calls in the sandbox) may let a call of a later turn
 * reach the host in it, decided as any call is (a gated one waits). An approved call the program
 * makes only after the window stays `approved` in the journal, and runs in the pass that reaches it.
 */
function pauseHere(pass: PassState, inDoubt = false): Decision {
  pass.paused = true;
  void Promise.resolve().then(() => pass.stop(PAUSE));
  return inDoubt ? { kind: "pause", inDoubt } : { kind: "pause" };
}

/** Whether the method waits for a person or an outside result for this input now. */
async function gated(
  definition: ConnectorMethod,
  input: unknown,
  executionId: string,
  seq: number,
): Promise<boolean> {
  return (
    definition.deferred === true || (await approvalNeeded(definition, input, executionId, seq))
  );
}

/** What a recorded call gave the code: its value, or its error thrown again. */
export function replayRecorded(entry: JournalEntry, reply: { text?: string }): unknown {
  if (entry.error !== undefined)
    throw errorFromRecord(decodeErrorRecord(entry.error, entry.result));
  if (entry.result === undefined) return undefined;
  reply.text = entry.result;
  return codec.decode(entry.result);
}

/**
 * One connector call of the sandbox: numbered, decided, run at most once and recorded, value or
 * failure alike. The codec text of the value it returns goes to `reply`.
 */
export async function callConnector(
  context: RunContext,
  pass: PassState,
  resolved: ResolvedConnector,
  method: string,
  input: unknown,
  known: string | undefined,
  reply: { text?: string },
): Promise<unknown> {
  const seq = pass.nextSeq();
  const what = `${resolved.name}.${method}`;
  let args: string;
  try {
    args = encodeForJournal(input, `The input of ${what}`, known);
  } catch (error) {
    await pass.failRun(messageOf(error));
    throw error;
  }
  pass.guard();
  const decision = await pass.journalPart(`The decision on ${what} (#${seq})`, () =>
    decideCall(context, pass, resolved, method, input, args, seq),
  );
  const { now } = context;
  const { executionId } = pass;
  const { definition } = resolved.methods.get(method) as { definition: ConnectorMethod };
  const call = { executionId, seq, connector: resolved.name, method };
  if (decision.kind === "replay") {
    const at = now();
    const failed = decision.entry.error !== undefined;
    context.emit({ type: "call", ...call, live: false, startedAt: at, endedAt: at, failed });
    return replayRecorded(decision.entry, reply);
  }
  if (decision.kind === "pause") {
    const waitsFor = definition.deferred === true ? "result" : "approval";
    const doubt = decision.inDoubt ? { inDoubt: true as const } : {};
    context.emit({ type: "waiting", ...call, for: waitsFor, ...doubt, at: now() });
    throw new CodemodeError("ABORTED", PAUSE);
  }
  if (pass.cancellation) {
    // cancelled while its entry was written: it never starts, and its entry says so
    await context.journal.updateEntry(executionId, seq, ["executing"], {
      state: "withdrawn",
      updatedAt: now(),
    });
    throw new CodemodeError("ABORTED", pass.cancellation.text);
  }
  const startedAt = now();
  const ended = (failed: boolean) =>
    context.emit({ type: "call", ...call, live: true, startedAt, endedAt: now(), failed });
  let result: unknown;
  try {
    result = await invokeConnector(pass, resolved, method, decision.input, seq);
  } catch (thrown) {
    if (pass.paused && pass.abandonedCalls && thrown === pass.callSignal.reason) {
      // the pass paused and, its wait over, aborted this call, which failed with that abort: the
      // program never saw it fail, and whether it took effect is unknown. Its entry stays
      // `executing`, in doubt: the pass after the decision reconciles it or asks a person, and
      // never replays a failure the pass caused. (A failure of the connector's own is recorded, as
      // is one in a pass that completes or fails: no later pass would look at it again.)
      ended(true);
      throw new CodemodeError("ABORTED", "The pass has ended.");
    }
    // the failure is recorded, whatever was thrown, so a later pass replays the same error
    const record = errorRecordOf(thrown);
    await applyOutcome(context, pass, seq, what, {
      error: record.message,
      result: encodeErrorRecord(record),
    });
    ended(true);
    throw errorFromRecord(record);
  }
  let text: string | undefined;
  try {
    text =
      definition.replay === "reexecute"
        ? undefined
        : encodeForJournal(result, `The result of ${what}`);
  } catch (error) {
    await pass.failEntry(seq, messageOf(error));
    throw error;
  }
  reply.text = text;
  await applyOutcome(context, pass, seq, what, text === undefined ? {} : { result: text });
  ended(false);
  return result;
}
