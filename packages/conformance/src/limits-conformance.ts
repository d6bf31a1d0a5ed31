// The limits group of the executor suite, per capability: a pass waiting forever ends with TIMEOUT,
// an allocation blow-up with MEMORY, an abort with ABORTED (also of a signal aborted before the
// pass), and no host method runs after.
import type { AbortSignalLike } from "@codemode/core";
import { expect } from "vitest";
import { type ExecutorGroup, execute, SLOW_TEST_MS } from "./executor-fixtures.ts";
import { errorOf, MEMORY_BYTES, recorder, sleep, TIMEOUT_MS, UNHURRIED_MS } from "./suite-parts.ts";

// The platform global this group uses, typed by hand: the suite compiles without Node, DOM or
// Workers types and runs in all three.
declare const AbortController: new () => {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
};

/** The "limits" group. */
export function limitsTests({ testWith, createExecutor, healthy }: ExecutorGroup): void {
  testWith("timeout")(
    "a pass waiting on a host call that never settles ends with TIMEOUT",
    async () => {
      const executor = await createExecutor();
      const error = errorOf(
        await execute(executor, {
          code: "async () => { await ns.forever(); return 'never'; }",
          globals: { ns: { forever: () => new Promise<never>(() => {}) } },
          limits: { timeoutMs: TIMEOUT_MS },
        }),
      );
      expect(error.code).toBe("TIMEOUT");
      await healthy(executor);
    },
    SLOW_TEST_MS,
  );

  testWith("memoryLimit")(
    "an allocation blow-up ends with MEMORY",
    async () => {
      const executor = await createExecutor();
      const error = errorOf(
        await execute(executor, {
          code: "async () => { const all = []; while (true) all.push(new Array(10000).fill(all.length)); }",
          globals: {},
          limits: { memoryBytes: MEMORY_BYTES, timeoutMs: UNHURRIED_MS },
        }),
      );
      expect(error.code).toBe("MEMORY");
      await healthy(executor);
    },
    SLOW_TEST_MS,
  );

  testWith("abort")(
    "aborting ends a pass waiting on a host call with ABORTED; no host method runs after",
    async () => {
      const executor = await createExecutor();
      const controller = new AbortController();
      const calls: string[] = [];
      const held: { finish?: (value: unknown) => void; called?: () => void } = {};
      const called = new Promise<void>((resolve) => {
        held.called = resolve;
      });
      const pending = execute(executor, {
        code: "async () => { await ns.wait(); await ns.after(); return 'finished'; }",
        globals: {
          ns: {
            wait: () => {
              calls.push("wait");
              held.called?.();
              return new Promise((resolve) => {
                held.finish = resolve;
              });
            },
            after: async () => {
              calls.push("after");
            },
          },
        },
        signal: controller.signal,
        limits: { timeoutMs: 20_000 },
      });
      await Promise.race([called, pending]);
      controller.abort(new Error("stopped by the conformance suite"));
      const error = errorOf(await pending);
      expect(error.code).toBe("ABORTED");
      held.finish?.("too late");
      await sleep(100);
      expect(calls).toEqual(["wait"]);
      await healthy(executor);
    },
    SLOW_TEST_MS,
  );

  testWith("abort")("an already aborted signal ends the pass before any host call", async () => {
    const executor = await createExecutor();
    const controller = new AbortController();
    controller.abort();
    const calls: unknown[] = [];
    const error = errorOf(
      await execute(executor, {
        code: "async () => ns.echo(1)",
        globals: { ns: { echo: recorder(calls) } },
        signal: controller.signal,
      }),
    );
    expect(error.code).toBe("ABORTED");
    expect(calls).toEqual([]);
  });
}
