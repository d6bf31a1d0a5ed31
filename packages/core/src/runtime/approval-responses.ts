// Reads the AI SDK's tool-approval answers out of a conversation: which tool calls a person approved
// or denied, with the code each call carried. It reads both shapes the AI SDK has: model messages
// (`tool-approval-request` in the assistant's content, `tool-approval-response` in a tool message)
// and UI messages (a tool part in state `approval-responded` with its `approval`). The messages come
// from the client, so nothing here is trusted beyond "this conversation says so"; the caller binds a
// decision to a run only through the tool call's own id and code.

/** How many messages and parts one read looks at; a longer conversation is read from its end. */
export const MAX_APPROVAL_SCAN = 10_000;

/** A person's answer to the approval request of one tool call. */
export interface ApprovalResponse {
  toolCallId: string;
  approved: boolean;
  reason?: string;
  /** the `code` of the tool call's input, when the conversation has the call */
  code?: string;
}

type Part = Record<string, unknown>;

const isObject = (value: unknown): value is Part => typeof value === "object" && value !== null;
const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;
const codeOf = (input: unknown): string | undefined =>
  isObject(input) ? text(input.code) : undefined;

/** The parts of the last `MAX_APPROVAL_SCAN` messages, in order. */
function partsOf(messages: unknown): Part[] {
  if (!Array.isArray(messages)) return [];
  const parts: Part[] = [];
  for (const message of messages.slice(-MAX_APPROVAL_SCAN)) {
    if (!isObject(message)) continue;
    const content = Array.isArray(message.content)
      ? message.content
      : Array.isArray(message.parts)
        ? message.parts
        : [];
    for (const part of content.slice(-MAX_APPROVAL_SCAN)) if (isObject(part)) parts.push(part);
  }
  return parts;
}

/** The code of each tool call the parts carry (a model message's tool call, a UI tool part). */
function codesOfCalls(parts: readonly Part[]): Map<string, string> {
  const codes = new Map<string, string>();
  for (const part of parts) {
    const toolCallId = text(part.toolCallId);
    const code = codeOf(part.input);
    if (toolCallId !== undefined && code !== undefined) codes.set(toolCallId, code);
  }
  return codes;
}

/**
 * Every approval answer the conversation holds, one per tool call (the last answer wins). A model
 * message answer names its request's `approvalId`, which the assistant's request ties to a tool call;
 * a UI message part carries the tool call, its input and the answer together.
 */
export function approvalResponsesOf(messages: unknown): ApprovalResponse[] {
  const parts = partsOf(messages);
  const codeOfCall = codesOfCalls(parts);
  const callOfApproval = new Map<string, string>();
  for (const part of parts) {
    const toolCallId = text(part.toolCallId);
    if (toolCallId === undefined) continue;
    if (part.type === "tool-approval-request" && text(part.approvalId) !== undefined) {
      callOfApproval.set(part.approvalId as string, toolCallId);
    }
  }
  const answers = new Map<string, ApprovalResponse>();
  const answer = (toolCallId: string, approved: unknown, reason: unknown) => {
    if (typeof approved !== "boolean") return;
    const code = codeOfCall.get(toolCallId);
    const why = text(reason);
    answers.set(toolCallId, {
      toolCallId,
      approved,
      ...(why !== undefined ? { reason: why } : {}),
      ...(code !== undefined ? { code } : {}),
    });
  };
  for (const part of parts) {
    if (part.type === "tool-approval-response") {
      const toolCallId = callOfApproval.get(text(part.approvalId) ?? "");
      if (toolCallId !== undefined) answer(toolCallId, part.approved, part.reason);
    } else if (part.state === "approval-responded" || part.state === "output-denied") {
      const toolCallId = text(part.toolCallId);
      const approval = isObject(part.approval) ? part.approval : undefined;
      if (toolCallId !== undefined && approval)
        answer(toolCallId, approval.approved, approval.reason);
    }
  }
  return [...answers.values()];
}

/** A tool result's `codemode` outcome, from a model message (`{ type: "json", value }`) or a UI part. */
function outcomeOf(part: Part): Part | undefined {
  const output = isObject(part.output) ? part.output : undefined;
  if (!output) return undefined;
  if (output.type === "json" && isObject(output.value)) return output.value;
  return typeof output.status === "string" ? output : undefined;
}

/**
 * The tool call whose result, the conversation's last for a `codemode` call with this code, says
 * its run is paused (`executionId`), if any: the run a new call with the same code may continue,
 * once the journal confirms that this tool call is bound to that run.
 */
export function pausedRunOf(
  messages: unknown,
  code: string,
): { toolCallId: string; executionId: string } | undefined {
  const parts = partsOf(messages);
  const codeOfCall = codesOfCalls(parts);
  let found: { toolCallId: string; executionId: string } | undefined;
  for (const part of parts) {
    const toolCallId = text(part.toolCallId);
    if (toolCallId === undefined || codeOfCall.get(toolCallId) !== code) continue;
    const outcome = outcomeOf(part);
    if (outcome === undefined) continue;
    const executionId = outcome.status === "paused" ? text(outcome.executionId) : undefined;
    found = executionId === undefined ? undefined : { toolCallId, executionId };
  }
  return found;
}
