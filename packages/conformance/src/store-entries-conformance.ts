// The entries group of the journal store suite: entries listed by state in seq order, put and
// replaced, updated only where their state is still the expected one, an executing entry applied once.
import type { EntryState } from "@codemode/core";
import { expect } from "vitest";
import type { StoreGroup } from "./store-group.ts";
import { entry, execution } from "./store-records.ts";

/** The "entries" group. */
export function entriesTests({ test, journal }: StoreGroup): void {
  test("lists only the entries in the states asked for, in seq order", async () => {
    const store = await journal();
    const record = execution();
    await store.createExecution(record);
    await store.putEntry(entry(record.id, 3, { state: "pending" }));
    await store.putEntry(entry(record.id, 0, { state: "applied", result: "1" }));
    await store.putEntry(entry(record.id, 1, { state: "pending" }));
    await store.putEntry(entry(record.id, 2, { state: "executing" }));
    await store.putEntry(entry(record.id, 4, { state: "pending" }));
    // approved by a person, not yet taken by a pass: a state of its own
    expect(await store.updateEntry(record.id, 4, ["pending"], { state: "approved" })).toBe(true);
    const seqs = async (states: EntryState[]) =>
      (await store.listEntries(record.id, { states })).map((item) => item.seq);
    expect(await seqs(["pending"])).toEqual([1, 3]);
    expect(await seqs(["approved"])).toEqual([4]);
    expect(await seqs(["pending", "approved"])).toEqual([1, 3, 4]);
    expect(await seqs(["applied", "executing"])).toEqual([0, 2]);
    expect(await seqs(["reverted"])).toEqual([]);
    expect((await store.listEntries(record.id)).map((item) => item.seq)).toEqual([0, 1, 2, 3, 4]);
  });

  test("puts, replaces and lists entries in seq order", async () => {
    const store = await journal();
    const record = execution();
    await store.createExecution(record);
    await store.putEntry(entry(record.id, 2));
    await store.putEntry(
      entry(record.id, 0, {
        kind: "step",
        connector: "created-at",
        method: "created-at",
        args: undefined,
      }),
    );
    await store.putEntry(
      entry(record.id, 1, { requiresApproval: true, deferred: true, replay: "reexecute" }),
    );
    await store.putEntry(entry(record.id, 2, { state: "applied", result: '"done"' }));
    const entries = await store.listEntries(record.id);
    expect(entries.map((item) => item.seq)).toEqual([0, 1, 2]);
    expect(entries[0]).toEqual(
      entry(record.id, 0, {
        kind: "step",
        connector: "created-at",
        method: "created-at",
        args: undefined,
      }),
    );
    expect(entries[1]).toMatchObject({
      requiresApproval: true,
      deferred: true,
      replay: "reexecute",
    });
    expect(entries[2]).toMatchObject({ state: "applied", result: '"done"' });
    expect(await store.getEntry(record.id, 1)).toEqual(entries[1]);
    expect(await store.getEntry(record.id, 9)).toBeUndefined();
  });

  test("keeps the operation a call was recorded for, exactly, through its updates", async () => {
    const store = await journal();
    const record = execution();
    await store.createExecution(record);
    // a method's operation: one line of visible text, any script, up to 2,000 characters
    const operation = `DELETE https://api.example.com/v1/ítems/{id} 名前 🙂 (request form ${"9".repeat(32)})`;
    await store.putEntry(entry(record.id, 0, { state: "pending", operation }));
    await store.putEntry(entry(record.id, 1, { operation: "x".repeat(2000) }));
    await store.putEntry(entry(record.id, 2));
    expect(await store.getEntry(record.id, 0)).toEqual(
      entry(record.id, 0, { state: "pending", operation }),
    );
    expect((await store.getEntry(record.id, 1))?.operation).toBe("x".repeat(2000));
    // a call recorded without one reads without one
    expect(await store.getEntry(record.id, 2)).toEqual(entry(record.id, 2));
    expect("operation" in ((await store.getEntry(record.id, 2)) ?? {})).toBe(false);
    expect(await store.updateEntry(record.id, 0, ["pending"], { state: "approved" })).toBe(true);
    expect(await store.updateEntry(record.id, 0, ["approved"], { state: "executing" })).toBe(true);
    expect(await store.applyEntry(record.id, 0, { result: "1", updatedAt: 2 })).toBe(true);
    expect((await store.listEntries(record.id, { states: ["applied"] }))[0]).toMatchObject({
      seq: 0,
      operation,
    });
  });

  test("updates an entry only where its state is still the expected one", async () => {
    const store = await journal();
    const record = execution();
    await store.createExecution(record);
    await store.putEntry(entry(record.id, 0, { state: "pending" }));
    expect(await store.updateEntry(record.id, 0, ["applied"], { state: "reverted" })).toBe(false);
    const outcomes = await Promise.all([
      store.updateEntry(record.id, 0, ["pending"], { state: "executing" }),
      store.updateEntry(record.id, 0, ["pending"], { state: "reverted" }),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(
      await store.updateEntry(record.id, 0, ["executing", "reverted"], {
        result: "1",
        error: undefined,
      }),
    ).toBe(true);
    expect((await store.getEntry(record.id, 0))?.result).toBe("1");
  });

  test("updates an entry only while its updatedAt is the one given, when asked: one of two takers", async () => {
    const store = await journal();
    const record = execution();
    await store.createExecution(record);
    await store.putEntry(entry(record.id, 0, { state: "reverting", updatedAt: 5 }));
    const take = (at: number) =>
      store.updateEntry(
        record.id,
        0,
        ["reverting"],
        { state: "reverting", updatedAt: at },
        { unchangedSince: 5 },
      );
    expect(
      await store.updateEntry(record.id, 0, ["reverting"], { updatedAt: 7 }, { unchangedSince: 4 }),
    ).toBe(false);
    const outcomes = await Promise.all([take(8), take(9)]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect((await store.getEntry(record.id, 0))?.updatedAt).toBe(outcomes[0] ? 8 : 9);
    // the state is checked as well
    expect(
      await store.updateEntry(record.id, 0, ["applied"], { updatedAt: 10 }, { unchangedSince: 8 }),
    ).toBe(false);
  });

  test("applies an executing entry once, with its result or its error", async () => {
    const store = await journal();
    const record = execution();
    await store.createExecution(record);
    await store.putEntry(entry(record.id, 0));
    await store.putEntry(entry(record.id, 1));
    await store.putEntry(entry(record.id, 2, { state: "pending" }));
    await store.putEntry(entry(record.id, 3, { replay: "reexecute" }));
    expect(await store.applyEntry(record.id, 0, { result: '"ok"', updatedAt: 5 })).toBe(true);
    expect(await store.applyEntry(record.id, 1, { error: "failed", updatedAt: 6 })).toBe(true);
    expect(await store.applyEntry(record.id, 2, { result: '"no"', updatedAt: 7 })).toBe(false);
    const outcomes = await Promise.all([
      store.applyEntry(record.id, 3, { updatedAt: 8 }),
      store.applyEntry(record.id, 3, { updatedAt: 8 }),
    ]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await store.applyEntry(record.id, 0, { result: '"again"', updatedAt: 9 })).toBe(false);
    expect(await store.applyEntry(record.id, 7, { updatedAt: 9 })).toBe(false);
    expect(await store.listEntries(record.id)).toEqual([
      entry(record.id, 0, { state: "applied", result: '"ok"', updatedAt: 5 }),
      entry(record.id, 1, { state: "applied", error: "failed", updatedAt: 6 }),
      entry(record.id, 2, { state: "pending" }),
      entry(record.id, 3, { state: "applied", replay: "reexecute", updatedAt: 8 }),
    ]);
  });
}
