// The conversation of the surface-integrity suite, as the AI SDK carries it to the `codemode` tool:
// one tool part per tool call (asked, answered, with its output, denied), written out as UI messages
// (a tool part in state `approval-responded` with its `approval`) or as the model messages the AI SDK
// makes of them (`tool-call`, `tool-approval-request`, `tool-approval-response`, `tool-result`).
import type { Shape } from "./surface-case.ts";

export type PartState =
  | "approval-requested"
  | "approval-responded"
  | "output-available"
  | "output-denied";

/** A `codemode` tool call as the conversation holds it. */
export interface ToolPart {
  toolCallId: string;
  code: string;
  state: PartState;
  approval?: { id: string; approved?: boolean; reason?: string };
  /** the tool's final output (a `CodeModeOutput`) */
  output?: unknown;
  /**
   * how many tool calls of the conversation have this id (a model that emitted its call twice, or
   * repeated it in a later step); the runtime takes no answer or paused result under such an id
   */
  copies?: number;
}

const TOOL_NAME = "codemode";

/** The conversation's tool parts, one per tool call, in the order the calls were made. */
export class Conversation {
  readonly #parts = new Map<string, ToolPart>();

  get(toolCallId: string): ToolPart | undefined {
    return this.#parts.get(toolCallId);
  }

  set(part: ToolPart): void {
    this.#parts.set(part.toolCallId, part);
  }

  /** The parts as they are now, with `part` in place of (or after) its tool call's own. */
  with(...replaced: ToolPart[]): ToolPart[] {
    const parts = new Map(this.#parts);
    for (const part of replaced) parts.set(part.toolCallId, part);
    return [...parts.values()];
  }

  parts(): ToolPart[] {
    return [...this.#parts.values()];
  }
}

function uiPart(part: ToolPart): Record<string, unknown> {
  return {
    type: `tool-${TOOL_NAME}`,
    toolCallId: part.toolCallId,
    state: part.state,
    input: { code: part.code },
    ...(part.approval ? { approval: { ...part.approval } } : {}),
    ...(part.output !== undefined ? { output: part.output } : {}),
  };
}

function modelMessages(
  part: ToolPart,
  modelOutput: (output: unknown) => unknown,
): Record<string, unknown>[] {
  const { toolCallId, approval } = part;
  const assistant = {
    role: "assistant",
    content: [
      { type: "tool-call", toolCallId, toolName: TOOL_NAME, input: { code: part.code } },
      ...(approval ? [{ type: "tool-approval-request", approvalId: approval.id, toolCallId }] : []),
    ],
  };
  const results: Record<string, unknown>[] = [];
  if (approval?.approved !== undefined) {
    results.push({
      type: "tool-approval-response",
      approvalId: approval.id,
      approved: approval.approved,
      ...(approval.reason ? { reason: approval.reason } : {}),
    });
  }
  if (part.output !== undefined) {
    results.push({
      type: "tool-result",
      toolCallId,
      toolName: TOOL_NAME,
      output: modelOutput(part.output),
    });
  } else if (part.state === "output-denied") {
    results.push({
      type: "tool-result",
      toolCallId,
      toolName: TOOL_NAME,
      output: { type: "execution-denied" },
    });
  }
  return results.length > 0 ? [assistant, { role: "tool", content: results }] : [assistant];
}

/**
 * The messages a request carries: UI messages (each tool call in an assistant message of its own),
 * or model messages; `modelOutput` is the tool's `toModelOutput` (what a model message's result holds).
 */
export function messagesOf(
  parts: readonly ToolPart[],
  shape: Shape,
  modelOutput: (output: unknown) => unknown,
): unknown[] {
  const user = "Tidy the records, please.";
  if (shape === "ui") {
    return [
      { id: "m0", role: "user", parts: [{ type: "text", text: user }] },
      ...parts.map((part, index) => ({
        id: `m${index + 1}`,
        role: "assistant",
        parts: Array.from({ length: part.copies ?? 1 }, () => uiPart(part)),
      })),
    ];
  }
  return [
    { role: "user", content: [{ type: "text", text: user }] },
    ...parts.flatMap((part) =>
      Array.from({ length: part.copies ?? 1 }, () => modelMessages(part, modelOutput)).flat(),
    ),
  ];
}

/**
 * The run a new tool call with `code` may continue, as the conversation points at it: the last
 * result of a call with this code, when that result says its run paused (what the runtime reads;
 * an id the conversation gives to two tool calls points at nothing).
 */
export function pausedPointer(
  parts: readonly ToolPart[],
  code: string,
): { toolCallId: string; executionId: string } | undefined {
  let found: { toolCallId: string; executionId: string } | undefined;
  for (const part of parts) {
    if (part.code !== code || part.output === undefined || (part.copies ?? 1) > 1) continue;
    const output = part.output as { status?: unknown; executionId?: unknown };
    found =
      output.status === "paused" && typeof output.executionId === "string"
        ? { toolCallId: part.toolCallId, executionId: output.executionId }
        : undefined;
  }
  return found;
}
