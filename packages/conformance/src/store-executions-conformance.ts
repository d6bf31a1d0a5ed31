// The executions group of the journal store suite: a run with all its fields, listing (newest first,
// limit, status), conditional updates and their races, cleared fields, deletion with entries, stale
// runs, a million characters of text.
import { expect } from "vitest";
import type { StoreGroup } from "./store-group.ts";
import { entry, execution } from "./store-records.ts";

/** The "executions" group. */
export function executionsTests({ test, journal }: StoreGroup): void {
  test("creates and reads back a run with all its fields", async () => {
    const store = await journal();
    const record = execution({
      result: '{"a":1}',
      error: "e",
      logs: ["x", "y"],
      connectors: ["a", "b"],
      lease: { owner: "pass_1", expiresAt: 2_000_000 },
      seed: "0123456789abcdef0123456789abcdef",
    });
    await store.createExecution(record);
    expect(await store.getExecution(record.id)).toEqual(record);
    expect(await store.getExecution("missing")).toBeUndefined();
  });

  test("lists newest first, with a limit and a status filter", async () => {
    const store = await journal();
    const older = execution({ status: "completed" });
    const newer = execution({ status: "paused" });
    await store.createExecution(older);
    await store.createExecution(newer);
    expect((await store.listExecutions()).map((record) => record.id)).toEqual([newer.id, older.id]);
    expect((await store.listExecutions({ limit: 1 })).map((record) => record.id)).toEqual([
      newer.id,
    ]);
    expect(
      (await store.listExecutions({ statuses: ["completed"] })).map((record) => record.id),
    ).toEqual([older.id]);
  });

  test("updates only where the status is still the expected one", async () => {
    const store = await journal();
    const record = execution();
    await store.createExecution(record);
    expect(await store.updateExecution(record.id, ["paused"], { status: "completed" })).toBe(false);
    expect(
      await store.updateExecution(record.id, ["running"], { status: "paused", updatedAt: 5 }),
    ).toBe(true);
    expect(await store.getExecution(record.id)).toMatchObject({
      status: "paused",
      updatedAt: 5,
    });
    expect(await store.updateExecution("missing", ["running"], { status: "error" })).toBe(false);
  });

  test("lets exactly one of two racing updates win", async () => {
    const store = await journal();
    const record = execution({ status: "paused" });
    await store.createExecution(record);
    const outcomes = await Promise.all([
      store.updateExecution(record.id, ["paused"], { status: "running" }),
      store.updateExecution(record.id, ["paused"], { status: "rejected" }),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });

  test("clears a field set to undefined", async () => {
    const store = await journal();
    const record = execution({ error: "old" });
    await store.createExecution(record);
    await store.updateExecution(record.id, ["running"], { error: undefined });
    expect((await store.getExecution(record.id))?.error).toBeUndefined();
  });

  test("deletes a run with its entries", async () => {
    const store = await journal();
    const record = execution();
    await store.createExecution(record);
    await store.putEntry(entry(record.id, 0));
    expect(await store.deleteExecution(record.id)).toBe(true);
    expect(await store.getExecution(record.id)).toBeUndefined();
    expect(await store.listEntries(record.id)).toEqual([]);
    expect(await store.deleteExecution(record.id)).toBe(false);
  });

  test("keeps each run's entries apart, through deletion and a new run of the same id", async () => {
    const store = await journal();
    const first = execution();
    const second = execution();
    await store.createExecution(first);
    await store.createExecution(second);
    for (const seq of [0, 1, 2]) await store.putEntry(entry(first.id, seq));
    await store.putEntry(entry(second.id, 0, { state: "pending" }));
    expect((await store.listEntries(first.id)).map((item) => item.seq)).toEqual([0, 1, 2]);
    expect(await store.listEntries(second.id)).toMatchObject([{ seq: 0, state: "pending" }]);
    expect(await store.deleteExecution(first.id)).toBe(true);
    expect(await store.listEntries(second.id)).toHaveLength(1);
    await store.createExecution({ ...first });
    expect(await store.listEntries(first.id)).toEqual([]);
    expect(await store.getEntry(first.id, 1)).toBeUndefined();
  });

  test("refuses an entry for a run it does not have", async () => {
    const store = await journal();
    const record = execution();
    await expect(store.putEntry(entry(record.id, 0))).rejects.toThrow(/No execution/);
    await store.createExecution(record);
    await store.deleteExecution(record.id);
    await expect(store.putEntry(entry(record.id, 0))).rejects.toThrow(/No execution/);
    expect(await store.updateEntry(record.id, 0, ["executing"], { state: "applied" })).toBe(false);
    expect(await store.applyEntry(record.id, 0, { result: "1", updatedAt: 2 })).toBe(false);
    expect(await store.listEntries(record.id)).toEqual([]);
  });

  test("prunes terminal runs beyond the newest, never running, paused or the excepted one", async () => {
    const store = await journal();
    const terminal = [
      execution({ status: "completed" }),
      execution({ status: "error" }),
      execution({ status: "rejected" }),
      execution({ status: "rolled_back" }),
    ];
    const running = execution({ status: "running" });
    const paused = execution({ status: "paused" });
    for (const record of [...terminal, running, paused]) await store.createExecution(record);
    const removed = await store.pruneExecutions(1, terminal[0]?.id);
    expect(removed.sort()).toEqual([terminal[1]?.id, terminal[2]?.id].sort());
    const left = (await store.listExecutions()).map((record) => record.id);
    expect(left.sort()).toEqual([terminal[0]?.id, terminal[3]?.id, running.id, paused.id].sort());
  });

  test("lists stale runs by status and age", async () => {
    const store = await journal();
    const stale = execution({ status: "paused", updatedAt: 10 });
    const fresh = execution({ status: "paused", updatedAt: 1_000 });
    const done = execution({ status: "completed", updatedAt: 10 });
    for (const record of [stale, fresh, done]) await store.createExecution(record);
    expect((await store.listStale(["paused", "running"], 100)).map((record) => record.id)).toEqual([
      stale.id,
    ]);
  });

  test("keeps a million characters of text whole", async () => {
    const store = await journal();
    const big = "x".repeat(1_000_000);
    const record = execution({ code: big, result: big });
    await store.createExecution(record);
    const read = await store.getExecution(record.id);
    expect(read?.code.length).toBe(1_000_000);
    expect(read?.result).toBe(big);
  });
}
