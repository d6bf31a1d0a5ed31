// Saved snippets run through the executor under test: `codemode.run` of a snippet runs its code in
// the same pass (its calls join the run's numbering), resolves to `{ error }` when a connector the
// snippet recorded is not configured now (seed 000: it does not throw), and throws for a snippet that
// does not exist; a snippet's draws of chance are its own (not its caller's again), the same on
// every pass; a saved program run beside the program's own calls, or raced by a timer, does on the
// approval pass what it did live, so the approved call runs; and a pass starts at most
// `maxSnippetRuns` saved programs and asks at most `maxLookups` lookups of the host, refused past
// them with `BUDGET_EXCEEDED` at the same point on every pass.
import {
  type Connector,
  createCodemodeRuntime,
  DEFAULT_MAX_SNIPPET_RUNS,
  memoryStore,
} from "@codemode/core";
import { expect } from "vitest";
import { connector, type Invocation } from "./divergence-conformance.ts";
import type { ExecutorGroup } from "./executor-fixtures.ts";

declare function setTimeout(callback: () => void, ms: number): unknown;

const SLOW_TEST_MS = 300_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `api`: `report` (slow live, by its input's `delay`), `rows` and `users` (a little slow), and
 * `notify`, which needs approval. On the approval pass every call before `notify` replays at once:
 * only the order the executor gives the calls can keep the numbering the live pass had.
 */
function slowApi(ledger: string[]): Connector {
  return {
    specificationVersion: "v1",
    name: "api",
    methods: () => ({
      report: { description: "A slow report query." },
      rows: { description: "The rows of a report." },
      users: { description: "One page of users." },
      notify: { description: "Send a notification.", requiresApproval: true },
    }),
    async invoke(method, input) {
      ledger.push(`${method} ${JSON.stringify(input)}`);
      const { delay } = (input ?? {}) as { delay?: number };
      if (method === "report") await sleep(typeof delay === "number" ? delay : 300);
      if (method === "users") await sleep(20);
      return { method, input };
    },
  };
}

/** The saved program: a slow report, then its rows. */
const WEEKLY = `async (input) => {
  if (!input) return "saved";
  const report = await api.report({ week: input.week, delay: input.delay });
  const rows = await api.rows({ week: report.input.week });
  return { week: rows.input.week, rows: 3 };
}`;

/**
 * A runtime over one memory journal with `connectors`, made anew for each request with a new
 * executor, as an app makes it.
 */
function runtimes(
  options: Pick<ExecutorGroup, "createExecutor">,
  connectors: readonly Connector[],
): () => Promise<ReturnType<typeof createCodemodeRuntime>> {
  const store = memoryStore();
  return async () =>
    createCodemodeRuntime({
      store,
      executor: await options.createExecutor(),
      connectors: [...connectors],
    });
}

/** Runtimes over `slowApi` with `WEEKLY` saved as "weekly", and their ledger, empty from here. */
async function weeklySaved(options: Pick<ExecutorGroup, "createExecutor">) {
  const ledger: string[] = [];
  const fresh = runtimes(options, [slowApi(ledger)]);
  const saving = await (await fresh()).execute({ code: WEEKLY });
  expect(saving).toMatchObject({ status: "completed", result: "saved" });
  await (await fresh()).saveSnippet("weekly", { executionId: saving.executionId });
  ledger.length = 0;
  return { ledger, fresh };
}

export function snippetTests(
  options: Pick<ExecutorGroup, "test" | "createExecutor" | "sandboxGlobals">,
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
      const fresh = runtimes(options, [connector("kv", ledger, true)]);
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
  options.test(
    "codemode.run starts at most 16 saved programs per pass, nested or not: past it a BUDGET_EXCEEDED the code catches, at the same run after an approval",
    async () => {
      const ledger: Invocation[] = [];
      const fresh = runtimes(options, [connector("kv", ledger, true)]);
      // a saved program that runs itself until it is refused, and counts how deep it went
      const saving = await (await fresh()).execute({
        code: `async (input) => {
          if (!input) return 0;
          try {
            return 1 + (await codemode.run("self", input));
          } catch (error) {
            return error && error.code === "BUDGET_EXCEEDED" ? 0 : "not a budget: " + String(error);
          }
        }`,
      });
      expect(saving).toMatchObject({ status: "completed", result: 0 });
      await (await fresh()).saveSnippet("self", { executionId: saving.executionId });

      const first = await (await fresh()).execute({
        code: `async () => {
          let runs = 0;
          let refused = null;
          for (let index = 0; index < 20 && refused === null; index++) {
            try {
              await codemode.run("self");
              runs++;
            } catch (error) {
              refused = { code: error.code, message: error.message };
            }
          }
          const written = await kv.write({ key: runs, value: refused });
          return { runs, refused, written };
        }`,
      });
      if (first.status !== "paused") throw new Error(`not paused: ${JSON.stringify(first)}`);
      expect(first.pending[0]?.args).toEqual({
        key: DEFAULT_MAX_SNIPPET_RUNS,
        value: {
          code: "BUDGET_EXCEEDED",
          message: expect.stringContaining(
            `A run may start ${DEFAULT_MAX_SNIPPET_RUNS} saved programs (codemode.run) at most`,
          ),
        },
      });
      // the approval pass makes the same runs and is refused at the same one
      const approved = await (await fresh()).approve({ executionId: first.executionId });
      expect(approved).toMatchObject({
        status: "completed",
        result: { runs: DEFAULT_MAX_SNIPPET_RUNS, written: { written: DEFAULT_MAX_SNIPPET_RUNS } },
      });
      expect(ledger.map(({ method }) => method)).toEqual(["write"]);

      // nested: refused at the 17th start at the latest (an executor may stop it shallower)
      const nested = await (await fresh()).execute({
        code: `async () => codemode.run("self", {})`,
      });
      expect(nested.status).toBe("completed");
      const depth = (nested as { result?: unknown }).result;
      expect(typeof depth, JSON.stringify(nested)).toBe("number");
      expect(depth).toBeGreaterThanOrEqual(1);
      expect(depth).toBeLessThanOrEqual(DEFAULT_MAX_SNIPPET_RUNS);
    },
    SLOW_TEST_MS,
  );

  options.test(
    "codemode.search, describe and run share a budget of lookups per pass (limits.maxLookups): past it a BUDGET_EXCEEDED the code catches",
    async () => {
      const runtime = createCodemodeRuntime({
        store: memoryStore(),
        executor: await options.createExecutor(),
        connectors: [connector("kv", [], false)],
        limits: { maxLookups: 6 },
      });
      const outcome = await runtime.execute({
        code: `async () => {
          const asked = [
            () => codemode.search("read"),
            () => codemode.describe("kv.read"),
            () => codemode.run("missing").catch((error) => error.code === "BUDGET_EXCEEDED" ? Promise.reject(error) : "no such snippet"),
          ];
          const answers = [];
          for (let index = 0; index < 9; index++) {
            try {
              await asked[index % 3]();
              answers.push("ok");
            } catch (error) {
              answers.push(error.code);
            }
          }
          return answers;
        }`,
      });
      expect(outcome).toMatchObject({
        status: "completed",
        result: ["ok", "ok", "ok", "ok", "ok", "ok", ...Array(3).fill("BUDGET_EXCEEDED")],
      });
    },
    SLOW_TEST_MS,
  );
  options.test(
    "saved programs run with codemode.run beside the program's own calls are numbered the same after an approval, so the approved call runs",
    async () => {
      const { ledger, fresh } = await weeklySaved(options);

      // two saved programs at once (the first slow live, the second fast), and calls of its own
      // meanwhile; on the approval pass all of them replay at once
      const first = await (await fresh()).execute({
        code: `async () => {
          const [slow, fast, users] = await Promise.all([
            codemode.run("weekly", { week: 42, delay: 300 }),
            codemode.run("weekly", { week: 43, delay: 5 }),
            (async () => [await api.users({ page: 1 }), await api.users({ page: 2 })])(),
          ]);
          const sent = await api.notify({ text: "weeks " + slow.week + " and " + fast.week + ", " + users.length + " pages" });
          return sent.input.text;
        }`,
      });
      if (first.status !== "paused") throw new Error(`not paused: ${JSON.stringify(first)}`);
      expect(first.pending.map((call) => [call.method, call.args])).toEqual([
        ["notify", { text: "weeks 42 and 43, 2 pages" }],
      ]);
      const live = ledger.length;
      expect(live).toBe(6);

      const approved = await (await fresh()).approve({ executionId: first.executionId });
      expect(approved, JSON.stringify(approved)).toMatchObject({
        status: "completed",
        result: "weeks 42 and 43, 2 pages",
      });
      expect(ledger.slice(live)).toEqual(['notify {"text":"weeks 42 and 43, 2 pages"}']);
    },
    SLOW_TEST_MS,
  );

  // a timer fires only once the program waits on no call: a saved program in flight is one
  (options.sandboxGlobals.includes("setTimeout")
    ? options.test
    : options.test.skipped("needs setTimeout"))(
    "a timer racing codemode.run takes the same branch after an approval, so the approved call runs",
    async () => {
      const { ledger, fresh } = await weeklySaved(options);

      // live, the saved program's report takes longer than the timer; replayed, no time at all
      const first = await (await fresh()).execute({
        code: `async () => {
          const timedOut = new Promise((resolve) => setTimeout(() => resolve("timed out"), 300));
          const status = await Promise.race([
            codemode.run("weekly", { week: 42, delay: 900 }).then((report) => "week " + report.week),
            timedOut,
          ]);
          const sent = await api.notify({ text: status });
          return sent.input.text;
        }`,
      });
      if (first.status !== "paused") throw new Error(`not paused: ${JSON.stringify(first)}`);
      expect(first.pending.map((call) => call.args)).toEqual([{ text: "week 42" }]);
      const live = ledger.length;

      const approved = await (await fresh()).approve({ executionId: first.executionId });
      expect(approved, JSON.stringify(approved)).toMatchObject({
        status: "completed",
        result: "week 42",
      });
      expect(ledger.slice(live)).toEqual(['notify {"text":"week 42"}']);
    },
    SLOW_TEST_MS,
  );
}
