// Reads the AI SDK's tool-approval answers out of a conversation: which tool calls a person approved
// or denied, with the code each call carried. It reads both shapes the AI SDK has: model messages
// (`tool-approval-request` in the assistant's content, `tool-approval-response` in a tool message)
// and UI messages (a tool part in state `approval-responded` with its `approval`). The messages come
// from the client, so nothing here is trusted beyond "this conversation says so"; the caller binds a
// decision to a run only through the tool call's own id and code.
//
// A conversation is read once per messages array (the AI SDK hands every tool call of a step the
// same array), so a step of many calls costs one read, not one per call.

/** How many parts one read looks at, in all; a longer conversation is read from its end. */
export const MAX_APPROVAL_SCAN = 10_000;

/** A person's answer to the approval request of one tool call. */
export interface ApprovalResponse {
  toolCallId: string;
  approved: boolean;
  reason?: string;
  /** the `code` of the tool call's input, when the conversation has the call */
  code?: string;
  /**
   * the approval request's own reason, as the conversation carries it (AI SDK 7: `reason` of a
   * `tool-approval-request`, `approval.requestReason` of a UI part): it says who asked, never what
   * is decided
   */
  requestReason?: string;
}

/** A tool call whose last result in the conversation says its run is paused. */
export interface PausedResult {
  toolCallId: string;
  executionId: string;
}

type Part = Record<string, unknown>;

const isObject = (value: unknown): value is Part => typeof value === "object" && value !== null;
const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;
const codeOf = (input: unknown): string | undefined =>
  isObject(input) ? text(input.code) : undefined;

/** The last `MAX_APPROVAL_SCAN` parts of the conversation, in order. */
function partsOf(messages: unknown): Part[] {
  if (!Array.isArray(messages)) return [];
  const newestFirst: Part[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message: unknown = messages[index];
    if (!isObject(message)) continue;
    const content = Array.isArray(message.content)
      ? message.content
      : Array.isArray(message.parts)
        ? message.parts
        : [];
    for (let at = content.length - 1; at >= 0; at--) {
      if (newestFirst.length >= MAX_APPROVAL_SCAN) return newestFirst.reverse();
      const part: unknown = content[at];
      if (isObject(part)) newestFirst.push(part);
    }
  }
  return newestFirst.reverse();
}

/** A part that stands for a tool call: a model message's `tool-call`, or a UI message's tool part. */
const isToolCall = (part: Part) =>
  part.type === "tool-call" ||
  (typeof part.state === "string" &&
    typeof part.type === "string" &&
    (part.type.startsWith("tool-") || part.type === "dynamic-tool"));

/** What one read of a conversation finds. */
interface Conversation {
  answers: ApprovalResponse[];
  /** the conversation's last paused result of a `codemode` call, by the call's code */
  pausedByCode: Map<string, PausedResult | undefined>;
}

/**
 * The tool call ids the conversation gives to more than one tool call or approval request: a model
 * chooses its ids, and an answer under such an id cannot say which call it is for. It decides
 * nothing, and no paused result under it continues a run.
 */
function sharedIds(parts: readonly Part[]): Set<string> {
  const calls = new Map<string, number>();
  const requests = new Map<string, number>();
  const shared = new Set<string>();
  for (const part of parts) {
    const toolCallId = text(part.toolCallId);
    if (toolCallId === undefined) continue;
    const counts =
      part.type === "tool-approval-request" ? requests : isToolCall(part) ? calls : undefined;
    if (!counts) continue;
    const count = (counts.get(toolCallId) ?? 0) + 1;
    counts.set(toolCallId, count);
    if (count > 1) shared.add(toolCallId);
  }
  return shared;
}

/** A tool result's `codemode` outcome, from a model message (`{ type: "json", value }`) or a UI part. */
function outcomeOf(part: Part): Part | undefined {
  const output = isObject(part.output) ? part.output : undefined;
  if (!output) return undefined;
  if (output.type === "json" && isObject(output.value)) return output.value;
  return typeof output.status === "string" ? output : undefined;
}

function read(messages: unknown): Conversation {
  const parts = partsOf(messages);
  const shared = sharedIds(parts);
  // the code of each tool call the parts carry (a model message's tool call, a UI tool part)
  const codeOfCall = new Map<string, string>();
  for (const part of parts) {
    const toolCallId = text(part.toolCallId);
    const code = codeOf(part.input);
    if (toolCallId !== undefined && code !== undefined && !shared.has(toolCallId)) {
      codeOfCall.set(toolCallId, code);
    }
  }
  const callOfApproval = new Map<string, string>();
  const reasonOfRequest = new Map<string, string>();
  for (const part of parts) {
    const toolCallId = text(part.toolCallId);
    if (part.type === "tool-approval-request" && toolCallId !== undefined) {
      const approvalId = text(part.approvalId);
      if (approvalId !== undefined) callOfApproval.set(approvalId, toolCallId);
      const asked = text(part.reason);
      if (asked !== undefined) reasonOfRequest.set(toolCallId, asked);
    }
  }
  const answers = new Map<string, ApprovalResponse>();
  const answer = (toolCallId: string, approved: unknown, reason: unknown, asked?: unknown) => {
    if (typeof approved !== "boolean" || shared.has(toolCallId)) return;
    const code = codeOfCall.get(toolCallId);
    const why = text(reason);
    const requestReason = text(asked) ?? reasonOfRequest.get(toolCallId);
    answers.set(toolCallId, {
      toolCallId,
      approved,
      ...(why !== undefined ? { reason: why } : {}),
      ...(code !== undefined ? { code } : {}),
      ...(requestReason !== undefined ? { requestReason } : {}),
    });
  };
  const pausedByCode = new Map<string, PausedResult | undefined>();
  for (const part of parts) {
    if (part.type === "tool-approval-response") {
      // the last answer wins
      const toolCallId = callOfApproval.get(text(part.approvalId) ?? "");
      if (toolCallId !== undefined) answer(toolCallId, part.approved, part.reason);
    } else if (part.state === "approval-responded" || part.state === "output-denied") {
      const toolCallId = text(part.toolCallId);
      const approval = isObject(part.approval) ? part.approval : undefined;
      if (toolCallId !== undefined && approval)
        answer(toolCallId, approval.approved, approval.reason, approval.requestReason);
    }
    const toolCallId = text(part.toolCallId);
    const code = toolCallId === undefined ? undefined : codeOfCall.get(toolCallId);
    const outcome = code === undefined ? undefined : outcomeOf(part);
    if (code === undefined || toolCallId === undefined || outcome === undefined) continue;
    const executionId = outcome.status === "paused" ? text(outcome.executionId) : undefined;
    pausedByCode.set(code, executionId === undefined ? undefined : { toolCallId, executionId });
  }
  return { answers: [...answers.values()], pausedByCode };
}

const reads = new WeakMap<object, { length: number; found: Conversation }>();

/**
 * The conversation's answers and paused results, read once per messages array (read again if the
 * array grew since: a host that appends to its array is read anew).
 */
function conversation(messages: unknown): Conversation {
  if (!Array.isArray(messages)) return read(messages);
  const cached = reads.get(messages);
  if (cached?.length === messages.length) return cached.found;
  const found = read(messages);
  reads.set(messages, { length: messages.length, found });
  return found;
}

/**
 * Every approval answer the conversation holds, one per tool call (the last answer wins). A model
 * message answer names its request's `approvalId`, which the assistant's request ties to a tool call;
 * a UI message part carries the tool call, its input and the answer together. An id the
 * conversation gives to two tool calls or two requests has no answer.
 */
export function approvalResponsesOf(messages: unknown): ApprovalResponse[] {
  return conversation(messages).answers;
}

/**
 * The tool call whose result, the conversation's last for a `codemode` call with this code, says
 * its run is paused (`executionId`), if any: the run a new call with the same code may continue,
 * once the journal confirms that this tool call is bound to that run.
 */
export function pausedRunOf(messages: unknown, code: string): PausedResult | undefined {
  return conversation(messages).pausedByCode.get(code);
}
