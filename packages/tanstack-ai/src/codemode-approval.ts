// The interrupt a paused run raises in TanStack AI: what the person is shown (every call the run
// waits for, with its exact input) and what they answer.
import {
  type DecisionHandle,
  MAX_HANDLE_CALLS,
  MAX_OPERATION_LENGTH,
  type PendingAction,
} from "@codemode/core";
import { defineInterrupt } from "@tanstack/ai";
import { standardJsonSchema } from "./standard-json-schema.ts";
import { asJson } from "./tool-output.ts";

/** One call the run waits for, as the person sees it. */
export interface CodemodeApprovalCall {
  /** the call's number in the run */
  seq: number;
  connector: string;
  method: string;
  /** the input recorded when the run paused, as plain JSON (the value codec's form) */
  input: unknown;
  /**
   * where the call goes, as its method named it when the call was recorded
   * (`PendingAction.operation`); absent when it names none. Show it with the call: the approval
   * runs the call only while it still goes there.
   */
  operation?: string;
  /**
   * Present when the call may already have run (`PendingAction.inDoubt`): why. Show it with the
   * call: approving runs it again, under the same idempotency key.
   */
  inDoubt?: string;
  /** the digest of the call as recorded (`PendingAction.digest`): the answer decides this call only */
  digest: string;
}

/** The interrupt's payload: the paused run, the `codemode` tool call it answers, the calls. */
export interface CodemodeApprovalPayload {
  executionId: string;
  toolCallId: string;
  calls: CodemodeApprovalCall[];
}

/** The person's answer: `true` runs every call shown, once; `false` ends the run without them. */
export interface CodemodeApprovalResponse {
  approved: boolean;
}

/** The most characters of an id in a payload the client sends back. */
const MAX_ID_LENGTH = 1_000;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown) =>
  typeof value === "string" && value.length > 0 && value.length <= MAX_ID_LENGTH;
const isOperation = (value: unknown) =>
  typeof value === "string" && value.length > 0 && value.length <= MAX_OPERATION_LENGTH;
/** The most characters of why a call is in doubt in a payload the client sends back. */
const MAX_IN_DOUBT_LENGTH = 2_000;
const isInDoubt = (value: unknown) =>
  typeof value === "string" && value.length > 0 && value.length <= MAX_IN_DOUBT_LENGTH;

function payloadProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "The payload is an object.";
  if (!isId(value.executionId)) return "The payload needs an executionId.";
  if (!isId(value.toolCallId)) return "The payload needs a toolCallId.";
  if (
    !Array.isArray(value.calls) ||
    value.calls.length === 0 ||
    value.calls.length > MAX_HANDLE_CALLS
  ) {
    return `The payload needs the calls the run waits for (1 to ${MAX_HANDLE_CALLS}).`;
  }
  for (const call of value.calls) {
    if (
      !isRecord(call) ||
      !Number.isSafeInteger(call.seq) ||
      (call.seq as number) < 0 ||
      !isId(call.connector) ||
      !isId(call.method) ||
      !("input" in call) ||
      ("operation" in call && !isOperation(call.operation)) ||
      ("inDoubt" in call && !isInDoubt(call.inDoubt)) ||
      typeof call.digest !== "string" ||
      !/^[0-9a-f]{64}$/.test(call.digest)
    ) {
      return "Each call has a seq, a connector, a method, an input, its digest and, when it has them, its operation and why it is in doubt.";
    }
  }
  return undefined;
}

const payloadSchema = standardJsonSchema<CodemodeApprovalPayload>(
  {
    type: "object",
    properties: {
      executionId: { type: "string" },
      toolCallId: { type: "string" },
      calls: {
        type: "array",
        minItems: 1,
        maxItems: MAX_HANDLE_CALLS,
        items: {
          type: "object",
          properties: {
            seq: { type: "integer", minimum: 0 },
            connector: { type: "string" },
            method: { type: "string" },
            input: {},
            operation: { type: "string", minLength: 1, maxLength: MAX_OPERATION_LENGTH },
            inDoubt: { type: "string", minLength: 1, maxLength: MAX_IN_DOUBT_LENGTH },
            digest: { type: "string", pattern: "^[0-9a-f]{64}$" },
          },
          required: ["seq", "connector", "method", "input", "digest"],
        },
      },
    },
    required: ["executionId", "toolCallId", "calls"],
  },
  payloadProblem,
);

const responseSchema = standardJsonSchema<CodemodeApprovalResponse>(
  {
    type: "object",
    properties: { approved: { type: "boolean" } },
    required: ["approved"],
  },
  (value) =>
    isRecord(value) && typeof value.approved === "boolean"
      ? undefined
      : "The answer is { approved: boolean }.",
);

/**
 * The generic interrupt `codemodeApprovals` raises for a paused run. Register it on the server,
 * `chat({ interrupts: [codemodeApproval] })`, and on the client, `useChat({ interrupts:
 * [codemodeApproval] })`, which then shows `interrupt.payload.calls` and answers with
 * `interrupt.resolveInterrupt({ approved })`.
 */
export const codemodeApproval = defineInterrupt({
  id: "codemode-approval",
  payloadSchema,
  responseSchema,
});

/**
 * The calls a run waits for as the person sees them: each input as plain JSON, where it goes when
 * its method names an operation, and why it may already have run when it is in doubt (an answer
 * decides the calls shown, all of this included).
 */
export function shownCalls(pending: readonly PendingAction[]): CodemodeApprovalCall[] {
  return pending.map((action) => ({
    seq: action.seq,
    connector: action.connector,
    method: action.method,
    input: asJson(action.args),
    ...(action.operation === undefined ? {} : { operation: action.operation }),
    ...(action.inDoubt === undefined ? {} : { inDoubt: action.inDoubt }),
    digest: action.digest,
  }));
}

/** The decision handle of the calls an interrupt showed: its answer decides these and no others. */
export function shownHandle(
  executionId: string,
  calls: readonly Pick<CodemodeApprovalCall, "seq" | "digest">[],
): DecisionHandle {
  return { version: 1, executionId, calls: calls.map(({ seq, digest }) => ({ seq, digest })) };
}

/** `connector.method` of the first three calls, and how many more. */
export function callNames(calls: readonly { connector: string; method: string }[]): string {
  const names = calls.slice(0, 3).map((call) => `${call.connector}.${call.method}`);
  return calls.length > 3 ? `${names.join(", ")} and ${calls.length - 3} more` : names.join(", ");
}

/** The interrupt's message: what the person is asked. */
export function approvalQuestion(calls: readonly CodemodeApprovalCall[]): string {
  const doubt = calls.filter((call) => call.inDoubt !== undefined).length;
  if (calls.length === 1) {
    return doubt === 1
      ? `The code wants to call ${callNames(calls)} again: it may already have run. Approve running it again?`
      : `The code wants to call ${callNames(calls)}. Approve it?`;
  }
  const again =
    doubt === 0
      ? ""
      : ` ${doubt === 1 ? "One of them" : `${doubt} of them`} may already have run, and approving runs ${doubt === 1 ? "it" : "them"} again.`;
  return `The code wants to make ${calls.length} calls together (${callNames(calls)}). None runs unless you approve; approving runs each once.${again}`;
}
