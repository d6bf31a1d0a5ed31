import type { CodemodeRuntime, PendingAction } from "@codemode/core";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { describe, expect, it } from "vitest";
import { settleByElicitation } from "./settle-by-elicitation.ts";

describe("settleByElicitation", () => {
  it("tells the person that a call in doubt may already have run", async () => {
    const asked: string[] = [];
    const rejected: number[] = [];
    const server = {
      elicitInput: async (params: { message: string }) => {
        asked.push(params.message);
        return { action: "decline" };
      },
    } as unknown as Server;
    const runtime = {
      reject: async ({ seq }: { seq: number }) => {
        rejected.push(seq);
        return true;
      },
    } as unknown as CodemodeRuntime;
    const waiting: PendingAction = {
      executionId: "exec_doubt",
      seq: 0,
      connector: "bank",
      method: "pay",
      args: { amount: 5 },
      digest: "d".repeat(64),
      inDoubt: "A pass started this call and its outcome was never recorded.",
    };
    const output = await settleByElicitation(
      { runtime, server, requestId: 1, signal: new AbortController().signal, limit: 10_000 },
      { status: "paused", executionId: "exec_doubt", pending: [waiting] },
    );
    expect(asked).toEqual([
      'The code wants to run bank.pay({"amount":5}). A pass started this call and its outcome was never recorded. Approve it?',
    ]);
    expect(rejected).toEqual([0]);
    expect(output.status).toBe("error");
  });
});
