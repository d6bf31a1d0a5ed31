// The one stand-in these tests allow: a TanStack AI text adapter (BaseTextAdapter, the class real
// providers extend) that plays a scripted model. Each turn sees the options chat() sent it (the
// messages so far, the tools) and answers with text and tool calls as AG-UI events.
import {
  type AdapterYieldChunk,
  EventType,
  type ModelMessage,
  type TextOptions,
} from "@tanstack/ai";
import { BaseTextAdapter, type StructuredOutputResult } from "@tanstack/ai/adapters";

/** What the scripted model says in one turn. */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: Array<{ id: string; name: string; input: unknown }>;
}

type Turn = ScriptedTurn | ((options: TextOptions) => ScriptedTurn);

export class ScriptedAdapter extends BaseTextAdapter<
  "scripted",
  Record<string, never>,
  readonly ["text"],
  {
    text: unknown;
    image: unknown;
    audio: unknown;
    video: unknown;
    document: unknown;
  }
> {
  readonly name = "scripted";
  /** the options of every model call, in order */
  readonly calls: TextOptions[] = [];
  private readonly turns: Turn[];

  constructor(turns: Turn[]) {
    super({}, "scripted");
    this.turns = [...turns];
  }

  async *chatStream(options: TextOptions): AsyncIterable<AdapterYieldChunk> {
    this.calls.push(options);
    const next = this.turns.shift();
    if (!next) throw new Error(`The script has no turn ${this.calls.length}.`);
    const turn = typeof next === "function" ? next(options) : next;
    const runId = options.runId ?? `run-${this.calls.length}`;
    const threadId = options.threadId ?? "thread";
    const messageId = `msg-${this.calls.length}`;
    const timestamp = Date.now();
    yield { type: EventType.RUN_STARTED, runId, threadId, timestamp };
    if (turn.text !== undefined) {
      yield { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant", timestamp };
      yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: turn.text, timestamp };
      yield { type: EventType.TEXT_MESSAGE_END, messageId, timestamp };
    }
    const toolCalls = turn.toolCalls ?? [];
    for (const [index, call] of toolCalls.entries()) {
      const args = JSON.stringify(call.input);
      yield {
        type: EventType.TOOL_CALL_START,
        toolCallId: call.id,
        toolCallName: call.name,
        toolName: call.name,
        parentMessageId: messageId,
        index,
        timestamp,
      };
      yield { type: EventType.TOOL_CALL_ARGS, toolCallId: call.id, delta: args, timestamp };
      yield {
        type: EventType.TOOL_CALL_END,
        toolCallId: call.id,
        toolCallName: call.name,
        toolName: call.name,
        input: call.input,
        timestamp,
      };
    }
    yield {
      type: EventType.RUN_FINISHED,
      runId,
      threadId,
      finishReason: toolCalls.length > 0 ? "tool_calls" : "stop",
      timestamp,
    };
  }

  structuredOutput(): Promise<StructuredOutputResult<unknown>> {
    return Promise.reject(new Error("The scripted model has no structured output."));
  }
}

/** The content of the tool message that answers `toolCallId`, parsed. */
export function toolResult(messages: readonly ModelMessage[], toolCallId: string): unknown {
  const message = messages.find((item) => item.role === "tool" && item.toolCallId === toolCallId);
  if (!message) throw new Error(`No tool message answers ${toolCallId}.`);
  return typeof message.content === "string" ? JSON.parse(message.content) : message.content;
}
