import { describe, expect, it } from "vitest";
import { DEFAULT_LEASE_MS, LIVENESS_MS } from "../../invariants.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { callEntry, runningRun, testContext } from "../../test/run-context.ts";
import { withJournal } from "../../test/with-journal.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { DEFAULT_EXPIRY_MS, expirePaused } from "./expire.ts";

describe("expirePaused", () => {
  it("keeps a stale paused run that was decided and paused again after the sweep found it", async () => {
    let time = 1_000;
    const base = memoryStore();
    const gate = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
    const program = new MockExecutor(async ({ gate }) => {
      await gate.open?.({ n: 1 });
      return gate.open?.({ n: 2 });
    });
    const now = () => time;
    const elsewhere = createCodemodeRuntime({
      store: base,
      executor: program,
      connectors: [gate],
      now,
    });
    const paused = await elsewhere.execute({ code: "async () => 0" });
    time += 10_000;
    // the sweep lists the run as stale; before it writes, another process approves it, and the
    // run pauses again at a call nobody has been shown yet
    const store = withJournal(base, (journal) => ({
      listStale: async (...args: Parameters<typeof journal.listStale>) => {
        const stale = await journal.listStale(...args);
        const again = await elsewhere.approve({ executionId: paused.executionId });
        expect(again).toMatchObject({ status: "paused", pending: [{ seq: 1 }] });
        return stale;
      },
    }));
    const sweeper = createCodemodeRuntime({ store, executor: program, connectors: [gate], now });
    expect(await sweeper.expirePaused({ maxAgeMs: 5_000 })).toEqual([]);
    const run = await sweeper.execution(paused.executionId);
    expect(run?.status).toBe("paused");
    expect(run?.calls).toMatchObject([{ state: "applied" }, { state: "pending" }]);
  });

  it("expirePaused leaves a paused run whose pass has not reported yet (found by the integrity property)", async () => {
    let time = 1_000;
    const expired: string[][] = [];
    const gate = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ gate }) => gate.open?.({}));
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor,
      now: () => time,
      // the run is paused already when its pass's hooks run: expiry comes in before the report
      connectors: [
        Object.assign(gate, {
          onPassEnd: async () => {
            time += 10;
            expired.push(await runtime.expirePaused({ maxAgeMs: 1 }));
          },
        }),
      ],
    });
    const output = await runtime.execute({ code: "async () => 0" });
    expect(output.status).toBe("paused");
    expect(expired).toEqual([[]]);
    time += 10;
    expect(await runtime.expirePaused({ maxAgeMs: 1 })).toEqual([output.executionId]);
  });

  it("expirePaused ends a stale paused run, and a running run only once no pass has it and its lease lapsed", async () => {
    let time = 1_000_000;
    const store = memoryStore();
    let release = () => {};
    const slow = mockConnector({
      name: "slow",
      methods: { wait: { execute: () => new Promise<void>((resolve) => (release = resolve)) } },
    });
    const executor = new MockExecutor(async ({ slow }) => slow.wait?.({}));
    const runtime = createCodemodeRuntime({ store, executor, connectors: [slow], now: () => time });
    const running = runtime.execute({ code: "async () => 0" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    time += LIVENESS_MS * 10;
    // another runtime over the same store, as a new request would make
    const other = createCodemodeRuntime({ store, executor, connectors: [slow], now: () => time });
    expect(await other.expirePaused({ maxAgeMs: 1 })).toEqual([]);
    release();
    expect((await running).status).toBe("completed");

    const journal = store.journal("default");
    await journal.createExecution({
      id: "exec_dead",
      code: "async () => 0",
      status: "running",
      connectors: [],
      createdAt: time,
      updatedAt: time,
      lease: { owner: "pass_gone", expiresAt: time + DEFAULT_LEASE_MS },
    });
    // a live lease is never taken, whatever maxAgeMs
    time += DEFAULT_LEASE_MS;
    expect(await other.expirePaused({ maxAgeMs: 1 })).toEqual([]);
    time += 1;
    expect(await other.expirePaused()).toEqual(["exec_dead"]);
    expect((await journal.getExecution("exec_dead"))?.lease).toBeUndefined();
  });

  it("expirePaused withdraws an expired run's waiting call through a store error (found by the PostgreSQL fault suite)", async () => {
    let time = 1_000_000;
    const base = memoryStore();
    let failures = 1;
    const store = withJournal(base, (journal) => ({
      updateEntry: (...args: Parameters<typeof journal.updateEntry>) =>
        args[3].state === "withdrawn" && failures-- > 0
          ? Promise.reject(new Error("connection terminated"))
          : journal.updateEntry(...args),
    }));
    const gate = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ gate }) => gate.open?.({}));
    const runtime = createCodemodeRuntime({ store, executor, connectors: [gate], now: () => time });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(paused.status).toBe("paused");
    time += LIVENESS_MS * 10;
    expect(await runtime.expirePaused({ maxAgeMs: 1 })).toEqual([paused.executionId]);
    const [entry] = await base.journal("default").listEntries(paused.executionId);
    expect(entry?.state).toBe("withdrawn");
  });
});

describe("expirePaused, one command", () => {
  it("ends a paused run untouched for maxAgeMs and a running one whose lease lapsed, withdraws their calls and tells the connectors", async () => {
    let time = 1_000_000;
    const ended: string[] = [];
    const gate = Object.assign(mockConnector({ name: "gate", methods: { open: {} } }), {
      disposeExecution: (id: string, status: string) => ended.push(`${id} ${status}`),
    });
    const context = testContext([gate], { now: () => time });
    const paused = await runningRun(context, "exec_paused");
    await context.journal.putEntry(
      callEntry(paused, 0, { connector: "gate", method: "open" }, { state: "pending" }),
    );
    await context.journal.updateExecution(paused, ["running"], {
      status: "paused",
      updatedAt: time,
      lease: undefined,
    });
    const running = await runningRun(context, "exec_running");
    const live = await runningRun(context, "exec_live");
    context.live.add(live);
    const start = time;
    time += DEFAULT_LEASE_MS;
    expect(await expirePaused(context)).toEqual([]);
    time += 1;
    expect(await expirePaused(context)).toEqual([running]);
    time = start + DEFAULT_EXPIRY_MS;
    expect(await expirePaused(context)).toEqual([]);
    time += 1;
    expect(await expirePaused(context)).toEqual([paused]);
    expect(await context.journal.getExecution(paused)).toMatchObject({
      status: "rejected",
      error: "Expired while waiting for approval.",
    });
    expect(await context.journal.getExecution(running)).toMatchObject({ status: "error" });
    expect((await context.journal.getEntry(paused, 0))?.state).toBe("withdrawn");
    // a pass of this process still has it
    expect((await context.journal.getExecution(live))?.status).toBe("running");
    expect(ended.sort()).toEqual([`${paused} rejected`, `${running} error`]);
    context.live.delete(live);
  });
});
