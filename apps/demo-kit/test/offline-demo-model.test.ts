// The kit's offline model with a two-scenario script: the program it sends, the answer from the
// tool's real output (read by the script), and what it says when the tool failed or is missing.
import type { LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import { generateText, stepCountIs, streamText } from "ai";
import { describe, expect, it } from "vitest";
import {
  MAX_TOOL_CALLS_PER_TURN,
  OFFLINE_MODEL_LABEL,
  OfflineDemoModel,
  program,
  type Scenario,
  type ScenarioScript,
  selectModel,
} from "../src/index.ts";
import { recordingCodeTool } from "../src/testing/index.ts";

type Output = { ok: true; value: unknown } | { ok: false; error: string };

const script: ScenarioScript<Output> = {
  match(text): Scenario<Output> {
    if (/\bcount\b/i.test(text)) {
      return {
        name: "count",
        code: program(["const items = await shop.list({});", "return items.length;"]),
        answer(output) {
          if (!output) return "I have no tool to count with.";
          return output.ok ? `There are ${output.value} items.` : `It failed: ${output.error}`;
        },
      };
    }
    return { name: "help", answer: () => 'Say "count".' };
  },
  readOutput(output: LanguageModelV3ToolResultOutput): Output | undefined {
    if (output.type === "json") return { ok: true, value: output.value };
    if (output.type === "error-text") return { ok: false, error: output.value };
    return undefined;
  },
};

describe("OfflineDemoModel", () => {
  it("sends the scenario's program and answers from the tool's output", async () => {
    const { codes, tools } = recordingCodeTool(() => 3);
    const result = await generateText({
      model: new OfflineDemoModel(script),
      tools,
      prompt: "count the items",
      stopWhen: stepCountIs(4),
    });
    expect(codes).toEqual([
      "async () => {\n  const items = await shop.list({});\n  return items.length;\n}",
    ]);
    expect(result.steps).toHaveLength(2);
    expect(result.text).toBe("There are 3 items.");
  });

  it("hands a failed tool call to the scenario as the script reads it", async () => {
    const { tools } = recordingCodeTool(() => {
      throw new Error("no shop");
    });
    const result = await generateText({
      model: new OfflineDemoModel(script),
      tools,
      prompt: "count",
      stopWhen: stepCountIs(4),
    });
    // AI SDK 7 reports a thrown error with its name ("Error: …"), 6 with its message alone
    expect(result.text).toMatch(/^It failed: (Error: )?no shop$/);
  });

  it("answers at once when the scenario has no program or the tool is missing", async () => {
    const help = await generateText({ model: new OfflineDemoModel(script), prompt: "hi" });
    expect(help.text).toBe('Say "count".');
    const noTool = await generateText({ model: new OfflineDemoModel(script), prompt: "count" });
    expect(noTool.toolCalls).toEqual([]);
    expect(noTool.text).toBe("I have no tool to count with.");
  });

  it("calls the tool the options name, and streams the answer in several deltas", async () => {
    const { codes, tools } = recordingCodeTool(() => 12);
    const result = streamText({
      model: new OfflineDemoModel({ ...script, toolName: "run" }),
      tools: { run: tools.codemode },
      prompt: "count",
      stopWhen: stepCountIs(4),
    });
    const kinds: string[] = [];
    for await (const part of result.fullStream) kinds.push(part.type);
    expect(codes).toHaveLength(1);
    expect(kinds.filter((kind) => kind === "text-delta").length).toBeGreaterThan(2);
    expect(await result.text).toBe("There are 12 items.");
  });
});

/** A script whose one scenario repeats its call while the tool says "again". */
const repeating: ScenarioScript<Output> = {
  match: (): Scenario<Output> => ({
    name: "loop",
    code: "async () => step()",
    again: (output) => output.ok && output.value === "again",
    answer(output, earlier = []) {
      if (!output?.ok) return "failed";
      if (output.value === "boom") throw new Error("unexpected shape");
      return `${String(output.value)} after ${earlier.length} earlier results`;
    },
  }),
  // a tool that returns a string gives the model a text part
  readOutput: (output) =>
    output.type === "text" || output.type === "json"
      ? { ok: true, value: output.value }
      : script.readOutput(output),
};

describe("OfflineDemoModel, repeating a call", () => {
  it("calls the tool again with the same code while the scenario asks, then answers", async () => {
    let n = 0;
    const { codes, tools } = recordingCodeTool(() => (++n < 3 ? "again" : "done"));
    const result = await generateText({
      model: new OfflineDemoModel(repeating),
      tools,
      prompt: "go",
      stopWhen: stepCountIs(10),
    });
    expect(codes).toEqual(["async () => step()", "async () => step()", "async () => step()"]);
    expect(result.text).toBe("done after 2 earlier results");
  });

  it("stops repeating at MAX_TOOL_CALLS_PER_TURN calls and answers from the last result", async () => {
    const { codes, tools } = recordingCodeTool(() => "again");
    const result = await generateText({
      model: new OfflineDemoModel(repeating),
      tools,
      prompt: "go",
      stopWhen: stepCountIs(MAX_TOOL_CALLS_PER_TURN + 5),
    });
    expect(codes).toHaveLength(MAX_TOOL_CALLS_PER_TURN);
    expect(result.text).toBe(`again after ${MAX_TOOL_CALLS_PER_TURN - 1} earlier results`);
  });

  it("counts only this turn's results, and repeats the code of the call the result answers", async () => {
    const { codes, tools } = recordingCodeTool(() => "done");
    const result = await generateText({
      model: new OfflineDemoModel(repeating),
      tools,
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: [
            {
              type: "tool-call",
              toolCallId: "old",
              toolName: "codemode",
              input: { code: "old()" },
            },
          ],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "old",
              toolName: "codemode",
              output: { type: "json", value: "done" },
            },
          ],
        },
        { role: "assistant", content: "done after 0 earlier results" },
        { role: "user", content: "go again" },
        {
          role: "assistant",
          content: [
            {
              type: "tool-call",
              toolCallId: "new",
              toolName: "codemode",
              input: { code: "new()" },
            },
          ],
        },
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "new",
              toolName: "codemode",
              output: { type: "json", value: "again" },
            },
          ],
        },
      ],
      stopWhen: stepCountIs(4),
    });
    // the repeat carries the code of the call that paused, not the scenario's own
    expect(codes).toEqual(["new()"]);
    expect(result.text).toBe("done after 1 earlier results");
  });

  it("says it cannot read a result its scenario fails on, rather than failing the turn", async () => {
    const { tools } = recordingCodeTool(() => "boom");
    const result = await generateText({
      model: new OfflineDemoModel(repeating),
      tools,
      prompt: "go",
      stopWhen: stepCountIs(4),
    });
    expect(result.text).toMatch(/^I could not read the tool's result \(unexpected shape\)/);
  });
});

describe("selectModel", () => {
  it("makes the app's offline model when nothing else is configured", () => {
    const offline = new OfflineDemoModel(script);
    const selected = selectModel({}, () => offline);
    expect(selected).toEqual({ provider: "offline", label: OFFLINE_MODEL_LABEL, model: offline });
    expect(selectModel({ MODEL_PROVIDER: "auto" }, () => offline).model).toBe(offline);
  });

  it("prefers an OpenAI-compatible endpoint and says what is missing", () => {
    const offline = () => new OfflineDemoModel(script);
    const selected = selectModel(
      { OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_MODEL: "m" },
      offline,
    );
    expect(selected.provider).toBe("openai-compatible");
    expect(selected.model.modelId).toBe("m");
    expect(() => selectModel({ MODEL_PROVIDER: "workers-ai" }, offline)).toThrow(/AI binding/);
    expect(() => selectModel({ MODEL_PROVIDER: "gpt" }, offline)).toThrow(/auto, offline/);
  });
});
