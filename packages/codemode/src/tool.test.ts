// runtime.tool() as an AI SDK tool, driven by the AI SDK's mock model over two steps: the first runs
// code that pauses for approval, the second reads the paused output and answers.
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { generateText, stepCountIs } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { codeThenAnswerModel } from "../test/code-then-answer-model.ts";
import { createCodemodeRuntime, functionConnector, memoryStore } from "./index.ts";

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
    const { model, prompts } = codeThenAnswerModel(code, "Waiting for your approval.");
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
