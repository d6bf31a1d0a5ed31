// Calls made at once, in Chromium: hostile programs against the worker harness's per-turn queue
// (worker-harness.ts) and forged `calls` messages against the page (sandbox-frame.ts). Each call
// starts once, in order, its reply reaches its own promise, and a batch is no way around a limit.
import {
  type Connector,
  createCodemodeRuntime,
  type HostNamespaces,
  memoryStore,
} from "@codemode/core";
import type { HostReply } from "@codemode/executor-kit";
import { afterEach, describe, expect, it } from "vitest";
import { disposeAll, executor, hostileFrame, resultOf } from "../test/hostile-frame.ts";
import { MAX_BATCH_CHARS } from "./sandbox-frame.ts";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

afterEach(disposeAll);

const OK: HostReply = ["ok", '"ok"'];

interface Invocation {
  method: string;
  input: unknown;
}

function kv(ledger: Invocation[], bigChars = 10): Connector {
  let ticks = 0;
  return {
    specificationVersion: "v1",
    name: "kv",
    methods: () => ({
      read: { description: "read" },
      write: { description: "write", requiresApproval: true },
      tick: { description: "pass number", replay: "reexecute" },
      big: { description: "a large result" },
    }),
    async invoke(method, input) {
      if (method === "tick") return ++ticks;
      ledger.push({ method, input });
      if (method === "big") return "x".repeat(bigChars);
      return { method, input };
    },
  };
}

describe("iframe batching: a hostile program", () => {
  it("a Promise.all of more calls than maxConcurrentCalls runs at most that many at once", async () => {
    let now = 0;
    let most = 0;
    let ran = 0;
    const globals: HostNamespaces = {
      ns: {
        slow: async () => {
          ran++;
          most = Math.max(most, ++now);
          await sleep(30);
          now--;
          return "ok";
        },
      },
    };
    const outcome = await executor({ maxConcurrentCalls: 4 }).execute({
      globals,
      code: `async () => {
        const first = await Promise.allSettled(Array.from({ length: 12 }, () => ns.slow()));
        const a = Array.from({ length: 3 }, () => ns.slow());
        await null;
        const b = Array.from({ length: 3 }, () => ns.slow());
        const second = await Promise.allSettled([...a, ...b]);
        const count = (list) => list.filter((x) => x.status === "fulfilled").length;
        return count(first) + count(second);
      }`,
    });
    expect(most).toBeLessThanOrEqual(4);
    expect(resultOf(outcome)).toBe(ran);
    expect(ran).toBe(8);
  });

  it("calls queued in a microtask after the program settled are not delivered", async () => {
    const seen: unknown[] = [];
    const outcome = await executor().execute({
      globals: {
        ns: {
          echo: async (input) => {
            seen.push(input);
            return input;
          },
        },
      },
      code: `async () => {
        Promise.resolve().then(() => { ns.echo("late 1").catch(() => {}); ns.echo("late 2").catch(() => {}); });
        return "settled";
      }`,
    });
    expect(resultOf(outcome)).toBe("settled");
    await sleep(200);
    expect(seen).toEqual([]);
  });

  it("large replies of one batch each reach their promise (replies go one by one)", async () => {
    let ran = 0;
    const outcome = await executor().execute({
      globals: {
        ns: {
          make: async () => {
            ran++;
            return "z".repeat(900_000);
          },
        },
      },
      code: `async () => {
        const settled = await Promise.allSettled(Array.from({ length: 40 }, () => ns.make()));
        return settled.filter((x) => x.status === "fulfilled" && x.value.length === 900000).length;
      }`,
    });
    expect(ran).toBe(40);
    expect(resultOf(outcome)).toBe(40);
  });

  it("gated calls at once pause together; one approval runs each once; another batch boundary on approval too", async () => {
    const ledger: Invocation[] = [];
    const store = memoryStore();
    const connector = kv(ledger);
    const sandbox = executor();
    const make = () => createCodemodeRuntime({ store, executor: sandbox, connectors: [connector] });
    const code = `async () => {
      const then = Promise.prototype.then;
      Promise.prototype.then = function (a, b) { return then.call(this, a, b); };
      const pass = await kv.tick();
      if (pass === 1) return Promise.all([1, 2, 3].map((key) => kv.write({ key })));
      const out = [];
      for (const key of [1, 2, 3]) out.push(await kv.write({ key }));
      return out;
    }`;
    const first = await make().execute({ code });
    expect(first).toMatchObject({ status: "paused" });
    expect((first as { pending: unknown[] }).pending).toHaveLength(3);
    expect(ledger).toEqual([]);
    const approved = await make().approve({ executionId: first.executionId });
    expect(approved).toMatchObject({ status: "completed" });
    expect(ledger.map((x) => x.input)).toEqual([{ key: 1 }, { key: 2 }, { key: 3 }]);
  });
});

describe("iframe batching: forged calls messages", () => {
  it("a batch repeating or lowering an id starts each id once, in order", async () => {
    const { heard } = hostileFrame(
      `(data, port) => {
      const calls = (list) => port.postMessage({ type: "calls", nonce: data.nonce, calls: JSON.stringify(list) });
      calls([[1, "ns", "echo", "1"], [1, "ns", "echo", "again"], [0, "ns", "echo", "lower"], [2, "ns", "echo", "2"]]);
      port.postMessage({ type: "call", nonce: data.nonce, id: 2, namespace: "ns", method: "echo", input: "dup" });
      calls([[2, "ns", "echo", "dup"], [3, "ns", "echo", "3"], [3, "ns", "echo", "dup"], ["4", "ns", "echo", "x"], [5, "ns", "echo"], [6, ["ns"], "echo", "x"], [7, "ns", "echo", "7", "extra"], [8, "ns", "echo", "8"]]);
      calls({ 0: [9, "ns", "echo", "9"], length: 1 });
      port.postMessage({ type: "log", nonce: data.nonce, line: "sent" });
    }`,
      { reply: OK },
    );
    await expect.poll(() => heard.logs, { timeout: 10_000 }).toEqual(["sent"]);
    expect(heard.calls.map(([id, , , input]) => `${id} ${input}`)).toEqual([
      "1 1",
      "2 2",
      "3 3",
      "8 8",
    ]);
  });

  it("a batch cannot put more than maxConcurrentCalls in flight", async () => {
    const { heard } = hostileFrame(
      `(data, port) => {
        let refused = 0;
        port.onmessage = (event) => { if (event.data.reply[3] === "BUDGET_EXCEEDED") refused++; };
        const list = Array.from({ length: 8 }, (_, i) => [i + 1, "ns", "echo", "1"]);
        port.postMessage({ type: "calls", nonce: data.nonce, calls: JSON.stringify(list) });
        port.postMessage({ type: "calls", nonce: data.nonce, calls: JSON.stringify(Array.from({ length: 9 }, (_, i) => [i + 100, "ns", "echo", "1"])) });
        setTimeout(() => port.postMessage({ type: "log", nonce: data.nonce, line: "refused " + refused }), 300);
      }`,
      { maxConcurrentCalls: 8, reply: OK },
    );
    await expect.poll(() => heard.logs, { timeout: 10_000 }).toHaveLength(1);
    // the hostile frame's handler replies at once, so 8 may be in flight again by the second batch
    expect(heard.calls.length).toBeLessThanOrEqual(8 + 8);
  });

  it("a batch longer than a batch may be is not read at all: none of its calls starts", async () => {
    // two well-formed calls, the first with an input a call may send but a batch may not hold
    const { heard } = hostileFrame(
      `(data, port) => {
        const big = "1".repeat(${MAX_BATCH_CHARS});
        port.postMessage({ type: "calls", nonce: data.nonce, calls: JSON.stringify([[1, "ns", "echo", big], [2, "ns", "echo", "2"]]) });
        port.postMessage({ type: "calls", nonce: data.nonce, calls: JSON.stringify([[3, "ns", "echo", "3"], [4, "ns", "echo", "4"]]) });
        port.postMessage({ type: "log", nonce: data.nonce, line: "sent" });
      }`,
      { reply: OK },
    );
    await expect.poll(() => heard.logs, { timeout: 10_000 }).toEqual(["sent"]);
    expect(heard.calls.map(([id, , , input]) => `${id} ${input}`)).toEqual(["3 3", "4 4"]);
  });

  it("calls made at once whose text is larger than a batch go apart, each once", async () => {
    const ledger: number[] = [];
    const outcome = await executor().execute({
      globals: { ns: { size: async (input) => ledger.push((input as string).length) } },
      code: `async () => {
        const big = "x".repeat(${Math.ceil(MAX_BATCH_CHARS / 2)});
        return (await Promise.all([ns.size(big), ns.size(big), ns.size("small"), ns.size(big)])).length;
      }`,
    });
    expect(resultOf(outcome)).toBe(4);
    const big = Math.ceil(MAX_BATCH_CHARS / 2);
    // in order: the first alone, the second with the small one, the last alone
    expect(ledger).toEqual([big, big, 5, big]);
  });
});
