// What the `codemode` tool's AI SDK 7 `toolApproval` needs beside the tool itself: the generic
// function's shape, the approval of a tool that is no `codemode` tool (its own `needsApproval`, as
// the AI SDK reads it without a `toolApproval`), and what `execute` answers when an app's approval
// setup would leave a run paused with nobody asked.
import type { CodeModeOutput } from "../../types.ts";
import type { CodemodeApprovalCall, CodemodeApprovalStatus } from "./code-tool.ts";

/** Marks the tools `runtime.tool()` makes, so a generic `toolApproval` can tell them apart. */
export const CODEMODE_TOOL = Symbol.for("codemode.runtime-tool");

const isObject = (value: unknown): value is Record<string | symbol, unknown> =>
  typeof value === "object" && value !== null;

/** Whether a `toolApproval` was called in the AI SDK's generic shape (`{ toolCall, ... }`). */
export function isApprovalCall(value: unknown): value is CodemodeApprovalCall {
  if (!isObject(value) || !isObject(value.toolCall)) return false;
  const { toolName, toolCallId } = value.toolCall;
  return typeof toolName === "string" && typeof toolCallId === "string";
}

/** Whether `tool` is a `codemode` tool of some runtime (this one or another). */
export const isCodemodeTool = (tool: unknown): boolean =>
  isObject(tool) && tool[CODEMODE_TOOL] === true;

/**
 * The approval the AI SDK gives a tool when no `toolApproval` names it: its own `needsApproval`
 * (`true`, or a function of the input), any truthy answer asking. A generic `toolApproval` replaces
 * that for every tool, so one that serves `codemode` keeps it for the others.
 */
export async function ownApproval(
  tool: unknown,
  call: CodemodeApprovalCall,
): Promise<"user-approval" | "not-applicable"> {
  const needsApproval = isObject(tool) ? tool.needsApproval : undefined;
  if (needsApproval === undefined || needsApproval === null) return "not-applicable";
  const { toolCall } = call;
  const asks =
    typeof needsApproval === "function"
      ? await needsApproval(toolCall.input, {
          toolCallId: toolCall.toolCallId,
          messages: call.messages ?? [],
          context: isObject(call.toolsContext) ? call.toolsContext[toolCall.toolName] : undefined,
        })
      : needsApproval;
  return asks ? "user-approval" : "not-applicable";
}

/** The line every misconfiguration message ends with: how to give `codemode` its own decision. */
const FIX =
  'With AI SDK 7, let codemode decide its own approvals: `toolApproval: { codemode: codemodeToolApproval(runtime) }` (codemode/ai), or, in a toolApproval function of your own, return what `codemodeApproval(options)` returns for codemode\'s calls. If your app decides every run itself, use `runtime.tool({ approvals: "host" })`.';

/** The ways an app's approval setup can leave a `codemode` run with nobody asked. */
export type Misconfiguration = "not-asked" | "not-answered" | "asked-before-run";

const MESSAGES: Record<Misconfiguration, (count: number) => string> = {
  "not-asked": () =>
    `Nothing ran: this codemode call reached execute without codemode's approval check, so a run that paused would wait with nobody asked. A \`toolApproval\` on streamText or generateText replaces the tool's own approval, and it gave this call no decision of codemode's (it returned undefined, "not-applicable" or "approved" for codemode). ${FIX}`,
  "not-answered": (count) =>
    `Nothing more ran: the run waits for a person's approval of ${count === 1 ? "a call" : `${count} calls`}, and this codemode call reached execute without their answer (codemode's approval request was overridden, answered automatically, or its answer cannot be read: its tool call id is shared with another call). The calls still wait; the host can decide them with runtime.approve or runtime.reject. ${FIX}`,
  "asked-before-run": () =>
    `Nothing ran: this answer approves a codemode call that has no run. It was asked before the code ran (a \`toolApproval\` that returns "user-approval" for codemode asks about the program on every call, read-only ones too, never about the calls it makes), or its run ended long ago and is no longer kept (then call codemode again). ${FIX}`,
};

/** What `execute` answers for a misconfiguration: `INVALID_CONFIG`, nothing ran, and the fix. */
export function misconfigured(kind: Misconfiguration, executionId = "", count = 0): CodeModeOutput {
  return { status: "error", executionId, error: MESSAGES[kind](count), code: "INVALID_CONFIG" };
}

/** The status a `codemode` approval answers with when it asks. */
export const userApproval = (reason: string): CodemodeApprovalStatus => ({
  type: "user-approval",
  reason,
});
