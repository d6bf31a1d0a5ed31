// Calls after a pause, through the executor under test: a program that swallows the pause (catches
// it) and goes on calling, in sequence, in parallel, from microtasks and from timers where the
// sandbox has them, reaches no connector; the approval then runs the write once and the rest live.
// A call of the paused turn that outlasts the pass is left in doubt, not replayed as the failure its
// abort caused; a later call of a turn, approved alone, runs while an earlier one still waits.
import {
  type CodemodeRuntime,
  type Connector,
  createCodemodeRuntime,
  decisionHandleOf,
  memoryStore,
} from "@codemode/core";
import { expect } from "vitest";
import {
  connector,
  type DivergenceTestOptions,
  type Invocation,
} from "./divergence-conformance.ts";
import { sleep } from "./suite-parts.ts";

const SLOW_TEST_MS = 300_000;

const SWALLOWS_THE_PAUSE = `async () => {
  const after = [];
  const attempt = async (label, call) => {
    try { await call(); after.push(label + " answered"); } catch { after.push(label + " refused"); }
  };
  let written;
  try {
    written = await kv.write({ key: 1, value: "once" });
  } catch {
    after.push("the pause, caught");
    // calls left for later: a microtask, and a timer where the sandbox has timers
    Promise.resolve().then(() => kv.read({ key: 71 }).catch(() => {}));
    if (typeof setTimeout === "function") setTimeout(() => kv.read({ key: 70 }).catch(() => {}), 5);
  }
  await attempt("a read", () => kv.read({ key: 2 }));
  await attempt("two reads at once", () => Promise.all([kv.read({ key: 3 }), kv.read({ key: 4 })]));
  await attempt("a write", () => kv.write({ key: 5, value: "again" }));
  return { written, after };
}`;

/**
 * Runtimes over one store, each with a fresh executor of the suite, the way each pass may run in
 * another process.
 */
function processes(
  options: Pick<DivergenceTestOptions, "createExecutor">,
  connectors: Connector[],
  leaseMs?: number,
): () => Promise<CodemodeRuntime> {
  const store = memoryStore();
  return async () =>
    createCodemodeRuntime({
      store,
      executor: await options.createExecutor(),
      connectors,
      ...(leaseMs === undefined ? {} : { leaseMs }),
    });
}

export function pauseTests(options: Pick<DivergenceTestOptions, "test" | "createExecutor">): void {
  options.test(
    "calls the program makes after a pause, caught or not, reach no connector",
    async () => {
      const ledger: Invocation[] = [];
      const runtime = processes(options, [connector("kv", ledger, true)]);
      const first = await (await runtime()).execute({
        code: SWALLOWS_THE_PAUSE,
      });
      expect(first).toMatchObject({
        status: "paused",
        pending: [{ seq: 0, connector: "kv", method: "write", args: { key: 1, value: "once" } }],
      });
      // time for timers and late microtasks of the paused pass to fire
      await sleep(100);
      expect(ledger, "nothing reached the connector after the pause").toEqual([]);

      const approved = await (await runtime()).approve({
        executionId: first.executionId,
      });
      expect(approved).toMatchObject({
        status: "paused",
        pending: [{ connector: "kv", method: "write", args: { key: 5, value: "again" } }],
      });
      await sleep(100);
      const calls = ledger.map(({ method, input }) => `${method} ${JSON.stringify(input)}`);
      // the approved write once; the reads the code makes after it; the second write waits
      expect(calls.filter((call) => call.startsWith("write"))).toEqual([
        'write {"key":1,"value":"once"}',
      ]);
      for (const key of [2, 3, 4]) expect(calls).toContain(`read {"key":${key}}`);
      expect(new Set(ledger.map((call) => call.idempotencyKey)).size).toBe(ledger.length);
    },
    SLOW_TEST_MS,
  );

  options.test(
    "gated calls made at once (Promise.all) pause together, and one approval runs each once",
    async () => {
      const ledger: Invocation[] = [];
      const runtime = processes(options, [connector("kv", ledger, true)]);
      const first = await (await runtime()).execute({
        code: `async () => Promise.all([1, 2, 3].map((key) => kv.write({ key, value: "v" + key })))`,
      });
      expect(first).toMatchObject({
        status: "paused",
        pending: [1, 2, 3].map((key, seq) => ({
          seq,
          method: "write",
          args: { key, value: `v${key}` },
        })),
      });
      const approved = await (await runtime()).approve({
        executionId: first.executionId,
      });
      expect(approved).toMatchObject({ status: "completed" });
      expect(ledger.map(({ input }) => input)).toEqual(
        [1, 2, 3].map((key) => ({ key, value: `v${key}` })),
      );
    },
    SLOW_TEST_MS,
  );

  pausedTurnTests(options);
}

/**
 * `slow.read` answers only when its signal aborts, with the abort, the first time `ledger` has it
 * called (whichever runtime calls it); then at once. Its calls go to `ledger`.
 */
function slowOnce(ledger: Invocation[]): Connector {
  return {
    specificationVersion: "v1",
    name: "slow",
    methods: () => ({ read: { description: "Read one value, slowly the first time." } }),
    invoke(method, input, { idempotencyKey, signal }) {
      const first = !ledger.some((call) => call.connector === "slow");
      ledger.push({ connector: "slow", method, input, idempotencyKey });
      if (!first) return Promise.resolve({ title: "the issue" });
      return new Promise((_, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    },
  };
}

function pausedTurnTests(options: Pick<DivergenceTestOptions, "test" | "createExecutor">): void {
  options.test(
    "a call of the paused turn that outlasts the pass is left in doubt, not replayed as the failure its abort caused",
    async () => {
      const ledger: Invocation[] = [];
      // the pass gives a call still running 5 s (its least) before it aborts it
      const runtime = processes(options, [slowOnce(ledger), connector("kv", ledger, true)], 300);
      const code = `async () => {
        const [issue] = await Promise.all([slow.read({}), kv.write({ key: 1, value: "x" })]);
        return issue.title;
      }`;
      const first = await (await runtime()).execute({ code });
      expect(first).toMatchObject({ status: "paused", pending: [{ seq: 1, method: "write" }] });
      const { executionId } = first;
      // approving the write runs it; the read, which may have run, waits for a person
      const second = await (await runtime()).approve({ executionId });
      expect(second).toMatchObject({
        status: "paused",
        pending: [{ seq: 0, connector: "slow", inDoubt: expect.any(String) }],
      });
      const third = await (await runtime()).approve({ executionId });
      expect(third).toMatchObject({ status: "completed", result: "the issue" });
      expect(ledger.map((call) => `${call.connector}.${call.method}`)).toEqual([
        "slow.read",
        "kv.write",
        "slow.read",
      ]);
      // the read ran again under its own key, once a person said so
      expect(ledger[2]?.idempotencyKey).toBe(ledger[0]?.idempotencyKey);
    },
    SLOW_TEST_MS,
  );

  options.test(
    "approving only a later call of a turn runs it while an earlier one still waits, and it replays",
    async () => {
      const ledger: Invocation[] = [];
      const runtime = processes(options, [connector("kv", ledger, true)]);
      const first = await (await runtime()).execute({
        code: `async () => Promise.all([1, 2].map((key) => kv.write({ key, value: "v" + key })))`,
      });
      const { executionId } = first;
      const shown = decisionHandleOf(first.status === "paused" ? first.pending : []);
      const later = { ...shown, calls: shown.calls.filter((call) => call.seq === 1) };
      const second = await (await runtime()).approve({
        executionId,
        handle: later,
      });
      expect(second).toMatchObject({ status: "paused", pending: [{ seq: 0 }] });
      expect(ledger.map(({ input }) => input)).toEqual([{ key: 2, value: "v2" }]);
      const third = await (await runtime()).approve({ executionId });
      expect(third).toMatchObject({
        status: "completed",
        result: [{ written: 1 }, { written: 2 }],
      });
      expect(ledger.map(({ input }) => input)).toEqual([
        { key: 2, value: "v2" },
        { key: 1, value: "v1" },
      ]);
    },
    SLOW_TEST_MS,
  );
}
