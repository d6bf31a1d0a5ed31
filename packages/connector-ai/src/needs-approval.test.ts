// `needsApproval` read the way the AI SDK reads it: every value for which the AI SDK's own
// generateText asks for approval pauses the call in the sandbox, and only those.
import { createCodemodeRuntime, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { generateText, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toolSetConnector } from "./index.ts";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A tool named `act` with this `needsApproval`, and the calls its `execute` saw. */
function acting(needsApproval: unknown) {
  const ran: unknown[] = [];
  const act = tool({
    description: "Does something.",
    inputSchema: z.object({}),
    needsApproval: needsApproval as never,
    execute: async (input: unknown) => {
      ran.push(input);
      return "done";
    },
  });
  return { tools: { act }, ran };
}

/**
 * Whether the AI SDK itself asks for approval before running the tool, in generateText; `undefined`
 * when it fails instead of deciding (AI SDK 6 calls any value that is not a boolean).
 */
async function aiSdkAsks(needsApproval: unknown): Promise<boolean | undefined> {
  const { tools, ran } = acting(needsApproval);
  const model = new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: "tool-call", toolCallId: "c1", toolName: "act", input: "{}" }],
      finishReason: { unified: "tool-calls", raw: undefined },
      usage,
      warnings: [],
    }),
  });
  const result = await generateText({ model, tools, prompt: "Act." }).catch(() => undefined);
  if (result === undefined) return undefined;
  const asked = result.content.some((part) => part.type === "tool-approval-request");
  // the AI SDK either asks or runs the tool, never both
  expect(ran.length).toBe(asked ? 0 : 1);
  return asked;
}

/** Whether a call of the tool through toolSetConnector pauses for a person. */
async function connectorAsks(needsApproval: unknown): Promise<boolean> {
  const { tools, ran } = acting(needsApproval);
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new QuickJSExecutor(),
    connectors: [toolSetConnector({ name: "tools", tools })],
  });
  const outcome = await runtime.execute({ code: "async () => await tools.act({})" });
  expect(outcome.status).toBe(ran.length === 0 ? "paused" : "completed");
  return outcome.status === "paused";
}

describe("needsApproval, read the way the AI SDK reads it", () => {
  it.each<[string, unknown]>([
    ["true", true],
    ["false", false],
    ["undefined", undefined],
    ["null", null],
    ["0", 0],
    ["an empty string", ""],
    ["1", 1],
    ['"yes"', "yes"],
    ['"false"', "false"],
    ["an object", {}],
    ["an array", []],
    ["a function returning true", () => true],
    ["a function returning false", () => false],
    ["a function returning 1", () => 1],
    ['a function returning "yes"', () => "yes"],
    ["a function returning an object", () => ({ approve: false })],
    ["a function returning 0", () => 0],
    ["a function returning nothing", () => undefined],
    ['an async function resolving to "yes"', async () => "yes"],
    ["an async function resolving to false", async () => false],
  ])("%s", async (_name, needsApproval) => {
    // AI SDK 6 (packages/ai-sdk-6 runs this file against it) fails on `1` or `"yes"` rather than
    // deciding: there, a truthy value must ask and a falsy one run, as AI SDK 7 reads them
    const asked = (await aiSdkAsks(needsApproval)) ?? Boolean(needsApproval);
    expect(await connectorAsks(needsApproval)).toBe(asked);
  });

  it("asks for every truthy value, as the AI SDK does", async () => {
    for (const value of [1, "yes", {}, [], () => 1, async () => ({})])
      expect(await connectorAsks(value)).toBe(true);
  });
});
