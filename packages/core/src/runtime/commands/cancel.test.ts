import { createRequire } from "node:module";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import type { AbortSignalLike } from "../../abort-signal.ts";
import type { JournalStore } from "../../journal-store.ts";
import { memoryStore } from "../../memory-store.ts";
import type { SyncSqlite } from "../../sql-driver.ts";
import { sqliteStore } from "../../sql-store/sqlite-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { callEntry, runningRun, testContext } from "../../test/run-context.ts";
import { withJournal } from "../../test/with-journal.ts";
import type { RuntimeEvent } from "../context/runtime-event.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { cancel } from "./cancel.ts";

/** A promise and its resolver. */
function latch<T = void>() {
  let open: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A call that runs until its signal aborts, then fails as an aborted fetch would. */
const untilAborted = (_input: unknown, { signal }: { signal?: AbortSignalLike | undefined }) =>
  new Promise((_, reject) => {
    const abort = () => reject(Object.assign(new Error("aborted"), { name: "AbortError" }));
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort, { once: true });
  });

/** The same journal as `store`, reached from "another process": its own registry of live passes. */
const otherProcess = (store: JournalStore): JournalStore => ({
  specificationVersion: "v1",
  journal: (name) => store.journal(name),
});

const { DatabaseSync } = createRequire(import.meta.url)("node:sqlite") as {
  DatabaseSync: new (path: string) => SyncSqlite;
};

/** The stores a run is cancelled over below: the journal's state, not the runtime's, decides. */
const STORES: Array<[name: string, create: () => JournalStore]> = [
  ["memoryStore", () => memoryStore()],
  ["sqliteStore (better-sqlite3)", () => sqliteStore(new Database(":memory:"))],
  ["sqliteStore (node:sqlite)", () => sqliteStore(new DatabaseSync(":memory:"))],
];

describe.each(STORES)("runtime.cancel over %s", (_name, createStore) => {
  const gatedAndSlow = () => {
    const started = latch();
    const answer = latch<unknown>();
    const ops = mockConnector({
      name: "ops",
      methods: {
        write: { requiresApproval: true, revert: () => undefined },
        slow: {
          execute: () => {
            started.open();
            return answer.promise;
          },
          revert: () => undefined,
        },
        after: {},
      },
    });
    return { ops, started, answer };
  };

  it("ends a paused run: its waiting call never runs, an approval after decides nothing", async () => {
    const { ops } = gatedAndSlow();
    const executor = new MockExecutor(async ({ ops }) => ops.write?.({ n: 1 }));
    const runtime = createCodemodeRuntime({ store: createStore(), executor, connectors: [ops] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    expect(await runtime.cancel({ executionId, by: "alice" })).toMatchObject({
      cancelled: true,
      was: "paused",
    });
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "error" });
    const run = await runtime.execution(executionId);
    expect(run?.status).toBe("cancelled");
    expect(run?.calls.map((call) => call.state)).toEqual(["withdrawn"]);
    expect(ops.calls).toEqual([]);
    // an ended run, kept as such: pruned with the others
    expect(await runtime.pruneExecutions(0)).toBe(1);
  });

  it("stops a pass of this process and of another: the call in flight is recorded, none starts after", async () => {
    for (const from of ["here", "elsewhere"] as const) {
      const { ops, started, answer } = gatedAndSlow();
      const executor = new MockExecutor(async ({ ops }) => {
        await ops.slow?.({});
        return ops.after?.({});
      });
      const store = createStore();
      const runtime = createCodemodeRuntime({ store, executor, connectors: [ops] });
      const running = runtime.execute({ code: "async () => 0" });
      await started.promise;
      const [run] = await runtime.executions();
      const executionId = run?.id as string;
      const canceller =
        from === "here"
          ? runtime
          : createCodemodeRuntime({ store: otherProcess(store), executor, connectors: [ops] });
      const cancelling = canceller.cancel({ executionId });
      // here, cancel returns once the pass has settled; elsewhere, at once (the call answers after)
      if (from === "here") answer.open("late");
      expect(await cancelling).toMatchObject({
        cancelled: true,
        pass: from === "here" ? "settled" : "elsewhere",
      });
      answer.open("late");
      expect(await running).toMatchObject({ status: "error", code: "ABORTED" });
      expect(ops.calls.map((call) => call.method)).toEqual(["slow"]);
      expect(await runtime.execution(executionId)).toMatchObject({
        status: "cancelled",
        calls: [{ method: "slow", state: "applied", result: "late" }],
      });
      expect(await runtime.rollback({ executionId })).toMatchObject({ reverted: [0] });
    }
  });
});

describe("runtime.cancel", () => {
  it("ends a paused run at once: its waiting calls never run, and a later decision is refused as for any ended run", async () => {
    const disposed: string[] = [];
    const events: RuntimeEvent[] = [];
    const ops = mockConnector({
      name: "ops",
      methods: { read: {}, write: { requiresApproval: true } },
    });
    ops.disposeExecution = (_id, status) => {
      disposed.push(status);
    };
    const executor = new MockExecutor(async ({ ops }) => {
      await ops.read?.({ n: 1 });
      return ops.write?.({ n: 2 });
    });
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor,
      connectors: [ops],
      now: () => 1_700_000_000_000,
      onEvent: (event) => events.push(event),
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(paused.status).toBe("paused");
    const { executionId } = paused;
    const cancelled = await runtime.cancel({
      executionId,
      by: "  alice  ",
      reason: ` ${"too slow ".repeat(200)}`,
    });
    expect(cancelled).toMatchObject({ cancelled: true, status: "cancelled", was: "paused" });
    expect(cancelled).toMatchObject({ pass: "none" });
    const run = await runtime.execution(executionId);
    expect(run?.status).toBe("cancelled");
    expect(run?.error).toMatch(/^Cancelled by alice at 2023-11-14T22:13:20\.000Z: too slow/);
    expect(run?.calls.map((call) => call.state)).toEqual(["applied", "withdrawn"]);
    const decision = events.find((event) => event.type === "decision");
    expect(decision).toMatchObject({
      decision: "cancelled",
      seqs: [1],
      by: "alice",
      source: "api",
      at: 1_700_000_000_000,
    });
    expect((decision as { reason: string }).reason).toHaveLength(1000);
    expect(disposed).toEqual(["cancelled"]);
    expect(await runtime.pending(executionId)).toEqual([]);
    // the same answer any ended run gets
    expect(await runtime.approve({ executionId })).toMatchObject({
      status: "error",
      error: `Execution "${executionId}" is cancelled; only a paused run can resume.`,
    });
    expect(await runtime.reject({ executionId, seq: 1 })).toBe(false);
    expect(ops.calls.map((call) => call.method)).toEqual(["read"]);
    // a second cancel changes nothing and says so
    expect(await runtime.cancel({ executionId })).toMatchObject({
      cancelled: false,
      status: "cancelled",
      error: expect.stringMatching(/has ended \(cancelled\): there is nothing to cancel/),
    });
  });

  it("says there is nothing to cancel for a run that ended or does not exist", async () => {
    const executor = new MockExecutor(() => 1);
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [] });
    const { executionId } = await runtime.execute({ code: "async () => 1" });
    expect(await runtime.cancel({ executionId })).toEqual({
      cancelled: false,
      executionId,
      status: "completed",
      error: `Execution "${executionId}" has ended (completed): there is nothing to cancel.`,
    });
    expect(await runtime.cancel({ executionId: "exec_none" })).toMatchObject({
      cancelled: false,
      status: undefined,
      error: 'No execution has the id "exec_none".',
    });
    expect((await runtime.execution(executionId))?.status).toBe("completed");
  });

  it("aborts a running pass: the call in flight gets its signal and is recorded as it ended, no call starts after, and cancel returns once the pass has settled", async () => {
    const started = latch();
    const disposed: string[] = [];
    const passEnds: string[] = [];
    const events: RuntimeEvent[] = [];
    const ops = mockConnector({
      name: "ops",
      methods: {
        write: { execute: (input) => input, revert: () => undefined },
        wait: {
          execute: (input, context) => {
            started.open();
            return untilAborted(input, context);
          },
        },
        after: {},
      },
    });
    ops.onPassEnd = (_id, status) => {
      passEnds.push(status);
    };
    ops.disposeExecution = (_id, status) => {
      disposed.push(status);
    };
    let signal: { aborted: boolean } | undefined;
    const executor = new MockExecutor(async ({ ops }, request) => {
      signal = request.signal;
      await ops.write?.({ n: 1 });
      try {
        await ops.wait?.({});
      } catch {
        // the program goes on after the cancellation: its next call is refused
      }
      return ops.after?.({});
    });
    const store = memoryStore();
    const runtime = createCodemodeRuntime({
      store,
      executor,
      connectors: [ops],
      onEvent: (event) => events.push(event),
    });
    const running = runtime.execute({ code: "async () => 0" });
    await started.promise;
    // another runtime over the same storage in this process (a Durable Object's next request)
    const host = createCodemodeRuntime({ store, executor, connectors: [ops] });
    const [executionId] = (await host.executions()).map((run) => run.id);
    const cancelled = await host.cancel({ executionId: executionId as string, reason: "stop" });
    expect(cancelled).toMatchObject({ cancelled: true, was: "running", pass: "settled" });
    expect(signal?.aborted).toBe(true);
    const output = await running;
    expect(output).toMatchObject({
      status: "error",
      code: "ABORTED",
      error: expect.stringMatching(
        /^Cancelled by the host at .*: stop\. No call of the run starts/,
      ),
    });
    expect(ops.calls.map((call) => call.method)).toEqual(["write", "wait"]);
    const run = await host.execution(executionId as string);
    expect(run?.status).toBe("cancelled");
    expect(run?.calls).toMatchObject([
      { seq: 0, state: "applied", result: { n: 1 } },
      { seq: 1, state: "applied", error: expect.stringContaining("aborted") },
    ]);
    expect(passEnds).toEqual(["error"]);
    expect(disposed).toEqual(["cancelled"]);
    expect(events.filter((event) => event.type === "pass-end")).toMatchObject([
      { status: "cancelled" },
    ]);
    expect(events.filter((event) => event.type === "decision")).toMatchObject([
      { decision: "cancelled", source: "api", reason: "stop", seqs: [] },
    ]);
    // a cancelled run rolls back like a failed one: what was applied is reverted
    expect(await host.rollback({ executionId: executionId as string })).toMatchObject({
      reverted: [0],
    });
    expect((await host.execution(executionId as string))?.status).toBe("rolled_back");
  });

  it("never starts a call whose entry was being written when the cancellation came", async () => {
    const inner = memoryStore();
    const writing = latch();
    const release = latch();
    let hold = false;
    const store = withJournal(inner, (journal) => ({
      putEntry: async (...args: Parameters<typeof journal.putEntry>) => {
        const written = await journal.putEntry(...args);
        if (hold && args[0].method === "send") {
          writing.open();
          await release.promise;
        }
        return written;
      },
    }));
    const ops = mockConnector({ name: "ops", methods: { send: {} } });
    const executor = new MockExecutor(async ({ ops }) => ops.send?.({ to: "everyone" }));
    const runtime = createCodemodeRuntime({ store, executor, connectors: [ops] });
    hold = true;
    const running = runtime.execute({ code: "async () => 0" });
    await writing.promise;
    const [run] = await runtime.executions();
    const cancelling = runtime.cancel({ executionId: run?.id as string });
    release.open();
    expect(await cancelling).toMatchObject({ cancelled: true, pass: "settled" });
    expect(await running).toMatchObject({ status: "error", code: "ABORTED" });
    expect(ops.calls).toEqual([]);
    expect((await runtime.execution(run?.id as string))?.calls).toMatchObject([
      { seq: 0, method: "send", state: "withdrawn" },
    ]);
  });

  it("records a call that ignored its signal and answered as applied, and rolls it back", async () => {
    const started = latch();
    const answer = latch<unknown>();
    const ops = mockConnector({
      name: "ops",
      methods: {
        charge: {
          execute: () => {
            started.open();
            return answer.promise;
          },
          revert: () => undefined,
        },
      },
    });
    const executor = new MockExecutor(async ({ ops }) => ops.charge?.({ cents: 100 }));
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [ops] });
    const running = runtime.execute({ code: "async () => 0" });
    await started.promise;
    const [run] = await runtime.executions();
    const executionId = run?.id as string;
    const cancelling = runtime.cancel({ executionId });
    // the connector finishes what it started, whatever the signal says
    setTimeout(() => answer.open({ charged: 100 }), 20);
    expect(await cancelling).toMatchObject({ cancelled: true });
    expect(await running).toMatchObject({ status: "error", code: "ABORTED" });
    expect((await runtime.execution(executionId))?.calls).toMatchObject([
      { state: "applied", result: { charged: 100 } },
    ]);
    expect(await runtime.rollback({ executionId })).toMatchObject({ reverted: [0] });
  });

  it("records a call that never settles as in doubt once the pass gives up on it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
    try {
      const started = latch();
      const ops = mockConnector({
        name: "ops",
        methods: {
          hang: {
            execute: () => {
              started.open();
              return new Promise(() => {});
            },
          },
        },
      });
      // a sandbox ends its pass when the signal aborts, whatever the program awaits
      const executor = new MockExecutor(async ({ ops }, request) =>
        Promise.race([ops.hang?.({}), untilAborted(undefined, request)]),
      );
      const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [ops] });
      const running = runtime.execute({ code: "async () => 0" });
      await started.promise;
      const [run] = await runtime.executions();
      const executionId = run?.id as string;
      const cancelling = runtime.cancel({ executionId, by: "ops" });
      await vi.advanceTimersByTimeAsync(11_000);
      expect(await cancelling).toMatchObject({ cancelled: true, pass: "settled" });
      const output = await running;
      expect(output).toMatchObject({ status: "error", code: "ABORTED" });
      const ended = await runtime.execution(executionId);
      expect(ended?.status).toBe("cancelled");
      expect(ended?.error).toMatch(/^Cancelled by ops .* #0 ops\.hang did not settle/);
      expect(ended?.calls).toMatchObject([{ state: "error" }]);
      expect(await runtime.rollback({ executionId })).toMatchObject({ unrecorded: [0] });
    } finally {
      vi.useRealTimers();
    }
  });

  it("stops a pass of another process at its next journal write, and says where the pass was", async () => {
    const started = latch();
    const answer = latch<unknown>();
    const ops = mockConnector({
      name: "ops",
      methods: {
        first: {
          execute: () => {
            started.open();
            return answer.promise;
          },
        },
        second: {},
      },
    });
    const executor = new MockExecutor(async ({ ops }) => {
      await ops.first?.({});
      return ops.second?.({});
    });
    const store = memoryStore();
    const owner = createCodemodeRuntime({ store, executor, connectors: [ops] });
    const running = owner.execute({ code: "async () => 0" });
    await started.promise;
    const disposedHere: string[] = [];
    const elsewhere = mockConnector({ name: "ops", methods: { first: {}, second: {} } });
    elsewhere.disposeExecution = (_id, status) => {
      disposedHere.push(status);
    };
    const other = createCodemodeRuntime({
      store: otherProcess(store),
      executor,
      connectors: [elsewhere],
    });
    const [run] = await other.executions();
    const executionId = run?.id as string;
    expect(await other.cancel({ executionId, by: "bob" })).toMatchObject({
      cancelled: true,
      was: "running",
      pass: "elsewhere",
    });
    expect((await other.execution(executionId))?.status).toBe("cancelled");
    expect(disposedHere).toEqual(["cancelled"]);
    // the call in flight ends and is recorded; the next one is refused at its entry write
    answer.open("done");
    expect(await running).toMatchObject({
      status: "error",
      code: "ABORTED",
      error: expect.stringMatching(/^Cancelled by bob/),
    });
    expect(ops.calls.map((call) => call.method)).toEqual(["first"]);
    expect((await owner.execution(executionId))?.calls).toMatchObject([
      { seq: 0, state: "applied", result: "done" },
    ]);
  });

  it("stops a pass of another process that makes no call at its next lease renewal, aborting its signal", async () => {
    const started = latch();
    const ops = mockConnector({
      name: "ops",
      methods: {
        wait: {
          execute: (input, context) => {
            started.open();
            return untilAborted(input, context);
          },
        },
      },
    });
    const executor = new MockExecutor(async ({ ops }) => ops.wait?.({}));
    const store = memoryStore();
    const owner = createCodemodeRuntime({ store, executor, connectors: [ops], leaseMs: 150 });
    const running = owner.execute({ code: "async () => 0" });
    await started.promise;
    const other = createCodemodeRuntime({
      store: otherProcess(store),
      executor,
      connectors: [ops],
      leaseMs: 150,
    });
    const [run] = await other.executions();
    const executionId = run?.id as string;
    expect(await other.cancel({ executionId })).toMatchObject({ pass: "elsewhere" });
    // it ends at its next renewal, a third of the 150 ms lease away: a pass the cancellation did not
    // reach would never end (its call waits forever), so the test's timeout is the bound, not a clock
    const output = await running;
    expect(output).toMatchObject({ status: "error", code: "ABORTED" });
    expect((await owner.execution(executionId))?.calls).toMatchObject([
      { state: "applied", error: expect.stringContaining("aborted") },
    ]);
  });

  it("ends a running run whose pass is gone (its lease lapsed) at once", async () => {
    let time = 1_000_000;
    const store = memoryStore();
    const journal = store.journal("default");
    await journal.createExecution({
      id: "exec_dead",
      code: "async () => 0",
      status: "running",
      connectors: [],
      createdAt: time,
      updatedAt: time,
      lease: { owner: "pass_dead", expiresAt: time + 30_000 },
    });
    time += 60_000;
    const runtime = createCodemodeRuntime({
      store,
      executor: new MockExecutor(() => 0),
      connectors: [],
      now: () => time,
    });
    expect(await runtime.cancel({ executionId: "exec_dead" })).toMatchObject({
      cancelled: true,
      was: "running",
      pass: "none",
    });
    expect((await runtime.execution("exec_dead"))?.status).toBe("cancelled");
  });

  it("decides a race with an approval once: a call that starts after cancel was called never does, and none after it returned", async () => {
    const outcomes = new Set<string>();
    const ways = ["true:0", "true:1", "false:2"];
    // a round per microtask of delay, until the race has gone each way (or a bound far past it)
    for (let round = 0; round < 1_000 && !ways.every((way) => outcomes.has(way)); round++) {
      let cancelCalled = false;
      const late: number[] = [];
      const ops = mockConnector({
        name: "ops",
        methods: {
          write: {
            requiresApproval: true,
            execute: (input) => {
              if (cancelCalled) late.push(round);
              return input;
            },
          },
          read: {},
        },
      });
      const executor = new MockExecutor(async ({ ops }) => {
        await ops.write?.({ round });
        return ops.read?.({ round });
      });
      const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [ops] });
      const { executionId } = await runtime.execute({ code: "async () => 0" });
      const approving = runtime.approve({ executionId });
      // the cancellation comes a little later each round: before the approval took the run, while
      // its pass runs, or after it completed
      for (let tick = 0; tick < round; tick++) await Promise.resolve();
      cancelCalled = true;
      const cancelled = await runtime.cancel({ executionId });
      const approved = await approving;
      const status = (await runtime.execution(executionId))?.status;
      outcomes.add(`${cancelled.cancelled}:${ops.calls.length}`);
      expect(late).toEqual([]);
      if (cancelled.cancelled) {
        expect(status).toBe("cancelled");
        expect(approved).toMatchObject({ status: "error", code: "ABORTED" });
      } else {
        expect(status).toBe("completed");
        expect(approved.status).toBe("completed");
        expect(ops.calls).toHaveLength(2);
      }
      // after cancel returned, nothing starts
      const count = ops.calls.length;
      await runtime.approve({ executionId });
      expect(ops.calls).toHaveLength(count);
    }
    // the race went each way: cancelled before the approved call, between the calls (or after
    // the last, while the pass ended), and too late
    for (const outcome of ways) expect(outcomes).toContain(outcome);
  });

  it("cancels a run whose pass is about to start: its program never runs", async () => {
    const controller = new AbortController();
    controller.abort();
    let ran = false;
    const executor = new MockExecutor(() => {
      ran = true;
    });
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [] });
    const tool = runtime.tool({ approvals: "host" });
    const outputs = [];
    for await (const output of tool.execute(
      { code: "async () => 1" },
      {
        toolCallId: "call_1",
        messages: [],
        abortSignal: controller.signal,
      },
    ) as AsyncIterable<unknown>) {
      outputs.push(output);
    }
    expect(ran).toBe(false);
    expect(outputs.at(-1)).toMatchObject({
      status: "error",
      code: "ABORTED",
      error: expect.stringMatching(/^Cancelled by the AI SDK \(it aborted the tool call\)/),
    });
    const [run] = await runtime.executions();
    expect(run?.status).toBe("cancelled");
  });

  it("cancels the run when the AI SDK aborts the tool call while its pass runs", async () => {
    const started = latch();
    const ops = mockConnector({
      name: "ops",
      methods: {
        wait: {
          execute: (input, context) => {
            started.open();
            return untilAborted(input, context);
          },
        },
        after: {},
      },
    });
    const executor = new MockExecutor(async ({ ops }) => {
      await ops.wait?.({}).catch(() => undefined);
      return ops.after?.({});
    });
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [ops] });
    const controller = new AbortController();
    const outputs: unknown[] = [];
    const executing = (async () => {
      // the AI SDK's own approvals; nothing here can pause, so the run starts in execute
      const stream = runtime
        .tool()
        .execute(
          { code: "async () => 0" },
          { toolCallId: "call_abort", messages: [], abortSignal: controller.signal },
        ) as AsyncIterable<unknown>;
      for await (const output of stream) outputs.push(output);
    })();
    await started.promise;
    controller.abort();
    await executing;
    expect(outputs.at(-1)).toMatchObject({
      status: "error",
      code: "ABORTED",
      error: expect.stringMatching(/^Cancelled by the AI SDK/),
    });
    expect(ops.calls.map((call) => call.method)).toEqual(["wait"]);
    const [run] = await runtime.executions();
    expect(run).toMatchObject({
      status: "cancelled",
      calls: [{ method: "wait", state: "applied", error: expect.stringContaining("aborted") }],
    });
  });
});

describe("cancel, one command", () => {
  it("ends a paused run at once as a decision, withdraws its waiting call, and leaves an ended run as it is", async () => {
    const events: RuntimeEvent[] = [];
    const time = Date.UTC(2026, 11, 1);
    const context = testContext([], { now: () => time, onEvent: (event) => events.push(event) });
    const id = await runningRun(context);
    await context.journal.putEntry(
      callEntry(id, 0, { connector: "gate", method: "open" }, { state: "pending" }),
    );
    await context.journal.updateExecution(id, ["running"], { status: "paused", lease: undefined });
    const text =
      "Cancelled by ada at 2026-12-01T00:00:00.000Z: wrong account. No call of the run starts after a cancellation.";
    expect(await cancel(context, id, { by: "ada", reason: "wrong account" })).toEqual({
      cancelled: true,
      executionId: id,
      status: "cancelled",
      was: "paused",
      pass: "none",
      error: text,
    });
    expect(await context.journal.getExecution(id)).toMatchObject({
      status: "cancelled",
      error: text,
    });
    expect((await context.journal.getEntry(id, 0))?.state).toBe("withdrawn");
    expect(events).toEqual([
      {
        type: "decision",
        executionId: id,
        decision: "cancelled",
        seqs: [0],
        at: time,
        source: "api",
        by: "ada",
        reason: "wrong account",
      },
    ]);
    expect(await cancel(context, id)).toMatchObject({ cancelled: false, status: "cancelled" });
    expect(await cancel(context, "")).toMatchObject({ cancelled: false, status: undefined });
  });

  it("marks a running run whose pass is in another process cancelled: that pass stops at its next write", async () => {
    const context = testContext([]);
    const id = await runningRun(context);
    expect(await cancel(context, id)).toMatchObject({
      cancelled: true,
      was: "running",
      pass: "elsewhere",
    });
    expect(await context.journal.updateExecution(id, ["running"], {}, { owner: "pass_test" })).toBe(
      false,
    );
  });
});
