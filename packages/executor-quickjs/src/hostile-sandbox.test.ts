// A program that attacks the host through QuickJSExecutor: past the calls it may have in flight, and
// reading what crosses back. Each test names the symptom it guards. The cases every executor shares
// (a flood of calls bounded in flight, calls made while the result is read) are the conformance
// suite's "hostile sandbox" group.
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
  it("names the call it did not make past the limit, and the limit", async () => {
    const outcome = await executor({ maxConcurrentCalls: 32 }).execute({
      code: `async () => {
        const settled = await Promise.allSettled(Array.from({ length: 33 }, (_, i) => ns.slow(i)));
        return settled.find((s) => s.status === "rejected")?.reason.message;
      }`,
      globals: { ns: { slow: async () => sleep(1) } },
    });
    expect(outcome).toMatchObject({
      result: expect.stringMatching(/ns\.slow was not called: more than 32 calls .* in flight/),
    });
  });

  it("refuses a bad maxConcurrentCalls", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, "8"]) {
      expect(() => new QuickJSExecutor({ maxConcurrentCalls: bad as number })).toThrow(
        /maxConcurrentCalls/,
      );
    }
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
