import { describe, expect, it } from "vitest";
import { decisionHandleOf } from "../../decision-handle.ts";
import type { ExecuteRequest } from "../../executor.ts";
import type { Journal } from "../../journal-store.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor, type MockSandbox } from "../../test/mock-executor.ts";
import { inAnotherProcess } from "../../test/with-journal.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";

describe("a stale approval from another process", () => {
  it("decides nothing when a call it covers now waits in doubt (another digest than it showed): the payment is not made again", async () => {
    const inner = memoryStore();
    // process A's approval is slow between its read of what waits and its take of the run
    let armed = false;
    let reached!: () => void;
    const atTake = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const a = inAnotherProcess(inner, (journal) => ({
      listEntries: async (...args: Parameters<Journal["listEntries"]>) => {
        const listed = await journal.listEntries(...args);
        if (args[1]?.states?.length === 1 && args[1].states[0] === "pending") armed = true;
        return listed;
      },
      getExecution: async (...args: Parameters<Journal["getExecution"]>) => {
        if (armed) {
          armed = false;
          reached();
          await released;
        }
        return journal.getExecution(...args);
      },
    }));
    const b = inAnotherProcess(inner);
    let first = true;
    const bank = mockConnector({
      name: "bank",
      methods: {
        pay: {
          requiresApproval: true,
          // the first invocation is slow: still running when the pass pauses, it ends with the abort
          execute: (input, { signal }) =>
            first
              ? new Promise((_, reject) => {
                  first = false;
                  signal.addEventListener("abort", () => reject(signal.reason), { once: true });
                })
              : input,
        },
      },
    });
    const slack = mockConnector({ name: "slack", methods: { post: { requiresApproval: true } } });
    const program = async ({ bank, slack }: MockSandbox, { signal }: ExecuteRequest) => {
      const both = Promise.all([bank.pay?.({ usd: 100 }), slack.post?.({ text: "paid" })]);
      const stopped = new Promise<never>((_, reject) => {
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
      return Promise.race([both, stopped]);
    };
    const options = { connectors: [bank, slack], leaseMs: 300 };
    const runtimeA = createCodemodeRuntime({
      store: a,
      executor: new MockExecutor(program),
      ...options,
    });
    const runtimeB = createCodemodeRuntime({
      store: b,
      executor: new MockExecutor(program),
      ...options,
    });
    const { executionId } = await runtimeB.execute({ code: "async () => 0" });
    // the person is shown both calls, first runs, and approves them (the request reaches process A)
    const shown = decisionHandleOf(await runtimeB.pending(executionId));
    expect(shown.calls.map((call) => call.seq)).toEqual([0, 1]);
    const stale = runtimeA.approve({ executionId, handle: shown });
    await atTake;
    // meanwhile, in process B: the payment is approved alone; it was in flight when its pass paused
    expect(await runtimeB.approve({ executionId, seqs: [0] })).toMatchObject({ status: "paused" });
    // the post is approved: the payment now waits in doubt (it may have run)
    expect(await runtimeB.approve({ executionId, seqs: [1] })).toMatchObject({
      status: "paused",
      pending: [{ seq: 0, inDoubt: expect.any(String) }],
    });
    expect(bank.calls).toHaveLength(1);
    release();
    const outcome = await stale;
    // A's handle showed the payment as a first run (another digest than the in-doubt call): it
    // decides nothing now, and the payment is not made again without a person seeing it may have run
    expect({
      outcome: outcome.status === "error" ? outcome.code : outcome.status,
      payments: bank.calls.length,
    }).toEqual({ outcome: "DECISION_STALE", payments: 1 });
  }, 180_000);
});
