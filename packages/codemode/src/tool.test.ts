// runtime.tool() as an AI SDK tool, driven by the AI SDK's mock model over two steps: the first runs
// code that pauses for approval, the second reads the paused output and answers.
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createCodemodeRuntime, functionConnector, memoryStore } from "./index.ts";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

describe("runtime.tool()", () => {
  it("works as an AI SDK tool through generateText, pausing on approval", async () => {
    const created: string[] = [];
    const issues = functionConnector({
      name: "issues",
      instructions: "The team's issue tracker.",
      methods: {
        list: {
          description: "List open issues.",
          inputSchema: z.object({}),
          execute: async () => [{ number: 1 }],
        },
        create: {
          description: "Open an issue.",
          inputSchema: z.object({ title: z.string() }),
          requiresApproval: true,
          execute: async ({ title }) => {
            created.push(title);
            return { number: 2 };
          },
        },
      },
    });
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new QuickJSExecutor(),
      connectors: [issues],
    });
    const code =
      'const open = await issues.list({}); if (open.length) await issues.create({ title: "Triage" }); return open.length;';
    const prompts: unknown[] = [];
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt);
        step++;
        return step === 1
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
              content: [{ type: "text", text: "Waiting for your approval." }],
              finishReason: { unified: "stop", raw: undefined },
              usage,
              warnings: [],
            };
      },
    });
    const tool = runtime.tool();
    const result = await generateText({
      model,
      tools: { codemode: tool },
      prompt: "Open a triage issue if anything is open.",
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe("Waiting for your approval.");
    const output = result.steps[0]?.toolResults[0]?.output as {
      status: string;
      executionId: string;
      pending: unknown[];
    };
    expect(output).toMatchObject({
      status: "paused",
      pending: [{ connector: "issues", method: "create", args: { title: "Triage" } }],
    });
    expect(created).toEqual([]);
    expect(JSON.stringify(prompts[1])).toContain('"status":"paused"');
    expect(tool.description).toContain("- issues: The team's issue tracker.");
    expect(await runtime.approve({ executionId: output.executionId })).toMatchObject({
      status: "completed",
      result: 1,
    });
    expect(created).toEqual(["Triage"]);
  });
});
