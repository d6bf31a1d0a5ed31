import { type Connector, createCodemodeRuntime, memoryStore } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { QuickJSExecutor } from "./index.ts";

const timed = () => new QuickJSExecutor({ timers: true, timeoutMs: 10_000 });

/** `kv.read` answers after `ms` of real time; `kv.write` needs an approval. Every call is logged. */
function kv(ledger: unknown[], ms = 0): Connector {
  return {
    specificationVersion: "v1",
    name: "kv",
    methods: () => ({
      read: { description: "Read one value." },
      write: { description: "Write one value.", requiresApproval: true },
    }),
    invoke: async (method, input) => {
      ledger.push([method, input]);
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
      return method === "read" ? { key: (input as { key: number }).key } : { written: true };
    },
  };
}

describe("sandbox timers are events of the program, in one order live and on replay", () => {
  it("fire only once the program waits on no call: a timer never wins a race with a call", async () => {
    const executor = timed();
    const ledger: unknown[] = [];
    const result = await executor.execute({
      code: `async () => Promise.race([
        kv.read({ key: 1 }).then(() => "call"),
        new Promise((resolve) => setTimeout(() => resolve("timer"), 0)),
      ])`,
      globals: {
        kv: { read: async (input) => kv(ledger, 50).invoke("read", input, undefined as never) },
      },
    });
    expect(result).toEqual({ result: "call", logs: [] });
  });

  it("fire by their own clock: a timer set later with a shorter delay fires after one due before it", async () => {
    const executor = timed();
    const result = await executor.execute({
      code: `async () => {
        const order = [];
        const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
        setTimeout(() => order.push("long, set first"), 40);
        await sleep(35);
        setTimeout(() => order.push("short, set after 35"), 10);
        await sleep(30);
        return order;
      }`,
      globals: {},
    });
    expect(result).toEqual({ result: ["long, set first", "short, set after 35"], logs: [] });
  });

  it("a run whose program mixes timers and calls completes after its approval, the write as shown", async () => {
    const store = memoryStore();
    const ledger: unknown[] = [];
    const runtime = () =>
      createCodemodeRuntime({ store, executor: timed(), connectors: [kv(ledger, 5)] });
    // sixteen reads first: enough for the sandbox to answer recorded calls itself on replay
    const code = `async () => {
      for (let key = 100; key < 116; key++) await kv.read({ key });
      const events = [];
      const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      setTimeout(() => events.push("t50"), 50);
      await Promise.all([
        kv.read({ key: 1 }).then(() => events.push("a")),
        sleep(1).then(() => { events.push("slept"); return kv.read({ key: 2 }); }),
      ]);
      events.push(await Promise.race([kv.read({ key: 3 }).then(() => "call"), sleep(0).then(() => "timer")]));
      await sleep(60);
      await kv.write({ key: 9, value: events });
      return events;
    }`;
    const paused = await runtime().execute({ code });
    const expected = ["a", "slept", "call", "t50"];
    expect(paused).toMatchObject({
      status: "paused",
      pending: [{ method: "write", args: { key: 9, value: expected } }],
    });
    const done = await runtime().approve({ executionId: paused.executionId });
    expect(done).toMatchObject({ status: "completed", result: expected });
    expect(ledger.filter((call) => (call as unknown[])[0] === "write")).toEqual([
      ["write", { key: 9, value: expected }],
    ]);
    expect(ledger).toHaveLength(16 + 3 + 1);
  });
});
