import { describe, expect, it } from "vitest";
import { DEFAULT_LEASE_MS, LIVENESS_MS } from "../../invariants.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";

describe("history", () => {
  it("pending() lists the calls of paused runs only", async () => {
    const gate = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ gate }) =>
      Promise.all([gate.open?.({ a: 1 }), gate.open?.({ b: 2 })]),
    );
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(await runtime.pending(paused.executionId)).toMatchObject([
      { seq: 0, args: { a: 1 } },
      { seq: 1, args: { b: 2 } },
    ]);
    expect(await runtime.pending()).toHaveLength(2);
    await runtime.reject({ executionId: paused.executionId, seq: 1 });
    expect(await runtime.pending(paused.executionId)).toEqual([]);
    expect(await runtime.pending()).toEqual([]);
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
    const store = {
      journal(name: string) {
        const journal = base.journal(name);
        return Object.assign(Object.create(journal), {
          updateEntry: (...args: Parameters<typeof journal.updateEntry>) =>
            args[3].state === "withdrawn" && failures-- > 0
              ? Promise.reject(new Error("connection terminated"))
              : journal.updateEntry(...args),
        });
      },
    };
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
