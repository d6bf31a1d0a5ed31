import { describe, expect, it } from "vitest";
import { decisionHandleOf } from "../../decision-handle.ts";
import type { Journal } from "../../journal-store.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { inAnotherProcess, withJournal } from "../../test/with-journal.ts";
import type { RuntimeEvent } from "../context/runtime-event.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";

const twoSends = new MockExecutor(async ({ mail }) =>
  Promise.all([mail.send?.({ to: "a" }), mail.send?.({ to: "b" })]),
);

describe("store faults in recordApproval", () => {
  it("counts a write that committed but reported a failure, found approved when tried again: the decision names the call it let run", async () => {
    const inner = memoryStore();
    let ambiguous = true;
    const store = withJournal(inner, (journal) => ({
      updateEntry: async (...args: Parameters<Journal["updateEntry"]>) => {
        const done = await journal.updateEntry(...args);
        // the write reached the database; its answer was lost (a dropped connection)
        if (ambiguous && args[3].state === "approved") {
          ambiguous = false;
          throw new Error("connection reset after commit");
        }
        return done;
      },
    }));
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const events: RuntimeEvent[] = [];
    const executor = new MockExecutor(async ({ mail }) => mail.send?.({ to: "a" }));
    const runtime = createCodemodeRuntime({
      store,
      executor,
      connectors: [mail],
      onEvent: (event) => events.push(event),
    });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "completed" });
    expect(mail.calls).toHaveLength(1);
    const decision = events.find((event) => event.type === "decision");
    // the audit of the decision must name the call it let run
    expect(decision).toMatchObject({ decision: "approved", seqs: [0] });
  });

  it("puts back every call it covered when a later write fails: the run waits for each, as before", async () => {
    const inner = memoryStore();
    let ambiguous = true;
    let down = true;
    const store = withJournal(inner, (journal) => ({
      updateEntry: async (...args: Parameters<Journal["updateEntry"]>) => {
        if (down && args[1] === 1 && args[3].state === "approved") {
          throw new Error("connection terminated");
        }
        const done = await journal.updateEntry(...args);
        if (ambiguous && args[1] === 0 && args[3].state === "approved") {
          ambiguous = false;
          throw new Error("connection reset after commit");
        }
        return done;
      },
    }));
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const events: RuntimeEvent[] = [];
    const runtime = createCodemodeRuntime({
      store,
      executor: twoSends,
      connectors: [mail],
      onEvent: (event) => events.push(event),
    });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    await expect(runtime.approve({ executionId })).rejects.toMatchObject({ code: "STORE_FAILED" });
    down = false;
    // what the person is shown now, and what a decision on it runs
    const shown = (await runtime.pending(executionId)).map((call) => call.seq);
    // "nothing ran, and the run still waits": it should wait for both calls, as before
    expect(shown).toEqual([0, 1]);
    expect(await runtime.execution(executionId)).toMatchObject({
      status: "paused",
      calls: [
        { seq: 0, state: "pending" },
        { seq: 1, state: "pending" },
      ],
    });
  });
});

describe("an approval's store that stays down, and its lease", () => {
  /** Two gated sends over a store whose entry writes fail while `down` says so. */
  function twoSendsOver(down: (args: Parameters<Journal["updateEntry"]>) => boolean) {
    let clock = 1_000_000;
    const store = withJournal(memoryStore(), (journal) => ({
      updateEntry: async (...args: Parameters<Journal["updateEntry"]>) => {
        if (down(args)) throw new Error("connection refused");
        return journal.updateEntry(...args);
      },
    }));
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const runtime = createCodemodeRuntime({
      store,
      executor: twoSends,
      connectors: [mail],
      leaseMs: 30_000,
      now: () => clock,
    });
    return { runtime, mail, later: (ms: number) => (clock += ms) };
  }

  it("keeps the run held, never paused with a call left approved that pending() would not show, when a call cannot be put back; expiry then ends it and nothing runs", async () => {
    // the write of #1 fails, and so does every write putting a call back to pending
    let failing = true;
    const { runtime, mail, later } = twoSendsOver(
      (args) =>
        failing && ((args[1] === 1 && args[3].state === "approved") || args[3].state === "pending"),
    );
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const handle = decisionHandleOf(await runtime.pending(executionId));
    await expect(runtime.approve({ executionId, handle })).rejects.toMatchObject({
      code: "STORE_FAILED",
      message: expect.stringContaining(
        "nor the run put back to wait: nothing ran, and nothing will",
      ),
    });
    failing = false;
    // held under the approval's lease: no other decision gets in while #0 may still read approved
    expect(await runtime.execution(executionId)).toMatchObject({ status: "running" });
    expect(await runtime.approve({ executionId, handle })).toMatchObject({
      code: "DECISION_STALE",
    });
    expect(await runtime.approve({ executionId })).toMatchObject({ code: "NOT_PAUSED" });
    later(30_001);
    expect(await runtime.expirePaused()).toEqual([executionId]);
    expect(await runtime.execution(executionId)).toMatchObject({
      status: "error",
      calls: [
        { seq: 0, state: "withdrawn" },
        { seq: 1, state: "withdrawn" },
      ],
    });
    expect(mail.calls).toHaveLength(0);
  });

  it("says the run still waits only when it does: every call put back, the run paused", async () => {
    let failing = true;
    const { runtime, mail } = twoSendsOver(
      (args) => failing && args[1] === 1 && args[3].state === "approved",
    );
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const handle = decisionHandleOf(await runtime.pending(executionId));
    await expect(runtime.approve({ executionId, handle })).rejects.toMatchObject({
      code: "STORE_FAILED",
      message: expect.stringContaining("nothing ran, and the run still waits. Approve again."),
    });
    failing = false;
    expect(await runtime.approve({ executionId, handle })).toMatchObject({ status: "completed" });
    expect(mail.calls.map((call) => call.input)).toEqual([{ to: "a" }, { to: "b" }]);
  });

  it("renews the run's lease with each call it writes: an approval of many calls on a slow store is not expired by another process's sweep", async () => {
    const CALLS = 8;
    const LEASE = 30_000;
    const inner = memoryStore();
    let clock = 1_000_000;
    let swept: string[] | undefined;
    let sweep: () => Promise<string[]> = async () => [];
    let writes = 0;
    const slow = inAnotherProcess(inner, (journal) => ({
      updateEntry: async (...args: Parameters<Journal["updateEntry"]>) => {
        const done = await journal.updateEntry(...args);
        if (args[3].state === "approved") {
          // each write takes a fifth of the lease: together, more than all of it
          clock += LEASE / 5;
          if (++writes === CALLS - 1) swept = await sweep();
        }
        return done;
      },
    }));
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const options = {
      executor: new MockExecutor(async ({ mail }) =>
        Promise.all(Array.from({ length: CALLS }, (_, i) => mail.send?.({ to: `p${i}` }))),
      ),
      connectors: [mail],
      leaseMs: LEASE,
      now: () => clock,
    };
    const approving = createCodemodeRuntime({ store: slow, ...options });
    const sweeping = createCodemodeRuntime({ store: inAnotherProcess(inner), ...options });
    sweep = () => sweeping.expirePaused();
    const { executionId } = await approving.execute({ code: "async () => 0" });
    const handle = decisionHandleOf(await approving.pending(executionId));
    expect(await approving.approve({ executionId, handle })).toMatchObject({
      status: "completed",
    });
    expect(swept).toEqual([]);
    expect(mail.calls).toHaveLength(CALLS);
  });

  it("tells a pass whose run was ended under it (expired between the approval and the pass's first read) that it lost its lease, not that the program diverged", async () => {
    const LEASE = 30_000;
    const inner = memoryStore();
    let clock = 1_000_000;
    let sweep: () => Promise<string[]> = async () => [];
    let approving = false;
    const stalled = inAnotherProcess(inner, (journal) => ({
      listEntries: async (...args: Parameters<Journal["listEntries"]>) => {
        if (approving && args[1] === undefined) {
          // the pass's first read of the journal: its process stalled past the lease before it
          approving = false;
          clock += LEASE + 1;
          await sweep();
        }
        return journal.listEntries(...args);
      },
    }));
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const options = { executor: twoSends, connectors: [mail], leaseMs: LEASE, now: () => clock };
    const runtime = createCodemodeRuntime({ store: stalled, ...options });
    const sweeping = createCodemodeRuntime({ store: inAnotherProcess(inner), ...options });
    sweep = () => sweeping.expirePaused();
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    approving = true;
    const outcome = await runtime.approve({ executionId });
    expect(outcome).toMatchObject({ status: "error", error: expect.stringContaining("lease") });
    expect(outcome).not.toMatchObject({ code: "DIVERGENCE" });
    expect(mail.calls).toHaveLength(0);
  });
});
