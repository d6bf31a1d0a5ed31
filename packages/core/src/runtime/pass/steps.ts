import { CodemodeError } from "../../codemode-error.ts";
import { checkText, encodeForJournal, messageOf } from "../../invariants.ts";
import {
  MAX_STEP_NAME_LENGTH,
  type StepDecideReply,
  type StepRecordReply,
  type StepRecordRequest,
} from "../../sandbox-protocol.ts";
import type { RunContext } from "../context/run-context.ts";
import { codec } from "../context/values.ts";
import { applyOutcome } from "./apply-outcome.ts";
import { diverge } from "./decide-call.ts";
import type { PassState } from "./pass-state.ts";

/** The connector name a step's entry carries; its method is the step's name. */
export const STEP_CONNECTOR = "codemode.step";

/**
 * `codemode.step(name, fn)`, host half one: numbers the step and replays its recorded value, or
 * records it `executing` and hands out the one token that may record its value.
 */
export async function decideStep(
  context: RunContext,
  pass: PassState,
  input: unknown,
): Promise<StepDecideReply> {
  const name = checkText(
    (input as { name?: unknown } | null)?.name,
    "A codemode.step name",
    MAX_STEP_NAME_LENGTH,
  );
  const seq = pass.nextSeq();
  return pass.journalPart(`The decision on codemode.step (#${seq})`, () =>
    decideNumberedStep(context, pass, name, seq),
  );
}

/** The journal's part of `decideStep`, for the step numbered `seq`. */
async function decideNumberedStep(
  context: RunContext,
  pass: PassState,
  name: string,
  seq: number,
): Promise<StepDecideReply> {
  const recorded = pass.recorded.get(seq);
  if (recorded) {
    // nothing is written for a recorded step: the lease is renewed only when its heartbeat is due
    if (pass.renewDue() && !(await pass.renew())) pass.leaseLost();
    if (recorded.kind !== "step" || recorded.method !== name) {
      return diverge(pass, seq, recorded, STEP_CONNECTOR, name);
    }
    if (recorded.state === "applied") {
      const at = context.now();
      context.emit({ type: "step", executionId: pass.executionId, seq, name, live: false, at });
      return {
        replay: true,
        value: recordedValue(recorded.result),
        seq,
        token: pass.stepToken(seq),
      };
    }
    return { replay: false, seq, token: pass.stepToken(seq) };
  }
  const time = context.now();
  const claim = pass.claim();
  const written = await context.journal.putEntry(
    {
      executionId: pass.executionId,
      seq,
      kind: "step",
      connector: STEP_CONNECTOR,
      method: name,
      state: "executing",
      requiresApproval: false,
      deferred: false,
      replay: "record",
      createdAt: time,
      updatedAt: time,
    },
    claim,
  );
  if (!written) pass.leaseLost();
  pass.held(claim);
  context.emit({ type: "step", executionId: pass.executionId, seq, name, live: true, at: time });
  return { replay: false, seq, token: pass.stepToken(seq) };
}

/**
 * `codemode.step`, host half two: records the value `fn` returned, only for the step the token was
 * handed out for in this pass, once, and answers the value as recorded, which the step returns (a
 * replay returns it too). Nothing else can complete an entry from the sandbox.
 */
export async function recordStep(
  context: RunContext,
  pass: PassState,
  input: unknown,
): Promise<StepRecordReply> {
  const { seq, token, value } = (input ?? {}) as Partial<StepRecordRequest>;
  if (!pass.takeStepToken(seq, token)) {
    throw new CodemodeError(
      "INVALID_INPUT",
      "Only codemode.step records a step's value, once, for the step it started in this pass.",
    );
  }
  pass.guard();
  // a replayed step's record: its value is recorded already, nothing is written
  const recorded = pass.recorded.get(seq);
  if (recorded?.state === "applied") return { value: recordedValue(recorded.result) };
  let text: string;
  try {
    text = encodeForJournal(value, "The value of a codemode.step");
  } catch (error) {
    await pass.failEntry(seq, messageOf(error));
    throw error;
  }
  await applyOutcome(context, pass, seq, "codemode.step", { result: text });
  return { value: recordedValue(text) };
}

/** A step's value as the journal holds it (`undefined` when none is). */
function recordedValue(result: string | undefined): unknown {
  return result === undefined ? undefined : codec.decode(result);
}
