// AI SDK 7's `toolApproval` given to toolSetConnector: every rule under which the AI SDK's own
// generateText asks for approval pauses the call in the sandbox, every rule under which it denies
// the call fails it without running, and every other runs it; a tool the rules leave out keeps
// its `needsApproval`. packages/ai-sdk-6 runs this file against AI SDK 6, which has no
// toolApproval: there only the connector's side is checked.
import { createCodemodeRuntime, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import * as ai from "ai";
import { generateText, type ToolApprovalConfiguration, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ToolApprovalRules, toolSetConnector } from "./index.ts";

const aiSdk7 = "AI_SDK_TELEMETRY_TRACING_CHANNEL" in ai;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** Tools `pay` (no needsApproval) and `wipe` (needsApproval: true), and the calls that ran. */
function bankTools() {
  const ran: string[] = [];
  const tools = {
    pay: tool({
      description: "Pay an amount.",
      inputSchema: z.object({ amount: z.number() }),
      execute: async ({ amount }) => {
        ran.push(`pay ${amount}`);
        return { paid: amount };
      },
    }),
    wipe: tool({
      description: "Wipe the ledger.",
      inputSchema: z.object({}),
      needsApproval: true,
      execute: async () => {
        ran.push("wipe");
        return "wiped";
      },
    }),
  };
  return { tools, ran };
}

type Outcome = "asks" | "runs" | "denied";

const overHundred = ({ amount }: { amount: number }) =>
  amount > 100 ? "user-approval" : undefined;
const payAsks = ({ toolCall }: { toolCall: { toolName: string } }) =>
  toolCall.toolName === "pay" ? "user-approval" : undefined;

/** What the AI SDK's own generateText does with one call of `name` under `rules`. */
async function aiSdkDoes(rules: unknown, name: string, input: unknown): Promise<Outcome> {
  const { tools, ran } = bankTools();
  const model = new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [
        { type: "tool-call", toolCallId: "c1", toolName: name, input: JSON.stringify(input) },
      ],
      finishReason: { unified: "tool-calls", raw: undefined },
      usage,
      warnings: [],
    }),
  });
  const result = await generateText({
    model,
    tools,
    toolApproval: rules as ToolApprovalConfiguration<typeof tools, never>,
    prompt: "Act.",
  });
  const asked = result.content.some(
    (part) => part.type === "tool-approval-request" && part.isAutomatic !== true,
  );
  if (asked) return "asks";
  return ran.length > 0 ? "runs" : "denied";
}

/** What a call of `name` through toolSetConnector does under `rules`. */
async function connectorDoes(rules: unknown, name: string, input: unknown): Promise<Outcome> {
  const { tools, ran } = bankTools();
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new QuickJSExecutor(),
    connectors: [
      toolSetConnector({ name: "bank", tools, toolApproval: rules as ToolApprovalRules }),
    ],
  });
  const outcome = await runtime.execute({
    code: `async () => await bank.${name}(${JSON.stringify(input)})`,
  });
  if (outcome.status === "paused") return "asks";
  if (outcome.status === "completed" && ran.length === 1) return "runs";
  expect(outcome).toMatchObject({ status: "error" });
  expect(ran).toEqual([]);
  return "denied";
}

/** [what, the rules, the tool called, its input, what both do] */
const RULES: Array<[string, unknown, string, unknown, Outcome]> = [
  ["a per-tool 'user-approval'", { pay: "user-approval" }, "pay", { amount: 5 }, "asks"],
  [
    "a per-tool { type: 'user-approval', reason }",
    { pay: { type: "user-approval", reason: "money" } },
    "pay",
    { amount: 5 },
    "asks",
  ],
  ["a per-tool 'denied'", { pay: "denied" }, "pay", { amount: 5 }, "denied"],
  ["a per-tool 'approved'", { pay: "approved" }, "pay", { amount: 5 }, "runs"],
  [
    "a per-tool 'not-applicable' over needsApproval: true",
    { wipe: "not-applicable" },
    "wipe",
    {},
    "runs",
  ],
  [
    "a map that leaves the tool out (its needsApproval asks)",
    { pay: "approved" },
    "wipe",
    {},
    "asks",
  ],
  ["a per-tool function of the input: large", { pay: overHundred }, "pay", { amount: 500 }, "asks"],
  ["a per-tool function of the input: small", { pay: overHundred }, "pay", { amount: 5 }, "runs"],
  [
    "an async per-tool function that denies",
    { pay: async () => ({ type: "denied", reason: "frozen" }) },
    "pay",
    { amount: 5 },
    "denied",
  ],
  [
    "a generic function that returns undefined (over needsApproval: true)",
    () => undefined,
    "wipe",
    {},
    "runs",
  ],
  ["a generic function by tool name", payAsks, "pay", { amount: 1 }, "asks"],
  ["a generic function that denies", () => "denied", "pay", { amount: 1 }, "denied"],
];

describe("toolApproval, read the way AI SDK 7 reads it", () => {
  it.each(RULES)("%s", async (_name, rules, tool, input, expected) => {
    const connector = await connectorDoes(rules, tool, input);
    expect(connector).toBe(expected);
    if (aiSdk7) expect(await aiSdkDoes(rules, tool, input)).toBe(expected);
  });

  it("a denied call fails with the rule's reason and reaches no tool", async () => {
    const { tools, ran } = bankTools();
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new QuickJSExecutor(),
      connectors: [
        toolSetConnector({
          name: "bank",
          tools,
          toolApproval: { pay: { type: "denied", reason: "payments are frozen" } },
        }),
      ],
    });
    const outcome = await runtime.execute({
      code: "async () => { try { await bank.pay({ amount: 1 }); } catch (error) { return error.message; } }",
    });
    expect(outcome).toMatchObject({ status: "completed" });
    expect((outcome as { result: string }).result).toContain("payments are frozen");
    expect(ran).toEqual([]);
  });

  it("the rules a route gives streamText type-check for toolSetConnector too", () => {
    const { tools } = bankTools();
    const rules: ToolApprovalConfiguration<typeof tools, never> = {
      pay: async ({ amount }) => (amount > 100 ? "user-approval" : undefined),
    };
    const generic: ToolApprovalConfiguration<typeof tools, never> = ({ toolCall }) =>
      toolCall.toolName === "wipe" ? "user-approval" : undefined;
    expect(toolSetConnector({ name: "bank", tools, toolApproval: rules })).toBeDefined();
    expect(toolSetConnector({ name: "bank", tools, toolApproval: generic })).toBeDefined();
  });
});
