import type { LanguageModelV3, LanguageModelV4 } from "@ai-sdk/provider";
import { type ModelMessage, stepCountIs, streamText, type Tool } from "ai";
import type { CodeModeOutput } from "codemode";
import type { ChatEvent } from "./chat-event.ts";

/** Model steps per user message: enough for a few programs and the answer. */
export const MAX_STEPS = 6;

export const SYSTEM_PROMPT = [
  "You are the demo agent of Code Mode. You act by writing code: call the `codemode` tool with one",
  "async JavaScript arrow function over the globals its description lists: `tracker` (the team's",
  "projects and tasks), `notes` (the team's notes, from an MCP server) and `catalog` (the shop's",
  "catalog, a REST API described by OpenAPI).",
  "Compose several calls in one program when you can. Some methods need a person's approval",
  "(@approval in the declarations): the run then pauses, and you tell the user to approve or reject",
  "it on the page.",
  "Answer briefly, from the tool's real result.",
].join(" ");

export interface ChatTurn {
  model: LanguageModelV3 | LanguageModelV4;
  tool: Tool;
  /** the conversation so far */
  history: ModelMessage[];
  text: string;
  send: (event: ChatEvent) => void;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One user message through the model's tool loop, streamed as chat events. Returns the messages to
 * keep: the user's and the model's (text, tool calls and tool results).
 */
export async function runChatTurn(turn: ChatTurn): Promise<ModelMessage[]> {
  const user: ModelMessage = { role: "user", content: turn.text };
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
      case "tool-call": {
        const input = part.input as { code?: unknown };
        turn.send({
          type: "tool-call",
          toolCallId: part.toolCallId,
          code: typeof input?.code === "string" ? input.code : JSON.stringify(part.input),
        });
        break;
      }
      case "tool-result":
        // the page shows a run's outcome; its progress (preliminary results) is for the demo issue
        if (part.preliminary) break;
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
