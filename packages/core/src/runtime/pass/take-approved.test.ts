import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { Journal, JournalStore } from "../../journal-store.ts";
import { memoryStore } from "../../memory-store.ts";
import { sqliteStore } from "../../sql-store/sqlite-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import {
  callEntry,
  runningRun,
  TEST_OWNER,
  testContext,
  testPass,
} from "../../test/run-context.ts";
import { withJournal } from "../../test/with-journal.ts";
import type { RunContext } from "../context/run-context.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { PAUSE } from "./decide-call.ts";
import { LEASE_LOST } from "./pass-state.ts";
import { takeApproved } from "./take-approved.ts";

/** A promise and its resolver. */
function latch() {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A run of `runningRun` whose call #0 waits for approval. */
async function waitingRun(context: RunContext): Promise<string> {
  const id = await runningRun(context);
  await context.journal.putEntry(
    callEntry(id, 0, { connector: "mail", method: "send" }, { state: "pending" }),
  );
  return id;
}

describe("takeApproved", () => {
  it("takes a waiting call under the pass's lease", async () => {
    const context = testContext([]);
    const id = await waitingRun(context);
    const pass = await testPass(context, id, { approved: [0] });
    await takeApproved(context, pass, 0);
    expect((await context.journal.getEntry(id, 0))?.state).toBe("executing");
    await pass.end();
    pass.release();
  });

  it("stops as a pass that lost its lease when the run is no longer its own: the call keeps waiting, the run is not written", async () => {
    const context = testContext([]);
    const id = await waitingRun(context);
    const pass = await testPass(context, id, { approved: [0] });
    const other = { owner: "pass_other", expiresAt: context.now() + 60_000 };
    await context.journal.updateExecution(id, ["running"], { lease: other }, { owner: TEST_OWNER });
    await expect(takeApproved(context, pass, 0)).rejects.toMatchObject({
      code: "ABORTED",
      message: LEASE_LOST,
    });
    expect((await context.journal.getEntry(id, 0))?.state).toBe("approved");
    expect(await context.journal.getExecution(id)).toMatchObject({
      status: "running",
      lease: other,
    });
    await pass.end();
    pass.release();
  });

  it("fails the run when it is still the pass's but the call no longer waits", async () => {
    const context = testContext([]);
    const id = await waitingRun(context);
    const pass = await testPass(context, id, { approved: [0] });
    await context.journal.updateEntry(id, 0, ["approved"], { state: "withdrawn" });
    await expect(takeApproved(context, pass, 0)).rejects.toMatchObject({ code: "ABORTED" });
    expect(await context.journal.getExecution(id)).toMatchObject({
      status: "error",
      error: "Call #0 is no longer waiting for approval; the run stopped.",
    });
    await pass.end();
    pass.release();
  });

  it("does not hand over a call taken by a pass whose lease was lost meanwhile", async () => {
    const base = testContext([]);
    const meanwhile: { run?: () => Promise<unknown> } = {};
    const journal = Object.assign(Object.create(base.journal) as Journal, {
      updateEntry: async (...args: Parameters<Journal["updateEntry"]>) => {
        const taken = await base.journal.updateEntry(...args);
        await meanwhile.run?.();
        return taken;
      },
    });
    const context: RunContext = { ...base, journal };
    const id = await waitingRun(context);
    const pass = await testPass(context, id, { approved: [0] });
    // after the take, before it answers: the run is cancelled elsewhere and the heartbeat finds it
    meanwhile.run = async () => {
      await base.journal.updateExecution(id, ["running"], {
        status: "cancelled",
        lease: undefined,
      });
      expect(await pass.renew()).toBe(false);
    };
    await expect(takeApproved(context, pass, 0)).rejects.toMatchObject({
      code: "ABORTED",
      message: LEASE_LOST,
    });
    // taken before the cancellation, never handed to the connector
    expect((await context.journal.getEntry(id, 0))?.state).toBe("executing");
    await pass.end();
    pass.release();
  });

  /** A context whose journal's takes (`→ executing`) go through `take` instead. */
  function withTake(
    take: (write: () => Promise<boolean>, base: RunContext, id: () => string) => Promise<boolean>,
  ) {
    const clock = { now: 1_000_000 };
    const base = testContext([], { now: () => clock.now });
    const run = { id: "" };
    const journal = Object.assign(Object.create(base.journal) as Journal, {
      updateEntry: async (...args: Parameters<Journal["updateEntry"]>) =>
        args[3].state === "executing"
          ? take(
              () => base.journal.updateEntry(...args),
              base,
              () => run.id,
            )
          : base.journal.updateEntry(...args),
    });
    return { context: { ...base, journal } as RunContext, run, clock };
  }

  it("tries the take again after a store error that wrote nothing", async () => {
    let tries = 0;
    const { context, run } = withTake(async (write) => {
      tries++;
      if (tries === 1) throw new Error("connection reset");
      return write();
    });
    run.id = await waitingRun(context);
    const pass = await testPass(context, run.id, { approved: [0] });
    await takeApproved(context, pass, 0);
    expect(tries).toBe(2);
    expect((await context.journal.getEntry(run.id, 0))?.state).toBe("executing");
    await pass.end();
    pass.release();
  });

  it("renews the lease with each try's own claim, never an older one than the heartbeat's", async () => {
    let tries = 0;
    const { context, run, clock } = withTake(async (write) => {
      tries++;
      if (tries === 1) {
        // the store takes long to fail: the next try is made later
        clock.now += context.leaseMs;
        throw new Error("connection reset");
      }
      return write();
    });
    run.id = await waitingRun(context);
    const pass = await testPass(context, run.id, { approved: [0] });
    clock.now += context.leaseMs;
    await takeApproved(context, pass, 0);
    expect(tries).toBe(2);
    expect((await context.journal.getExecution(run.id))?.lease?.expiresAt).toBe(
      clock.now + context.leaseMs,
    );
    await pass.end();
    pass.release();
  });

  it("takes the call when a try committed and then reported an error", async () => {
    let tries = 0;
    const { context, run } = withTake(async (write) => {
      tries++;
      const taken = await write();
      if (tries === 1) throw new Error("connection lost after commit");
      return taken;
    });
    run.id = await waitingRun(context);
    const pass = await testPass(context, run.id, { approved: [0] });
    await takeApproved(context, pass, 0);
    expect(tries).toBe(2);
    expect((await context.journal.getEntry(run.id, 0))?.state).toBe("executing");
    expect((await context.journal.getExecution(run.id))?.status).toBe("running");
    await pass.end();
    pass.release();
  });

  it("fails the run when a try threw and the call was withdrawn before the next", async () => {
    let tries = 0;
    const { context, run } = withTake(async (write, base, id) => {
      tries++;
      if (tries === 1) {
        await base.journal.updateEntry(id(), 0, ["approved"], { state: "withdrawn" });
        throw new Error("connection reset");
      }
      return write();
    });
    run.id = await waitingRun(context);
    const pass = await testPass(context, run.id, { approved: [0] });
    await expect(takeApproved(context, pass, 0)).rejects.toMatchObject({ code: "ABORTED" });
    expect((await context.journal.getEntry(run.id, 0))?.state).toBe("withdrawn");
    expect(await context.journal.getExecution(run.id)).toMatchObject({
      status: "error",
      error: "Call #0 is no longer waiting for approval; the run stopped.",
    });
    await pass.end();
    pass.release();
  });

  it("does not take a call executing under another pass's lease after a try that threw", async () => {
    let tries = 0;
    const other = { owner: "pass_other", expiresAt: 0 };
    const { context, run } = withTake(async (write, base, id) => {
      tries++;
      if (tries === 1) {
        other.expiresAt = base.now() + 60_000;
        await base.journal.updateExecution(id(), ["running"], { lease: other });
        await base.journal.updateEntry(id(), 0, ["approved"], { state: "executing" });
        throw new Error("connection reset");
      }
      return write();
    });
    run.id = await waitingRun(context);
    const pass = await testPass(context, run.id, { approved: [0] });
    await expect(takeApproved(context, pass, 0)).rejects.toMatchObject({
      code: "ABORTED",
      message: LEASE_LOST,
    });
    expect(await context.journal.getExecution(run.id)).toMatchObject({
      status: "running",
      lease: other,
    });
    await pass.end();
    pass.release();
  });

  it("throws the store's error when every try fails, and the call keeps waiting", async () => {
    const { context, run } = withTake(async () => {
      throw new Error("store down");
    });
    run.id = await waitingRun(context);
    const pass = await testPass(context, run.id, { approved: [0] });
    await expect(takeApproved(context, pass, 0)).rejects.toThrow("store down");
    expect((await context.journal.getEntry(run.id, 0))?.state).toBe("approved");
    await pass.end();
    pass.release();
  });

  it("hands over a call taken while a call beside it paused the pass", async () => {
    const base = testContext([]);
    const meanwhile: { run?: () => void } = {};
    const journal = Object.assign(Object.create(base.journal) as Journal, {
      updateEntry: async (...args: Parameters<Journal["updateEntry"]>) => {
        meanwhile.run?.();
        return base.journal.updateEntry(...args);
      },
    });
    const context: RunContext = { ...base, journal };
    const id = await waitingRun(context);
    const pass = await testPass(context, id, { approved: [0] });
    meanwhile.run = () => pass.stop(PAUSE);
    await takeApproved(context, pass, 0);
    expect((await context.journal.getEntry(id, 0))?.state).toBe("executing");
    await pass.end();
    pass.release();
  });
});

describe("an approval whose take reports a store error after it committed", () => {
  it("runs the call once and completes the run", async () => {
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ mail }) => mail.send?.({ to: "bob" }));
    let lost = 0;
    const store = withJournal(memoryStore(), (journal) => ({
      updateEntry: async (...args: Parameters<Journal["updateEntry"]>) => {
        const written = await journal.updateEntry(...args);
        if (args[3].state === "executing" && lost++ === 0) throw new Error("connection lost");
        return written;
      },
    }));
    const runtime = createCodemodeRuntime({ store, executor, connectors: [mail] });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(paused.status).toBe("paused");
    const done = await runtime.approve({ executionId: paused.executionId });
    expect(done.status).toBe("completed");
    expect(lost).toBe(2);
    expect(mail.calls.map((call) => call.method)).toEqual(["send"]);
  });
});

/**
 * Two processes over one storage. Process A approves a run and its pass is held at the write that
 * takes the approved call; meanwhile process B ends the run (or the test takes its lease), and B's
 * withdrawal of the run's waiting calls is held until A's take has answered: the order in which a
 * slower store, or a busier process, would have them.
 */
async function raceTheTake(inner: JournalStore) {
  const atTake = latch();
  const moved = latch();
  const answered = latch();
  const atWithdraw = latch();
  const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
  const executor = new MockExecutor(async ({ mail }) => mail.send?.({ to: "bob" }));
  let time = 1_000_000;
  const now = () => time;
  const here = withJournal(inner, (journal) => ({
    updateEntry: async (...args: Parameters<Journal["updateEntry"]>) => {
      if (args[3].state !== "executing") return journal.updateEntry(...args);
      atTake.open();
      await moved.promise;
      try {
        return await journal.updateEntry(...args);
      } finally {
        answered.open();
      }
    },
  }));
  // another process: the same journal, without this process's registry of passes (no `local`)
  const bare: JournalStore = { specificationVersion: "v1", journal: (name) => inner.journal(name) };
  const elsewhere = withJournal(bare, (journal) => ({
    listEntries: async (...args: Parameters<Journal["listEntries"]>) => {
      if (args[1]?.states?.includes("pending")) {
        atWithdraw.open();
        await answered.promise;
      }
      return journal.listEntries(...args);
    },
  }));
  const a = createCodemodeRuntime({ store: here, executor, connectors: [mail], now });
  const b = createCodemodeRuntime({ store: elsewhere, executor, connectors: [mail], now });
  const paused = await a.execute({ code: "async () => 0" });
  expect(paused.status).toBe("paused");
  const { executionId } = paused;
  const approving = a.approve({ executionId });
  await atTake.promise;
  return {
    mail,
    b,
    executionId,
    approving,
    journal: inner.journal("default"),
    atWithdraw: atWithdraw.promise,
    move: moved.open,
    later: (ms: number) => {
      time += ms;
    },
  };
}

/** The stores raced over: the journal's conditional writes, not the runtime, decide. */
const STORES: Array<[name: string, create: () => JournalStore]> = [
  ["memoryStore", () => memoryStore()],
  ["sqliteStore (better-sqlite3)", () => sqliteStore(new Database(":memory:"))],
];

describe.each(STORES)(
  "an approved call's take over %s, raced by another process",
  (_name, create) => {
    it("never starts a call of a run another process cancelled: cancel's answer holds", async () => {
      const race = await raceTheTake(create());
      const cancelling = race.b.cancel({ executionId: race.executionId, by: "bob" });
      // B wrote the run cancelled and is about to withdraw its waiting call: A's take goes first
      await race.atWithdraw;
      race.move();
      const cancelled = await cancelling;
      expect(cancelled).toMatchObject({
        cancelled: true,
        status: "cancelled",
        was: "running",
        pass: "elsewhere",
        error: expect.stringMatching(/No call of the run starts after a cancellation\.$/),
      });
      const approved = await race.approving;
      expect(race.mail.calls).toEqual([]);
      expect(approved).toMatchObject({
        status: "error",
        error: cancelled.cancelled ? cancelled.error : "",
      });
      expect(await race.b.execution(race.executionId)).toMatchObject({
        status: "cancelled",
        calls: [{ seq: 0, state: "withdrawn" }],
      });
    });

    it("never starts a call of a run another process expired once its lease lapsed", async () => {
      const race = await raceTheTake(create());
      race.later(60_000);
      const expiring = race.b.expirePaused();
      await race.atWithdraw;
      race.move();
      expect(await expiring).toEqual([race.executionId]);
      const approved = await race.approving;
      expect(race.mail.calls).toEqual([]);
      expect(approved).toMatchObject({ status: "error" });
      expect(await race.b.execution(race.executionId)).toMatchObject({
        status: "error",
        calls: [{ seq: 0, state: "withdrawn" }],
      });
    });

    it("never starts a call of a run whose lease another owner took, and writes nothing over it", async () => {
      const race = await raceTheTake(create());
      const run = await race.journal.getExecution(race.executionId);
      const owner = run?.lease?.owner as string;
      const taken = { owner: "pass_other", expiresAt: 2_000_000 };
      expect(
        await race.journal.updateExecution(
          race.executionId,
          ["running"],
          { lease: taken },
          { owner },
        ),
      ).toBe(true);
      race.move();
      const approved = await race.approving;
      expect(race.mail.calls).toEqual([]);
      expect(approved).toMatchObject({
        status: "error",
        error: expect.stringMatching(/^This pass lost its lease on the run/),
      });
      expect(await race.journal.getExecution(race.executionId)).toMatchObject({
        status: "running",
        lease: taken,
      });
      // approved, never taken: the run's new owner runs it when its pass reaches it
      expect((await race.journal.getEntry(race.executionId, 0))?.state).toBe("approved");
    });
  },
);
