import { describe, expect, it } from "vitest";
import { memoryStore } from "../memory-store.ts";
import { mockConnector } from "../test/mock-connector.ts";
import { MockExecutor, type MockSandbox } from "../test/mock-executor.ts";
import { createCodemodeRuntime } from "./create-codemode-runtime.ts";

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
});
