import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { Scenario } from "./scenario.ts";

/** The label a page shows for this model. */
export const OFFLINE_MODEL_LABEL = "OFFLINE DEMO MODEL (scripted, no AI provider)";

/** What an app gives the offline model: its scenarios, and how they read the tool's output. */
export interface ScenarioScript<Output> {
  /** the scenario the user's last message asks for */
  match(text: string): Scenario<Output>;
  /** the tool's output from a tool-result part of the prompt, as the scenarios read it */
  readOutput(output: LanguageModelV3ToolResultOutput): Output | undefined;
}

export interface OfflineDemoModelOptions<Output> extends ScenarioScript<Output> {
  /** the tool the scenarios' programs go to (default "codemode") */
  toolName?: string;
  /** paces the streamed text chunks so a page shows text arriving */
  delayMs?: number;
}

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

/**
 * A scripted language model (AI SDK LanguageModelV3) for the demos without an AI provider. It reads
 * the user's last message, writes the matching scenario's program as a call of the code tool, and
 * once the tool's result is in the prompt, answers with a short text built from that real result.
 */
export class OfflineDemoModel<Output = unknown> implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly provider = "codemode-demo";
  readonly modelId = "offline-demo";
  readonly supportedUrls = {};

  constructor(private readonly options: OfflineDemoModelOptions<Output>) {}

  /** The tool's output in a tool message, whatever shape the result part took. */
  private outputOf(message: LanguageModelV3Message): Output | undefined {
    if (message.role !== "tool") return undefined;
    for (const part of message.content) {
      if (part.type === "tool-result") return this.options.readOutput(part.output);
    }
    return undefined;
  }

  /** What the model says next: a tool call on a new question, a text once the tool has answered. */
  private reply(options: LanguageModelV3CallOptions): LanguageModelV3Content[] {
    const toolName = this.options.toolName ?? "codemode";
    const prompt = options.prompt;
    const lastUser = [...prompt].reverse().find((m) => m.role === "user");
    const scenario = this.options.match(textOf(lastUser));
    const last = prompt[prompt.length - 1];
    const hasTool = options.tools?.some((t) => t.name === toolName) ?? false;
    if (last?.role === "tool") {
      return [{ type: "text", text: scenario.answer(this.outputOf(last)) }];
    }
    if (scenario.code === undefined || !hasTool) {
      return [{ type: "text", text: scenario.answer(undefined) }];
    }
    return [
      {
        type: "tool-call",
        toolCallId: `call_${crypto.randomUUID().slice(0, 8)}`,
        toolName,
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
