import type { ExecutionRecord, Journal, JournalEntry } from "@codemode/core";
import { expect } from "vitest";
import type { DeclareTest } from "./known-gaps.ts";

let counter = 0;

function run(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  counter += 1;
  const time = 2_000_000 + counter;
  return {
    id: `exec_cancel_${String(time).padStart(16, "0")}_${counter}`,
    code: "async () => 1",
    status: "running",
    connectors: ["ledger"],
    createdAt: time,
    updatedAt: time,
    ...overrides,
  };
}

function call(executionId: string, seq: number, state: JournalEntry["state"]): JournalEntry {
  return {
    executionId,
    seq,
    kind: "call",
    connector: "ledger",
    method: "write",
    args: "{}",
    state,
    requiresApproval: state === "pending",
    deferred: false,
    replay: "record",
    createdAt: 2,
    updatedAt: 2,
  };
}

/** What `runtime.cancel` writes: the decision in the run's error, no lease. */
const CANCELLED = {
  status: "cancelled" as const,
  error: "Cancelled by alice at 1970-01-01T00:33:20.000Z: stop.",
  updatedAt: 2_000_000,
  lease: undefined,
};

/**
 * The cancellation cases of the store suite (`runtime.cancel`): a `cancelled` run is an ended run
 * like the others (kept, listed, pruned, never lapsed); the write that cancels a running run
 * takes it from its lease's owner, whose later claims and renewals then fail while the outcome of
 * a call it had started is still recorded; and a cancellation racing another writer of the run
 * (the pass finishing, an approval taking it) is decided once.
 */
export function cancelConformance(test: DeclareTest, journal: () => Promise<Journal>): void {
  test("keeps a cancelled run as an ended one: listed, pruned, never lapsed", async () => {
    const store = await journal();
    const older = run({ status: "cancelled", error: CANCELLED.error });
    const newer = run({ status: "completed" });
    const paused = run({ status: "paused" });
    for (const record of [older, newer, paused]) await store.createExecution(record);
    expect(await store.getExecution(older.id)).toEqual(older);
    expect(
      (await store.listExecutions({ statuses: ["cancelled"] })).map((record) => record.id),
    ).toEqual([older.id]);
    expect(await store.listLapsed(Number.MAX_SAFE_INTEGER)).toEqual([]);
    expect(await store.listStale(["paused", "running"], Number.MAX_SAFE_INTEGER)).toHaveLength(1);
    expect(await store.pruneExecutions(1)).toEqual([older.id]);
    expect((await store.listExecutions()).map((record) => record.id).sort()).toEqual(
      [newer.id, paused.id].sort(),
    );
  });

  test("cancels a running run from outside its lease: its owner's claims and renewals fail after, an outcome it had started is still recorded", async () => {
    const store = await journal();
    const record = run({ lease: { owner: "pass_a", expiresAt: 9_000_000 } });
    await store.createExecution(record);
    expect(await store.putEntry(call(record.id, 0, "executing"), { owner: "pass_a" })).toBe(true);
    expect(await store.putEntry(call(record.id, 1, "pending"), { owner: "pass_a" })).toBe(true);
    // the cancellation: a conditional write on the status only, whoever holds the lease
    expect(await store.updateExecution(record.id, ["running", "paused"], CANCELLED)).toBe(true);
    const cancelled = await store.getExecution(record.id);
    expect(cancelled).toMatchObject({ status: "cancelled", error: CANCELLED.error });
    expect(cancelled?.lease).toBeUndefined();
    // the owner finds out at its next write under the lease
    expect(await store.putEntry(call(record.id, 2, "executing"), { owner: "pass_a" })).toBe(false);
    expect(
      await store.putEntry(call(record.id, 2, "executing"), {
        owner: "pass_a",
        renewUntil: 9_500_000,
      }),
    ).toBe(false);
    expect(await store.getEntry(record.id, 2)).toBeUndefined();
    expect(
      await store.updateExecution(
        record.id,
        ["running"],
        { lease: { owner: "pass_a", expiresAt: 9_500_000 } },
        { owner: "pass_a" },
      ),
    ).toBe(false);
    expect(
      await store.updateExecution(
        record.id,
        ["running"],
        { status: "completed", lease: undefined },
        { owner: "pass_a" },
      ),
    ).toBe(false);
    // what the call it had started gave is recorded; the waiting call is withdrawn
    expect(await store.applyEntry(record.id, 0, { result: '"sent"', updatedAt: 3 })).toBe(true);
    expect(await store.updateEntry(record.id, 1, ["pending"], { state: "withdrawn" })).toBe(true);
    // an approval that comes late takes nothing
    expect(await store.updateEntry(record.id, 1, ["pending"], { state: "executing" })).toBe(false);
    expect(await store.listEntries(record.id)).toMatchObject([
      { seq: 0, state: "applied", result: '"sent"' },
      { seq: 1, state: "withdrawn" },
    ]);
    expect(await store.getExecution(record.id)).toMatchObject({ status: "cancelled" });
    // ended: a cancellation (or anything else that expects it live) changes it no more
    expect(await store.updateExecution(record.id, ["running", "paused"], CANCELLED)).toBe(false);
  });

  test("decides a cancellation racing the pass's own end once", async () => {
    const store = await journal();
    const record = run({ lease: { owner: "pass_a", expiresAt: 9_000_000 } });
    await store.createExecution(record);
    const [cancelled, completed] = await Promise.all([
      store.updateExecution(record.id, ["running"], CANCELLED),
      store.updateExecution(
        record.id,
        ["running"],
        { status: "completed", result: "1", lease: undefined },
        { owner: "pass_a" },
      ),
    ]);
    expect([cancelled, completed].filter(Boolean)).toHaveLength(1);
    expect((await store.getExecution(record.id))?.status).toBe(
      cancelled ? "cancelled" : "completed",
    );
  });

  test("decides a cancellation racing an approval of a paused run once", async () => {
    const store = await journal();
    const record = run({ status: "paused" });
    await store.createExecution(record);
    await store.putEntry(call(record.id, 0, "pending"));
    const [cancelled, taken] = await Promise.all([
      store.updateExecution(record.id, ["paused"], CANCELLED),
      store.updateExecution(record.id, ["paused"], {
        status: "running",
        lease: { owner: "pass_b", expiresAt: 9_000_000 },
      }),
    ]);
    expect([cancelled, taken].filter(Boolean)).toHaveLength(1);
    const now = await store.getExecution(record.id);
    expect(now?.status).toBe(cancelled ? "cancelled" : "running");
    // the loser's claim on the run holds nothing
    expect(await store.putEntry(call(record.id, 1, "executing"), { owner: "pass_b" })).toBe(taken);
  });
}
