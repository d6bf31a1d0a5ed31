import { describe, expect, it } from "vitest";
import type { JournalStore } from "../journal-store.ts";
import { memoryStore } from "../memory-store.ts";
import { mockConnector } from "../test/mock-connector.ts";
import { MockExecutor } from "../test/mock-executor.ts";
import { createCodemodeRuntime } from "./create-codemode-runtime.ts";

const gateAndExecutor = () => {
  const gate = mockConnector({
    name: "gate",
    methods: { open: { requiresApproval: true }, fetch: { deferred: true } },
  });
  const executor = new MockExecutor(async ({ gate }) =>
    Promise.all([gate.open?.({ door: 1 }), gate.open?.({ door: 2 })]),
  );
  return { gate, executor };
};

describe("decisions", () => {
  it("approve runs every pending call of the run once; a second approve is refused", async () => {
    const { gate, executor } = gateAndExecutor();
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    const [first, second] = await Promise.all([
      runtime.approve({ executionId: paused.executionId }),
      runtime.approve({ executionId: paused.executionId }),
    ]);
    expect([first.status, second.status].sort()).toEqual(["completed", "error"]);
    expect(gate.calls.map((call) => call.seq)).toEqual([0, 1]);
  });

  it("an approve that loses the race covers only what waited when it was asked, never a later pause", async () => {
    const gate = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ gate }) => {
      await gate.open?.({ door: 1 });
      return gate.open?.({ door: 2 });
    });
    const inner = memoryStore();
    let firstDone: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      firstDone = resolve;
    });
    let takes = 0;
    // the second approver takes the run only once the first one's pass has paused it again, as a
    // slow store (PostgreSQL under load) lets happen
    const store: JournalStore = {
      journal(name) {
        const journal = inner.journal(name);
        return Object.assign(Object.create(journal), {
          updateExecution: async (...args: Parameters<typeof journal.updateExecution>) => {
            const [, expected, patch] = args;
            if (expected.includes("paused") && patch.status === "running" && ++takes === 2)
              await first;
            return journal.updateExecution(...args);
          },
        });
      },
    };
    const runtime = createCodemodeRuntime({ store, executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    const a = runtime.approve({ executionId: paused.executionId }).finally(() => firstDone());
    const b = runtime.approve({ executionId: paused.executionId });
    const outcomes = await Promise.all([a, b]);
    expect(gate.calls.map((call) => call.seq)).toEqual([0]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["paused", "paused"]);
    expect((await runtime.pending(paused.executionId)).map((call) => call.seq)).toEqual([1]);
  });

  it("reject of one pending call ends the run without any of them", async () => {
    const { gate, executor } = gateAndExecutor();
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(await runtime.reject({ executionId: paused.executionId, seq: 0 })).toBe(true);
    expect((await runtime.approve({ executionId: paused.executionId })).status).toBe("error");
    expect(gate.calls).toEqual([]);
    expect((await runtime.execution(paused.executionId))?.calls.map((call) => call.state)).toEqual([
      "reverted",
      "reverted",
    ]);
  });

  it("a run whose connector is not configured stays paused when approved", async () => {
    const { gate, executor } = gateAndExecutor();
    const store = memoryStore();
    const runtime = createCodemodeRuntime({ store, executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    const without = createCodemodeRuntime({ store, executor, connectors: [] });
    expect(await without.approve({ executionId: paused.executionId })).toMatchObject({
      status: "error",
      error: expect.stringMatching(/stays paused/),
    });
    expect((await runtime.execution(paused.executionId))?.status).toBe("paused");
    expect((await runtime.approve({ executionId: paused.executionId })).status).toBe("completed");
  });

  it("resolve records a deferred call's result and resumes; approve refuses a deferred call", async () => {
    const gate = mockConnector({ name: "gate", methods: { fetch: { deferred: true } } });
    const executor = new MockExecutor(async ({ gate }) => gate.fetch?.({ q: 1 }));
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect((await runtime.approve({ executionId: paused.executionId })).status).toBe("error");
    expect(
      await runtime.resolve({ executionId: paused.executionId, seq: 0, result: { answer: 42 } }),
    ).toMatchObject({
      status: "completed",
      result: { answer: 42 },
    });
    expect(gate.calls).toEqual([]);
  });
});
