// A program that attacks the host through QuickJSExecutor: floods it with calls, makes calls while
// its result is read, and reads what crosses back. Each test names the symptom it guards.
import type { HostNamespaces } from "@codemode/core";
import { afterEach, describe, expect, it } from "vitest";
import { QuickJSExecutor } from "./index.ts";

const made: QuickJSExecutor[] = [];
function executor(options?: ConstructorParameters<typeof QuickJSExecutor>[0]): QuickJSExecutor {
  const created = new QuickJSExecutor({ timeoutMs: 10_000, ...options });
  made.push(created);
  return created;
}
afterEach(() => {
  for (const created of made.splice(0)) created.dispose();
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("QuickJSExecutor: calls in flight", () => {
  it("bounds the calls a pass has in flight; a call past the limit fails in the sandbox", async () => {
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
    const outcome = await executor({ maxConcurrentCalls: 32 }).execute({
      code: `async () => {
        const calls = [];
        for (let i = 0; i < 5000; i++) calls.push(ns.slow(i));
        const settled = await Promise.allSettled(calls);
        const refused = settled.filter((s) => s.status === "rejected");
        return { ok: settled.length - refused.length, refused: refused.length, code: refused[0]?.reason.code, message: refused[0]?.reason.message };
      }`,
      globals,
    });
    expect("result" in outcome, JSON.stringify(outcome)).toBe(true);
    const result = (
      outcome as { result: { ok: number; refused: number; code: string; message: string } }
    ).result;
    expect(most).toBeLessThanOrEqual(32);
    expect(result.ok).toBe(reached);
    expect(result.ok + result.refused).toBe(5000);
    expect(result.refused).toBeGreaterThan(0);
    expect(result.code).toBe("BUDGET_EXCEEDED");
    expect(result.message).toMatch(/ns\.slow was not called: more than 32 calls .* in flight/);
  });

  it("refuses a bad maxConcurrentCalls", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, "8"]) {
      expect(() => new QuickJSExecutor({ maxConcurrentCalls: bad as number })).toThrow(
        /maxConcurrentCalls/,
      );
    }
  });
});

describe("QuickJSExecutor: the end of a pass", () => {
  it("does not let a getter of the returned value reach a host function while the result is read", async () => {
    const reached: unknown[] = [];
    const outcome = await executor().execute({
      code: `async () => ({ get value() { ns.spy("from the getter").catch(() => {}); return 1; } })`,
      globals: { ns: { spy: async (input) => reached.push(input) } },
    });
    expect(outcome).toMatchObject({ result: { value: 1 } });
    await sleep(20);
    expect(reached).toEqual([]);
  });
});

describe("QuickJSExecutor: errors that cross", () => {
  it("gives the code a host error's own data properties (an HTTP status), as the journal replays them", async () => {
    const globals: HostNamespaces = {
      api: {
        get: async () => {
          const error = new Error("not found") as Error & { status: number; details: unknown };
          error.name = "HttpError";
          error.status = 404;
          error.details = { path: "/x", at: new Date(0) };
          throw error;
        },
      },
    };
    const outcome = await executor().execute({
      code: `async () => {
        try { await api.get(); } catch (e) {
          return [e.name, e.message, e.status, e.details?.path, e.details?.at instanceof Date];
        }
      }`,
      globals,
    });
    expect(outcome).toMatchObject({ result: ["HttpError", "not found", 404, "/x", true] });
  });
});
