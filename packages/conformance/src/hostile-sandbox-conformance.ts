// The hostile sandbox group of the executor suite: a program that attacks the host through the
// executor floods it with calls (`callLimit`: the calls in flight stay bounded, the rest fail in the
// sandbox) and makes calls while its result is read.
import type { HostNamespaces } from "@codemode/core";
import { expect } from "vitest";
import { type ExecutorGroup, execute } from "./executor-fixtures.ts";
import { resultOf, sleep } from "./suite-parts.ts";

/** The most calls in flight the flood is allowed, and how many calls it makes at once. */
const LIMIT = 32;
const FLOOD = 5000;

/** The "hostile sandbox" group. */
export function hostileSandboxTests({ test, testWith, createExecutor }: ExecutorGroup): void {
  testWith("callLimit")(
    "bounds the calls a pass has in flight; a call past the limit fails in the sandbox",
    async () => {
      let inFlight = 0;
      let most = 0;
      let reached = 0;
      const globals: HostNamespaces = {
        ns: {
          slow: async () => {
            reached++;
            inFlight++;
            most = Math.max(most, inFlight);
            await sleep(1);
            inFlight--;
            return 1;
          },
        },
      };
      const outcome = await execute(await createExecutor({ maxConcurrentCalls: LIMIT }), {
        code: `async () => {
          const calls = [];
          for (let i = 0; i < ${FLOOD}; i++) calls.push(ns.slow(i));
          const settled = await Promise.allSettled(calls);
          const refused = settled.filter((s) => s.status === "rejected");
          return { ok: settled.length - refused.length, refused: refused.length, code: refused[0]?.reason.code, message: refused[0]?.reason.message };
        }`,
        globals,
      });
      const result = resultOf(outcome) as {
        ok: number;
        refused: number;
        code: string;
        message: string;
      };
      expect(most, "never more calls in flight than the limit allows").toBeLessThanOrEqual(LIMIT);
      expect(result.ok).toBe(reached);
      expect(result.ok + result.refused).toBe(FLOOD);
      expect(result.refused).toBeGreaterThan(0);
      expect(result.code).toBe("BUDGET_EXCEEDED");
      expect(result.message).toMatch(new RegExp(`more than ${LIMIT} .*calls .*in flight`, "i"));
    },
  );

  test("does not let a getter of the returned value reach a host function while the result is read", async () => {
    const reached: unknown[] = [];
    const outcome = await execute(await createExecutor(), {
      code: `async () => ({ get value() { ns.spy("from the getter").catch(() => {}); return 1; } })`,
      globals: { ns: { spy: async (input) => reached.push(input) } },
    });
    expect(outcome).toMatchObject({ result: { value: 1 } });
    await sleep(50);
    expect(reached).toEqual([]);
  });
}
