// The approval rules see the input as the tool's schema parses it: the value `execute` receives,
// and the value the AI SDK's own generateText asks `needsApproval` about. Red-team finding: the
// rules saw the raw input the model sent, so `{ env: " Production " }` under
// `z.string().trim().toLowerCase()` cleared a rule for "production" and ran it unapproved (and
// Zod's `.default()`, `.transform()` and `z.preprocess` did the same). packages/ai-sdk-6 runs this
// file against AI SDK 6, which has no toolApproval: the parity check uses `needsApproval`.
import { createCodemodeRuntime, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { generateText, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ToolApprovalRules, toolSetConnector } from "./index.ts";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** Schemas that turn what the model sends into `{ env: "production" }`, and what it sends. */
const REWRITES: Array<[string, z.ZodType<{ env: string }>, unknown]> = [
  [
    "trim and toLowerCase",
    z.object({ env: z.string().trim().toLowerCase() }),
    { env: " Production " },
  ],
  ["a default", z.object({ env: z.string().default("production") }), {}],
  [
    "a transform",
    z.object({ env: z.string().transform((env) => (env === "prod" ? "production" : env)) }),
    { env: "prod" },
  ],
  [
    "z.preprocess",
    z.object({ env: z.preprocess((env) => String(env).replace(/-/g, ""), z.string()) }),
    { env: "pro-duc-tion" },
  ],
];

const isProduction = ({ env }: { env?: unknown }) => env === "production";

/** A `deploy` tool over `schema`, gated by `needsApproval`; what its rule and `execute` saw. */
function deployTool(schema: z.ZodType<{ env: string }>, needsApproval?: unknown) {
  const asked: unknown[] = [];
  const ran: unknown[] = [];
  const deploy = tool({
    description: "Deploy to an environment.",
    inputSchema: schema,
    ...(needsApproval !== undefined ? { needsApproval: needsApproval as never } : {}),
    execute: async (input: { env: string }) => {
      ran.push(input);
      return "deployed";
    },
  });
  return { tools: { deploy }, asked, ran };
}

/** Where a rule stands, made with the list that records what it was asked about. */
type Gate = (asked: unknown[]) => { needsApproval?: unknown; toolApproval?: ToolApprovalRules };

const productionAsks = (asked: unknown[]) => (input: unknown) => {
  asked.push(input);
  return isProduction(input as { env?: unknown });
};

/** The three places a rule can stand: needsApproval, a per-tool toolApproval, a generic one. */
const GATES: Array<[string, Gate]> = [
  ["needsApproval", (asked) => ({ needsApproval: productionAsks(asked) })],
  [
    "a per-tool toolApproval",
    (asked) => ({
      toolApproval: {
        deploy: (input: unknown) => (productionAsks(asked)(input) ? "user-approval" : undefined),
      },
    }),
  ],
  [
    "a generic toolApproval",
    (asked) => ({
      toolApproval: ({ toolCall }) =>
        productionAsks(asked)(toolCall.input) ? "user-approval" : undefined,
    }),
  ],
];

const [[, needsApprovalGate]] = GATES as [[string, Gate]];

/** A runtime over the `deploy` tool, gated by `gate`; what the rule and `execute` saw. */
function deployRuntime(schema: z.ZodType<{ env: string }>, gate: Gate) {
  const asked: unknown[] = [];
  const { needsApproval, toolApproval } = gate(asked);
  const { tools, ran } = deployTool(schema, needsApproval);
  const connector = toolSetConnector({
    name: "ops",
    tools,
    ...(toolApproval ? { toolApproval } : {}),
  });
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new QuickJSExecutor(),
    connectors: [connector],
  });
  return { runtime, asked, ran };
}

describe("toolSetConnector: the approval rules see the parsed input", () => {
  for (const [shape, gate] of GATES) {
    it.each(REWRITES)(
      `${shape}, a schema with %s: the call waits, and runs once approved`,
      async (_what, schema, sent) => {
        const { runtime, asked, ran } = deployRuntime(schema, gate);
        const paused = await runtime.execute({
          code: `async () => await ops.deploy(${JSON.stringify(sent)})`,
        });
        // the person is shown what the model sent; the rule was asked about what execute gets
        expect(paused).toMatchObject({ status: "paused", pending: [{ args: sent }] });
        expect(asked).toEqual([{ env: "production" }]);
        expect(ran).toEqual([]);
        const approved = await runtime.approve({ executionId: paused.executionId });
        expect(approved).toMatchObject({ status: "completed", result: "deployed" });
        expect(ran).toEqual([{ env: "production" }]);
      },
    );
  }

  it("a call the rule clears runs at once with the value it cleared", async () => {
    const { runtime, asked, ran } = deployRuntime(
      z.object({ env: z.string().trim().toLowerCase() }),
      needsApprovalGate,
    );
    const done = await runtime.execute({
      code: `async () => await ops.deploy({ env: " Staging " })`,
    });
    expect(done).toMatchObject({ status: "completed", result: "deployed" });
    expect(asked).toEqual([{ env: "staging" }]);
    expect(ran).toEqual([{ env: "staging" }]);
  });

  it("the AI SDK's own generateText asks about the same calls", async () => {
    for (const [, schema, sent] of REWRITES) {
      const asked: unknown[] = [];
      const { tools, ran } = deployTool(schema, productionAsks(asked));
      const model = new MockLanguageModelV3({
        doGenerate: async () => ({
          content: [
            {
              type: "tool-call",
              toolCallId: "c1",
              toolName: "deploy",
              input: JSON.stringify(sent),
            },
          ],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage,
          warnings: [],
        }),
      });
      const result = await generateText({ model, tools, prompt: "Deploy." });
      expect(result.content.some((part) => part.type === "tool-approval-request")).toBe(true);
      expect(ran).toEqual([]);
      expect(asked).toEqual([{ env: "production" }]);
    }
  });

  it("an input the schema refuses is not put to the rule: the call waits, and fails unrun", async () => {
    const { runtime, asked, ran } = deployRuntime(
      z.object({ env: z.string().trim().toLowerCase() }),
      needsApprovalGate,
    );
    const paused = await runtime.execute({ code: "async () => await ops.deploy({ env: 42 })" });
    expect(paused).toMatchObject({ status: "paused", pending: [{ args: { env: 42 } }] });
    expect(asked).toEqual([]);
    const approved = await runtime.approve({ executionId: paused.executionId });
    expect(approved).toMatchObject({ status: "error" });
    expect(JSON.stringify(approved)).toContain("Invalid input for ops.deploy");
    expect(ran).toEqual([]);
  });

  it("a schema that parses the same input differently twice: execute gets the value the rule cleared", async () => {
    // a default read from outside state, which changes right after the rule has answered
    let current = "staging";
    const schema = z.object({ env: z.string().default(() => current) });
    const { runtime, asked, ran } = deployRuntime(schema, (seen) => ({
      needsApproval: (input: unknown) => {
        const asks = productionAsks(seen)(input);
        current = "production";
        return asks;
      },
    }));
    const done = await runtime.execute({ code: "async () => await ops.deploy({})" });
    expect(done).toMatchObject({ status: "completed" });
    expect(asked).toEqual([{ env: "staging" }]);
    // parsed again now, the same input would be "production", which the rule never cleared
    expect(schema.parse({})).toEqual({ env: "production" });
    expect(ran).toEqual([{ env: "staging" }]);
  });

  it("a toolApproval denial of the parsed input fails the call unrun", async () => {
    const { runtime, ran } = deployRuntime(
      z.object({ env: z.string().trim().toLowerCase() }),
      () => ({
        toolApproval: {
          deploy: (input: { env?: unknown }) =>
            isProduction(input) ? { type: "denied", reason: "no deploys today" } : undefined,
        },
      }),
    );
    const outcome = await runtime.execute({
      code: `async () => await ops.deploy({ env: "PRODUCTION" })`,
    });
    expect(outcome).toMatchObject({ status: "error" });
    expect(JSON.stringify(outcome)).toContain("no deploys today");
    expect(ran).toEqual([]);
  });
});
