// codemode.run in the Dynamic Worker: a saved program runs in a worker of its own, and the pass keeps
// one ordering domain (worker-harness.ts): while it runs, its caller's worker sends nothing, so the
// host numbers the saved program's calls where its codemode.run stands among its caller's, whatever
// the latencies; the result (and an outbound response) reaches the program in its turn, and timers
// wait for it. What every executor shares (the approval pass completes) is the conformance suite's
// "snippets" group; these pin the Worker's own order, and the host's check of it.

import { exports } from "cloudflare:workers";
import { type Connector, createCodemodeRuntime, memoryStore } from "@codemode/core";
import { LogSink } from "@codemode/executor-kit";
import { describe, expect, it } from "vitest";
import { Pass } from "./host-bridge.ts";
import { DynamicWorkerExecutor, sandboxLoader } from "./index.ts";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `api`, each method as slow (ms) as `delays` says; `notify` needs approval. */
function api(ledger: string[], delays: Record<string, number>): Connector {
  return {
    specificationVersion: "v1",
    name: "api",
    methods: () => ({
      report: { description: "a report query" },
      rows: { description: "rows of a report" },
      users: { description: "list users" },
      notify: { description: "send a notification", requiresApproval: true },
    }),
    async invoke(method, input) {
      ledger.push(`${method} ${JSON.stringify(input)}`);
      await sleep(delays[method] ?? 0);
      return { method, input };
    },
  };
}

const WEEKLY = `async (input) => {
  if (!input) return "saved";
  const report = await api.report({ week: input.week });
  const rows = await api.rows({ week: report.input.week });
  return { week: rows.input.week, rows: 3 };
}`;

/** A saved program that runs another one beside a call of its own. */
const OUTER = `async (input) => {
  if (!input) return "saved";
  const [inner, users] = await Promise.all([codemode.run("weekly", input), api.users({ page: 9 })]);
  return { week: inner.week, rows: inner.rows, page: users.input.page };
}`;

const PROGRAM = `async () => {
  const [outer, pages] = await Promise.all([
    codemode.run("outer", { week: 42 }),
    (async () => [await api.users({ page: 1 }), await api.users({ page: 2 })])(),
  ]);
  await api.notify({ text: "week " + outer.week + ": " + outer.rows + " rows, " + pages.length + " pages" });
  return "done";
}`;

/** The program's calls as the journal numbered them live, then the approval pass's outcome. */
async function numbered(delays: Record<string, number>) {
  const ledger: string[] = [];
  const store = memoryStore();
  const make = () =>
    createCodemodeRuntime({
      store,
      executor: new DynamicWorkerExecutor({ loader: sandboxLoader(exports.SandboxLoader) }),
      connectors: [api(ledger, delays)],
    });
  for (const [name, code] of [
    ["weekly", WEEKLY],
    ["outer", OUTER],
  ] as const) {
    const saved = await make().execute({ code });
    expect(saved.status).toBe("completed");
    await make().saveSnippet(name, { executionId: saved.executionId });
  }
  ledger.length = 0;
  const first = await make().execute({ code: PROGRAM });
  expect(first.status).toBe("paused");
  const entries = await store.journal("default").listEntries(first.executionId);
  const live = ledger.length;
  const approved = await make().approve({ executionId: first.executionId });
  return {
    calls: entries.map((entry) => `${entry.seq} ${entry.method} ${entry.args}`),
    approved,
    afterApproval: ledger.slice(live),
  };
}

describe("codemode.run beside the program's own calls", () => {
  it("numbers a saved program's calls where its codemode.run stands, whatever the latencies, and the approval completes", async () => {
    // the order the design gives: what a worker sent before its codemode.run (the program's first
    // page, made with the snippet's lookup; the outer program's own page, likewise), then the saved
    // program's calls in place, then what the caller made meanwhile (the second page)
    const expected = [
      '0 users {"page":1}',
      '1 users {"page":9}',
      '2 report {"week":42}',
      '3 rows {"week":42}',
      '4 users {"page":2}',
      '5 notify {"text":"week 42: 3 rows, 2 pages"}',
    ];
    const profiles: Record<string, number>[] = [
      { report: 300, users: 20 },
      { report: 0, rows: 0, users: 150 },
    ];
    for (const delays of profiles) {
      const { calls, approved, afterApproval } = await numbered(delays);
      expect(calls, JSON.stringify(delays)).toEqual(expected);
      expect(approved, JSON.stringify(approved)).toMatchObject({
        status: "completed",
        result: "done",
      });
      expect(afterApproval).toEqual(['notify {"text":"week 42: 3 rows, 2 pages"}']);
    }
  }, 180_000);
});

describe("fetch() beside the program's calls and timers", () => {
  it("hands the response over in its turn, and a timer waits for it as for a call", async () => {
    const outbound = {
      async fetch(request: Request) {
        await sleep(300);
        return new Response(`fetched ${new URL(request.url).pathname}`);
      },
    };
    const executor = new DynamicWorkerExecutor({
      loader: sandboxLoader(exports.SandboxLoader),
      globalOutbound: outbound,
    });
    const outcome = await executor.execute({
      code: `async () => {
        const seen = [];
        const timedOut = new Promise((resolve) => setTimeout(() => resolve("timed out"), 20));
        const raced = await Promise.race([fetch("https://outbound.example/slow").then((response) => response.text()), timedOut]);
        // the response's turn comes after the reply of the call made before it, however fast each was
        const fetched = fetch("https://outbound.example/second").then((response) => { seen.push("fetch"); return response.text(); });
        const called = ns.echo("slow").then(() => seen.push("call"));
        await Promise.all([fetched, called]);
        const [first, second] = [ns.echo("x").then(() => seen.push("call 2")), fetch("https://outbound.example/third").then((response) => { seen.push("fetch 2"); return response.text(); })];
        await Promise.all([first, second]);
        return { raced, seen };
      }`,
      globals: {
        ns: {
          echo: async (input) => {
            if (input === "x") await sleep(600);
            return input;
          },
        },
      },
    });
    expect(outcome).toMatchObject({
      result: { raced: "fetched /slow", seen: ["fetch", "call", "call 2", "fetch 2"] },
    });
  }, 180_000);
});

describe("the host's side of a nested run", () => {
  it("fails the pass when a worker sends a call while a saved program it started runs", async () => {
    let released = () => {};
    const seen: string[] = [];
    const pass = new Pass({
      globals: {
        ns: {
          echo: async (input) => {
            seen.push(String(input));
            return input;
          },
        },
      },
      namespaces: { ns: ["echo"] },
      logs: new LogSink(100, 10_000),
      replyLimit: { chars: 1_000_000, reason: "the test allows" },
      maxConcurrentCalls: 10,
      maxNestedRuns: 4,
      maxNestedDepth: 2,
      maxSourceChars: 10_000,
      maxInputChars: 10_000,
      maxInputCharsInFlight: 100_000,
      maxBatchChars: 100_000,
      maxLogChars: 10_000,
      outbound: null,
      evaluate: () =>
        new Promise((resolve) => {
          released = () => resolve(["ok", "1"]);
        }),
    });
    const { bridge } = pass.open(0, 0);
    expect(await bridge.call("ns", "echo", '"before"')).toMatchObject({
      reply: ["ok", '"before"'],
    });
    const running = bridge.evaluate("async () => 1", "null", "");
    const during = await bridge.call("ns", "echo", '"during"');
    expect(during).toMatchObject({
      reply: ["error", "Error", "The run has ended; this call was not run.", "ABORTED", ""],
    });
    expect(pass.failed?.message).toMatch(/a call while a saved program it started was running/);
    expect(seen).toEqual(["before"]);
    released();
    await running;
    pass.close();
  });
});
