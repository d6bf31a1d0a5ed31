// The AI SDK's mock model scripted for a code tool: its first step calls `codemode` with the given
// code, every later one answers with the given text, generated or streamed. It keeps the prompts it
// was given.
import { MockLanguageModelV3 } from "ai/test";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

const streamOf = (parts: unknown[]) =>
  new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });

/** A streamed step that calls `codemode` with the code. */
const toolCallParts = (toolCallId: string, code: string) => [
  { type: "tool-call", toolCallId, toolName: "codemode", input: JSON.stringify({ code }) },
  { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage },
];

/** A streamed step that answers with the text. */
const textParts = (answer: string) => [
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: answer },
  { type: "text-end", id: "t" },
  { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
];

export function codeThenAnswerModel(code: string, answer: string) {
  const prompts: unknown[] = [];
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      prompts.push(options.prompt);
      const parts = prompts.length === 1 ? toolCallParts("c1", code) : textParts(answer);
      return { stream: streamOf(parts) as never };
    },
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      return prompts.length === 1
        ? {
            content: [
              {
                type: "tool-call",
                toolCallId: "c1",
                toolName: "codemode",
                input: JSON.stringify({ code }),
              },
            ],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: "text", text: answer }],
            finishReason: { unified: "stop", raw: undefined },
            usage,
            warnings: [],
          };
    },
  });
  return { model, prompts };
}

/**
 * A model that calls `codemode` with the code, and again with the same code while the last tool
 * result says the run is paused and to repeat the call (its `next`); then it answers.
 */
export function repeatWhilePausedModel(code: string, answer: string) {
  const prompts: unknown[] = [];
  let calls = 0;
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      prompts.push(options.prompt);
      const last = options.prompt.at(-1);
      const result =
        last?.role === "tool"
          ? last.content.find((part) => part.type === "tool-result")
          : undefined;
      const value =
        result && "output" in result && result.output.type === "json"
          ? (result.output.value as { status?: string; next?: string })
          : undefined;
      const again =
        result === undefined || (value?.status === "paused" && value.next !== undefined);
      const parts = again ? toolCallParts(`call-${++calls}`, code) : textParts(answer);
      return { stream: streamOf(parts) as never };
    },
  });
  return { model, prompts };
}
