// The text of a `codemode` call's approval request (AI SDK 7's `reason` of a `user-approval`, which
// the chat shows as the tool part's `approval.requestReason`): the calls the run waits for, each with
// its exact recorded input, and whether it may have run already. It is what the person reads, so
// every character in it is one they can see, and no input can forge a line of its own.
import { shownValue } from "../../shown-value.ts";
import type { PendingAction } from "../../types.ts";
import { visibleText } from "../../visible-text.ts";

/** How every request reason of a `codemode` call begins (the answer's check of who asked). */
const HEADING = /^Approve (?:this call|these \d+ calls) of codemode run \S+:\n/;

/**
 * One call as the person reads it: `#seq connector.method(input)`, the input in tagged JSON, then
 * where it goes (`operation:`) and whether it may have run (`in doubt:`), each on a line of its own.
 */
function line(action: PendingAction): string {
  const input = JSON.stringify(shownValue(action.args)) ?? "undefined";
  let text = visibleText(`#${action.seq} ${action.connector}.${action.method}(${input})`);
  if (action.operation !== undefined) text += `\n  operation: ${visibleText(action.operation)}`;
  if (action.inDoubt !== undefined) {
    text += `\n  in doubt: ${visibleText(action.inDoubt.replace(/\s+/g, " "))}`;
  }
  return text;
}

/**
 * The reason of the approval request that shows `pending` of run `executionId`:
 *
 * ```text
 * Approve these 2 calls of codemode run code_…:
 * #1 issues.create({"title":"Triage"})
 * #2 issues.create({"title":"Plan"})
 * ```
 */
export function approvalReason(executionId: string, pending: readonly PendingAction[]): string {
  const heading =
    pending.length === 1 ? "Approve this call" : `Approve these ${pending.length} calls`;
  return `${heading} of codemode run ${visibleText(executionId)}:\n${pending.map(line).join("\n")}`;
}

/** Whether a request reason reads as one `approvalReason` wrote (the conversation says so only). */
export const isApprovalReason = (reason: string | undefined): boolean =>
  reason !== undefined && HEADING.test(reason);
