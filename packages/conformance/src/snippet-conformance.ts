// Saved snippets run through the executor under test: `codemode.run` of a snippet runs its code in
// the same pass (its calls join the run's numbering), resolves to `{ error }` when a connector the
// snippet recorded is not configured now (seed 000: it does not throw), and throws for a snippet that
// does not exist; and a snippet's draws of chance are its own (not its caller's again), the same on
// every pass.
import { createCodemodeRuntime, memoryStore } from "@codemode/core";
import { expect } from "vitest";
import {
  connector,
  type DivergenceTestOptions,
  type Invocation,
} from "./divergence-conformance.ts";

const SLOW_TEST_MS = 60_000;

export function snippetTests(
  options: Pick<DivergenceTestOptions, "test" | "createExecutor">,
): void {
  options.test(
    "codemode.run joins the run's numbering, and resolves to { error } when the snippet's connector is gone",
    async () => {
      const ledger: Invocation[] = [];
      const store = memoryStore();
      const withKv = createCodemodeRuntime({
        store,
        executor: await options.createExecutor(),
        connectors: [connector("kv", ledger, false)],
      });
      const source = await withKv.execute({
        code: "async (input) => (await kv.read({ key: input?.key ?? 0 })).value",
      });
      expect(source).toMatchObject({ status: "completed", result: "kv read 0" });
      await withKv.saveSnippet("read-one", { executionId: source.executionId });

      const joined = await withKv.execute({
        code: `async () => {
          const first = await codemode.run("read-one", { key: 1 });
          const second = await kv.read({ key: 2 });
          return [first, second.value];
        }`,
      });
      expect(joined).toMatchObject({ status: "completed", result: ["kv read 1", "kv read 2"] });
      const run = await withKv.execution(joined.executionId);
      expect(run?.calls.map((call) => [call.seq, call.method, call.args])).toEqual([
        [0, "read", { key: 1 }],
        [1, "read", { key: 2 }],
      ]);

      // the same journal, without the kv connector: the snippet cannot run, and says so as data
      const withoutKv = createCodemodeRuntime({
        store,
        executor: await options.createExecutor(),
        connectors: [connector("other", ledger, false)],
      });
      const calls = ledger.length;
      const unavailable = await withoutKv.execute({
        code: `async () => {
          const outcome = await codemode.run("read-one", { key: 3 });
          const after = await other.read({ key: 4 });
          return { outcome, after: after.value };
        }`,
      });
      expect(unavailable).toMatchObject({
        status: "completed",
        result: {
          outcome: {
            error: 'Snippet "read-one" needs connectors that are not configured: kv.',
          },
          after: "other read 4",
        },
      });
      expect(ledger.slice(calls).map((call) => `${call.connector}.${call.method}`)).toEqual([
        "other.read",
      ]);
    },
    SLOW_TEST_MS,
  );

  options.test(
    "codemode.run of a snippet that does not exist throws an error the code can catch",
    async () => {
      const runtime = createCodemodeRuntime({
        store: memoryStore(),
        executor: await options.createExecutor(),
        connectors: [],
      });
      const caught = await runtime.execute({
        code: `async () => {
          try {
            await codemode.run("nope");
            return "resolved";
          } catch (error) {
            return error instanceof Error ? error.message : "not an Error";
          }
        }`,
      });
      expect(caught).toMatchObject({
        status: "completed",
        result: expect.stringContaining('No snippet is named "nope"'),
      });
    },
    SLOW_TEST_MS,
  );
  options.test(
    "a snippet run with codemode.run draws values of its own, not its caller's again, and the same ones after an approval",
    async () => {
      const ledger: Invocation[] = [];
      const store = memoryStore();
      const fresh = async () =>
        createCodemodeRuntime({
          store,
          executor: await options.createExecutor(),
          connectors: [connector("kv", ledger, true)],
        });
      // what a saved program draws when it makes an id: crypto's, with the usual Math.random fallback
      const draw = `async () => [
        typeof crypto === "object" && crypto !== null && typeof crypto.randomUUID === "function" ? crypto.randomUUID() : null,
        Math.random(),
      ]`;
      const saving = await (await fresh()).execute({ code: draw });
      expect(saving.status).toBe("completed");
      await (await fresh()).saveSnippet("draw", { executionId: saving.executionId });

      const first = await (await fresh()).execute({
        code: `async () => {
          const mine = ${draw.replace("async () => ", "")};
          const nested = [await codemode.run("draw"), await codemode.run("draw")];
          const written = await kv.write({ key: 1, value: { mine, nested } });
          return { mine, nested, written };
        }`,
      });
      if (first.status !== "paused") throw new Error(`not paused: ${JSON.stringify(first)}`);
      const shown = first.pending[0]?.args as { value: { mine: unknown[]; nested: unknown[][] } };
      const values = [shown.value.mine, ...shown.value.nested].flat().filter((v) => v !== null);
      expect(values.length).toBeGreaterThanOrEqual(3);
      expect(new Set(values).size, JSON.stringify(shown.value)).toBe(values.length);

      const approved = await (await fresh()).approve({ executionId: first.executionId });
      expect(approved).toMatchObject({ status: "completed", result: { ...shown.value } });
      expect(ledger.map(({ method, input }) => [method, input])).toEqual([["write", shown]]);
    },
    SLOW_TEST_MS,
  );
}
