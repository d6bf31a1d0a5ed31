// approvals: "elicitation" as multi-round-trip requests (MCP 2026-07-28): a paused run's `codemode`
// call answers `input_required`, one form question per waiting call with its exact input (and where
// it goes, when its method names an operation), and a sealed state naming those calls; the client
// retries the call with the person's answers and the state, on whichever instance it reaches. On a
// 2025-era connection the MCP SDK asks the same questions as server-to-client elicitations and
// re-enters the handler with the answers.
import {
  type CodeModeOutput,
  type CodemodeRuntime,
  decisionHandleOf,
  type PendingAction,
  visibleText,
} from "@codemode/core";
import {
  type InputRequest,
  type InputRequiredResult,
  type InputResponses,
  inputRequired,
  inputResponse,
} from "@modelcontextprotocol/server";
import {
  APPROVAL_STATE_TTL_SECONDS,
  type ApprovalState,
  type ApprovalStateCodec,
} from "./approval-state.ts";
import { untilCancelled } from "./cancel-with-call.ts";
import { describeCall, describeOperation } from "./describe-call.ts";

export interface ApprovalRound {
  runtime: CodemodeRuntime;
  codec: ApprovalStateCodec;
  /** the reply limit, which also bounds an input shown in a question */
  limit: number;
  /** SHA-256 of the `codemode` call's code */
  code: string;
  principal: string | undefined;
  now(): number;
  /** the `codemode` call's: cancelling the call cancels the pass its answers approved */
  signal?: AbortSignal;
}

/** the question's form: one boolean */
const QUESTION_SCHEMA = {
  type: "object" as const,
  properties: {
    approve: { type: "boolean" as const, title: "Approve", description: "Run this call." },
  },
  required: ["approve"],
};

/**
 * The key of the question about a call in `inputRequests` and `inputResponses`: its seq and the start
 * of its digest, so a key never stands for two different calls (a task's keys are unique over its
 * lifetime, and an answer about a call whose input changed answers nothing).
 */
export const questionKey = (call: { seq: number; digest: string }): string =>
  `call-${call.seq}-${call.digest.slice(0, 16)}`;

/** what one question adds to the JSON of the questions beside its message: key, method, schema */
const QUESTION_JSON = JSON.stringify({
  [questionKey({ seq: 0, digest: "0".repeat(16) })]: inputRequired.elicit({
    message: "",
    requestedSchema: QUESTION_SCHEMA,
  }),
}).length;

/**
 * One form question per waiting call, each with its exact input and, when its method names one,
 * where it goes (`It sends <operation>.`), keyed by `questionKey`; undefined when they do not fit
 * in `limit` characters of JSON together (the run then waits for the host). Each input and
 * operation is shown only while the questions so far leave room for it: the work is linear in
 * `limit`, however many calls wait.
 */
export function questionsFor(
  pending: readonly PendingAction[],
  limit: number,
): Record<string, InputRequest> | undefined {
  const shown: string[] = [];
  let left = limit;
  for (const action of pending) {
    const call = describeCall(action, left);
    left -= (call?.length ?? left) + QUESTION_JSON;
    if (call === undefined || left < 0) return undefined;
    // the operation is what the person approves too (the call's digest covers it): shown whole
    const sends = describeOperation(action, left);
    if (sends === undefined) return undefined;
    left -= sends.length;
    shown.push(`${call}.${sends}`);
  }
  const count = pending.length;
  const questions = Object.fromEntries(
    pending.map((action, index) => {
      // a call in doubt may have run already: approving it runs it again (see PendingAction.inDoubt)
      const doubt = action.inDoubt === undefined ? "" : ` ${visibleText(action.inDoubt)}`;
      const message =
        count === 1
          ? `The code wants to run ${shown[index]}${doubt} Approve it?`
          : `The code wants to run ${count} calls together; none runs unless you approve each. Call ${index + 1} of ${count}: ${shown[index]}${doubt} Approve it?`;
      return [
        questionKey(action),
        inputRequired.elicit({ message, requestedSchema: QUESTION_SCHEMA }),
      ];
    }),
  );
  // as JSON their messages are longer (quotes and escapes): measured whole, at most a few times `limit`
  return JSON.stringify(questions).length <= limit ? questions : undefined;
}

/** The waiting calls a person decides: a deferred call waits for the host's `resolve`, not a yes. */
export const approvable = (pending: readonly PendingAction[]): PendingAction[] =>
  pending.filter((action) => action.deferred !== true);

/**
 * The questions about every call the paused run waits for and the sealed state that binds the
 * answers to those calls; undefined when they are too large to show (more than the reply limit).
 */
export async function askForApproval(
  round: ApprovalRound,
  output: CodeModeOutput & { status: "paused" },
): Promise<InputRequiredResult | undefined> {
  const { executionId } = output;
  const pending = approvable(output.pending);
  if (pending.length === 0) return undefined;
  const inputRequests = questionsFor(pending, round.limit);
  if (!inputRequests) return undefined;
  const handle = decisionHandleOf(pending, executionId);
  const state: ApprovalState = {
    version: 1,
    executionId,
    handle,
    code: round.code,
    ...(round.principal === undefined ? {} : { principal: round.principal }),
    expires: Math.floor(round.now() / 1000) + APPROVAL_STATE_TTL_SECONDS,
  };
  const questions = inputRequired({ inputRequests, requestState: await round.codec.seal(state) });
  // the reply the client gets, with its state, within the reply limit (or the run waits for the host)
  return JSON.stringify(questions).length <= round.limit ? questions : undefined;
}

/** what the person answered about one call */
type Answer = "approved" | "declined" | "missing";

function answerOf(
  responses: InputResponses | undefined,
  call: { seq: number; digest: string },
): Answer {
  const key = questionKey(call);
  // only the responses' own entry is an answer: the SDK copies the client's answers into a plain
  // object, where a "__proto__" key sets its prototype, and an answer read through it is one the
  // answers the server holds do not list
  if (typeof responses !== "object" || responses === null || !Object.hasOwn(responses, key)) {
    return "missing";
  }
  const view = inputResponse(responses, key);
  if (view.kind === "missing") return "missing";
  if (view.kind !== "elicit") return "declined";
  return view.action === "accept" && view.content?.approve === true ? "approved" : "declined";
}

/**
 * What the answers decide of the calls asked about: the first one not approved (`declined`, its
 * seq), else whether every one was approved (`approved`) or some were not answered (`missing`).
 */
export type Verdict = { declined: number } | "approved" | "missing";

export function verdictOf(
  calls: readonly { seq: number; digest: string }[],
  responses: InputResponses | undefined,
): Verdict {
  const answers = calls.map((call) => ({ seq: call.seq, answer: answerOf(responses, call) }));
  const declined = answers.find(({ answer }) => answer === "declined");
  if (declined) return { declined: declined.seq };
  return answers.some(({ answer }) => answer === "missing") ? "missing" : "approved";
}

/** a round decided: the run's output, and whether the person is asked again if it is paused */
export interface Decided {
  output: CodeModeOutput;
  askAgain: boolean;
}

/**
 * Decides a round from the person's answers: every call approved approves the run with the handle
 * of the calls asked about (the runtime refuses it when they no longer wait as shown); a call not
 * approved rejects the run with it; an unanswered question leaves the run waiting for the host. The
 * run may pause again at later calls, or other calls may wait now: the person is asked about those.
 */
export async function decideRound(
  round: ApprovalRound,
  state: ApprovalState,
  responses: InputResponses | undefined,
): Promise<Decided> {
  const { runtime } = round;
  const { executionId, handle } = state;
  const verdict = verdictOf(handle.calls, responses);
  if (typeof verdict === "object") {
    const seq = verdict.declined;
    const waiting = await runtime.pending(executionId);
    const action = waiting.find((candidate) => candidate.seq === seq);
    const call = `call #${seq}${action ? `, ${shownOrName(action, round.limit)}` : ""}`;
    const rejected = await runtime.reject({ executionId, seq, handle });
    const error = rejected
      ? `The person did not approve ${call}; the run ended without running any of its waiting calls.`
      : `The person did not approve ${call}, and the run no longer waits for it as shown (it was approved, rejected or expired elsewhere).`;
    return { output: { status: "error", executionId, error }, askAgain: false };
  }
  if (verdict === "missing") {
    // the client did not ask the person: the run waits for the host
    const pending = await runtime.pending(executionId);
    return { output: { status: "paused", executionId, pending }, askAgain: false };
  }
  // the approved pass runs within the call: a client that cancels the call cancels the run
  const approved = runtime.approve({ executionId, handle });
  const decided = await untilCancelled(runtime, executionId, round.signal, approved);
  if (decided.status !== "error" || decided.code !== "DECISION_STALE") {
    return { output: decided, askAgain: true };
  }
  // decided elsewhere since the questions: the person is asked about what waits now, if anything
  const now = await runtime.pending(executionId);
  if (now.length === 0) {
    const error =
      "The run no longer waits for approval (it was approved, rejected or expired elsewhere).";
    return { output: { status: "error", executionId, error }, askAgain: false };
  }
  return { output: { status: "paused", executionId, pending: now }, askAgain: true };
}

const shownOrName = (action: PendingAction, limit: number) =>
  describeCall(action, limit) ?? `${action.connector}.${action.method}(…)`;
