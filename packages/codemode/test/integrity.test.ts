// The symptoms of the journal-integrity issue, one test each, through public names: real QuickJS,
// real SQLite (better-sqlite3) and memory. Each failed before the runtime upheld the invariant it
// names (packages/core/src/invariants.ts).
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import {
  type CodeModeOutput,
  createCodemodeRuntime,
  functionConnector,
  type JournalStore,
  memoryStore,
  sqliteStore,
} from "../src/index.ts";

const executor = new QuickJSExecutor({ timeoutMs: 10_000 });
const stores: Array<[string, () => JournalStore]> = [
  ["memory", () => memoryStore()],
  ["sqlite", () => sqliteStore(new Database(":memory:"))],
];
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class ChargeError extends Error {
  readonly code = "CARD_DECLINED";
  readonly status = 402;
  constructor() {
    super("The card was declined.");
    this.name = "ChargeError";
  }
}

/** A bank whose ledger records every effect and revert, with the idempotency keys. */
function bank() {
  const ledger: string[] = [];
  const keys: string[] = [];
  let flips = 0;
  const connector = functionConnector({
    name: "bank",
    methods: {
      charge: {
        execute: async ({ amount }: { amount: number }, { idempotencyKey }) => {
          await wait(30);
          ledger.push(`charge ${amount}`);
          keys.push(idempotencyKey);
          return { id: `ch_${amount}`, amount };
        },
        revert: async (_input: unknown, result: { id: string }) => {
          ledger.push(`refund ${result.id}`);
        },
      },
      send: {
        requiresApproval: true,
        execute: async (input: Record<string, unknown>, { idempotencyKey }) => {
          ledger.push(`send ${JSON.stringify(input)}`);
          keys.push(idempotencyKey);
          return { sent: true };
        },
        revert: async () => {
          ledger.push("unsend");
        },
      },
      decline: {
        execute: async () => {
          throw new ChargeError();
        },
      },
      odd: {
        execute: async ({ shape }: { shape: string }) => {
          ledger.push(`odd ${shape}`);
          if (shape === "null-prototype") throw Object.create(null);
          if (shape === "proxy")
            throw new Proxy(
              {},
              {
                get() {
                  throw new Error("trap");
                },
                getPrototypeOf() {
                  throw new Error("trap");
                },
                ownKeys() {
                  throw new Error("trap");
                },
              },
            );
          const error = new Error("x");
          Object.defineProperty(error, "message", {
            get() {
              throw new Error("getter");
            },
          });
          throw error;
        },
      },
      huge: {
        execute: async () => {
          ledger.push("huge");
          return "x".repeat(1_100_000);
        },
        revert: async () => {
          ledger.push("unhuge");
        },
      },
      flip: {
        replay: "reexecute",
        execute: async () => ++flips,
      },
      ask: { deferred: true },
      peek: {
        replay: "reexecute",
        execute: async (input: Record<string, unknown>) => {
          ledger.push(`peek ${JSON.stringify(input)}`);
          return true;
        },
      },
    },
  });
  return { connector, ledger, keys };
}

describe.each(stores)("journal integrity (%s store)", (_name, createStore) => {
  const setup = () => {
    const b = bank();
    const store = createStore();
    const runtime = createCodemodeRuntime({ store, executor, connectors: [b.connector] });
    return { ...b, store, runtime };
  };

  it("the sandbox cannot forge a journal entry: the prelude's channel is gone and the host refuses a step record without its token", async () => {
    const { runtime, ledger } = setup();
    const output = await runtime.execute({
      code: `async () => {
        const seen = Object.getOwnPropertyNames(codemode).sort();
        const charge = bank.charge({ amount: 5 });
        const forged = [];
        for (const name of ["__step_record", "__step_decide", "__snippet"]) {
          try { await codemode[name]({ seq: 0, value: { id: "forged", amount: 0 } }); forged.push(name + " ran"); }
          catch (e) { forged.push(name + " refused"); }
        }
        return { seen, forged, charged: await charge };
      }`,
    });
    expect(output).toMatchObject({
      status: "completed",
      result: {
        seen: ["describe", "run", "search", "step"],
        forged: ["__step_record refused", "__step_decide refused", "__snippet refused"],
        charged: { id: "ch_5", amount: 5 },
      },
    });
    const run = await runtime.execution(output.executionId);
    expect(run?.calls).toMatchObject([{ seq: 0, state: "applied", result: { id: "ch_5" } }]);
    await runtime.rollback({ executionId: output.executionId });
    expect(ledger).toEqual(["charge 5", "refund ch_5"]);
  });

  it("a pass reports paused only after a sibling call has settled; a quick approval runs nothing twice", async () => {
    const { runtime, ledger, keys } = setup();
    const paused = await runtime.execute({
      code: "async () => Promise.all([bank.charge({ amount: 1 }), bank.send({ to: 'a' })])",
    });
    expect(paused.status).toBe("paused");
    // the sibling settled and was recorded before the pass reported
    expect(ledger).toEqual(["charge 1"]);
    const run = await runtime.execution(paused.executionId);
    expect(run?.calls.map((call) => call.state)).toEqual(["applied", "pending"]);
    const approved = await runtime.approve({ executionId: paused.executionId });
    expect(approved.status).toBe("completed");
    expect(ledger).toEqual(["charge 1", 'send {"to":"a"}']);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(["null-prototype", "proxy", "throwing-message"])(
    "a connector that throws %s records a failure; approving later does not run it again",
    async (shape) => {
      const { runtime, ledger } = setup();
      const paused = await runtime.execute({
        code: `async () => { let caught; try { await bank.odd({ shape: ${JSON.stringify(shape)} }); } catch (e) { caught = e.name + ": " + e.message; } await bank.send({ caught }); return caught; }`,
      });
      expect(paused.status).toBe("paused");
      const run = await runtime.execution(paused.executionId);
      expect(run?.calls[0]).toMatchObject({ state: "applied", error: expect.any(String) });
      const approved = await runtime.approve({ executionId: paused.executionId });
      expect(approved).toMatchObject({
        status: "completed",
        result: expect.stringMatching(/^Error: /),
      });
      expect(ledger.filter((line) => line.startsWith("odd"))).toEqual([`odd ${shape}`]);
    },
  );

  it("rollback names a call that ran but whose result could not be recorded", async () => {
    const { runtime } = setup();
    const output = await runtime.execute({
      code: "async () => { await bank.charge({ amount: 2 }); await bank.huge({}); }",
    });
    expect(output.status).toBe("error");
    const report = await runtime.rollback({ executionId: output.executionId });
    expect(report.reverted).toEqual([0]);
    expect(report.unrecorded).toEqual([1]);
    expect(report.calls.map((call) => [call.seq, call.outcome])).toEqual([
      [1, "unrecorded"],
      [0, "reverted"],
    ]);
  });

  it("a replayed connector error keeps its name, message, code and data", async () => {
    const { runtime } = setup();
    const code = `async () => {
      let seen;
      try { await bank.decline({}); } catch (e) { seen = { name: e.name, message: e.message, code: e.code, status: e.status }; }
      await bank.send({ code: seen.code });
      return seen;
    }`;
    const paused = await runtime.execute({ code });
    expect(paused.status).toBe("paused");
    const approved = await runtime.approve({ executionId: paused.executionId });
    expect(approved).toMatchObject({
      status: "completed",
      result: {
        name: "ChargeError",
        message: "The card was declined.",
        code: "CARD_DECLINED",
        status: 402,
      },
    });
  });

  it("the approved call runs with the input the approver saw, not the approval pass's live object", async () => {
    const { runtime, ledger } = setup();
    // flip re-executes on every pass: the object's key order differs between the passes
    const paused = await runtime.execute({
      code: `async () => { const n = await bank.flip({}); const input = n === 1 ? { a: 1, b: 2 } : { b: 2, a: 1 }; return bank.send(input); }`,
    });
    expect(paused).toMatchObject({ status: "paused", pending: [{ args: { a: 1, b: 2 } }] });
    await runtime.approve({ executionId: paused.executionId });
    expect(ledger).toEqual(['send {"a":1,"b":2}']);
  });

  it("bounds what the model sends: a step name that is too long or not storable, a long search, long code", async () => {
    const { runtime } = setup();
    // the codes say each input was refused by its bound; a check that walked them slowly would show
    // as this test's timeout (no clock is read)
    const output = await runtime.execute({
      code: `async () => {
        const out = [];
        for (const name of ["x".repeat(5_000_000), "\\ud800", "a\\u0000b"]) {
          try { await codemode.step(name, () => 1); out.push("stored"); } catch (e) { out.push(e.code); }
        }
        for (const query of ["find ".repeat(40_000)]) {
          try { await codemode.search(query); out.push("searched"); } catch (e) { out.push(e.code); }
          try { await codemode.describe(query); out.push("described"); } catch (e) { out.push(e.code); }
        }
        return out;
      }`,
    });
    expect(output).toMatchObject({
      status: "completed",
      result: ["TOO_LARGE", "INVALID_INPUT", "INVALID_INPUT", "TOO_LARGE", "TOO_LARGE"],
    });
    expect((await runtime.execution(output.executionId))?.calls).toEqual([]);
    await expect(runtime.search("q".repeat(100_000))).rejects.toMatchObject({ code: "TOO_LARGE" });
    expect(await runtime.execute({ code: `"\ud800"` })).toMatchObject({
      status: "error",
      executionId: "",
    });
  });

  it("pending() lists only calls that can still run: not after a divergence, a rollback or a rejection", async () => {
    const { runtime } = setup();
    const diverged = await runtime.execute({
      code: "async () => { const n = await bank.flip({}); if (n === 1) await bank.charge({ amount: 1 }); else await bank.charge({ amount: 9 }); await bank.send({}); }",
    });
    expect(await runtime.pending(diverged.executionId)).toHaveLength(1);
    expect((await runtime.approve({ executionId: diverged.executionId })).status).toBe("error");
    expect(await runtime.pending(diverged.executionId)).toEqual([]);

    const group = await runtime.execute({
      code: "async () => Promise.all([bank.send({ n: 1 }), bank.send({ n: 2 })])",
    });
    expect(group).toMatchObject({ status: "paused", pending: [{ seq: 0 }, { seq: 1 }] });
    expect(await runtime.reject({ executionId: group.executionId, seq: 0 })).toBe(true);
    expect(await runtime.pending(group.executionId)).toEqual([]);
    expect((await runtime.execution(group.executionId))?.calls.map((c) => c.state)).toEqual([
      "withdrawn",
      "withdrawn",
    ]);

    const rolled = await runtime.execute({
      code: "async () => { await bank.charge({ amount: 3 }); await bank.send({}); }",
    });
    await runtime.rollback({ executionId: rolled.executionId });
    expect(await runtime.pending(rolled.executionId)).toEqual([]);
    expect(await runtime.pending()).toEqual([]);
  });

  it("approving while a connector is not configured leaves the run paused, to resume once it is", async () => {
    const { runtime, store, connector, ledger } = setup();
    const paused = await runtime.execute({ code: "async () => bank.send({ to: 'b' })" });
    const without = createCodemodeRuntime({ store, executor, connectors: [] });
    const refused = await without.approve({ executionId: paused.executionId });
    expect(refused).toMatchObject({
      status: "error",
      error: expect.stringMatching(/stays paused/),
    });
    expect((await runtime.execution(paused.executionId))?.status).toBe("paused");
    const again = createCodemodeRuntime({ store, executor, connectors: [connector] });
    expect((await again.approve({ executionId: paused.executionId })).status).toBe("completed");
    expect(ledger).toEqual(['send {"to":"b"}']);
  });

  it("a result for a deferred call lets no sibling that waits for approval run", async () => {
    const { runtime, ledger } = setup();
    const paused = await runtime.execute({
      code: "async () => Promise.all([bank.ask({ q: 1 }), bank.send({ to: 'evil' })])",
    });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 0 }, { seq: 1 }] });
    const resolved = await runtime.resolve({
      executionId: paused.executionId,
      seq: 0,
      result: "yes",
    });
    expect(resolved).toMatchObject({ status: "paused", pending: [{ seq: 1, method: "send" }] });
    expect(ledger).toEqual([]);
    expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({
      status: "completed",
      result: ["yes", { sent: true }],
    });
    expect(ledger).toEqual(['send {"to":"evil"}']);
  });

  it("a result for one of two deferred calls leaves the other waiting", async () => {
    const { runtime } = setup();
    const paused = await runtime.execute({
      code: "async () => Promise.all([bank.ask({ q: 1 }), bank.ask({ q: 2 })])",
    });
    const first = await runtime.resolve({ executionId: paused.executionId, seq: 0, result: "one" });
    expect(first).toMatchObject({ status: "paused", pending: [{ seq: 1 }] });
    expect(
      await runtime.resolve({ executionId: paused.executionId, seq: 1, result: "two" }),
    ).toMatchObject({
      status: "completed",
      result: ["one", "two"],
    });
  });

  it("two rollbacks at once revert each call once", async () => {
    const { runtime, ledger } = setup();
    const done = await runtime.execute({ code: "async () => bank.charge({ amount: 4 })" });
    const paused = await runtime.execute({
      code: "async () => { await bank.charge({ amount: 6 }); return bank.send({}); }",
    });
    for (const { executionId } of [done, paused]) {
      const reports = await Promise.all([
        runtime.rollback({ executionId }),
        runtime.rollback({ executionId }),
      ]);
      expect(reports.flatMap((report) => report.reverted)).toEqual([0]);
    }
    expect(ledger.filter((line) => line.startsWith("refund"))).toEqual([
      "refund ch_4",
      "refund ch_6",
    ]);
  });

  it("a recorded call that now needs approval waits for it instead of running again", async () => {
    const { runtime, store, ledger } = setup();
    const paused = await runtime.execute({
      code: "async () => { await bank.peek({ id: 1 }); return bank.send({ to: 'bob' }); }",
    });
    expect(ledger).toEqual(['peek {"id":1}']);
    // the host now gates the method the journal recorded as re-executed
    const gatedBank = functionConnector({
      name: "bank",
      methods: {
        peek: {
          requiresApproval: true,
          execute: async (input: unknown) => {
            ledger.push(`gated peek ${JSON.stringify(input)}`);
            return true;
          },
        },
        send: { requiresApproval: true, execute: async () => ({ sent: true }) },
      },
    });
    const gatedRuntime = createCodemodeRuntime({ store, executor, connectors: [gatedBank] });
    const approved = await gatedRuntime.approve({ executionId: paused.executionId });
    // the approval of send is kept while the pass waits at the peek that needs one now
    expect(approved).toMatchObject({ status: "paused", pending: [{ seq: 0, method: "peek" }] });
    expect(approved.status === "paused" && approved.pending).toHaveLength(1);
    expect(ledger).toEqual(['peek {"id":1}']);
    expect(await gatedRuntime.approve({ executionId: paused.executionId })).toMatchObject({
      status: "completed",
    });
    expect(ledger).toEqual(['peek {"id":1}', 'gated peek {"id":1}']);
  });

  it("a program that holds the host's thread still renews its run", async () => {
    const start = Date.now();
    const renewals: number[] = [];
    const base = createStore();
    // the clock runs 30 times faster, so a 1.5 s loop lasts 45 s of the runtime's time
    const now = () => start + (Date.now() - start) * 30;
    const store: JournalStore = {
      specificationVersion: "v1",
      journal(name) {
        const journal = base.journal(name);
        return Object.assign(Object.create(journal), {
          updateExecution: (
            id: string,
            expected: never,
            patch: Record<string, unknown>,
            lease?: never,
          ) => {
            // a renewal: the lease moves on, the status stays
            if ("lease" in patch && patch.lease && !("status" in patch)) renewals.push(Date.now());
            return journal.updateExecution(id, expected, patch, lease);
          },
        });
      },
    };
    const { connector } = bank();
    // the program's own clock stands still (it reads the run's start), so the loop holds the thread
    // until the executor's time limit ends it
    const holding = new QuickJSExecutor({ timeoutMs: 1_500 });
    const runtime = createCodemodeRuntime({
      store,
      executor: holding,
      connectors: [connector],
      now,
    });
    const output = await runtime.execute({ code: "async () => { while (true) {} }" });
    expect(output).toMatchObject({ status: "error", error: expect.stringMatching(/1500 ms/) });
    expect(renewals.length).toBeGreaterThan(0);
  });

  it("expirePaused never ends a pass that is alive and still calling connectors", async () => {
    let time = 1_000_000;
    const b = bank();
    const store = createStore();
    const runtime = createCodemodeRuntime({
      store,
      executor,
      connectors: [b.connector],
      now: () => time,
    });
    const running = runtime.execute({
      code: "async () => { for (let i = 0; i < 5; i++) await bank.charge({ amount: i }); return 'done'; }",
    });
    await wait(40);
    time += 10 * 60_000;
    const other = createCodemodeRuntime({
      store,
      executor,
      connectors: [b.connector],
      now: () => time,
    });
    expect(await other.expirePaused({ maxAgeMs: 1 })).toEqual([]);
    const output: CodeModeOutput = await running;
    expect(output).toMatchObject({ status: "completed", result: "done" });
    expect(b.ledger).toHaveLength(5);
  });
});
