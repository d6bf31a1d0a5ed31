// Calls made at once: hostile programs against the harness's per-turn queue (harness-source.ts) and
// HostBridge.calls/reply (host-bridge.ts). Each call reaches the host once, in order, its reply
// reaches its own promise, a call that ran is never reported as lost, and a batch is no way around a
// limit. The cases every executor shares (the in-flight limit across a batch, calls queued after the
// program settled, large replies of one batch, gated calls at once approved) are the conformance
// suite's "batched calls" group; these are the Worker's own (its message sizes, its RPC limits).

import { exports } from "cloudflare:workers";
import {
  type Connector,
  createCodemodeRuntime,
  type ExecuteResult,
  type HostNamespaces,
  memoryStore,
} from "@codemode/core";
import { describe, expect, it } from "vitest";
import { DynamicWorkerExecutor, sandboxLoader } from "./index.ts";

const executor = (options: { maxConcurrentCalls?: number } = {}) =>
  new DynamicWorkerExecutor({ loader: sandboxLoader(exports.SandboxLoader), ...options });

/** `ns.echo`, which notes each input it was called with and answers it. */
function echoInto(seen: unknown[]): HostNamespaces {
  return {
    ns: {
      echo: async (input) => {
        seen.push(input);
        return input;
      },
    },
  };
}

function resultOf(outcome: ExecuteResult): unknown {
  if ("error" in outcome)
    throw new Error(`expected a result, got ${JSON.stringify(outcome.error)}`);
  return outcome.result;
}

interface Invocation {
  method: string;
  input: unknown;
}

/** kv: read (free), write (gated), tick (reexecute: a fresh number every pass), big (free, large result). */
function kv(ledger: Invocation[], options: { bigChars?: number } = {}): Connector {
  let ticks = 0;
  return {
    specificationVersion: "v1",
    name: "kv",
    methods: () => ({
      read: { description: "read" },
      write: { description: "write", requiresApproval: true },
      tick: { description: "pass number", replay: "reexecute" },
      big: { description: "a large result" },
    }),
    async invoke(method, input) {
      if (method === "tick") return ++ticks;
      ledger.push({ method, input });
      if (method === "big") return "x".repeat(options.bigChars ?? 10);
      return { method, input };
    },
  };
}

/**
 * The passes of one run: a runtime for each (with an executor of its own, as an approval in another
 * request has) over one store and one `kv` connector, whose calls go to `ledger`.
 */
function passes(options: { maxConcurrentCalls?: number } = {}) {
  const ledger: Invocation[] = [];
  const store = memoryStore();
  const connector = kv(ledger);
  const make = () =>
    createCodemodeRuntime({ store, executor: executor(options), connectors: [connector] });
  return { ledger, make };
}

describe("batching: inputs that make calls", () => {
  it("a getter in an input that makes calls while the input is encoded delivers each call once", async () => {
    const seen: unknown[] = [];
    const outcome = await executor().execute({
      globals: echoInto(seen),
      code: `async () => {
        const inner = [];
        const input = { get a() { inner.push(ns.echo("inner " + inner.length)); return 1; } };
        const outer = await Promise.all([ns.echo(input), ns.echo(input)]);
        return { outer, inner: await Promise.all(inner) };
      }`,
    });
    const result = resultOf(outcome) as { outer: unknown[]; inner: string[] };
    expect(result.outer).toEqual([{ a: 1 }, { a: 1 }]);
    // each call the program made (the getter's too, however often the encoder reads it) arrives once
    expect(seen).toHaveLength(result.inner.length + 2);
    expect(seen.filter((x) => typeof x === "string")).toEqual(result.inner);
  });
});

describe("batching: inputs", () => {
  it("an unencodable input in a batch is refused in the sandbox; its siblings are delivered once", async () => {
    const seen: unknown[] = [];
    const outcome = await executor().execute({
      globals: echoInto(seen),
      code: `async () => {
        const cyclic = {}; cyclic.self = cyclic;
        const settled = await Promise.allSettled([ns.echo(1), ns.echo(() => 1), ns.echo(cyclic), ns.echo(2)]);
        return settled.map((x) => x.status);
      }`,
    });
    expect(resultOf(outcome)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    expect(seen).toEqual([1, 2]);
  });

  it("an input over the host's limit in a batch is refused with TOO_LARGE; its siblings are delivered once", async () => {
    const seen: unknown[] = [];
    const outcome = await executor().execute({
      globals: {
        ns: {
          echo: async (input) => {
            seen.push(typeof input === "string" ? input.length : input);
            return 1;
          },
        },
      },
      code: `async () => {
        const settled = await Promise.allSettled([ns.echo(1), ns.echo("x".repeat(17 * 1024 * 1024)), ns.echo(2)]);
        return settled.map((x) => x.status === "fulfilled" ? "ok" : x.reason.code);
      }`,
    });
    expect(resultOf(outcome)).toEqual(["ok", "TOO_LARGE", "ok"]);
    expect(seen).toEqual([1, 2]);
  });

  it("calls made at once whose inputs are too large for one message go apart, each once", async () => {
    const seen: number[] = [];
    const size = 12 * 1024 * 1024;
    const outcome = await executor().execute({
      globals: {
        ns: {
          echo: async (input) => {
            seen.push((input as string).length);
            return 1;
          },
        },
      },
      code: `async () => {
        const text = "y".repeat(${size});
        const settled = await Promise.allSettled([ns.echo(text), ns.echo("small"), ns.echo(text)]);
        return settled.map((x) => x.status === "fulfilled" ? "ok" : x.reason.message);
      }`,
    });
    expect(resultOf(outcome)).toEqual(["ok", "ok", "ok"]);
    expect(seen).toEqual([size, 5, size]);
  });
});

describe("batching: replies", () => {
  // a reply travels as one string; past U+00FF a character takes two bytes in an RPC message
  for (const [chars, expected] of [
    [15 * 1024 * 1024 - 3, "reaches the program"],
    [16 * 1024 * 1024 - 2, "is TOO_LARGE, said to be a result"],
  ] as const)
    it(`a reply of ${chars} two-byte characters ${expected}, never lost in transit`, async () => {
      let ran = 0;
      const outcome = await executor().execute({
        globals: {
          ns: {
            big: async () => {
              ran++;
              return "\u20ac".repeat(chars);
            },
          },
        },
        code: `async () => {
          try {
            return (await ns.big({})).length;
          } catch (error) {
            return error.code + ": " + error.message;
          }
        }`,
      });
      expect(ran).toBe(1);
      if (chars < 15 * 1024 * 1024) expect(resultOf(outcome)).toBe(chars);
      else expect(resultOf(outcome)).toMatch(/^TOO_LARGE: ns\.big returned \d+ characters/);
    });

  it("through the runtime: a batch whose replies are too large together is not run twice by a retry", async () => {
    const ledger: Invocation[] = [];
    const store = memoryStore();
    const runtime = createCodemodeRuntime({
      store,
      executor: executor(),
      connectors: [kv(ledger, { bigChars: 900_000 })],
    });
    const output = await runtime.execute({
      code: `async () => {
        const keys = Array.from({ length: 40 }, (_, i) => i);
        try {
          await Promise.all(keys.map((key) => kv.big({ key })));
          return "first try";
        } catch (error) {
          // "The host could not be reached": a careful program tries once more, one by one
          for (const key of keys) await kv.big({ key });
          return "retried: " + error.message;
        }
      }`,
    });
    expect(output).toMatchObject({ status: "completed" });
    // SAFE: each side effect ran once
    expect(ledger).toHaveLength(40);
  });
});

describe("batching: gated calls, approval and replay", () => {
  it("an approval pass whose batch repeats an approved call runs it once and the other never", async () => {
    const { ledger, make } = passes();
    const code = `async () => {
      const pass = await kv.tick();
      if (pass === 1) return Promise.all([kv.write({ key: 1 }), kv.write({ key: 2 })]);
      return Promise.all([kv.write({ key: 1 }), kv.write({ key: 1 }), kv.write({ key: 2 })]);
    }`;
    const first = await make().execute({ code });
    expect(first).toMatchObject({ status: "paused" });
    const approved = await make().approve({ executionId: first.executionId });
    expect(approved.status).not.toBe("completed");
    const writes = ledger.filter((x) => x.method === "write").map((x) => x.input);
    // never twice, never one nobody approved
    expect(writes.filter((x) => (x as { key: number }).key === 1).length).toBeLessThanOrEqual(1);
    expect(writes.every((x) => [1, 2].includes((x as { key: number }).key))).toBe(true);
  });

  it("a batch whose ungated read comes before the gated writes replays in the sandbox and runs each write once", async () => {
    const { ledger, make } = passes();
    // the read is answered in the sandbox on the approval pass, in the same turn as the writes
    const code = `async () => Promise.all([kv.read({ key: 9 }), kv.write({ key: 1 }), kv.read({ key: 8 }), kv.write({ key: 2 })])`;
    const first = await make().execute({ code });
    expect(first).toMatchObject({ status: "paused" });
    const approved = await make().approve({ executionId: first.executionId });
    expect(approved).toMatchObject({ status: "completed" });
    expect(ledger.filter((x) => x.method === "write").map((x) => x.input)).toEqual([
      { key: 1 },
      { key: 2 },
    ]);
    expect(ledger.filter((x) => x.method === "read")).toHaveLength(2);
  });

  it("gated calls past maxConcurrentCalls in one turn are not all pending: no approval covers one the host refused", async () => {
    const { ledger, make } = passes({ maxConcurrentCalls: 2 });
    const first = await make().execute({
      code: `async () => Promise.allSettled([1, 2, 3, 4].map((key) => kv.write({ key })))`,
    });
    expect(first).toMatchObject({ status: "paused" });
    const pending = (first as { pending: { args: unknown }[] }).pending;
    expect(pending.length).toBeLessThanOrEqual(2);
    const approved = await make().approve({ executionId: first.executionId });
    expect(["completed", "paused"]).toContain(approved.status);
    const keys = ledger.map((x) => (x.input as { key: number }).key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeLessThanOrEqual(pending.length);
  });

  it("a batch mixing gated calls with codemode.run of a gated snippet runs each once, and only once approved", async () => {
    const { ledger, make } = passes();
    let saved = await make().execute({
      code: `async (input) => kv.write({ key: input?.key ?? 0 })`,
    });
    if (saved.status === "paused") saved = await make().approve({ executionId: saved.executionId });
    expect(saved).toMatchObject({ status: "completed" });
    await make().saveSnippet("writeKey", { executionId: saved.executionId });
    ledger.length = 0;
    let out = await make().execute({
      code: `async () => Promise.all([kv.write({ key: 1 }), codemode.run("writeKey", { key: 2 }), kv.write({ key: 3 }), kv.read({ key: 4 })])`,
    });
    const shown = new Set<number>();
    for (let round = 0; round < 5 && out.status === "paused"; round++) {
      for (const pending of (out as { pending: { args: { key: number } }[] }).pending)
        shown.add(pending.args.key);
      const before = ledger.length;
      out = await make().approve({ executionId: out.executionId });
      for (const entry of ledger.slice(before)) {
        if (entry.method === "write")
          expect(shown.has((entry.input as { key: number }).key)).toBe(true);
      }
    }
    expect(out).toMatchObject({ status: "completed" });
    const writes = ledger
      .filter((x) => x.method === "write")
      .map((x) => (x.input as { key: number }).key);
    expect(writes.sort()).toEqual([1, 2, 3]);
    expect(ledger.filter((x) => x.method === "read")).toHaveLength(1);
  });
});
