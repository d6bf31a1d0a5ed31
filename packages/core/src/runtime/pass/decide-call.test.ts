import { describe, expect, it } from "vitest";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor, type MockSandbox } from "../../test/mock-executor.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";

const runtimeWith = (program: (sandbox: MockSandbox) => unknown) => {
  const shop = mockConnector({
    name: "shop",
    methods: {
      read: { execute: (input) => ({ read: input }) },
      buy: { requiresApproval: true, execute: (input) => ({ bought: input }) },
      fail: {
        execute: () => {
          throw Object.assign(new Error("out of stock"), { code: "OUT_OF_STOCK", sku: 7 });
        },
      },
      roll: { replay: "reexecute", execute: () => Math.random() },
    },
  });
  const executor = new MockExecutor(program);
  const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [shop] });
  return { runtime, shop, executor };
};

describe("decideCall", () => {
  it("replays a recorded call without calling the connector again", async () => {
    const { runtime, shop } = runtimeWith(async ({ shop }) => {
      const first = await shop.read?.({ n: 1 });
      await shop.buy?.({ n: 2 });
      return first;
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(paused.status).toBe("paused");
    const done = await runtime.approve({ executionId: paused.executionId });
    expect(done).toMatchObject({ status: "completed", result: { read: { n: 1 } } });
    expect(shop.calls.map((call) => `${call.method} ${call.seq}`)).toEqual(["read 0", "buy 1"]);
  });

  it("runs an approved call with the input recorded when it paused, not the live object", async () => {
    let pass = 0;
    const { runtime, shop } = runtimeWith(async ({ shop }) => {
      pass++;
      return shop.buy?.(pass === 1 ? { a: 1, b: [1, 2] } : { b: [1, 2], a: 1 });
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    await runtime.approve({ executionId: paused.executionId });
    expect(Object.keys(shop.calls[0]?.input as object)).toEqual(["a", "b"]);
  });

  it("fails the run as a divergence when the pass calls something else at a recorded seq", async () => {
    let pass = 0;
    const { runtime } = runtimeWith(async ({ shop }) => {
      pass++;
      await shop.read?.({ n: pass });
      await shop.buy?.({});
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    const output = await runtime.approve({ executionId: paused.executionId });
    expect(output).toMatchObject({
      status: "error",
      error: expect.stringMatching(/divergence at call #0/),
    });
  });

  it("records a failure and throws the same error live and on replay", async () => {
    const seen: unknown[] = [];
    const { runtime, shop } = runtimeWith(async ({ shop }) => {
      try {
        await shop.fail?.({});
      } catch (error) {
        const { name, message, code, sku } = error as Error & { code: string; sku: number };
        seen.push({ name, message, code, sku });
      }
      await shop.buy?.({});
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    await runtime.approve({ executionId: paused.executionId });
    expect(seen).toEqual([
      { name: "Error", message: "out of stock", code: "OUT_OF_STOCK", sku: 7 },
      { name: "Error", message: "out of stock", code: "OUT_OF_STOCK", sku: 7 },
    ]);
    expect(shop.calls.filter((call) => call.method === "fail")).toHaveLength(1);
  });

  it("re-executes a reexecute call on every pass and records no result", async () => {
    const { runtime, shop } = runtimeWith(async ({ shop }) => {
      await shop.roll?.({});
      await shop.buy?.({});
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    await runtime.approve({ executionId: paused.executionId });
    expect(shop.calls.filter((call) => call.method === "roll")).toHaveLength(2);
    const run = await runtime.execution(paused.executionId);
    expect(run?.calls[0]).toMatchObject({ state: "applied" });
    expect(run?.calls[0]?.result).toBeUndefined();
  });

  it("stops a pass whose lease was taken at its next call: no later call reaches a connector", async () => {
    const store = memoryStore();
    let resume = () => {};
    const wait = new Promise<void>((resolve) => (resume = resolve));
    const shop = mockConnector({ name: "shop", methods: { read: {}, write: {} } });
    const executor = new MockExecutor(async ({ shop }) => {
      await shop.read?.({ n: 1 });
      await wait;
      await shop.write?.({ n: 2 });
      return "finished";
    });
    const runtime = createCodemodeRuntime({ store, executor, connectors: [shop] });
    const running = runtime.execute({ code: "async () => 0" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const journal = store.journal("default");
    const [run] = await journal.listExecutions({ statuses: ["running"] });
    const owner = run?.lease?.owner as string;
    expect(owner).toMatch(/^pass_[0-9a-f]+$/);
    // another process took the run: its lease now names another pass
    expect(
      await journal.updateExecution(
        run?.id as string,
        ["running"],
        { lease: { owner: "pass_other", expiresAt: Date.now() + 60_000 } },
        { owner },
      ),
    ).toBe(true);
    resume();
    const output = await running;
    expect(output.status).toBe("error");
    expect(output).toMatchObject({ error: expect.stringMatching(/lost its lease/) });
    expect(shop.calls.map((call) => call.method)).toEqual(["read"]);
    expect((await journal.listEntries(run?.id as string)).map((entry) => entry.seq)).toEqual([0]);
    // the pass that lost its lease wrote no outcome over the run
    expect(await journal.getExecution(run?.id as string)).toMatchObject({
      status: "running",
      lease: { owner: "pass_other" },
    });
  });

  it("takes a lease with the run, renews it on calls when due and clears it when the pass ends", async () => {
    let time = 1_000_000;
    const store = memoryStore();
    const seen: Array<{ expiresAt: number; owner: string } | undefined> = [];
    const journal = store.journal("default");
    const shop = mockConnector({
      name: "shop",
      methods: {
        read: {
          execute: async (_input, { executionId }) => {
            seen.push((await journal.getExecution(executionId))?.lease);
            time += 300;
          },
        },
        buy: { requiresApproval: true },
      },
    });
    const executor = new MockExecutor(async ({ shop }) => {
      for (let n = 0; n < 4; n++) await shop.read?.({ n });
      await shop.buy?.({});
    });
    const runtime = createCodemodeRuntime({
      store,
      executor,
      connectors: [shop],
      now: () => time,
      leaseMs: 1_200,
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(paused.status).toBe("paused");
    // taken at 1_000_000 for 1_200 ms; renewed by the entry write of the first call a third of
    // the lease (400 ms) after, at 1_000_600
    expect(seen.map((lease) => lease?.expiresAt)).toEqual([
      1_001_200, 1_001_200, 1_001_800, 1_001_800,
    ]);
    expect(new Set(seen.map((lease) => lease?.owner)).size).toBe(1);
    expect((await journal.getExecution(paused.executionId))?.lease).toBeUndefined();
    const done = await runtime.approve({ executionId: paused.executionId });
    expect(done.status).toBe("completed");
    expect((await journal.getExecution(paused.executionId))?.lease).toBeUndefined();
  });

  it("refuses a lease shorter than 100 ms or longer than a day", () => {
    const executor = new MockExecutor(() => undefined);
    for (const leaseMs of [99, 86_400_001, Number.NaN, "1000"]) {
      expect(() =>
        createCodemodeRuntime({
          store: memoryStore(),
          executor,
          connectors: [],
          leaseMs: leaseMs as number,
        }),
      ).toThrow(expect.objectContaining({ code: "INVALID_CONFIG" }));
    }
  });
});
