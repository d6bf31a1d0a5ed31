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

/** How many times one turn calls the tool (the first call and the repeats of a paused run). */
export const MAX_TOOL_CALLS_PER_TURN = 12;

/** The `code` of a tool call's input, which the prompt holds parsed or as JSON text. */
function codeOf(input: unknown): string | undefined {
  let value = input;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const code = (value as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** What the messages after the user's last one hold: the tool's calls and results, in order. */
interface Turn {
  calls: Array<{ toolCallId: string; code: string | undefined }>;
  results: Array<{ toolCallId: string; output: LanguageModelV3ToolResultOutput }>;
}

function turnOf(messages: readonly LanguageModelV3Message[], toolName: string): Turn {
  const turn: Turn = { calls: [], results: [] };
  for (const message of messages) {
    if (message.role !== "assistant" && message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-call" && part.toolName === toolName) {
        turn.calls.push({ toolCallId: part.toolCallId, code: codeOf(part.input) });
      } else if (part.type === "tool-result" && part.toolName === toolName) {
        turn.results.push({ toolCallId: part.toolCallId, output: part.output });
      }
    }
  }
  return turn;
}

/**
 * A scripted language model (AI SDK LanguageModelV3) for the demos without an AI provider. It reads
 * the user's last message, writes the matching scenario's program as a call of the code tool, and
 * once the tool's result is in the prompt, answers with a short text built from that real result,
 * or, when the scenario asks for it (a run that paused again), calls the tool again with the same
 * code.
 */
export class OfflineDemoModel<Output = unknown> implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly provider = "codemode-demo";
  readonly modelId = "offline-demo";
  readonly supportedUrls = {};

  constructor(private readonly options: OfflineDemoModelOptions<Output>) {}

  private toolCall(toolName: string, code: string): LanguageModelV3Content {
    return {
      type: "tool-call",
      toolCallId: `call_${crypto.randomUUID().slice(0, 8)}`,
      toolName,
      input: JSON.stringify({ code }),
    };
  }

  /** The scenario's answer; a scenario that cannot read the output says so rather than failing. */
  private answer(
    scenario: Scenario<Output>,
    output: Output | undefined,
    earlier: readonly Output[],
  ): LanguageModelV3Content {
    let text: string;
    try {
      text = scenario.answer(output, earlier);
    } catch (error) {
      text = `I could not read the tool's result (${(error as Error).message}), so I cannot say what it did; the run's journal shows every call it made.`;
    }
    return { type: "text", text };
  }

  /** What the model says next: a tool call on a new question, a text once the tool has answered. */
  private reply(options: LanguageModelV3CallOptions): LanguageModelV3Content[] {
    const toolName = this.options.toolName ?? "codemode";
    const prompt = options.prompt;
    const userAt = prompt.findLastIndex((m) => m.role === "user");
    const scenario = this.options.match(textOf(prompt[userAt]));
    const hasTool = options.tools?.some((t) => t.name === toolName) ?? false;
    const last = prompt[prompt.length - 1];
    if (last?.role === "tool") {
      const turn = turnOf(prompt.slice(userAt + 1), toolName);
      const outputs = turn.results.map((result) => this.options.readOutput(result.output));
      const latest = turn.results.at(-1);
      const output = outputs.at(-1);
      const earlier = outputs.slice(0, -1).filter((o): o is Output => o !== undefined);
      if (latest && output !== undefined && hasTool && scenario.again?.(output) === true) {
        const code = turn.calls.find((call) => call.toolCallId === latest.toolCallId)?.code;
        if (code !== undefined && turn.calls.length < MAX_TOOL_CALLS_PER_TURN) {
          return [this.toolCall(toolName, code)];
        }
      }
      return [this.answer(scenario, output, earlier)];
    }
    if (scenario.code === undefined || !hasTool) {
      return [this.answer(scenario, undefined, [])];
    }
    return [this.toolCall(toolName, scenario.code)];
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
