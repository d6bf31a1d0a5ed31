import type { LanguageModelV3, LanguageModelV4 } from "@ai-sdk/provider";
import { type ModelMessage, stepCountIs, streamText, type Tool } from "ai";
import type { CodeModeOutput, CodemodeProgress } from "codemode";
import type { ChatEvent } from "./chat-event.ts";

/** Model steps per user message: enough for a few programs and the answer. */
export const MAX_STEPS = 6;

export const SYSTEM_PROMPT = [
  "You are the demo agent of Code Mode. You act by writing code: call the `codemode` tool with one",
  "async JavaScript arrow function over the globals its description lists: `tracker` (the team's",
  "projects and tasks), `notes` (the team's notes, from an MCP server) and `catalog` (the shop's",
  "catalog, a REST API described by OpenAPI).",
  "Compose several calls in one program when you can. Some methods need a person's approval",
  "(@approval in the declarations): the run then pauses and the person is asked in the chat. Once",
  "they answer you get the run's outcome, or a denial with their reason: tell them what happened.",
  "Answer briefly, from the tool's real result.",
].join(" ");

/** An approval request the model's tool call raised: the person answers it in the chat. */
export interface ApprovalRequested {
  approvalId: string;
  toolCallId: string;
  code: string;
}

export interface ChatTurn {
  model: LanguageModelV3 | LanguageModelV4;
  tool: Tool;
  /** the conversation so far */
  history: ModelMessage[];
  /** what this turn adds before the model runs: the person's message, or their approval answer */
  input: ModelMessage;
  send: (event: ChatEvent) => void;
  /** each approval request of the turn, as it streams */
  onApprovalRequest?: (request: ApprovalRequested) => Promise<void>;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

const codeOf = (input: unknown): string => {
  const code = (input as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : JSON.stringify(input);
};

/**
 * One turn through the model's tool loop, streamed as chat events: after a user message, or after
 * the person answered an approval request (the AI SDK then runs the approved tool call, or tells
 * the model it was denied). Returns the messages to keep: the turn's input and the model's (text,
 * tool calls, approval requests and tool results).
 */
export async function runChatTurn(turn: ChatTurn): Promise<ModelMessage[]> {
  const user = turn.input;
  let failed = false;
  const result = streamText({
    model: turn.model,
    system: SYSTEM_PROMPT,
    messages: [...turn.history, user],
    tools: { codemode: turn.tool },
    stopWhen: stepCountIs(MAX_STEPS),
    onError: ({ error }) => {
      failed = true;
      turn.send({ type: "error", message: errorText(error) });
    },
  });
  for await (const part of result.fullStream) {
    switch (part.type) {
      case "text-delta":
        turn.send({ type: "text-delta", text: part.text });
        break;
      case "tool-call":
        turn.send({ type: "tool-call", toolCallId: part.toolCallId, code: codeOf(part.input) });
        break;
      case "tool-approval-request":
        await turn.onApprovalRequest?.({
          approvalId: part.approvalId,
          toolCallId: part.toolCall.toolCallId,
          code: codeOf(part.toolCall.input),
        });
        break;
      case "tool-result":
        if (part.preliminary) {
          turn.send({
            type: "tool-progress",
            toolCallId: part.toolCallId,
            progress: part.output as CodemodeProgress,
          });
          break;
        }
        turn.send({
          type: "tool-result",
          toolCallId: part.toolCallId,
          output: part.output as CodeModeOutput,
        });
        turn.send({ type: "changed" });
        break;
      case "tool-error":
        turn.send({
          type: "tool-error",
          toolCallId: part.toolCallId,
          error: errorText(part.error),
        });
        break;
      default:
        break;
    }
  }
  if (failed) return [user];
  // every step's messages (AI SDK 7's `response` holds the last step's only)
  return [user, ...(await result.responseMessages)];
}
