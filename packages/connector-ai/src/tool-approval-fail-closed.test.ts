// A `toolApproval` rule given to toolSetConnector that throws or answers with something that is no
// approval status fails closed: the call waits for a person (or fails), and never runs unapproved.
// Red-team finding: a rule answering `null`, `true`, `"ask"` or `{ type: "USER-APPROVAL" }` ran the
// call with nobody asked (only an exact "user-approval" paused it).
import { createCodemodeRuntime, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ToolApprovalRules, toolSetConnector } from "./index.ts";

function pay(rules: (status: () => unknown) => unknown, answer: () => unknown) {
  const ran: number[] = [];
  const tools = {
    pay: tool({
      description: "Pay an amount.",
      inputSchema: z.object({ amount: z.number() }),
      execute: async ({ amount }) => {
        ran.push(amount);
        return { paid: amount };
      },
    }),
  };
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new QuickJSExecutor(),
    connectors: [
      toolSetConnector({
        name: "bank",
        tools,
        toolApproval: rules(answer) as ToolApprovalRules,
      }),
    ],
  });
  return { runtime, ran };
}

const SHAPES: Array<[string, (answer: () => unknown) => unknown]> = [
  ["a generic rule", (answer) => () => answer()],
  ["a per-tool rule", (answer) => ({ pay: () => answer() })],
];

const ODD: Array<[string, () => unknown]> = [
  ["null", () => null],
  ["true", () => true],
  ["an unknown status string", () => "ask"],
  ["a status in other case", () => ({ type: "USER-APPROVAL" })],
  ["an object without a type", () => ({ reason: "money" })],
  ["a number", () => 1],
  [
    "a throw",
    () => {
      throw new Error("rules are down");
    },
  ],
  ["a rejected promise", () => Promise.reject(new Error("rules are down"))],
];

describe("toolSetConnector: a toolApproval rule that is no status fails closed", () => {
  for (const [shape, rules] of SHAPES) {
    it.each(ODD)(`${shape} answering %s: the call waits, nothing runs`, async (_what, answer) => {
      const { runtime, ran } = pay(rules, answer);
      const outcome = await runtime.execute({
        code: "async () => await bank.pay({ amount: 5 })",
      });
      expect(outcome).toMatchObject({ status: "paused" });
      expect(ran).toEqual([]);
    });
  }

  it.each([
    ["true", true],
    ["an unknown status string", "ask"],
    ["a status in other case", { type: "USER-APPROVAL" }],
    ["a number", 1],
  ])("a per-tool entry %s: the call waits, nothing runs", async (_what, entry) => {
    const { runtime, ran } = pay(
      () => ({ pay: entry }),
      () => undefined,
    );
    const outcome = await runtime.execute({ code: "async () => await bank.pay({ amount: 5 })" });
    expect(outcome).toMatchObject({ status: "paused" });
    expect(ran).toEqual([]);
  });

  it("a call that waited under an odd answer runs once a person approves it", async () => {
    const { runtime, ran } = pay(
      (answer) => () => answer(),
      () => true,
    );
    const outcome = await runtime.execute({ code: "async () => await bank.pay({ amount: 5 })" });
    expect(outcome).toMatchObject({ status: "paused" });
    const { executionId } = outcome as { executionId: string };
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "completed" });
    expect(ran).toEqual([5]);
  });

  it("the standard statuses still read as before", async () => {
    for (const [status, expected] of [
      [undefined, "completed"],
      ["not-applicable", "completed"],
      ["approved", "completed"],
      [{ type: "approved", reason: "fine" }, "completed"],
      ["user-approval", "paused"],
      [{ type: "user-approval" }, "paused"],
    ] as const) {
      const { runtime } = pay(
        (answer) => () => answer(),
        () => status,
      );
      const outcome = await runtime.execute({ code: "async () => await bank.pay({ amount: 5 })" });
      expect(outcome.status, JSON.stringify(status)).toBe(expected);
    }
  });
});
