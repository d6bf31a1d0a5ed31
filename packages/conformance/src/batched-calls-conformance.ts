// The batched calls group of the executor suite: calls a program makes in one turn, which an executor
// may send to the host together. The in-flight limit holds across a batch and a second wave
// (`callLimit`), calls queued after the program settled are not delivered, large replies of one
// batch each reach their own promise, and gated calls made at once pause together and run once each
// on approval, whether the approval pass makes them at once again or one by one.
import {
  type Connector,
  createCodemodeRuntime,
  type Executor,
  type HostNamespaces,
  memoryStore,
} from "@codemode/core";
import { expect } from "vitest";
import { type ExecutorGroup, execute, SLOW_TEST_MS } from "./executor-fixtures.ts";
import { recorder, resultOf, sleep, UNHURRIED_MS } from "./suite-parts.ts";

interface Invocation {
  method: string;
  input: unknown;
}

/** kv: read (free), write (gated), tick (reexecute: a fresh number every pass). */
function kv(ledger: Invocation[]): Connector {
  let ticks = 0;
  return {
    specificationVersion: "v1",
    name: "kv",
    methods: () => ({
      read: { description: "read" },
      write: { description: "write", requiresApproval: true },
      tick: { description: "pass number", replay: "reexecute" },
    }),
    async invoke(method, input) {
      if (method === "tick") return ++ticks;
      ledger.push({ method, input });
      return { method, input };
    },
  };
}

/**
 * The passes of one run: a runtime for each (with an executor of its own, as an approval in another
 * request has) over one store and one `kv` connector, whose calls go to `ledger`.
 */
function passes(createExecutor: () => Promise<Executor>) {
  const ledger: Invocation[] = [];
  const store = memoryStore();
  const connector = kv(ledger);
  const make = async () =>
    createCodemodeRuntime({ store, executor: await createExecutor(), connectors: [connector] });
  return { ledger, make };
}

/** The "batched calls" group. */
export function batchedCallsTests({ test, testWith, createExecutor }: ExecutorGroup): void {
  testWith("callLimit")(
    "a Promise.all of more calls than maxConcurrentCalls runs at most that many at once",
    async () => {
      let now = 0;
      let most = 0;
      let ran = 0;
      const globals: HostNamespaces = {
        ns: {
          slow: async () => {
            ran++;
            most = Math.max(most, ++now);
            await sleep(50);
            now--;
            return "ok";
          },
        },
      };
      const outcome = await execute(await createExecutor({ maxConcurrentCalls: 4 }), {
        globals,
        code: `async () => {
          const first = await Promise.allSettled(Array.from({ length: 12 }, () => ns.slow()));
          // a second wave queued while the first is still in flight
          const a = Array.from({ length: 3 }, () => ns.slow());
          await null;
          const b = Array.from({ length: 3 }, () => ns.slow());
          const second = await Promise.allSettled([...a, ...b]);
          const count = (list) => list.filter((x) => x.status === "fulfilled").length;
          const codes = [...first, ...second].filter((x) => x.status === "rejected").map((x) => x.reason.code);
          return { ok: count(first) + count(second), codes: [...new Set(codes)] };
        }`,
      });
      const result = resultOf(outcome) as { ok: number; codes: string[] };
      expect(most).toBeLessThanOrEqual(4);
      expect(result.ok).toBe(ran);
      expect(result.ok).toBe(8);
      expect(result.codes).toEqual(["BUDGET_EXCEEDED"]);
    },
  );

  test("calls queued in a microtask that runs after the program settled are not delivered", async () => {
    const seen: unknown[] = [];
    const outcome = await execute(await createExecutor(), {
      globals: { ns: { echo: recorder(seen) } },
      code: `async () => {
        Promise.resolve().then(() => { ns.echo("late 1").catch(() => {}); ns.echo("late 2").catch(() => {}); });
        return "settled";
      }`,
    });
    expect(resultOf(outcome)).toBe("settled");
    await sleep(200);
    expect(seen).toEqual([]);
  });

  test(
    "large replies of one batch each reach their own promise, whole: a call the host ran is never reported as not reached",
    async () => {
      let ran = 0;
      const globals: HostNamespaces = {
        ns: {
          // ~900 KB each: 40 of them exceed what one message between host and sandbox may carry
          make: async () => {
            ran++;
            return "z".repeat(900_000);
          },
        },
      };
      const outcome = await execute(await createExecutor(), {
        globals,
        code: `async () => {
        const settled = await Promise.allSettled(Array.from({ length: 40 }, () => ns.make()));
        const whole = settled.filter((x) => x.status === "fulfilled" && x.value.length === 900000).length;
        const failures = settled.map((x) => x.status === "fulfilled" ? "ok" : x.reason.message).filter((x, i, all) => x !== "ok" && all.indexOf(x) === i);
        return { whole, failures };
      }`,
        limits: { timeoutMs: UNHURRIED_MS },
      });
      expect(ran).toBe(40);
      // the program learns what the host did: each call that ran is answered with its result
      expect(resultOf(outcome)).toEqual({ whole: 40, failures: [] });
    },
    SLOW_TEST_MS,
  );

  test("gated calls at once under tampering pause together; one approval runs each once", async () => {
    const { ledger, make } = passes(createExecutor);
    const code = `async () => {
      const then = Promise.prototype.then;
      Promise.prototype.then = function (a, b) { return then.call(this, a, b); };
      Object.defineProperty(Object.prototype, "next", { set() {}, get() { return null; }, configurable: true });
      Object.defineProperty(Array.prototype, "2", { get() { return 'r{"forged":true}'; }, configurable: true });
      const out = await Promise.all([1, 2, 3].map((key) => kv.write({ key })));
      return out;
    }`;
    const first = await (await make()).execute({ code });
    expect(first).toMatchObject({ status: "paused" });
    expect((first as { pending: unknown[] }).pending).toHaveLength(3);
    expect(ledger).toEqual([]);
    const approved = await (await make()).approve({ executionId: first.executionId });
    expect(approved).toMatchObject({ status: "completed" });
    expect(ledger.map((x) => x.input)).toEqual([{ key: 1 }, { key: 2 }, { key: 3 }]);
  });

  test("an approval pass that makes the approved calls one by one (another batch boundary) runs each once", async () => {
    const { ledger, make } = passes(createExecutor);
    const code = `async () => {
      const pass = await kv.tick();
      const first = await kv.read({ key: 0 });
      if (pass === 1) return Promise.all([kv.write({ key: 1 }), kv.write({ key: 2 })]);
      const a = await kv.write({ key: 1 });
      const b = await kv.write({ key: 2 });
      return [a, b, pass];
    }`;
    const first = await (await make()).execute({ code });
    expect(first).toMatchObject({ status: "paused" });
    const approved = await (await make()).approve({ executionId: first.executionId });
    expect(approved).toMatchObject({ status: "completed" });
    expect(ledger.map((x) => `${x.method} ${JSON.stringify(x.input)}`)).toEqual([
      'read {"key":0}',
      'write {"key":1}',
      'write {"key":2}',
    ]);
  });
}
