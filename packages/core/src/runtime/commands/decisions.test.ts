import { describe, expect, it } from "vitest";
import { decisionHandleOf } from "../../decision-handle.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { testContext } from "../../test/run-context.ts";
import { withJournal } from "../../test/with-journal.ts";
import type { RuntimeEvent } from "../context/runtime-event.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { begin } from "./begin-run.ts";
import { approve, reject, resolve } from "./decisions.ts";

const gateAndExecutor = () => {
  const gate = mockConnector({
    name: "gate",
    methods: { open: { requiresApproval: true }, fetch: { deferred: true } },
  });
  const executor = new MockExecutor(async ({ gate }) =>
    Promise.all([gate.open?.({ door: 1 }), gate.open?.({ door: 2 })]),
  );
  return { gate, executor };
};

describe("decisions", () => {
  it("approve runs every pending call of the run once; a second approve is refused", async () => {
    const { gate, executor } = gateAndExecutor();
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    const [first, second] = await Promise.all([
      runtime.approve({ executionId: paused.executionId }),
      runtime.approve({ executionId: paused.executionId }),
    ]);
    expect([first.status, second.status].sort()).toEqual(["completed", "error"]);
    expect(gate.calls.map((call) => call.seq)).toEqual([0, 1]);
  });

  /**
   * Two approvals of a run that pauses at door 1, then door 2, asked at once; the second one's
   * store operation that `holds` says waits until the first approval has finished (its pass ran
   * door 1 and paused at door 2), as a busy PostgreSQL pool lets happen.
   */
  async function racedApprovals(
    holds: (method: string, args: unknown[]) => boolean,
    second: { status: string; code?: string },
  ) {
    const gate = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ gate }) => {
      await gate.open?.({ door: 1 });
      return gate.open?.({ door: 2 });
    });
    const inner = memoryStore();
    let firstDone: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      firstDone = resolve;
    });
    let racing = false;
    let held = 0;
    const store = withJournal(inner, (journal) => {
      const hold =
        (method: "updateExecution" | "listEntries") =>
        async (...args: unknown[]) => {
          if (racing && holds(method, args) && ++held === 2) await first;
          return (journal[method] as (...a: unknown[]) => unknown).apply(journal, args);
        };
      return {
        updateExecution: hold("updateExecution"),
        listEntries: hold("listEntries"),
      };
    });
    const runtime = createCodemodeRuntime({ store, executor, connectors: [gate] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    racing = true;
    const a = runtime.approve({ executionId }).finally(() => firstDone());
    const b = runtime.approve({ executionId });
    const outcomes = await Promise.all([a, b]);
    racing = false;
    expect(gate.calls.map((call) => call.seq)).toEqual([0]);
    expect(outcomes).toMatchObject([{ status: "paused" }, second]);
    expect((await runtime.pending(executionId)).map((call) => call.seq)).toEqual([1]);
    // asked after that pause was shown, an approval covers it
    expect((await runtime.approve({ executionId })).status).toBe("completed");
    expect(gate.calls.map((call) => call.seq)).toEqual([0, 1]);
  }

  it("an approve that takes the run after another approval's pass paused again covers none of the new calls", async () => {
    // the call it read waiting ran meanwhile: the approval is stale, and the run waits as it was
    await racedApprovals(
      (method, [, expected, patch]) => {
        const taking = method === "updateExecution" && (patch as { status?: string }).status;
        return taking === "running" && (expected as string[]).includes("paused");
      },
      { status: "error", code: "DECISION_STALE" },
    );
  });

  it("an approve whose read comes after another approval's pass paused again covers none of the new calls", async () => {
    // it read only the call that started to wait after it was asked: it covers nothing
    await racedApprovals(
      (method, [, filter]) =>
        method === "listEntries" &&
        ((filter as { states?: string[] } | undefined)?.states?.includes("pending") ?? false),
      { status: "paused" },
    );
  });

  it("an approve that names the calls it was shown covers only those; naming none that waits runs nothing", async () => {
    const { gate, executor } = gateAndExecutor();
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    const executionId = paused.executionId;
    const stale = await runtime.approve({ executionId, seqs: [7] });
    expect(stale).toMatchObject({ status: "error" });
    expect(stale.status === "error" && stale.error).toMatch(
      /No call this approval names \(seq 7\)/,
    );
    for (const seqs of [[], [-1], [1.5], ["0"]] as unknown as number[][]) {
      const bad = await runtime.approve({ executionId, seqs });
      expect(bad.status === "error" && bad.error).toMatch(/seqs must name the waiting calls/);
    }
    expect(gate.calls).toEqual([]);
    const first = await runtime.approve({ executionId, seqs: [0] });
    expect(gate.calls.map((call) => call.seq)).toEqual([0]);
    expect(first.status === "paused" && first.pending.map((call) => call.seq)).toEqual([1]);
    expect(await runtime.approve({ executionId, seqs: [0] })).toMatchObject({ status: "error" });
    expect((await runtime.approve({ executionId, seqs: [1] })).status).toBe("completed");
    expect(gate.calls.map((call) => call.seq)).toEqual([0, 1]);
  });

  it("a reject whose call an approval ran meanwhile ends nothing, not even the pause that came after", async () => {
    const gate = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ gate }) => {
      await gate.open?.({ door: 1 });
      return gate.open?.({ door: 2 });
    });
    const inner = memoryStore();
    let approveFirst: (() => Promise<unknown>) | undefined;
    // the rejection reads door 1 waiting; before it takes the run, an approval runs door 1 and the
    // run pauses again, at door 2
    const store = withJournal(inner, (journal) => ({
      getEntry: async (...args: Parameters<typeof journal.getEntry>) => {
        const entry = await journal.getEntry(...args);
        const approving = approveFirst;
        approveFirst = undefined;
        if (approving) await approving();
        return entry;
      },
    }));
    const runtime = createCodemodeRuntime({ store, executor, connectors: [gate] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    approveFirst = () => runtime.approve({ executionId });
    expect(await runtime.reject({ executionId, seq: 0 })).toBe(false);
    expect(gate.calls.map((call) => call.seq)).toEqual([0]);
    expect((await runtime.execution(executionId))?.status).toBe("paused");
    expect((await runtime.pending(executionId)).map((call) => call.seq)).toEqual([1]);
    expect(await runtime.reject({ executionId, seq: 1 })).toBe(true);
    expect((await runtime.execution(executionId))?.status).toBe("rejected");
  });

  it("reject of one pending call ends the run without any of them", async () => {
    const { gate, executor } = gateAndExecutor();
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(await runtime.reject({ executionId: paused.executionId, seq: 0 })).toBe(true);
    expect((await runtime.approve({ executionId: paused.executionId })).status).toBe("error");
    expect(gate.calls).toEqual([]);
    expect((await runtime.execution(paused.executionId))?.calls.map((call) => call.state)).toEqual([
      "withdrawn",
      "withdrawn",
    ]);
  });

  it("a rejection whose run is deleted before its calls are withdrawn still names the calls it ended", async () => {
    // found by store-postgres's surface-integrity run under load: a person's denial and the host's
    // deleteExecution at once; the decision event said the rejection covered nothing
    const { gate, executor } = gateAndExecutor();
    const inner = memoryStore();
    let afterRejected: (() => Promise<unknown>) | undefined;
    const store = withJournal(inner, (journal) => ({
      updateExecution: async (...args: Parameters<typeof journal.updateExecution>) => {
        const written = await journal.updateExecution(...args);
        const then = afterRejected;
        if (written && args[2].status === "rejected" && then) {
          afterRejected = undefined;
          await then();
        }
        return written;
      },
    }));
    const events: RuntimeEvent[] = [];
    const runtime = createCodemodeRuntime({
      store,
      executor,
      connectors: [gate],
      onEvent: (event) => {
        if (event.type === "decision") events.push(event);
      },
    });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    afterRejected = () => runtime.deleteExecution(executionId);
    expect(await runtime.reject({ executionId, seq: 0 })).toBe(true);
    expect(await runtime.execution(executionId)).toBeUndefined();
    expect(events).toMatchObject([{ executionId, decision: "rejected", seqs: [0, 1] }]);
    expect(gate.calls).toEqual([]);
  });

  it("a run whose connector is not configured stays paused when approved", async () => {
    const { gate, executor } = gateAndExecutor();
    const store = memoryStore();
    const runtime = createCodemodeRuntime({ store, executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    const without = createCodemodeRuntime({ store, executor, connectors: [] });
    expect(await without.approve({ executionId: paused.executionId })).toMatchObject({
      status: "error",
      error: expect.stringMatching(/stays paused/),
    });
    expect((await runtime.execution(paused.executionId))?.status).toBe("paused");
    expect((await runtime.approve({ executionId: paused.executionId })).status).toBe("completed");
  });

  it("resolve records a deferred call's result and resumes; approve refuses a deferred call", async () => {
    const gate = mockConnector({ name: "gate", methods: { fetch: { deferred: true } } });
    const executor = new MockExecutor(async ({ gate }) => gate.fetch?.({ q: 1 }));
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    // it waits for a result from outside, not for a person: the pending call says so
    expect(await runtime.pending(paused.executionId)).toMatchObject([
      { seq: 0, method: "fetch", deferred: true },
    ]);
    expect((await runtime.approve({ executionId: paused.executionId })).status).toBe("error");
    expect(
      await runtime.resolve({ executionId: paused.executionId, seq: 0, result: { answer: 42 } }),
    ).toMatchObject({
      status: "completed",
      result: { answer: 42 },
    });
    expect(gate.calls).toEqual([]);
  });

  it("an approval with a handle runs the calls it shows once; the same handle again is DECISION_STALE", async () => {
    const { gate, executor } = gateAndExecutor();
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    const handle = decisionHandleOf(await runtime.pending(paused.executionId));
    expect(handle.calls.map((call) => call.seq)).toEqual([0, 1]);
    const outcomes = await Promise.all([
      runtime.approve({ executionId: paused.executionId, handle }),
      runtime.approve({ executionId: paused.executionId, handle }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["completed", "error"]);
    const again = await runtime.approve({ executionId: paused.executionId, handle });
    expect(again).toMatchObject({ status: "error", code: "DECISION_STALE" });
    expect(gate.calls.map((call) => call.seq)).toEqual([0, 1]);
  });

  it("a handle whose calls ran and paused again approves nothing of the new pause", async () => {
    const gate = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ gate }) => {
      await gate.open?.({ door: 1 });
      return gate.open?.({ door: 2 });
    });
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const shown = decisionHandleOf(await runtime.pending(executionId));
    // another surface (the queue, another tab) approves first: door 1 runs, the run waits at door 2
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "paused" });
    expect(await runtime.approve({ executionId, handle: shown })).toMatchObject({
      status: "error",
      code: "DECISION_STALE",
    });
    expect(await runtime.reject({ executionId, seq: 0, handle: shown })).toBe(false);
    expect(await runtime.reject({ executionId, seq: 1, handle: shown })).toBe(false);
    expect(gate.calls.map((call) => call.input)).toEqual([{ door: 1 }]);
    expect((await runtime.execution(executionId))?.status).toBe("paused");
  });

  it("a handle whose digest differs from what waits is refused; seqs outside the handle too", async () => {
    const { gate, executor } = gateAndExecutor();
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const handle = decisionHandleOf(await runtime.pending(executionId));
    const [first, second] = handle.calls;
    if (!first || !second) throw new Error("two calls wait");
    const swapped = { ...handle, calls: [{ seq: 0, digest: second.digest }] };
    expect(await runtime.approve({ executionId, handle: swapped })).toMatchObject({
      status: "error",
      code: "DECISION_STALE",
    });
    const partial = { ...handle, calls: [first] };
    expect(await runtime.approve({ executionId, handle: partial, seqs: [1] })).toMatchObject({
      status: "error",
    });
    expect(
      await runtime.approve({ executionId, handle: { ...handle, version: 2 } as never }),
    ).toMatchObject({ status: "error" });
    expect(gate.calls).toEqual([]);
    expect(await runtime.approve({ executionId, handle })).toMatchObject({ status: "completed" });
  });

  it("seqs beside a handle are checked before they are walked: too many, or not a list, is refused", async () => {
    const { gate, executor } = gateAndExecutor();
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor,
      connectors: [gate],
      limits: { maxCalls: 100 },
    });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const handle = decisionHandleOf(await runtime.pending(executionId));
    for (const seqs of [new Array(101).fill(0), "01", { length: 1 }] as unknown as number[][]) {
      expect(await runtime.approve({ executionId, handle, seqs })).toMatchObject({
        status: "error",
        code: "INVALID_INPUT",
        error: expect.stringMatching(/seqs must name the waiting calls/),
      });
    }
    expect(gate.calls).toEqual([]);
    expect(await runtime.approve({ executionId, handle })).toMatchObject({ status: "completed" });
  });

  it("a call that never ran because its run was rejected is withdrawn, not reverted", async () => {
    const { gate, executor } = gateAndExecutor();
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const handle = decisionHandleOf(await runtime.pending(executionId));
    expect(await runtime.reject({ executionId, seq: 0, handle })).toBe(true);
    const run = await runtime.execution(executionId);
    expect(run?.calls.map((call) => call.state)).toEqual(["withdrawn", "withdrawn"]);
  });
});

describe("approve, reject and resolve, one command each", () => {
  /** A context whose program waits for `gate.open` and then `gate.fetch`'s deferred result. */
  async function pausedRun() {
    const gate = mockConnector({
      name: "gate",
      methods: { open: { requiresApproval: true }, fetch: { deferred: true } },
    });
    const events: RuntimeEvent[] = [];
    const executor = new MockExecutor(async ({ gate }) => {
      const opened = await gate.open?.({ door: 1 });
      return { opened, fetched: await gate.fetch?.({}) };
    });
    const context = testContext([gate], {
      executor,
      onEvent: (event) => {
        if (event.type === "decision") events.push(event);
      },
    });
    const paused = await begin(context, { code: "async () => 0" });
    expect(paused.status).toBe("paused");
    return { context, gate, events, executionId: paused.executionId };
  }

  it("approve runs the waiting call once and resumes; resolve records a deferred result and resumes", async () => {
    const { context, gate, events, executionId } = await pausedRun();
    const approved = await approve(context, executionId, { reason: " fine " });
    expect(approved).toMatchObject({ status: "paused", pending: [{ seq: 1, deferred: true }] });
    expect(gate.calls.map((call) => call.method)).toEqual(["open"]);
    // a deferred call waits for a result, not an approval
    expect(await approve(context, executionId, { seqs: [1] })).toMatchObject({
      status: "error",
      error: "Call #1 (gate.fetch) waits for a result, not an approval: use runtime.resolve.",
      code: "NOT_PAUSED",
    });
    expect(await resolve(context, executionId, 1, { rows: 2 })).toEqual({
      status: "completed",
      executionId,
      result: { opened: { door: 1 }, fetched: { rows: 2 } },
    });
    expect(await resolve(context, executionId, 1, {})).toMatchObject({
      status: "error",
      error: `Call #1 of execution "${executionId}" is not waiting for a result.`,
      code: "NOT_PAUSED",
    });
    expect(events).toMatchObject([
      { decision: "approved", seqs: [0], source: "api", reason: "fine" },
      { decision: "resolved", seqs: [1] },
    ]);
    expect(gate.calls.map((call) => call.method)).toEqual(["open"]);
  });

  it("says with a code why it refused a decision, and runs nothing", async () => {
    const { context, gate, executionId } = await pausedRun();
    const refusal = async (output: Promise<unknown>) => {
      const value = (await output) as { status: string; code?: string };
      expect(value.status).toBe("error");
      return value.code;
    };
    expect(await refusal(approve(context, "exec_nope"))).toBe("NOT_FOUND");
    expect(await refusal(resolve(context, "exec_nope", 0, 1))).toBe("NOT_FOUND");
    expect(await refusal(approve(context, executionId, { seqs: [] }))).toBe("INVALID_INPUT");
    expect(await refusal(approve(context, executionId, { seqs: [7] }))).toBe("DECISION_STALE");
    const handle = { version: 1, executionId: "exec_other", calls: [] };
    expect(await refusal(approve(context, executionId, { handle: handle as never }))).toBe(
      "INVALID_INPUT",
    );
    expect(await refusal(resolve(context, executionId, 0, 1))).toBe("NOT_PAUSED");
    expect(await refusal(resolve(context, executionId, 1, 10n))).toBe("NOT_PAUSED");
    expect(gate.calls).toEqual([]);
    await approve(context, executionId);
    await resolve(context, executionId, 1, { rows: 1 });
    expect(await refusal(approve(context, executionId))).toBe("NOT_PAUSED");
    expect(gate.calls.map((call) => call.method)).toEqual(["open"]);
  });

  it("reject ends the run without the call, withdraws what waited, and decides nothing twice", async () => {
    const { context, gate, events, executionId } = await pausedRun();
    expect(await reject(context, executionId, 5)).toBe(false);
    expect(await reject(context, executionId, 0, "not today", "tool-approval")).toBe(true);
    expect(await reject(context, executionId, 0)).toBe(false);
    expect(await context.journal.getExecution(executionId)).toMatchObject({
      status: "rejected",
      error: "A person rejected gate.open (seq 0, counting from 0): not today",
    });
    expect((await context.journal.getEntry(executionId, 0))?.state).toBe("withdrawn");
    expect(events).toMatchObject([
      { decision: "rejected", seqs: [0], source: "tool-approval", reason: "not today" },
    ]);
    expect(await approve(context, executionId)).toMatchObject({
      status: "error",
      error: `Execution "${executionId}" is rejected; only a paused run can resume.`,
    });
    expect(gate.calls).toEqual([]);
  });
});
