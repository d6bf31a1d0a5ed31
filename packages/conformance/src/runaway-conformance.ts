// Runaway code through the executor under test: programs that never end on their own, written to
// get around whatever ends them (they catch the interruption and loop again, replace the clock, the
// error constructors, `call` and `apply`, `then` and `Symbol.species`, spin in getters, comparators,
// generators, callbacks, microtasks, timers, recursion without a loop, a saved program). Every
// executor must end each of them on time: the pass reports its outcome (`TIMEOUT` unless the case
// says otherwise) within the limit plus a margin, and the executor runs a normal pass afterwards.
import {
  createCodemodeRuntime,
  type ExecuteRequest,
  type ExecuteResult,
  type Executor,
  memoryStore,
} from "@codemode/core";
import { expect } from "vitest";
import { attackHost } from "./attacks/attack-host.ts";
import { connector, type DivergenceTestOptions } from "./divergence-conformance.ts";
import { errorOf, resultOf, TIMEOUT_MS } from "./suite-parts.ts";

const SLOW_TEST_MS = 180_000;
/**
 * A pass may end this long after its limit: the machine is shared (CI runs other packages' tests on
 * two cores), and unwinding takes time. A runaway that got past the limit would run far longer.
 */
export const RUNAWAY_MARGIN_MS = 10_000;

/** One program that never ends on its own, and the outcomes it may end in. */
export interface Runaway {
  name: string;
  code: string;
  /** checks the outcome and what reached the host's `ns.echo`; by default: `TIMEOUT` and no call */
  check?(outcome: ExecuteResult, calls: unknown[]): void | Promise<void>;
  /**
   * the pass's limit (default `TIMEOUT_MS`) for a case that must get somewhere before it (return,
   * or make a call): the limit counts from before the sandbox is set up, which on a loaded machine
   * can take most of a second (a sandboxed iframe and its worker)
   */
  timeoutMs?: number;
}

const timedOut = (outcome: ExecuteResult) => expect(errorOf(outcome).code).toBe("TIMEOUT");
/** a flood of promise jobs may exhaust memory before the deadline */
const timedOutOrOutOfMemory = (outcome: ExecuteResult) =>
  expect(["TIMEOUT", "MEMORY"]).toContain(errorOf(outcome).code);

export const RUNAWAYS: readonly Runaway[] = [
  // ---- loops, and loops that catch their interruption ----------------------------------------
  { name: "an endless loop ends with TIMEOUT", code: "async () => { while (true) {} }" },
  {
    name: "an endless loop whose interruption is caught ends with TIMEOUT, whatever it returns after",
    code: "async () => { try { while (true) {} } catch { return 'caught'; } }",
  },
  {
    name: "an endless loop in a synchronous helper ends with TIMEOUT",
    code: "async () => { const spin = () => { for (;;) {} }; spin(); return 'escaped'; }",
  },
  {
    name: "a loop that catches its inner loop's interruption and loops again ends with TIMEOUT",
    code: "async () => { for (;;) { try { for (;;) {} } catch {} } }",
  },
  {
    name: "a finally that continues the outer loop ends with TIMEOUT",
    code: "async () => { outer: for (;;) { try { for (;;) {} } finally { continue outer; } } }",
  },
  {
    name: "a labelled continue that jumps to the outer loop every time ends with TIMEOUT",
    code: "async () => { let n = 0; outer: while (true) { for (;;) { n++; continue outer; } } }",
  },
  {
    name: "an endless loop in catch and finally blocks ends with TIMEOUT",
    code: `async () => {
      try { null.boom; } catch { try { while (true) {} } finally { while (true) {} } }
      return "escaped";
    }`,
  },
  {
    name: "a do-while loop with an empty body ends with TIMEOUT",
    code: "async () => { let n = 0; do ; while (++n > 0); }",
  },

  // ---- built-ins replaced before spinning ------------------------------------------------------
  {
    name: "an endless loop after Date.now and performance.now were replaced ends with TIMEOUT",
    code: `async () => {
      Date.now = () => 0;
      try { performance.now = () => 0; } catch {}
      const RealDate = Date;
      globalThis.Date = function () { return new RealDate(0); };
      globalThis.Date.now = () => 0;
      while (true) {}
    }`,
  },
  {
    name: "an endless loop after Function.prototype.call, apply and bind were replaced ends with TIMEOUT",
    code: `async () => {
      const spin = () => { while (true) {} };
      Function.prototype.call = function () { return "forged"; };
      Function.prototype.apply = function () { return "forged"; };
      Function.prototype.bind = function () { return () => "forged"; };
      Reflect.apply = () => "forged";
      spin();
    }`,
  },
  {
    name: "an endless loop after the error constructors were replaced ends with TIMEOUT",
    code: `async () => {
      for (const name of ["Error", "RangeError", "TypeError", "SyntaxError", "EvalError", "ReferenceError", "InternalError"]) {
        globalThis[name] = function () { return { forged: name }; };
      }
      Error.captureStackTrace = () => {};
      for (;;) { try { for (;;) {} } catch (error) { if (error && error.forged) return "forged"; } }
    }`,
  },
  {
    name: "an endless loop after Promise.prototype.then and Symbol.species were replaced ends with TIMEOUT",
    code: `async () => {
      const then = Promise.prototype.then;
      Object.defineProperty(Promise, Symbol.species, { configurable: true, get() { for (;;) {} } });
      Object.defineProperty(Array, Symbol.species, { configurable: true, get() { for (;;) {} } });
      Promise.prototype.then = function (onFulfilled, onRejected) {
        return then.call(this, onFulfilled, () => { for (;;) {} });
      };
      await null;
      while (true) {}
    }`,
  },

  // ---- no loop at all: recursion, generators ---------------------------------------------------
  {
    name: "recursion without a loop that takes exponential time ends with TIMEOUT",
    code: "async () => { const f = (n) => { if (n > 0) { f(n - 1); f(n - 1); } }; f(64); }",
  },
  {
    name: "a generator without end driven by for-of ends with TIMEOUT",
    code: "async () => { function* count() { let n = 0; for (;;) yield n++; } for (const n of count()) {} }",
  },

  // ---- code the executor or a built-in calls back into -----------------------------------------
  {
    name: "a busy loop in a getter of the result ends with TIMEOUT",
    code: "async () => ({ get value() { while (true) {} } })",
  },
  {
    name: "a getter of the result that catches its interruption and spins again ends with TIMEOUT",
    code: "async () => ({ get value() { for (;;) { try { for (;;) {} } catch {} } } })",
  },
  {
    name: "an endless loop in a sort comparator ends with TIMEOUT",
    code: "async () => [3, 1, 2].sort(() => { while (true) {} })",
  },
  {
    name: "an endless loop in a toJSON that JSON.stringify calls ends with TIMEOUT",
    code: "async () => JSON.stringify({ toJSON() { while (true) {} } })",
  },
  {
    name: "an endless loop in a host call's callback ends with TIMEOUT",
    code: "async () => ns.echo(1).then(() => { for (;;) {} })",
    check: (outcome, calls) => {
      timedOut(outcome);
      expect(calls).toEqual([1]);
    },
    timeoutMs: 3_000,
  },
  {
    name: "an endless loop in a getter of an argument ends with TIMEOUT before any host call",
    code: "async () => ns.echo({ get spin() { while (true) {} } })",
  },

  // ---- promise jobs and timers -----------------------------------------------------------------
  {
    name: "a loop of promise jobs while the program waits ends with TIMEOUT",
    code: "async () => { const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {}); }",
    check: (outcome) => timedOutOrOutOfMemory(outcome),
  },
  {
    name: "a loop of promise jobs the program awaits ends with TIMEOUT",
    code: "async () => { const spin = () => Promise.resolve().then(spin); await spin(); }",
    check: (outcome) => timedOutOrOutOfMemory(outcome),
  },
  {
    name: "a flood of promise jobs after returning ends the pass",
    code: `async () => { const spin = () => Promise.resolve().then(spin); spin(); return "returned"; }`,
    check: (outcome) => {
      if ("error" in outcome) expect(["TIMEOUT", "MEMORY"]).toContain(outcome.error.code);
      else expect(outcome.result).toBe("returned");
    },
  },
  {
    name: "an endless loop in a timer set before returning does not hold the host",
    code: `async () => {
      if (typeof setTimeout === "function") setTimeout(() => { while (true) {} }, 0);
      await null;
      return "returned";
    }`,
    check: (outcome) => {
      if ("error" in outcome) expect(outcome.error.code).toBe("TIMEOUT");
      else expect(outcome.result).toBe("returned");
    },
  },
  {
    name: "a timer that sets itself again forever after returning does not hold the host",
    code: `async () => {
      if (typeof setTimeout === "function") { const again = () => { setTimeout(again, 0); }; again(); }
      return "returned";
    }`,
    check: (outcome) => expect(resultOf(outcome)).toBe("returned"),
    // it returns at once: the limit only bounds an executor the timers hold
    timeoutMs: 10_000,
  },
  {
    name: "Atomics.wait on shared memory is refused or ends with TIMEOUT",
    code: `async () => {
      let shared;
      if (typeof SharedArrayBuffer === "function") shared = new SharedArrayBuffer(16);
      else if (typeof WebAssembly === "object") {
        try { shared = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }).buffer; } catch {}
      }
      if (!shared || typeof Atomics !== "object") return "no shared memory";
      Atomics.wait(new Int32Array(shared), 0, 0);
      return "woke";
    }`,
    check: (outcome) => {
      if ("error" in outcome) expect(["THROWN", "TIMEOUT"]).toContain(outcome.error.code);
      else expect(outcome.result).toBe("no shared memory");
    },
  },

  // ---- one built-in call that runs long --------------------------------------------------------
  {
    // (a+)+ against 32 a's and a b tries every way to split them: 2^32 paths in one built-in call,
    // 20-40 s of V8 on a 2024 server core and far longer in QuickJS, unless the engine interrupts
    // it: far past the limit and its margin, so an engine that cannot interrupt it never passes
    // (at 30 a's, 5-10 s, it could end inside the margin on a fast run)
    name: "catastrophic backtracking in one regular expression ends with TIMEOUT",
    code: `async () => /^(a+)+$/.test("a".repeat(32) + "b")`,
  },
];

export interface RunawayTestOptions extends Pick<DivergenceTestOptions, "test" | "createExecutor"> {
  /** one pass, checked to be of the contract's shape */
  execute(executor: Executor, request: ExecuteRequest): Promise<ExecuteResult>;
  /** a normal pass after the case: the executor still works */
  healthy(executor: Executor): Promise<void>;
}

/** The "runaway code" group: every case of `RUNAWAYS`, and a saved program that spins. */
export function runawayTests(options: RunawayTestOptions): void {
  const { test, createExecutor, execute, healthy } = options;
  for (const runaway of RUNAWAYS) {
    test(
      runaway.name,
      async () => {
        const executor = await createExecutor();
        const calls: unknown[] = [];
        const started = Date.now();
        const outcome = await execute(executor, {
          code: runaway.code,
          globals: attackHost(calls),
          limits: { timeoutMs: runaway.timeoutMs ?? TIMEOUT_MS },
        });
        const elapsed = Date.now() - started;
        await (
          runaway.check ??
          ((ended, seen) => {
            timedOut(ended);
            expect(seen).toEqual([]);
          })
        )(outcome, calls);
        expect(elapsed, "the pass ended within its limit and a margin").toBeLessThan(
          (runaway.timeoutMs ?? TIMEOUT_MS) + RUNAWAY_MARGIN_MS,
        );
        await healthy(executor);
      },
      SLOW_TEST_MS,
    );
  }

  test(
    "a saved program that spins, run with codemode.run, ends the run with TIMEOUT",
    async () => {
      // one store and executor, two limits: the passes that must get somewhere (saving the
      // program, the pass after the spin) have room on a busy machine, the spinning one has 1 s
      const store = memoryStore();
      const executor = await createExecutor();
      const connectors = [connector("kv", [], false)];
      const runtime = createCodemodeRuntime({
        store,
        executor,
        connectors,
        limits: { timeoutMs: TIMEOUT_MS },
      });
      const roomy = createCodemodeRuntime({
        store,
        executor,
        connectors,
        limits: { timeoutMs: SLOW_TEST_MS / 6 },
      });
      // the saved program spins only when asked to, so the run it is saved from ends at once
      const saved = await roomy.execute({
        code: "async (input) => { if (input?.spin) { for (;;) { try { for (;;) {} } catch {} } } return 'ready'; }",
      });
      expect(saved).toMatchObject({ status: "completed", result: "ready" });
      await roomy.saveSnippet("spin", { executionId: saved.executionId });
      const started = Date.now();
      const outcome = await runtime.execute({
        code: `async () => {
          try { await codemode.run("spin", { spin: true }); } catch {}
          for (;;) {}
        }`,
      });
      const elapsed = Date.now() - started;
      expect(outcome).toMatchObject({
        status: "error",
        error: expect.stringMatching(/^TimeoutError/),
      });
      expect(elapsed, "the run ended within its limit and a margin").toBeLessThan(
        TIMEOUT_MS + RUNAWAY_MARGIN_MS,
      );
      const after = await roomy.execute({
        code: "async () => (await kv.read({ key: 1 })).value",
      });
      expect(after).toMatchObject({ status: "completed", result: "kv read 1" });
    },
    SLOW_TEST_MS,
  );
}
