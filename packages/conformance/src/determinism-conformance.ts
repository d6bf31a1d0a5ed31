// What a program observes, the same on every pass, through the executor under test: a program that
// builds an approval-gated write from `Date`, `Math.random()`, `crypto` and `performance` (where the
// sandbox has them), after a read, pauses; the approval, in a new runtime as the next request makes
// it, completes and the write reaches the connector once, with the input the pause showed. Likewise
// for a write after a `codemode.step` whose body calls connectors, after calls made at once whose
// results arrive in another order than they were made, and after a step beside calls in a
// `Promise.all`.
import { type Connector, createCodemodeRuntime, memoryStore } from "@codemode/core";
import { expect } from "vitest";
import {
  connector,
  type DivergenceTestOptions,
  type Invocation,
} from "./divergence-conformance.ts";

const SLOW_TEST_MS = 300_000;

const READS_THE_CLOCK_AND_CHANCE = `async () => {
  const started = Date.now();
  const first = await kv.read({ key: 1 });
  const value = {
    stamp: new Date().toISOString(),
    due: Date.now() + 7 * 86400000,
    called: Date(),
    elapsed: Date.now() - started,
    ref: Math.random().toString(36).slice(2),
    draws: [Math.random(), Math.random()],
    bytes: typeof crypto === "object" && crypto.getRandomValues ? Array.from(crypto.getRandomValues(new Uint8Array(6))) : null,
    uuid: typeof crypto === "object" && crypto.randomUUID ? crypto.randomUUID() : null,
    performance: typeof performance === "object" && performance.now ? performance.now() : null,
    formatted: typeof Intl === "object" ? new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "medium", timeStyle: "medium" }).format() : null,
    read: first.value,
  };
  const written = await kv.write({ key: 2, value });
  return { value, written, again: Date.now(), more: Math.random() };
}`;

/**
 * Sets the time zone of the host process where there is one (Node: a QuickJS sandbox reads it, as
 * two servers in two zones over one journal would) and returns the zone it had; elsewhere (a
 * browser, workerd) nothing changes.
 */
function hostZone(zone: string | undefined): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  try {
    const was = env?.TZ;
    if (env) {
      if (zone === undefined) delete env.TZ;
      else env.TZ = zone;
    }
    return was;
  } catch {
    return undefined;
  }
}

/** `body` with the host process in `zone` (see `hostZone`). */
async function inHostZone<T>(zone: string, body: () => Promise<T>): Promise<T> {
  const was = hostZone(zone);
  try {
    return await body();
  } finally {
    hostZone(was);
  }
}

const READS_THE_LOCAL_TIME = `async () => {
  const first = await kv.read({ key: 1 });
  const now = new Date();
  const value = {
    note: "Report generated " + now.toLocaleString() + " (hour " + now.getHours() + ")",
    day: now.getDay(),
    offset: now.getTimezoneOffset(),
    midnight: new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime(),
    parsed: Date.parse("2026-07-01T09:00:00"),
    text: String(now),
    formatted: typeof Intl === "object" ? new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" }).format(now) : null,
    zone: typeof Intl === "object" ? new Intl.DateTimeFormat().resolvedOptions().timeZone : null,
    amount: typeof Intl === "object" ? (1234.5).toLocaleString() : null,
    read: first.value,
  };
  const written = await kv.write({ key: 2, value });
  return { value, written };
}`;

/**
 * A runtime over one memory journal with the gated `kv` connector (and `others`), made anew for each
 * request with a new executor as an app makes it, and the ledger of what reached `kv`.
 */
function kvRuntime(
  options: Pick<DivergenceTestOptions, "createExecutor">,
  others: readonly Connector[] = [],
) {
  const ledger: Invocation[] = [];
  const store = memoryStore();
  const fresh = async () =>
    createCodemodeRuntime({
      store,
      executor: await options.createExecutor(),
      connectors: [...others, connector("kv", ledger, true)],
    });
  return {
    ledger,
    execute: async (code: string) => (await fresh()).execute({ code }),
    approve: async (executionId: string) => (await fresh()).approve({ executionId }),
    execution: async (executionId: string) => (await fresh()).execution(executionId),
  };
}

export function determinismTests(
  options: Pick<DivergenceTestOptions, "test" | "createExecutor">,
): void {
  options.test(
    "a write built from the clock and Math.random() runs after its approval with the input shown",
    async () => {
      const run = kvRuntime(options);
      const first = await run.execute(READS_THE_CLOCK_AND_CHANCE);
      if (first.status !== "paused") throw new Error(`not paused: ${JSON.stringify(first)}`);
      const shown = first.pending[0]?.args as { key: number; value: Record<string, unknown> };
      const started = (await run.execution(first.executionId))?.createdAt as number;
      expect(shown.value).toMatchObject({
        stamp: new Date(started).toISOString(),
        due: started + 7 * 86_400_000,
        elapsed: 0,
        read: "kv read 1",
      });
      expect(shown.value.performance ?? 0).toBe(0);

      const approved = await run.approve(first.executionId);
      expect(approved).toMatchObject({
        status: "completed",
        result: { value: shown.value, written: { written: 2 }, again: started },
      });
      expect(run.ledger.map(({ method, input }) => [method, input])).toEqual([
        ["read", { key: 1 }],
        ["write", shown],
      ]);
    },
    SLOW_TEST_MS,
  );

  options.test(
    "a write built from the local time and the default formats runs after its approval on a host in another zone (found by a red-team pass)",
    async () => {
      const run = kvRuntime(options);
      // live on a host in Los Angeles, approved on one in Tokyo
      const first = await inHostZone("America/Los_Angeles", () =>
        run.execute(READS_THE_LOCAL_TIME),
      );
      if (first.status !== "paused") throw new Error(`not paused: ${JSON.stringify(first)}`);
      const shown = first.pending[0]?.args as { key: number; value: Record<string, unknown> };
      const started = (await run.execution(first.executionId))?.createdAt as number;
      // what an engine in UTC that formats for en-US computes
      const now = new Date(started);
      const utc = { timeZone: "UTC" } as const;
      const [weekday, day, month] = now.toUTCString().split(/[ ,]+/);
      expect(shown.value).toMatchObject({
        note: `Report generated ${now.toLocaleString("en-US", utc)} (hour ${now.getUTCHours()})`,
        day: now.getUTCDay(),
        offset: 0,
        midnight: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()),
        parsed: Date.UTC(2026, 6, 1, 9),
        text: `${weekday} ${month} ${day} ${now.getUTCFullYear()} ${now.toISOString().slice(11, 19)} GMT+0000 (Coordinated Universal Time)`,
        read: "kv read 1",
      });
      if (shown.value.zone !== null) {
        expect(shown.value).toMatchObject({
          zone: "UTC",
          formatted: now.toLocaleString("en-US", { ...utc, dateStyle: "full", timeStyle: "long" }),
          amount: "1,234.5",
        });
      }

      const approved = await inHostZone("Asia/Tokyo", () => run.approve(first.executionId));
      expect(approved).toMatchObject({ status: "completed", result: { value: shown.value } });
      expect(run.ledger.map(({ method, input }) => [method, input])).toEqual([
        ["read", { key: 1 }],
        ["write", shown],
      ]);
    },
    SLOW_TEST_MS,
  );

  options.test(
    "a step whose body calls a connector keeps the numbering it had live: the approval completes",
    async () => {
      const run = kvRuntime(options);
      const code = `async () => {
        const seen = [];
        const picked = await codemode.step("pick", async () => {
          const a = await kv.read({ key: 1 });
          const b = await kv.read({ key: 2 });
          seen.push("body");
          return [a.value, b.value];
        });
        const written = await kv.write({ key: 3, value: picked });
        return { picked, written, seen };
      }`;
      const first = await run.execute(code);
      expect(first).toMatchObject({
        status: "paused",
        pending: [{ seq: 3, method: "write", args: { key: 3, value: ["kv read 1", "kv read 2"] } }],
      });
      const approved = await run.approve(first.executionId);
      expect(approved).toMatchObject({
        status: "completed",
        result: {
          picked: ["kv read 1", "kv read 2"],
          written: { written: 3 },
          seen: ["body"],
        },
      });
      expect(run.ledger.map(({ method, input }) => [method, input])).toEqual([
        ["read", { key: 1 }],
        ["read", { key: 2 }],
        ["write", { key: 3, value: ["kv read 1", "kv read 2"] }],
      ]);
    },
    SLOW_TEST_MS,
  );

  options.test(
    "results of calls made at once reach the program in the order the calls were made, live and on replay",
    async () => {
      // three reads answered in the reverse of the order they were made, once all three are asked
      const waiting: Array<() => void> = [];
      const slow: Connector = {
        specificationVersion: "v1",
        name: "slow",
        methods: () => ({ read: { description: "Read one value, slowly." } }),
        invoke: (_method, input) =>
          new Promise((resolve) => {
            const { key } = input as { key: number };
            waiting.push(() => resolve({ key }));
            if (waiting.length === 3) for (const answer of waiting.splice(0).reverse()) answer();
          }),
      };
      const run = kvRuntime(options, [slow]);
      const code = `async () => {
        const seen = [];
        await Promise.all([1, 2, 3].map(async (key) => {
          const { key: got } = await slow.read({ key });
          seen.push(got);
          return kv.peek({ key: got * 10 });
        }));
        const written = await kv.write({ key: 99, value: seen });
        return { seen, written };
      }`;
      const first = await run.execute(code);
      expect(first).toMatchObject({
        status: "paused",
        pending: [{ seq: 6, method: "write", args: { key: 99, value: [1, 2, 3] } }],
      });
      const approved = await run.approve(first.executionId);
      expect(approved).toMatchObject({
        status: "completed",
        result: { seen: [1, 2, 3], written: { written: 99 } },
      });
      expect(run.ledger.map(({ method, input }) => [method, input])).toEqual([
        ["peek", { key: 10 }],
        ["peek", { key: 20 }],
        ["peek", { key: 30 }],
        ["write", { key: 99, value: [1, 2, 3] }],
      ]);
    },
    SLOW_TEST_MS,
  );

  options.test(
    "chains of calls made at once that take different numbers of microtask hops call on in the same order on replay",
    async () => {
      // Live, each result reaches the program on its own once it is idle, so chain "a" (two hops
      // after its read) calls on before chain "b" (one hop). Answered all at once on replay, "b"
      // would call on first and its read would take "a"'s number.
      // Sixteen reads first: an executor may answer that many recorded calls inside its sandbox.
      const run = kvRuntime(options);
      const code = `async () => {
        for (let key = 100; key < 116; key++) await kv.peek({ key });
        const order = [];
        const values = await Promise.all([
          kv.read({ key: 1 }).then((r) => r).then((r) => { order.push("a"); return kv.peek({ key: 10 }); }),
          kv.read({ key: 2 }).then((r) => { order.push("b"); return kv.peek({ key: 20 }); }),
          (async () => {
            const first = await kv.read({ key: 3 });
            for (let hop = 0; hop < 5; hop++) await null;
            order.push("c");
            return kv.peek({ key: first.key * 10 });
          })(),
        ]);
        const written = await kv.write({ key: 0, value: order });
        return { order, values: values.map((v) => v.key), written };
      }`;
      const first = await run.execute(code);
      expect(first).toMatchObject({
        status: "paused",
        pending: [{ seq: 22, method: "write", args: { key: 0, value: ["a", "b", "c"] } }],
      });
      const approved = await run.approve(first.executionId);
      expect(approved).toMatchObject({
        status: "completed",
        result: { order: ["a", "b", "c"], values: [10, 20, 30], written: { written: 0 } },
      });
      expect(run.ledger.map(({ method, input }) => [method, input])).toEqual([
        ...Array.from({ length: 16 }, (_, index) => ["peek", { key: 100 + index }]),
        ["read", { key: 1 }],
        ["read", { key: 2 }],
        ["read", { key: 3 }],
        ["peek", { key: 10 }],
        ["peek", { key: 20 }],
        ["peek", { key: 30 }],
        ["write", { key: 0, value: ["a", "b", "c"] }],
      ]);
    },
    SLOW_TEST_MS,
  );

  options.test(
    "a loop that waits for the clock ends at the pass's time limit, and the model hears why",
    async () => {
      const runtime = createCodemodeRuntime({
        store: memoryStore(),
        executor: await options.createExecutor(),
        connectors: [],
        limits: { timeoutMs: 300 },
      });
      const outcome = await runtime.execute({
        code: `async () => {
          const started = Date.now();
          while (Date.now() - started < 100) {}
          const mark = performance.now();
          while (performance.now() - mark < 100) {}
          return "waited";
        }`,
      });
      expect(outcome.status).toBe("error");
      expect(outcome.status === "error" && outcome.error).toMatch(
        /Date\.now\(\) and performance\.now\(\) do not move/,
      );
    },
    SLOW_TEST_MS,
  );

  options.test(
    "a step beside calls in a Promise.all returns after the same round trips on replay (found by the replay property, on Chromium)",
    async () => {
      const run = kvRuntime(options);
      const code = `async () => {
        const out = await Promise.all([
          (async () => {
            const v = await codemode.step("a", () => 1);
            return (await kv.read({ key: v + 100 })).value;
          })(),
          (async () => {
            const b = await kv.read({ key: 2 });
            return (await kv.peek({ key: b.key + 10 })).value;
          })(),
        ]);
        return kv.write({ key: 0, value: out });
      }`;
      const first = await run.execute(code);
      expect(first.status).toBe("paused");
      const approved = await run.approve(first.executionId);
      expect(approved).toMatchObject({ status: "completed", result: { written: 0 } });
      expect(run.ledger.filter(({ method }) => method === "write")).toHaveLength(1);
    },
    SLOW_TEST_MS,
  );
}
