import { describe, expect, it, vi } from "vitest";
import type { Connector } from "../../connector.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor, type MockSandbox } from "../../test/mock-executor.ts";
import { callEntry, runningRun, testContext } from "../../test/run-context.ts";
import { withJournal } from "../../test/with-journal.ts";
import type { RuntimeEvent } from "../context/runtime-event.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { rollback } from "./rollback.ts";

const setup = (program: (sandbox: MockSandbox) => unknown) => {
  const ops = mockConnector({
    name: "ops",
    methods: {
      write: { execute: (input) => input, revert: () => undefined },
      note: {},
      broken: {
        execute: () => ({}),
        revert: () => {
          throw new Error("cannot undo");
        },
      },
      fails: {
        execute: () => {
          throw new Error("refused");
        },
        revert: () => undefined,
      },
      huge: { execute: () => "x".repeat(1_000_001), revert: () => undefined },
    },
  });
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new MockExecutor(program),
    connectors: [ops],
  });
  return { runtime, ops };
};

describe("rollback names every call that reached a connector", () => {
  it("reverted, skipped with why, and unrecorded, newest first", async () => {
    const { runtime, ops } = setup(async ({ ops }) => {
      await ops.write?.({ n: 1 });
      await ops.note?.({});
      await ops.fails?.({}).catch(() => undefined);
      await ops.huge?.({});
    });
    const output = await runtime.execute({ code: "async () => 0" });
    expect(output.status).toBe("error");
    const report = await runtime.rollback({ executionId: output.executionId });
    expect(report).toEqual({
      reverted: [0],
      skipped: [2, 1],
      unrecorded: [3],
      calls: [
        expect.objectContaining({
          seq: 3,
          outcome: "unrecorded",
          reason: expect.stringMatching(/not recorded/),
        }),
        expect.objectContaining({
          seq: 2,
          outcome: "skipped",
          reason: expect.stringMatching(/failed \(refused\)/),
        }),
        expect.objectContaining({
          seq: 1,
          outcome: "skipped",
          reason: "the method is not revertible",
        }),
        { seq: 0, connector: "ops", method: "write", outcome: "reverted" },
      ],
    });
    expect(ops.calls.filter((call) => call.kind === "revert").map((call) => call.seq)).toEqual([0]);
    expect((await runtime.execution(output.executionId))?.status).toBe("rolled_back");
  });

  it("a revert that throws is reported failed, in the error's details", async () => {
    const { runtime } = setup(async ({ ops }) => {
      await ops.write?.({});
      await ops.broken?.({});
    });
    const output = await runtime.execute({ code: "async () => 0" });
    await expect(runtime.rollback({ executionId: output.executionId })).rejects.toMatchObject({
      code: "CONNECTOR_FAILED",
      details: {
        reverted: [0],
        failed: [1],
        calls: [
          expect.objectContaining({ seq: 1, outcome: "failed", reason: "cannot undo" }),
          expect.anything(),
        ],
      },
    });
  });

  it("an unknown run is NOT_FOUND", async () => {
    const { runtime } = setup(() => undefined);
    await expect(runtime.rollback({ executionId: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("a paused run with nothing to revert ends rolled back: its waiting call is withdrawn, not approvable", async () => {
    const gated = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new MockExecutor(async ({ gate }) => gate.open?.({})),
      connectors: [gated],
    });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const report = await runtime.rollback({ executionId });
    expect(report).toMatchObject({ reverted: [], calls: [] });
    const run = await runtime.execution(executionId);
    expect(run?.status).toBe("rolled_back");
    expect(run?.calls.map((call) => call.state)).toEqual(["withdrawn"]);
    expect(await runtime.pending(executionId)).toEqual([]);
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "error" });
    expect(gated.calls).toEqual([]);
  });

  it("never reverts again at once a call whose revert ran but could not be recorded", async () => {
    const base = memoryStore();
    const store = withJournal(base, (journal) => ({
      updateEntry: (...args: Parameters<typeof journal.updateEntry>) =>
        args[3].state === "reverted"
          ? Promise.reject(new Error("connection terminated"))
          : journal.updateEntry(...args),
    }));
    const ops = mockConnector({
      name: "ops",
      methods: { write: { execute: (input) => input, revert: () => undefined } },
    });
    const executor = new MockExecutor(async ({ ops }) => ops.write?.({ n: 1 }));
    const runtime = createCodemodeRuntime({ store, executor, connectors: [ops] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const first = await runtime.rollback({ executionId });
    expect(first).toMatchObject({
      reverted: [],
      unrecorded: [0],
      calls: [
        { seq: 0, outcome: "unrecorded", reason: expect.stringMatching(/^its revert ran, but/) },
      ],
    });
    const second = await runtime.rollback({ executionId });
    expect(second.calls).toMatchObject([{ seq: 0, outcome: "skipped" }]);
    expect(ops.calls.filter((call) => call.kind === "revert")).toHaveLength(1);
  });

  it("keeps a slow revert's claim fresh, so another rollback does not take it over", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let time = 1_000_000;
      let finish = () => {};
      const ops = mockConnector({
        name: "ops",
        methods: {
          write: {
            execute: (input) => input,
            revert: () =>
              new Promise<void>((resolve) => {
                finish = resolve;
              }),
          },
        },
      });
      const executor = new MockExecutor(async ({ ops }) => ops.write?.({ n: 1 }));
      const store = memoryStore();
      const runtime = createCodemodeRuntime({
        store,
        executor,
        connectors: [ops],
        now: () => time,
      });
      const { executionId } = await runtime.execute({ code: "async () => 0" });
      const slow = runtime.rollback({ executionId });
      await vi.waitFor(() => expect(ops.calls.some((call) => call.kind === "revert")).toBe(true), {
        timeout: 20_000, // vi.waitFor gives up after 1 s by default: a bound for a loaded machine
      });
      // the revert runs for a minute: its claim is renewed meanwhile
      for (let second = 0; second < 60; second += 5) {
        time += 5_000;
        await vi.advanceTimersByTimeAsync(5_000);
      }
      // another process over the same journal (its own registry of what runs here)
      const other = createCodemodeRuntime({
        store: { specificationVersion: "v1", journal: (name) => store.journal(name) },
        executor,
        connectors: [ops],
        now: () => time,
      });
      const second = await other.rollback({ executionId });
      expect(second.calls).toMatchObject([
        { seq: 0, outcome: "skipped", reason: "another rollback is reverting it" },
      ]);
      finish();
      expect(await slow).toMatchObject({ reverted: [0] });
      expect(ops.calls.filter((call) => call.kind === "revert")).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("marks a call still running as unrecorded, so a late record of it no longer matches", async () => {
    const store = memoryStore();
    const ops = mockConnector({ name: "ops", methods: { write: { execute: (input) => input } } });
    const executor = new MockExecutor(async ({ ops }) => ops.write?.({ n: 1 }));
    const runtime = createCodemodeRuntime({ store, executor, connectors: [ops] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const journal = store.journal("default");
    // as a stalled pass leaves it: the call started, its outcome not recorded yet
    await journal.updateEntry(executionId, 0, ["applied"], { state: "executing" });
    const report = await runtime.rollback({ executionId });
    expect(report.unrecorded).toEqual([0]);
    expect(await journal.applyEntry(executionId, 0, { result: "{}", updatedAt: 1 })).toBe(false);
    expect((await journal.getEntry(executionId, 0))?.state).toBe("error");
  });
});

describe("a revert in doubt (a rollback started it and never recorded what became of it)", () => {
  /** A run whose write a rollback began to revert long ago, and left `reverting`. */
  async function revertInDoubt(reconcileRevert?: Connector["reconcileRevert"]) {
    const store = memoryStore();
    const ops = Object.assign(
      mockConnector({
        name: "ops",
        methods: { write: { execute: (input) => input, revert: () => undefined } },
      }),
      reconcileRevert ? { reconcileRevert } : {},
    );
    const executor = new MockExecutor(async ({ ops }) => ops.write?.({ n: 1 }));
    const runtime = createCodemodeRuntime({ store, executor, connectors: [ops] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    await store.journal("default").updateEntry(executionId, 0, ["applied"], {
      state: "reverting",
      updatedAt: 0,
    });
    const reverts = () => ops.calls.filter((call) => call.kind === "revert");
    return { runtime, ops, store, executionId, reverts };
  }

  it("is not reverted again by itself: reported unrecorded, with the key to check and what to do", async () => {
    const { runtime, executionId, reverts } = await revertInDoubt();
    const preview = await runtime.previewRollback({ executionId });
    expect(preview.calls).toMatchObject([{ seq: 0, action: "unrecorded" }]);
    const report = await runtime.rollback({ executionId });
    expect(report).toMatchObject({
      reverted: [],
      unrecorded: [0],
      calls: [
        {
          seq: 0,
          outcome: "unrecorded",
          reason: expect.stringContaining(`${executionId}:0:revert`),
        },
      ],
    });
    expect(report.calls[0]?.reason).toMatch(/revertAgain: \[0\]/);
    expect(await runtime.rollback({ executionId })).toMatchObject({ unrecorded: [0] });
    expect(reverts()).toHaveLength(0);
  });

  it("is reverted again under the same key when the host names it in revertAgain, once", async () => {
    const { runtime, executionId, reverts } = await revertInDoubt();
    const report = await runtime.rollback({ executionId, revertAgain: [0] });
    expect(report).toMatchObject({ reverted: [0], calls: [{ seq: 0, outcome: "reverted" }] });
    expect(reverts().map((call) => call.idempotencyKey)).toEqual([`${executionId}:0:revert`]);
    // reverted now, it is no call to look at any more
    expect(await runtime.rollback({ executionId, revertAgain: [0] })).toMatchObject({ calls: [] });
    expect(reverts()).toHaveLength(1);
  });

  it("is taken over by one of two rollbacks that name it in revertAgain at once: reverted once", async () => {
    const { runtime, executionId, reverts } = await revertInDoubt();
    const reports = await Promise.all([
      runtime.rollback({ executionId, revertAgain: [0] }),
      runtime.rollback({ executionId, revertAgain: [0] }),
    ]);
    expect(reports.map((report) => report.reverted)).toEqual(expect.arrayContaining([[0], []]));
    expect(reverts()).toHaveLength(1);
  });

  it("is recorded reverted, without running, when the host names it in markReverted", async () => {
    const { runtime, executionId, reverts } = await revertInDoubt();
    const report = await runtime.rollback({ executionId, markReverted: [0] });
    expect(report).toMatchObject({
      reverted: [0],
      calls: [{ seq: 0, outcome: "reverted", reason: "recorded reverted by the host" }],
    });
    expect(reverts()).toHaveLength(0);
    expect((await runtime.execution(executionId))?.status).toBe("rolled_back");
  });

  it("of a call whose method now names another operation, is not reverted again: only markReverted settles it", async () => {
    const { executionId, reverts, store } = await revertInDoubt();
    // the next request's connector names an operation for write, which the call was not recorded for
    const moved = mockConnector({
      name: "ops",
      methods: { write: { revert: () => undefined, operation: "POST https://ops.example/v2" } },
    });
    const runtime = createCodemodeRuntime({
      store,
      executor: new MockExecutor(async () => 0),
      connectors: [moved],
    });
    const again = await runtime.rollback({ executionId, revertAgain: [0] });
    expect(again).toMatchObject({ reverted: [], unrecorded: [0] });
    expect(again.calls[0]?.reason).toMatch(/now names another operation.*markReverted: \[0\]/);
    const marked = await runtime.rollback({ executionId, markReverted: [0] });
    expect(marked).toMatchObject({ reverted: [0], calls: [{ seq: 0, outcome: "reverted" }] });
    expect([...reverts(), ...moved.calls]).toEqual([]);
  });

  it("asks the connector's reconcileRevert first: applied is recorded, not-applied reverts once", async () => {
    const asked: string[] = [];
    const applied = await revertInDoubt(async (_method, _input, _result, context) => {
      asked.push(context.idempotencyKey);
      return { status: "applied" };
    });
    expect(await applied.runtime.rollback({ executionId: applied.executionId })).toMatchObject({
      reverted: [0],
      calls: [{ outcome: "reverted", reason: "its connector read back that it ran" }],
    });
    expect(asked).toEqual([`${applied.executionId}:0:revert`]);
    expect(applied.reverts()).toHaveLength(0);

    const notApplied = await revertInDoubt(async () => ({ status: "not-applied" }));
    expect(
      await notApplied.runtime.rollback({ executionId: notApplied.executionId }),
    ).toMatchObject({ reverted: [0] });
    expect(notApplied.reverts()).toHaveLength(1);

    const throws = await revertInDoubt(async () => {
      throw new Error("cannot tell");
    });
    expect(await throws.runtime.rollback({ executionId: throws.executionId })).toMatchObject({
      unrecorded: [0],
    });
    expect(throws.reverts()).toHaveLength(0);
  });

  it("refuses decisions that are not lists of seqs", async () => {
    const { runtime, executionId } = await revertInDoubt();
    for (const bad of ["0", [-1], [1.5], Array.from({ length: 100_001 }, () => 0)]) {
      await expect(
        runtime.rollback({ executionId, revertAgain: bad as number[] }),
      ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    }
  });
});

describe("rollback, one command", () => {
  it("reverts the applied calls newest first under their revert keys, reports every call, and marks the run rolled back", async () => {
    const ops = mockConnector({
      name: "ops",
      methods: { create: { revert: () => undefined }, read: {} },
    });
    const events: RuntimeEvent["type"][] = [];
    const context = testContext([ops], { onEvent: (event) => events.push(event.type) });
    const id = await runningRun(context);
    await context.journal.putEntry(
      callEntry(id, 0, { connector: "ops", method: "create", input: { n: 1 }, result: "a" }),
    );
    await context.journal.putEntry(
      callEntry(id, 1, { connector: "ops", method: "read", result: 2 }),
    );
    await context.journal.putEntry(
      callEntry(id, 2, { connector: "ops", method: "create", input: { n: 2 }, result: "b" }),
    );
    await context.journal.updateExecution(id, ["running"], { status: "completed" });
    expect(await rollback(context, id)).toEqual({
      reverted: [2, 0],
      skipped: [1],
      calls: [
        { seq: 2, connector: "ops", method: "create", outcome: "reverted" },
        {
          seq: 1,
          connector: "ops",
          method: "read",
          outcome: "skipped",
          reason: "the method is not revertible",
        },
        { seq: 0, connector: "ops", method: "create", outcome: "reverted" },
      ],
    });
    expect(ops.calls).toMatchObject([
      { kind: "revert", input: { n: 2 }, result: "b", idempotencyKey: `${id}:2:revert` },
      { kind: "revert", input: { n: 1 }, result: "a", idempotencyKey: `${id}:0:revert` },
    ]);
    expect((await context.journal.getExecution(id))?.status).toBe("rolled_back");
    expect(events).toEqual(["revert", "revert", "revert", "rollback-end"]);
    // again: nothing left to revert
    expect((await rollback(context, id)).reverted).toEqual([]);
    expect(ops.calls).toHaveLength(2);
  });
});
