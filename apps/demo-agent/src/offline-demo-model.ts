import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { CodeModeOutput } from "codemode";
import { matchScenario } from "./demo-scenarios.ts";

/** The label the page shows for this model. */
export const OFFLINE_MODEL_LABEL = "OFFLINE DEMO MODEL (scripted, no AI provider)";

const usageOf = (input: number, output: number): LanguageModelV3Usage => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

const textOf = (message: LanguageModelV3Message | undefined): string => {
  if (!message || message.role === "system") return message?.content ?? "";
  return message.content
    .map((part) => (part.type === "text" ? part.text : ""))
    .join(" ")
    .trim();
};

/** The codemode tool's output in a tool message, whatever shape the result part took. */
function toolOutputOf(message: LanguageModelV3Message): CodeModeOutput | undefined {
  if (message.role !== "tool") return undefined;
  for (const part of message.content) {
    if (part.type !== "tool-result") continue;
    const { output } = part;
    if (output.type === "json") return output.value as unknown as CodeModeOutput;
    if (output.type === "error-text" || output.type === "text") {
      return { status: "error", executionId: "", error: output.value };
    }
    if (output.type === "error-json") {
      return { status: "error", executionId: "", error: JSON.stringify(output.value) };
    }
  }
  return undefined;
}

/**
 * A scripted language model (AI SDK LanguageModelV3) for the demo without an AI provider. It reads
 * the user's last message, writes a `codemode` program for it, and once the tool result is in the
 * prompt, answers with a short text built from that real result.
 */
export class OfflineDemoModel implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly provider = "codemode-demo";
  readonly modelId = "offline-demo";
  readonly supportedUrls = {};

  /** `delayMs` paces the streamed chunks so the page shows text arriving */
  constructor(private readonly options: { delayMs?: number } = {}) {}

  /** What the model says next: a tool call on a new question, a text once the tool has answered. */
  private reply(options: LanguageModelV3CallOptions): LanguageModelV3Content[] {
    const prompt = options.prompt;
    const lastUser = [...prompt].reverse().find((m) => m.role === "user");
    const scenario = matchScenario(textOf(lastUser));
    const last = prompt[prompt.length - 1];
    const hasTool = options.tools?.some((t) => t.name === "codemode") ?? false;
    if (last?.role === "tool") {
      return [{ type: "text", text: scenario.answer(toolOutputOf(last)) }];
    }
    if (scenario.code === undefined || !hasTool) {
      return [{ type: "text", text: scenario.answer(undefined) }];
    }
    return [
      {
        type: "tool-call",
        toolCallId: `call_${crypto.randomUUID().slice(0, 8)}`,
        toolName: "codemode",
        input: JSON.stringify({ code: scenario.code }),
      },
    ];
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const content = this.reply(options);
    const called = content.some((part) => part.type === "tool-call");
    return {
      content,
      finishReason: { unified: called ? "tool-calls" : "stop", raw: undefined },
      usage: usageOf(tokens(JSON.stringify(options.prompt)), tokens(JSON.stringify(content))),
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const { content, finishReason, usage } = await this.doGenerate(options);
    const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
    for (const [index, part] of content.entries()) {
      if (part.type === "text") {
        const id = `text_${index}`;
        parts.push({ type: "text-start", id });
        for (const delta of part.text.match(/\S+\s*|\s+/g) ?? []) {
          parts.push({ type: "text-delta", id, delta });
        }
        parts.push({ type: "text-end", id });
      } else {
        parts.push(part as LanguageModelV3StreamPart);
      }
    }
    parts.push({ type: "finish", finishReason, usage });
    const delayMs = this.options.delayMs ?? 0;
    const signal = options.abortSignal;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      async pull(controller) {
        const next = parts.shift();
        if (!next || signal?.aborted) {
          controller.close();
          return;
        }
        if (delayMs > 0 && next.type === "text-delta") {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
        controller.enqueue(next);
      },
    });
    return { stream };
  }
}
