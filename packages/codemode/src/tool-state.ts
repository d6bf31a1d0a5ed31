// What a `codemode` tool part of an AI SDK UI message stands for, for a chat UI to draw: the AI SDK's
// part states say where the tool call is (`approval-requested`, `output-available`, ...), and the
// output says where the run is. A run that paused ends its tool call with `output-available` whose
// output is `{ status: "paused" }` (a call that paused again after an approval, or any pause with
// `approvals: "host"`): it waits, it is not done. Types only: safe to import in a page.
import type {
  CodemodeApprovalDescriptor,
  CodemodeErrorCode,
  CodemodeProgress,
  PendingAction,
} from "@codemode/core";

/** Where a `codemode` tool call and its run are, as a chat UI draws it. */
export type CodemodeToolState =
  /** the model is writing the call, or it waits to run */
  | { status: "input"; done: false }
  /** the run goes on: the calls so far (the preliminary results) */
  | { status: "running"; done: false; progress?: CodemodeProgress }
  /** the person is asked: `reason` lists the calls the run waits for, with their exact input */
  | {
      status: "awaiting-approval";
      done: false;
      approvalId: string;
      reason?: string;
      /** the structured calls, when the stream went through `withApprovalDetails` */
      descriptor?: CodemodeApprovalDescriptor;
    }
  /** the person answered; the chat's next request runs what they approved */
  | { status: "answered"; done: false; approved: boolean }
  /**
   * the run waits: for the next approval request (the model repeats the call to ask it), or for
   * the host (`approvals: "host"`)
   */
  | { status: "paused"; done: false; executionId: string; pending: PendingAction[] }
  | { status: "completed"; done: true; executionId: string; result: unknown; logs?: string[] }
  | {
      status: "error";
      done: true;
      error: string;
      executionId?: string;
      code?: CodemodeErrorCode;
      logs?: string[];
    }
  /** the person (or the app's approval rule) denied the call: the run was rejected */
  | { status: "denied"; done: true; reason?: string };

type Part = Record<string, unknown>;
const isObject = (value: unknown): value is Part => typeof value === "object" && value !== null;
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** What an output says, as the tool's `execute` yielded it. */
function fromOutput(output: unknown, preliminary: boolean): CodemodeToolState {
  const value = isObject(output) ? output : {};
  const executionId = text(value.executionId) ?? "";
  if (preliminary || value.status === "running") {
    return {
      status: "running",
      done: false,
      ...(value.status === "running" ? { progress: value as unknown as CodemodeProgress } : {}),
    };
  }
  const logs = Array.isArray(value.logs) ? { logs: value.logs as string[] } : {};
  switch (value.status) {
    case "paused":
      return {
        status: "paused",
        done: false,
        executionId,
        pending: Array.isArray(value.pending) ? (value.pending as PendingAction[]) : [],
      };
    case "completed":
      return { status: "completed", done: true, executionId, result: value.result, ...logs };
    case "error":
      return {
        status: "error",
        done: true,
        error: text(value.error) ?? "The run failed.",
        ...(executionId ? { executionId } : {}),
        ...(typeof value.code === "string" ? { code: value.code as CodemodeErrorCode } : {}),
        ...logs,
      };
    default:
      return { status: "completed", done: true, executionId, result: output };
  }
}

/**
 * Where the `codemode` call of a UI message part is: `done` only once its run completed, failed or
 * was denied. A part whose output says the run paused reads `paused`, not done, though the AI SDK
 * marks it `output-available`. `undefined` for a part that is no tool part.
 */
export function codemodeToolState(part: unknown): CodemodeToolState | undefined {
  if (!isObject(part) || typeof part.state !== "string") return undefined;
  const approval = isObject(part.approval) ? part.approval : undefined;
  switch (part.state) {
    case "input-streaming":
    case "input-available":
      return { status: "input", done: false };
    case "approval-requested":
      return {
        status: "awaiting-approval",
        done: false,
        approvalId: text(approval?.id) ?? "",
        ...(text(approval?.requestReason) !== undefined
          ? { reason: text(approval?.requestReason) as string }
          : {}),
        ...(isObject(approval?.descriptor)
          ? { descriptor: approval.descriptor as unknown as CodemodeApprovalDescriptor }
          : {}),
      };
    case "approval-responded":
      return { status: "answered", done: false, approved: approval?.approved === true };
    case "output-available":
      return fromOutput(part.output, part.preliminary === true);
    case "output-error":
      return { status: "error", done: true, error: text(part.errorText) ?? "The call failed." };
    case "output-denied":
      return {
        status: "denied",
        done: true,
        ...(text(approval?.reason) !== undefined
          ? { reason: text(approval?.reason) as string }
          : {}),
      };
    default:
      return undefined;
  }
}
