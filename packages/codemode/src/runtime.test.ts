// The durable runtime end to end: real QuickJS, real SQLite (better-sqlite3), function connectors.
import type { ConnectorMethod } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import {
  type CodeModeOutput,
  type Connector,
  createCodemodeRuntime,
  functionConnector,
  memoryStore,
  sqliteStore,
} from "./index.ts";

// a limit for passes that end on their own: room for a loaded machine, none of these tests reach it
const executor = new QuickJSExecutor({ timeoutMs: 20_000 });

/** A tiny issue tracker with its own ledger, to count side effects. */
function tracker(options: { lockedLabel?: number; events?: string[] } = {}) {
  const ledger = { reads: 0, created: [] as string[], reverted: [] as number[] };
  const events = options.events ?? [];
  const connector = functionConnector({
    name: "issues",
    instructions: "An issue tracker.",
    methods: {
      list: {
        description: "List open issues.",
        inputSchema: {
          type: "object",
          properties: { repo: { type: "string" } },
          required: ["repo"],
        },
        execute: async ({ repo }: { repo: string }) => {
          ledger.reads++;
          return { repo, open: ledger.created.length, at: new Date(0), tags: new Set(["a"]) };
        },
      },
      create: {
        description: "Open an issue.",
        inputSchema: {
          type: "object",
          properties: { title: { type: "string" } },
          required: ["title"],
        },
        requiresApproval: true,
        execute: async ({ title }: { title: string }) => {
          ledger.created.push(title);
          return { number: ledger.created.length };
        },
        revert: async (_input: unknown, result: { number: number }) => {
          ledger.reverted.push(result.number);
        },
      },
      label: {
        description: "Label an issue.",
        inputSchema: {
          type: "object",
          properties: { number: { type: "number" } },
          required: ["number"],
        },
        execute: async ({ number }: { number: number }) => ({ labelled: number }),
        revert: async (input: { number: number }) => {
          if (input.number === options.lockedLabel) throw new Error("labels are locked");
          ledger.reverted.push(-input.number);
        },
      },
    },
    onPassEnd: (_id, status) => {
      events.push(`pass:${status}`);
    },
    disposeExecution: (_id, status) => {
      events.push(`dispose:${status}`);
    },
  });
  return { connector, ledger, events };
}

const runtimeOf = (
  connectors: Connector[],
  extra: Partial<Parameters<typeof createCodemodeRuntime>[0]> = {},
) =>
  createCodemodeRuntime({
    store: sqliteStore(new Database(":memory:")),
    executor,
    connectors,
    ...extra,
  });

const paused = (output: CodeModeOutput) => {
  expect(output.status).toBe("paused");
  return output as Extract<CodeModeOutput, { status: "paused" }>;
};

describe("a run to completion", () => {
  it("runs the code, journals each call and returns the value with logs", async () => {
    const { connector, ledger } = tracker();
    const runtime = runtimeOf([connector]);
    const output = await runtime.execute({
      code: 'const a = await issues.list({ repo: "web" });\nconsole.log("open", a.open);\nreturn { a, ok: true };',
    });
    expect(output).toEqual({
      status: "completed",
      executionId: expect.stringMatching(/^exec_\d{16}_[0-9a-f]{16}$/),
      result: { a: { repo: "web", open: 0, at: new Date(0), tags: new Set(["a"]) }, ok: true },
      logs: ["open 0"],
    });
    expect(ledger.reads).toBe(1);
    const [execution] = await runtime.executions();
    expect(execution).toMatchObject({
      status: "completed",
      calls: [{ seq: 0, connector: "issues", method: "list", state: "applied" }],
    });
  });
});

describe("approval", () => {
  it("pauses at a gated call, then applies it exactly once and replays the reads", async () => {
    const { connector, ledger, events } = tracker();
    const runtime = runtimeOf([connector]);
    const code = `async () => {
      const before = await issues.list({ repo: "web" });
      const created = await issues.create({ title: "Bug" });
      const after = await issues.list({ repo: "web" });
      return { before: before.open, created, after: after.open, when: before.at };
    }`;
    const first = paused(await runtime.execute({ code }));
    expect(first.pending).toEqual([
      {
        executionId: first.executionId,
        seq: 1,
        connector: "issues",
        method: "create",
        args: { title: "Bug" },
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    expect(ledger).toMatchObject({ reads: 1, created: [] });
    expect(await runtime.pending()).toEqual(first.pending);
    const second = await runtime.approve({ executionId: first.executionId });
    expect(second).toEqual({
      status: "completed",
      executionId: first.executionId,
      result: { before: 0, created: { number: 1 }, after: 1, when: new Date(0) },
    });
    expect(ledger).toMatchObject({ reads: 2, created: ["Bug"] });
    expect(events).toEqual(["pass:paused", "pass:completed", "dispose:completed"]);
    const stale = await runtime.approve({ executionId: first.executionId });
    expect(stale).toMatchObject({
      status: "error",
      error: expect.stringContaining("only a paused run can resume"),
      code: "NOT_PAUSED",
    });
    expect(ledger.created).toEqual(["Bug"]);
  });

  it("applies nothing more when the code swallows the pause", async () => {
    const { connector, ledger } = tracker();
    const runtime = runtimeOf([connector]);
    const output = await runtime.execute({
      code: `async () => {
        try { await issues.create({ title: "A" }); } catch (error) { console.log("caught", error.message); }
        try { await issues.label({ number: 1 }); } catch {}
        return "done";
      }`,
    });
    const { pending, executionId } = paused(output);
    expect(pending).toHaveLength(1);
    const run = await runtime.execution(executionId);
    expect(run?.calls.map((call) => [call.seq, call.method, call.state])).toEqual([
      [0, "create", "pending"],
    ]);
    expect(ledger.created).toEqual([]);
  });

  it("ends the run on rejection without undoing earlier calls, and says whether it did", async () => {
    const { connector, events } = tracker();
    const runtime = runtimeOf([connector]);
    const { executionId, pending } = paused(
      await runtime.execute({
        code: 'await issues.label({ number: 3 }); await issues.create({ title: "X" });',
      }),
    );
    expect(await runtime.reject({ executionId, seq: pending[0]?.seq ?? -1 })).toBe(true);
    expect(await runtime.reject({ executionId, seq: pending[0]?.seq ?? -1 })).toBe(false);
    const run = await runtime.execution(executionId);
    expect(run?.status).toBe("rejected");
    expect(run?.calls.map((call) => call.state)).toEqual(["applied", "withdrawn"]);
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "error" });
    expect(events).toEqual(["pass:paused", "dispose:rejected"]);
  });

  it("resolves an approval racing a rejection to exactly one outcome", async () => {
    for (let round = 0; round < 5; round++) {
      const { connector, ledger } = tracker();
      const runtime = runtimeOf([connector]);
      const { executionId } = paused(
        await runtime.execute({ code: 'await issues.create({ title: "Race" })' }),
      );
      const [approved, rejected] = await Promise.all([
        runtime.approve({ executionId }),
        runtime.reject({ executionId, seq: 0 }),
      ]);
      expect(
        approved.status === "completed" ? !rejected : rejected && approved.status === "error",
      ).toBe(true);
      expect(ledger.created.length).toBe(approved.status === "completed" ? 1 : 0);
    }
  });
});

describe("replay", () => {
  it("replays the clock and Math.random() as they were: the approved call runs with the input shown", async () => {
    const { connector, ledger } = tracker();
    const runtime = runtimeOf([connector]);
    const first = paused(
      await runtime.execute({
        code: "await issues.create({ title: `R ${Math.random()} due ${Date.now() + 86400000} at ${new Date().toISOString()}` })",
      }),
    );
    const title = (first.pending[0]?.args as { title: string } | undefined)?.title;
    const started = (await runtime.execution(first.executionId))?.createdAt as number;
    expect(title).toMatch(
      new RegExp(`^R 0\\.\\d+ due ${started + 86_400_000} at ${new Date(started).toISOString()}$`),
    );
    const output = await runtime.approve({ executionId: first.executionId });
    expect(output.status).toBe("completed");
    expect(ledger.created).toEqual([title]);
  });

  it("records a step once and replays its value, which cures the divergence", async () => {
    const { connector, ledger } = tracker();
    const runtime = runtimeOf([connector]);
    const code = `async () => {
      const suffix = await codemode.step("suffix", () => String(Math.random()));
      await issues.create({ title: "R" + suffix });
      return suffix;
    }`;
    const { executionId } = paused(await runtime.execute({ code }));
    const output = await runtime.approve({ executionId });
    expect(output.status).toBe("completed");
    const run = await runtime.execution(executionId);
    expect(run?.calls.map((call) => [call.kind, call.method, call.state])).toEqual([
      ["step", "suffix", "applied"],
      ["call", "create", "applied"],
    ]);
    expect((output as { result: string }).result).toBe(run?.calls[0]?.result);
    expect(ledger.created).toEqual([`R${run?.calls[0]?.result}`]);
  });

  it("replays a call whose arguments name the same keys in another order", async () => {
    const { connector, ledger } = tracker();
    let passes = 0;
    const pass = functionConnector({
      name: "pass",
      methods: { count: { replay: "reexecute", execute: async () => ++passes } },
    });
    const runtime = runtimeOf([connector, pass]);
    const code = `async () => {
      const first = (await pass.count({})) === 1;
      const listed = await issues.list(first ? { repo: "a", page: 1 } : { page: 1, repo: "a" });
      await issues.create({ title: "T" });
      return listed.repo;
    }`;
    const { executionId } = paused(await runtime.execute({ code }));
    expect(await runtime.approve({ executionId })).toMatchObject({
      status: "completed",
      result: "a",
    });
    expect(passes).toBe(2);
    expect(ledger.reads).toBe(1);
  });
});

describe("what the sandbox sees is what was recorded", () => {
  it("sends a result as recorded, even when reading it again would give another value", async () => {
    // a result whose getter counts its reads: the code gets the value the journal holds
    let reads = 0;
    const meter = functionConnector({
      name: "meter",
      methods: {
        read: {
          execute: async () => ({
            get value() {
              reads++;
              return reads;
            },
          }),
        },
        reset: { requiresApproval: true, execute: async () => true },
      },
    });
    const runtime = runtimeOf([meter]);
    const code =
      "async () => { const { value } = await meter.read({}); await meter.reset({ seen: value }); return value; }";
    const { executionId } = paused(await runtime.execute({ code }));
    const [execution] = await runtime.executions();
    const first = execution?.calls[0]?.result as { value: number } | undefined;
    const recorded = first?.value;
    expect(recorded).toBeGreaterThan(0);
    expect(execution?.calls[1]?.args, "what the code saw in the first pass").toEqual({
      seen: recorded,
    });
    const readsBefore = reads;
    expect(await runtime.approve({ executionId })).toMatchObject({
      status: "completed",
      result: recorded,
    });
    expect(reads, "the approval pass replays the read").toBe(readsBefore);
  });

  it("records a call's input as the sandbox sent it", async () => {
    const { connector } = tracker();
    const runtime = runtimeOf([connector]);
    await runtime.execute({ code: 'async () => issues.list({ repo: "web", when: new Date(5) })' });
    const [execution] = await runtime.executions();
    expect(execution?.calls[0]?.args).toEqual({ repo: "web", when: new Date(5) });
  });
});

describe("rollback", () => {
  it("reverts applied calls newest first, continues past a failure and reports it", async () => {
    const { connector, ledger, events } = tracker({ lockedLabel: 1 });
    const runtime = runtimeOf([connector]);
    const { executionId } = paused(
      await runtime.execute({
        code: 'await issues.label({ number: 7 }); const a = await issues.create({ title: "A" }); await issues.label({ number: 1 }); return a;',
      }),
    );
    expect((await runtime.approve({ executionId })).status).toBe("completed");
    await expect(runtime.rollback({ executionId })).rejects.toThrow(
      /#2 issues\.label: labels are locked/,
    );
    expect(ledger.reverted).toEqual([1, -7]);
    const run = await runtime.execution(executionId);
    expect(run?.status).toBe("rolled_back");
    expect(run?.calls.map((call) => call.state)).toEqual(["reverted", "reverted", "applied"]);
    expect(events.at(-1)).toBe("dispose:rolled_back");
  });
});

describe("retention and expiry", () => {
  it("keeps at most maxExecutions + 1 terminal runs", async () => {
    const runtime = runtimeOf([], { maxExecutions: 50 });
    for (let index = 0; index < 60; index++) await runtime.execute({ code: `${index}` });
    expect((await runtime.executions(100)).length).toBe(51);
    expect(await runtime.pruneExecutions()).toBe(1);
    expect(await runtime.clearHistory()).toBe(50);
  });

  it("expires stale paused runs as rejected and disposes them", async () => {
    let time = 1_000_000;
    const { connector, events } = tracker();
    const runtime = runtimeOf([connector], { now: () => time });
    const { executionId } = paused(
      await runtime.execute({ code: 'await issues.create({ title: "Old" })' }),
    );
    expect(await runtime.expirePaused({ maxAgeMs: 1_000 })).toEqual([]);
    time += 5_000;
    expect(await runtime.expirePaused({ maxAgeMs: 1_000 })).toEqual([executionId]);
    expect((await runtime.execution(executionId))?.status).toBe("rejected");
    expect(events.at(-1)).toBe("dispose:rejected");
  });
});

describe("limits and bad inputs become data", () => {
  it.each<[string, string, RegExp]>([
    ["a syntax error", "const = 1", /SyntaxError/],
    ["a thrown non-Error value", "throw { reason: 42 }", /reason/],
    [
      "an unknown global",
      "await gitlab.list()",
      /'?gitlab'? is not defined.*globals in the sandbox are: issues, codemode/,
    ],
    ["an unserializable result", "return () => 1", /function cannot be recorded/],
    ["cyclic arguments", 'const a = { repo: "x" }; a.self = a; return issues.list(a)', /cycle/],
  ])("%s", async (_name, code, message) => {
    const { connector } = tracker();
    const runtime = runtimeOf([connector]);
    const output = await runtime.execute({ code });
    expect(output).toMatchObject({ status: "error", error: expect.stringMatching(message) });
    const [run] = await runtime.executions(1);
    expect(run?.status).toBe("error");
  });

  it("names the nearest methods for an unknown one, not the whole namespace", async () => {
    const methods: Record<string, { execute: () => Promise<number> }> = {
      list_issues: { execute: async () => 1 },
    };
    for (let index = 0; index < 300; index++)
      methods[`method_number_${index}`] = { execute: async () => index };
    const runtime = runtimeOf([functionConnector({ name: "big", methods })]);
    const output = await runtime.execute({ code: "await big.list_issue({})" });
    expect(output).toMatchObject({
      status: "error",
      error: expect.stringMatching(
        /^TypeError: big\.list_issue is not a method\. Nearest: big\.list_issues\b.*codemode\.search/,
      ),
    });
    expect((output as { error: string }).error.length).toBeLessThan(400);
  });

  it("keeps __proto__ keys in arguments as data", async () => {
    const seen: unknown[] = [];
    const echo = functionConnector({
      name: "echo",
      methods: {
        take: {
          execute: async (input) => {
            seen.push(input);
            return "ok";
          },
        },
      },
    });
    const runtime = runtimeOf([echo]);
    const output = await runtime.execute({
      code: 'return echo.take(JSON.parse(\'{"__proto__":{"polluted":true}}\'))',
    });
    expect(output.status).toBe("completed");
    expect(Object.hasOwn(seen[0] as object, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses oversized code, arguments and results, and keeps an oversized final result", async () => {
    const { connector } = tracker();
    const big = functionConnector({
      name: "big",
      methods: { get: { execute: async () => "x".repeat(1_000_001) } },
    });
    const runtime = runtimeOf([connector, big]);
    expect(await runtime.execute({ code: `"${"x".repeat(1_000_001)}"` })).toMatchObject({
      status: "error",
      executionId: "",
    });
    expect(
      await runtime.execute({ code: 'return issues.list({ repo: "x".repeat(1000001) })' }),
    ).toMatchObject({
      status: "error",
      error: expect.stringMatching(/too large to record.*pass or return a small reference/),
    });
    expect(await runtime.execute({ code: "return big.get({})" })).toMatchObject({
      status: "error",
      error: /too large/,
    });
    const final = await runtime.execute({ code: 'return "y".repeat(1000001)' });
    expect(final.status).toBe("completed");
    expect((final as { result: string }).result.length).toBe(1_000_001);
    const [run] = await runtime.executions(1);
    expect(run?.result).toMatch(/^\[not recorded: The result is too large/);
  });

  it("shapes the model's result with transformResult after recording the original", async () => {
    const runtime = runtimeOf([], {
      transformResult: (result) => ({ summary: String(result).slice(0, 3) }),
    });
    const output = await runtime.execute({ code: '"abcdef"' });
    expect(output).toMatchObject({ status: "completed", result: { summary: "abc" } });
    expect((await runtime.executions(1))[0]?.result).toBe("abcdef");
  });
});

describe("search options", () => {
  it("ranks codemode.search with the host's embedding function and limit", async () => {
    const { connector } = tracker();
    const embedded: string[] = [];
    // stands in for a real model: only it knows that "paperwork" is about labels
    const embed = async (texts: string[]) => {
      embedded.push(...texts);
      return texts.map((text) => [/paperwork|label/i.test(text) ? 1 : 0, 0.1]);
    };
    const plain = runtimeOf([connector], { search: { limit: 1 } });
    const semantic = runtimeOf([connector], { search: { embed, semanticWeight: 2, limit: 1 } });
    const code = 'return (await codemode.search("issue paperwork")).results.map((r) => r.path);';
    const lexical = await plain.execute({ code });
    expect(lexical).toMatchObject({ status: "completed", result: [expect.any(String)] });
    expect(lexical).not.toMatchObject({ result: ["issues.label"] });
    expect(await semantic.execute({ code })).toMatchObject({ result: ["issues.label"] });
    expect(embedded).toContain("issues label: Label an issue.");
    expect(embedded.at(-1)).toBe("issue paperwork");
  });

  it("refuses a semanticWeight out of range as a configuration error", () => {
    expect(() => runtimeOf([], { search: { semanticWeight: -1 } })).toThrow(
      expect.objectContaining({
        code: "INVALID_CONFIG",
        message: expect.stringContaining("semanticWeight"),
      }),
    );
  });
});

describe("snippets", () => {
  it("saves a run as a snippet the model finds, describes and runs in the same numbering", async () => {
    const { connector } = tracker();
    const runtime = runtimeOf([connector]);
    const source = await runtime.execute({
      code: 'async (input) => (await issues.list({ repo: input?.repo ?? "web" })).open',
    });
    await runtime.saveSnippet("count-open", {
      executionId: source.executionId,
      description: "Count open issues of a repository.",
    });
    expect((await runtime.search("count open issues")).results[0]).toMatchObject({
      path: "count-open",
      kind: "snippet",
    });
    expect((await runtime.describe("count-open")).types).toContain("issues.list");
    const output = await runtime.execute({
      code: 'const n = await codemode.run("count-open", { repo: "api" }); const m = await issues.list({ repo: "x" }); return [n, m.open];',
    });
    expect(output).toMatchObject({ status: "completed", result: [0, 0] });
    const run = await runtime.execution(output.executionId);
    expect(run?.calls.map((call) => [call.seq, call.method])).toEqual([
      [0, "list"],
      [1, "list"],
    ]);
    expect(await runtime.execute({ code: 'return codemode.run("nope")' })).toMatchObject({
      status: "error",
      error: expect.stringContaining('No snippet is named "nope"'),
    });
    expect(
      await runtime.execute({
        code: 'try { await codemode.run("nope"); } catch (error) { return error instanceof Error && error.message; }',
      }),
    ).toMatchObject({ status: "completed", result: expect.stringContaining("No snippet") });
  });
});

describe("names and stores", () => {
  it("keeps separate histories per runtime name in one store", async () => {
    const store = memoryStore();
    const research = createCodemodeRuntime({ store, executor, connectors: [], name: "research" });
    const operations = createCodemodeRuntime({
      store,
      executor,
      connectors: [],
      name: "operations",
    });
    await research.execute({ code: "1" });
    expect(await research.executions()).toHaveLength(1);
    expect(await operations.executions()).toHaveLength(0);
  });

  it("refuses bad configuration at once", () => {
    expect(() => createCodemodeRuntime({ executor, connectors: [] })).toThrow(/needs a store/);
    expect(() => createCodemodeRuntime({ store: memoryStore(), connectors: [] } as never)).toThrow(
      /needs an executor/,
    );
    expect(() =>
      createCodemodeRuntime({ store: memoryStore(), executor, connectors: [], name: "a b" }),
    ).toThrow(/Runtime name/);
  });
});

describe("beyond the reference", () => {
  it("pauses at a deferred method and resumes with the result from runtime.resolve", async () => {
    const chat = functionConnector({
      name: "chat",
      methods: {
        ask: { description: "Ask the person.", deferred: true, inputSchema: { type: "object" } },
      },
    });
    const runtime = runtimeOf([chat]);
    const { executionId, pending } = paused(
      await runtime.execute({
        code: 'const answer = await chat.ask({ question: "Which repo?" }); return "repo: " + answer;',
      }),
    );
    expect(pending).toEqual([
      {
        executionId,
        seq: 0,
        connector: "chat",
        method: "ask",
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
        args: { question: "Which repo?" },
        deferred: true,
      },
    ]);
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "error" });
    expect(await runtime.resolve({ executionId, seq: 0, result: "web" })).toMatchObject({
      status: "completed",
      result: "repo: web",
    });
    expect(await runtime.resolve({ executionId, seq: 0, result: "again" })).toMatchObject({
      status: "error",
    });
  });

  it("passes executionId, seq, idempotencyKey and a signal to every call", async () => {
    const seen: unknown[] = [];
    const probe = functionConnector({
      name: "probe",
      methods: {
        see: {
          execute: async (_input, context) => {
            seen.push({ ...context, signal: typeof context.signal.addEventListener });
            return null;
          },
        },
      },
    });
    const runtime = runtimeOf([probe]);
    const { executionId } = await runtime.execute({
      code: "await probe.see({}); await probe.see({});",
    });
    expect(seen).toEqual([
      { executionId, seq: 0, idempotencyKey: `${executionId}:0`, signal: "function" },
      { executionId, seq: 1, idempotencyKey: `${executionId}:1`, signal: "function" },
    ]);
  });

  it("fails a slow call after its timeoutMs with a catchable error, and stops at the call budget", async () => {
    const slow = functionConnector({
      name: "slow",
      methods: {
        wait: {
          timeoutMs: 50,
          execute: () => new Promise((resolve) => setTimeout(() => resolve("late"), 2_000)),
        },
        fast: { execute: async () => 1 },
      },
    });
    const runtime = runtimeOf([slow], { limits: { maxCalls: 3 } });
    const output = await runtime.execute({
      code: "try { await slow.wait({}); } catch (error) { return error.message; }",
    });
    expect(output).toMatchObject({
      status: "completed",
      result: "slow.wait took longer than 50 ms and was abandoned.",
    });
    const budget = await runtime.execute({
      code: "for (let i = 0; i < 5; i++) await slow.fast({});",
    });
    expect(budget).toMatchObject({
      status: "error",
      error: expect.stringContaining("more than 3 connector calls"),
    });
  });

  it("re-runs a reexecute read on every pass and records no result", async () => {
    let reads = 0;
    const files = functionConnector({
      name: "files",
      methods: {
        read: { replay: "reexecute", execute: async () => ++reads },
        remove: { requiresApproval: true, execute: async () => true },
      },
    });
    const runtime = runtimeOf([files]);
    const { executionId } = paused(
      await runtime.execute({
        code: "const n = await files.read({}); await files.remove({}); return n;",
      }),
    );
    expect(await runtime.approve({ executionId })).toMatchObject({
      status: "completed",
      result: 2,
    });
    const run = await runtime.execution(executionId);
    expect(run?.calls[0]).toMatchObject({ method: "read", state: "applied" });
    expect(run?.calls[0]?.result).toBeUndefined();
  });

  it("refuses a connector method that needs approval and replays by re-executing", async () => {
    const raw: Connector = {
      specificationVersion: "v1",
      name: "raw",
      methods: () => ({ write: { requiresApproval: true, replay: "reexecute" } }),
      invoke: async () => null,
    };
    expect(() => runtimeOf([raw])).toThrow(/replaying would apply the approved call again/);
    // a connector that lists its methods asynchronously is checked on first use
    const later: Connector = {
      ...raw,
      methods: async () => ({ write: { requiresApproval: true, replay: "reexecute" } }),
    };
    await expect(runtimeOf([later]).execute({ code: "1" })).rejects.toThrow(
      /replaying would apply the approved call again/,
    );
  });

  it("refuses connector names that collide or shadow a sandbox global when it is created", () => {
    const one = functionConnector({ name: "my-api", methods: { a: { execute: async () => 1 } } });
    const two = functionConnector({ name: "my_api", methods: { a: { execute: async () => 1 } } });
    const shadow = functionConnector({
      name: "console",
      methods: { a: { execute: async () => 1 } },
    });
    expect(() => runtimeOf([one, two])).toThrow(/"my-api" and "my_api"/);
    expect(() => runtimeOf([shadow])).toThrow(/shadow the sandbox global "console"/);
  });

  it("calls onPassEnd after an error and ignores hooks that throw", async () => {
    const events: string[] = [];
    const noisy = functionConnector({
      name: "noisy",
      methods: { boom: { execute: async () => 1 } },
      onPassEnd: (_id, status) => {
        events.push(status);
        throw new Error("cleanup failed");
      },
      disposeExecution: () => {
        throw new Error("dispose failed");
      },
    });
    const runtime = runtimeOf([noisy]);
    expect(await runtime.execute({ code: "throw new Error('x')" })).toMatchObject({
      status: "error",
      error: "Error: x.",
    });
    expect(await runtime.execute({ code: "await noisy.boom({})" })).toMatchObject({
      status: "completed",
    });
    expect(events).toEqual(["error", "completed"]);
  });
});

describe("connectors that come and go", () => {
  it("refuses to resume a run whose connectors are not all configured now", async () => {
    const store = sqliteStore(new Database(":memory:"));
    const { connector } = tracker();
    const extra = functionConnector({
      name: "extra",
      methods: { ping: { execute: async () => "pong" } },
    });
    const before = createCodemodeRuntime({ store, executor, connectors: [connector, extra] });
    const { executionId } = paused(
      await before.execute({ code: 'await issues.create({ title: "A" })' }),
    );
    const after = createCodemodeRuntime({ store, executor, connectors: [connector] });
    expect(await after.approve({ executionId })).toMatchObject({
      status: "error",
      error: expect.stringContaining("needs connectors that are not configured now: extra"),
    });
  });

  it("resolves codemode.run of a snippet whose connector is gone to { error }, without throwing (seed 000)", async () => {
    const store = sqliteStore(new Database(":memory:"));
    const extra = functionConnector({
      name: "extra",
      methods: { ping: { execute: async () => "pong" } },
    });
    const before = createCodemodeRuntime({ store, executor, connectors: [extra] });
    const saved = await before.execute({ code: "await extra.ping({})" });
    await before.saveSnippet("ping", { executionId: saved.executionId, description: "Ping." });
    const after = createCodemodeRuntime({ store, executor, connectors: [] });
    expect(await after.execute({ code: 'return codemode.run("ping")' })).toMatchObject({
      status: "completed",
      result: { error: 'Snippet "ping" needs connectors that are not configured: extra.' },
    });
  });

  it("skips calls without a revert and missing connectors, and leaves a run untouched when nothing was reverted", async () => {
    const store = sqliteStore(new Database(":memory:"));
    const plain = functionConnector({
      name: "plain",
      methods: { note: { execute: async () => "noted" } },
    });
    const { connector, ledger } = tracker();
    const runtime = createCodemodeRuntime({ store, executor, connectors: [plain, connector] });
    const onlyPlain = await runtime.execute({ code: "await plain.note({})" });
    expect(await runtime.rollback({ executionId: onlyPlain.executionId })).toEqual({
      reverted: [],
      skipped: [0],
      calls: [
        {
          seq: 0,
          connector: "plain",
          method: "note",
          outcome: "skipped",
          reason: "the method is not revertible",
        },
      ],
    });
    expect((await runtime.execution(onlyPlain.executionId))?.status).toBe("completed");
    const mixed = await runtime.execute({
      code: "await plain.note({}); await issues.label({ number: 4 });",
    });
    const without = createCodemodeRuntime({ store, executor, connectors: [connector] });
    expect(await without.rollback({ executionId: mixed.executionId })).toMatchObject({
      reverted: [1],
      skipped: [0],
      calls: [
        { seq: 1, outcome: "reverted" },
        { seq: 0, outcome: "skipped", reason: "its connector or method is not configured now" },
      ],
    });
    expect(ledger.reverted).toEqual([-4]);
    expect((await runtime.execution(mixed.executionId))?.status).toBe("rolled_back");
  });

  it("disposes a paused run that is deleted, and expires a stale running run as an error", async () => {
    let time = 5_000_000;
    const store = sqliteStore(new Database(":memory:"));
    const { connector, events } = tracker();
    const runtime = createCodemodeRuntime({
      store,
      executor,
      connectors: [connector],
      now: () => time,
    });
    const { executionId } = paused(
      await runtime.execute({ code: 'await issues.create({ title: "Z" })' }),
    );
    expect(await runtime.deleteExecution(executionId)).toBe(true);
    expect(events).toEqual(["pass:paused", "dispose:rejected"]);
    expect(await runtime.execution(executionId)).toBeUndefined();
    const journal = store.journal("default");
    await journal.createExecution({
      id: "exec_stuck",
      code: "1",
      status: "running",
      connectors: [],
      createdAt: time,
      updatedAt: time,
    });
    time += 2 * 24 * 60 * 60 * 1000;
    expect(await runtime.expirePaused()).toEqual(["exec_stuck"]);
    expect(await runtime.execution("exec_stuck")).toMatchObject({
      status: "error",
      error: expect.stringContaining("Expired while running"),
    });
    expect(events.at(-1)).toBe("dispose:error");
  });
});

describe("connectors that list their methods asynchronously", () => {
  const lazy = (methods: Record<string, ConnectorMethod>): Connector => ({
    specificationVersion: "v1",
    name: "remote",
    methods: async () => methods,
    invoke: async (_method, input) => input,
  });

  it("give the tool its full description once ready() resolves", async () => {
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor,
      connectors: [lazy({ lookup: { description: "Look a word up in the remote dictionary." } })],
    });
    const tool = runtime.tool();
    expect(tool.description).not.toContain("remote");
    await runtime.ready();
    expect(tool.description).toContain("remote");
  });

  it("reject ready() when their configuration is bad", async () => {
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor,
      connectors: [lazy({ wipe: { requiresApproval: true, replay: "reexecute" } })],
    });
    await expect(runtime.ready()).rejects.toThrow(/reexecute/);
  });

  it("set one that cannot list aside: runs that do not use it go on, and the tool never rejects", async () => {
    let down = true;
    const dictionary: Connector = {
      specificationVersion: "v1",
      name: "dictionary",
      methods: async () => {
        if (down) throw new Error("connect ECONNREFUSED 127.0.0.1:9");
        return { lookup: { description: "Look a word up." } };
      },
      invoke: async (_method, input) => ({ found: input }),
    };
    let time = 0;
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor,
      connectors: [dictionary, lazy({ echo: { description: "Echo." } })],
      now: () => time,
    });
    await runtime.ready();
    const tool = runtime.tool();
    expect(tool.description).toContain("- dictionary: connect ECONNREFUSED 127.0.0.1:9");
    // a run that uses only the connector that listed completes
    expect(await runtime.execute({ code: "async () => remote.echo({ n: 1 })" })).toMatchObject({
      status: "completed",
      result: { n: 1 },
    });
    // one that calls the connector that could not list fails, as data the model reads
    const failed = await runtime.execute({ code: 'async () => dictionary.lookup({ word: "x" })' });
    expect(failed).toMatchObject({
      status: "error",
      error: expect.stringMatching(/dictionary\.lookup cannot be called now: .*ECONNREFUSED/),
    });
    // a program that catches the failure reads where to look
    const caught = await runtime.execute({
      code: 'async () => { try { await dictionary.lookup({ word: "x" }) } catch (error) { return error.message } }',
    });
    expect(caught).toMatchObject({
      status: "completed",
      result: expect.stringMatching(
        /^dictionary\.lookup cannot be called: the namespace "dictionary" has no methods now .*codemode\.describe\("dictionary"\) says why/,
      ),
    });
    // and so does looking it up, in the sandbox and through the runtime
    const looked = await runtime.execute({ code: 'async () => codemode.describe("dictionary")' });
    expect(looked).toMatchObject({
      status: "completed",
      result: { description: expect.stringMatching(/could not be loaded now .*ECONNREFUSED/) },
    });
    expect((await runtime.describe("dictionary.lookup")).types).toMatch(/ECONNREFUSED/);
    const outputs: unknown[] = [];
    const options = { toolCallId: "u1", messages: [] };
    for await (const output of tool.execute({ code: "async () => 1" }, options)) {
      outputs.push(output);
    }
    expect(outputs.at(-1)).toMatchObject({ status: "completed", result: 1 });
    // the server comes back: it is listed again, and its calls work
    down = false;
    time += 60_000;
    await runtime.execute({ code: "async () => 0" });
    await vi.waitFor(
      async () =>
        expect(
          await runtime.execute({ code: 'async () => dictionary.lookup({ word: "x" })' }),
        ).toMatchObject({ status: "completed", result: { found: { word: "x" } } }),
      // vi.waitFor gives up after 1 s by default: an outer bound for a loaded machine instead
      { timeout: 20_000 },
    );
  });
});
