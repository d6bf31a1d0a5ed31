// runtime.tool() driven the way the AI SDK drives it, for the consent tests: the model's tool call
// (`needsApproval`, or AI SDK 7's `toolApproval`, then `execute` when it does not ask) and the
// person's answer reaching `execute` in a UI message conversation.
import type { CodeModeOutput, CodemodeRuntime, CodemodeToolOutput } from "../src/index.ts";

export type Tool = ReturnType<CodemodeRuntime["tool"]>;

/** What the tool yielded last: the run's outcome. */
export async function last(
  outputs: AsyncIterable<CodemodeToolOutput>,
): Promise<CodemodeToolOutput> {
  let final: CodemodeToolOutput | undefined;
  for await (const output of outputs) final = output;
  if (!final) throw new Error("the tool yielded nothing");
  return final;
}

/** The model's tool call as the AI SDK runs it: `needsApproval`, and `execute` when it says no. */
export async function call(tool: Tool, toolCallId: string, code: string, messages: unknown = []) {
  const asks = await tool.needsApproval?.({ code }, { toolCallId, messages });
  if (asks) return { asks: true as const };
  return {
    asks: false as const,
    output: await last(tool.execute({ code }, { toolCallId, messages })),
  };
}

/**
 * The model's tool call as AI SDK 7 runs it with `toolApproval: { codemode: tool.toolApproval }`:
 * the approval function, and `execute` when it does not ask; `reason` is what the card shows.
 */
export async function callWithToolApproval(
  tool: Tool,
  toolCallId: string,
  code: string,
  messages: unknown = [],
) {
  const decide = tool.toolApproval;
  if (!decide) throw new Error("the tool has no toolApproval");
  const status = await decide({ code }, { toolCallId, messages });
  if (status !== "not-applicable") return { asks: true as const, reason: status.reason };
  return {
    asks: false as const,
    output: await last(tool.execute({ code }, { toolCallId, messages })),
  };
}

/** A UI conversation whose tool part of `toolCallId` carries an answer (and `parts` after it). */
export function answered(
  toolCallId: string,
  code: string,
  approval: { approved: boolean; reason?: string; id?: string; requestReason?: string },
  after: unknown[] = [],
) {
  return [
    { id: "u", role: "user", parts: [{ type: "text", text: "go" }] },
    {
      id: "a",
      role: "assistant",
      parts: [
        {
          type: "tool-codemode",
          toolCallId,
          state: "approval-responded",
          input: { code },
          approval: { id: `approval-${toolCallId}`, ...approval },
        },
        ...after,
      ],
    },
  ];
}

/** The person's answer reaching `execute`, as the AI SDK delivers it. */
export const answer = (
  tool: Tool,
  toolCallId: string,
  code: string,
  approved = true,
  messages?: unknown,
) =>
  last(
    tool.execute(
      { code },
      { toolCallId, messages: messages ?? answered(toolCallId, code, { approved }) },
    ),
  ) as Promise<CodeModeOutput>;
