import { describe, expect, it } from "vitest";
import type { Reconciled } from "../../connector.ts";
import { decisionHandleOf } from "../../decision-handle.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { callEntry, runningRun, testContext, testPass } from "../../test/run-context.ts";
import type { ResolvedConnector } from "../context/configuration.ts";
import type { RuntimeEvent } from "../context/runtime-event.ts";
import { codec } from "../context/values.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { modelOutputOf } from "../tool/code-tool.ts";
import { decideInDoubt, IN_DOUBT } from "./in-doubt.ts";

/**
 * A run paused at `gate.open` whose earlier `svc.write` an earlier pass started and never recorded
 * (its entry is put back to `executing`, as a process that stopped in between leaves it).
 */
async function runInDoubt(
  reconcile?: () => Promise<Reconciled | undefined>,
  onEvent?: (event: RuntimeEvent) => void,
) {
  const store = memoryStore();
  const svc = Object.assign(mockConnector({ name: "svc", methods: { write: {} } }), {
    ...(reconcile ? { reconcile } : {}),
  });
  const gate = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
  const executor = new MockExecutor(async ({ svc, gate }) => {
    const written = await svc.write?.({ amount: 5 });
    await gate.open?.({});
    return written;
  });
  const runtime = createCodemodeRuntime({
    store,
    executor,
    connectors: [svc, gate],
    ...(onEvent ? { onEvent } : {}),
  });
  const paused = await runtime.execute({ code: "async () => 0" });
  expect(paused.status).toBe("paused");
  const { executionId } = paused;
  await store.journal("default").updateEntry(executionId, 0, ["applied"], {
    state: "executing",
    result: undefined,
  });
  return { runtime, svc, executionId };
}

describe("a call in doubt", () => {
  it("is never run again by itself: the run waits for a person, who may run it again under the same key", async () => {
    const { runtime, svc, executionId } = await runInDoubt();
    // the approval of gate.open is kept: only the call in doubt is asked about
    const asked = await runtime.approve({ executionId });
    expect(asked).toMatchObject({
      status: "paused",
      pending: [
        { seq: 0, connector: "svc", method: "write", args: { amount: 5 }, inDoubt: IN_DOUBT },
      ],
    });
    expect(asked.status === "paused" && asked.pending).toHaveLength(1);
    expect(svc.calls).toHaveLength(1);
    if (asked.status !== "paused") return;
    const done = await runtime.approve({ executionId, handle: decisionHandleOf(asked.pending) });
    expect(done).toMatchObject({ status: "completed", result: { amount: 5 } });
    expect(svc.calls.map((call) => call.idempotencyKey)).toEqual([
      `${executionId}:0`,
      `${executionId}:0`,
    ]);
  });

  it("is said to be in doubt to the model and in the waiting event, not only to the host", async () => {
    const events: RuntimeEvent[] = [];
    const { runtime, executionId } = await runInDoubt(undefined, (event) => events.push(event));
    const asked = await runtime.approve({ executionId });
    const waiting = events.filter((event) => event.type === "waiting");
    expect(waiting.at(-1)).toMatchObject({ seq: 0, connector: "svc", inDoubt: true });
    expect(waiting.slice(0, -1).every((event) => !("inDoubt" in event))).toBe(true);
    expect(modelOutputOf(asked)).toMatchObject({
      value: { pending: [{ seq: 0, inDoubt: IN_DOUBT }] },
    });
    const shown = modelOutputOf(asked).value as { pending: object[] };
    expect(shown.pending).toHaveLength(1);
  });

  it("is recorded and replayed when its connector reads back that it ran", async () => {
    const { runtime, svc, executionId } = await runInDoubt(async () => ({
      status: "applied",
      result: { receipt: "r-1" },
    }));
    const done = await runtime.approve({ executionId });
    expect(done).toMatchObject({ status: "completed", result: { receipt: "r-1" } });
    expect(svc.calls).toHaveLength(1);
  });

  it("runs again under the same key when its connector reads back that it did not run", async () => {
    const { runtime, svc, executionId } = await runInDoubt(async () => ({ status: "not-applied" }));
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "completed" });
    expect(svc.calls.map((call) => call.idempotencyKey)).toEqual([
      `${executionId}:0`,
      `${executionId}:0`,
    ]);
  });

  it("waits for a person when its connector cannot tell or throws, and a rollback reports it unrecorded", async () => {
    const { runtime, svc, executionId } = await runInDoubt(async () => {
      throw new Error("the ledger is down");
    });
    const asked = await runtime.approve({ executionId });
    expect(asked).toMatchObject({ status: "paused", pending: [{ seq: 0, inDoubt: IN_DOUBT }] });
    const report = await runtime.rollback({ executionId });
    expect(report.unrecorded).toEqual([0]);
    expect(svc.calls).toHaveLength(1);
    expect((await runtime.execution(executionId))?.status).toBe("rolled_back");
  });

  it("takes what the host found out it gave, and replays it", async () => {
    const { runtime, svc, executionId } = await runInDoubt();
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "paused" });
    // gate.open was approved with the pass that found the call in doubt: it runs once it is reached
    const resolved = await runtime.resolve({ executionId, seq: 0, result: { receipt: "r-2" } });
    expect(resolved).toMatchObject({ status: "completed", result: { receipt: "r-2" } });
    expect(svc.calls).toHaveLength(1);
  });

  it("is not approved by a handle shown before it was in doubt (found by a red-team pass)", async () => {
    const store = memoryStore();
    const gate = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ gate }) => gate.open?.({ door: 1 }));
    const runtime = createCodemodeRuntime({ store, executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    if (paused.status !== "paused") throw new Error("not paused");
    const shownBefore = decisionHandleOf(paused.pending);
    // later the call waits again, in doubt, with the same input (as a pass that found it executing leaves it)
    await store.journal("default").updateEntry(paused.executionId, 0, ["pending"], {
      error: IN_DOUBT,
    });
    expect(
      await runtime.approve({ executionId: paused.executionId, handle: shownBefore }),
    ).toMatchObject({ status: "error", code: "DECISION_STALE" });
    expect(gate.calls).toHaveLength(0);
    const [waiting] = await runtime.pending(paused.executionId);
    expect(waiting?.inDoubt).toBe(IN_DOUBT);
    expect(waiting?.digest).not.toBe(paused.pending[0]?.digest);
  });
});

describe("decideInDoubt, one step", () => {
  /** What `decideInDoubt` decides for an `executing` call whose connector's reconcile answers so. */
  async function decide(reconcile: () => Promise<Reconciled | undefined>) {
    const seen: unknown[] = [];
    const svc = Object.assign(mockConnector({ name: "svc", methods: { write: {} } }), {
      reconcile: async (method: string, input: unknown, call: { idempotencyKey: string }) => {
        seen.push([method, input, call.idempotencyKey]);
        return reconcile();
      },
    });
    const context = testContext([svc]);
    const id = await runningRun(context);
    const recorded = callEntry(
      id,
      0,
      { connector: "svc", method: "write", input: { amount: 5 } },
      { state: "executing" },
    );
    await context.journal.putEntry(recorded);
    const pass = await testPass(context, id);
    const resolved = (await context.configurator.configure()).connectors.get(
      "svc",
    ) as ResolvedConnector;
    const decision = await decideInDoubt(context, pass, resolved, "write", { amount: 5 }, recorded);
    await pass.end();
    pass.release();
    return { decision, entry: await context.journal.getEntry(id, 0), seen, recorded, pass };
  }

  it("records and replays what its connector read back that it gave", async () => {
    const { decision, entry, seen, recorded } = await decide(async () => ({
      status: "applied",
      result: { id: 7 },
    }));
    expect(seen).toEqual([["write", { amount: 5 }, `${recorded.executionId}:0`]]);
    expect(entry).toMatchObject({ state: "applied", result: codec.encode({ id: 7 }) });
    expect(decision).toEqual({
      kind: "replay",
      entry: { ...recorded, state: "applied", result: codec.encode({ id: 7 }), error: undefined },
    });
  });

  it("runs it again when its connector read back that it did not run", async () => {
    const { decision, entry } = await decide(async () => ({ status: "not-applied" }));
    expect(decision).toEqual({ kind: "execute" });
    expect(entry?.state).toBe("executing");
  });

  it("makes it wait for a person, in doubt, when its connector cannot tell or throws", async () => {
    for (const reconcile of [
      async () => undefined,
      async () => {
        throw new Error("lookup failed");
      },
    ]) {
      const { decision, entry, pass } = await decide(reconcile);
      expect(decision).toEqual({ kind: "wait" });
      expect(entry).toMatchObject({ state: "pending", requiresApproval: true, error: IN_DOUBT });
      expect(pass.paused).toBe(false);
    }
  });
});
