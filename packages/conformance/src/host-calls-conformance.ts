// The host calls group of the executor suite: arguments and results of host methods, calls in
// sequence and at once, host rejections the sandbox can catch, a method the namespace lacks, and
// calls made at once under built-ins the program replaced (calls-at-once-conformance.ts).
import type { HostNamespaces } from "@codemode/core";
import { expect } from "vitest";
import { callsAtOnceTests } from "./calls-at-once-conformance.ts";
import { type ExecutorGroup, execute } from "./executor-fixtures.ts";
import { errorOf, recorder, resultOf, sleep } from "./suite-parts.ts";

// The platform global this group uses, typed by hand: the suite compiles without Node, DOM or
// Workers types and runs in all three.
declare function setTimeout(callback: () => void, ms: number): unknown;

/** The "host calls" group. */
export function hostCallsTests(group: ExecutorGroup): void {
  const { test, createExecutor } = group;
  test("passes one JSON argument to a host method and returns its result", async () => {
    const executor = await createExecutor();
    const calls: unknown[][] = [];
    const input = { owner: "acme", tags: ["a", "b"], open: true, count: 3, none: null };
    const outcome = await execute(executor, {
      code: `async () => {
        const first = await ns.describe(${JSON.stringify(input)});
        const second = await ns.describe({ only: "the first" }, "a second argument");
        return [first, second];
      }`,
      globals: {
        ns: {
          describe: async (...args: unknown[]) => {
            calls.push(args);
            return { received: args[0], size: JSON.stringify(args[0]).length };
          },
        },
      },
    });
    expect(resultOf(outcome)).toEqual([
      { received: input, size: JSON.stringify(input).length },
      { received: { only: "the first" }, size: JSON.stringify({ only: "the first" }).length },
    ]);
    expect(calls).toEqual([[input], [{ only: "the first" }]]);
  });

  test("runs host calls in sequence and concurrently under Promise.all", async () => {
    const executor = await createExecutor();
    const started: number[] = [];
    let inflight = 0;
    let most = 0;
    let mostInSequence = 0;
    const gate: (() => void)[] = [];
    const outcome = await execute(executor, {
      code: `async () => {
        const first = await ns.slow(1);
        const second = await ns.slow(2);
        const all = await Promise.all([ns.slow(3), ns.slow(4), ns.slow(5)]);
        return [first, second, all];
      }`,
      globals: {
        ns: {
          slow: async (input) => {
            const n = input as number;
            started.push(n);
            inflight++;
            most = Math.max(most, inflight);
            if (n <= 2) mostInSequence = most;
            if (n >= 3) {
              // the three calls of Promise.all wait for each other (or, if they never meet, 3 s)
              await new Promise<void>((resolve) => {
                gate.push(resolve);
                if (gate.length === 3) for (const open of gate) open();
                setTimeout(resolve, 3_000);
              });
            } else {
              await sleep(1);
            }
            inflight--;
            return n * 10;
          },
        },
      },
    });
    expect(resultOf(outcome)).toEqual([10, 20, [30, 40, 50]]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(mostInSequence, "awaited calls run one at a time").toBe(1);
    expect(most, "calls under Promise.all are in flight together").toBe(3);
  });

  test("a host rejection is catchable in the sandbox with the same name and message", async () => {
    const executor = await createExecutor();
    const globals: HostNamespaces = {
      ns: {
        limited: async () => {
          const error = new Error("rate limited, retry in 3 s");
          error.name = "RateLimitError";
          throw error;
        },
        invalid: () => {
          throw new TypeError("owner must be a string");
        },
      },
    };
    const caught = await execute(executor, {
      code: `async () => {
        const seen = [];
        for (const call of [() => ns.limited({}), () => ns.invalid({})]) {
          try { await call(); seen.push("no error"); }
          catch (error) { seen.push({ isError: error instanceof Error, name: error.name, message: error.message }); }
        }
        return seen;
      }`,
      globals,
    });
    expect(resultOf(caught)).toEqual([
      { isError: true, name: "RateLimitError", message: "rate limited, retry in 3 s" },
      { isError: true, name: "TypeError", message: "owner must be a string" },
    ]);
    const uncaught = errorOf(
      await execute(executor, { code: "async () => { await ns.limited({}) }", globals }),
    );
    expect(uncaught).toMatchObject({
      code: "THROWN",
      name: "RateLimitError",
      message: "rate limited, retry in 3 s",
    });
  });

  test("calling a method the namespace lacks throws an error that names it", async () => {
    const executor = await createExecutor();
    const calls: unknown[] = [];
    const globals = { ns: { echo: recorder(calls) } };
    const caught = await execute(executor, {
      code: `async () => {
        try { await ns.no_such_method({}); return "called"; }
        catch (error) { return { isError: error instanceof Error, message: error.message }; }
      }`,
      globals,
    });
    expect(resultOf(caught)).toEqual({
      isError: true,
      message: expect.stringContaining("no_such_method"),
    });
    const uncaught = errorOf(
      await execute(executor, { code: "async () => ns.no_such_method({})", globals }),
    );
    // the code crosses as data, with what was asked for: the runtime answers with the nearest
    expect(uncaught.code).toBe("UNKNOWN_METHOD");
    expect(uncaught.method).toEqual({ namespace: "ns", name: "no_such_method" });
    expect(uncaught.message).toContain("no_such_method");
    expect(calls).toEqual([]);
  });
  callsAtOnceTests({ test, createExecutor, execute });
}
