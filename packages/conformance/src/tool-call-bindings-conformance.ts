// The tool-call bindings group of the journal store suite: the first binding of a key is kept, what
// it showed is set once, bindings outlive their runs and stay apart per runtime name, and keys,
// execution ids and shown text beyond sane limits are refused.
import type { ToolCallBinding } from "@codemode/core";
import { expect } from "vitest";
import type { StoreGroup } from "./store-group.ts";
import { binding, entry, execution } from "./store-records.ts";

/** The "tool-call bindings" group. */
export function toolCallBindingsTests({ test, journal, createStore }: StoreGroup): void {
  test("keeps the first binding of a key and reads it back", async () => {
    const store = await journal();
    const first = binding();
    expect(await store.getToolCallBinding(first.key)).toBeUndefined();
    expect(await store.bindToolCall(first)).toEqual(first);
    const second = { ...first, executionId: "exec_other", createdAt: first.createdAt + 1 };
    expect(await store.bindToolCall(second)).toEqual(first);
    expect(await store.getToolCallBinding(first.key)).toEqual(first);
    const shown = binding({ shown: '{"version":1}' });
    expect(await store.bindToolCall(shown)).toEqual(shown);
    expect(await store.getToolCallBinding(shown.key)).toEqual(shown);
  });

  test("lets one of many binds of a key at once win, and tells each the same", async () => {
    // two journals of one name over one store, as two runtimes (or processes) have
    const shared = await createStore();
    const store = shared.journal("default");
    const other = shared.journal("default");
    const key = binding().key;
    const tries = Array.from({ length: 8 }, (_, index) =>
      binding({ key, executionId: `exec_try_${index}` }),
    );
    const kept = await Promise.all(
      tries.map((item, index) => (index % 2 ? other : store).bindToolCall(item)),
    );
    const winner = tries.find((item) => item.executionId === kept[0]?.executionId);
    expect(winner).toBeDefined();
    expect(kept).toEqual(tries.map(() => winner));
    expect(await store.getToolCallBinding(key)).toEqual(winner);
  });

  test("sets what a binding showed once, only on a binding it has", async () => {
    const store = await journal();
    const bound = binding();
    expect(await store.showToolCall(bound.key, '"first"')).toBeUndefined();
    await store.bindToolCall(bound);
    expect(await store.showToolCall(bound.key, '"first"')).toEqual({
      ...bound,
      shown: '"first"',
    });
    expect(await store.showToolCall(bound.key, '"second"')).toEqual({
      ...bound,
      shown: '"first"',
    });
    expect(await store.getToolCallBinding(bound.key)).toMatchObject({ shown: '"first"' });
    // a binding made with what it showed keeps it; two shows at once agree on the first
    const made = binding({ shown: '"made"' });
    await store.bindToolCall(made);
    expect(await store.showToolCall(made.key, '"later"')).toEqual(made);
    const raced = binding();
    await store.bindToolCall(raced);
    const outcomes = await Promise.all(
      ['"a"', '"b"', '"c"', '"d"'].map((text) => store.showToolCall(raced.key, text)),
    );
    const first = outcomes[0]?.shown;
    expect(['"a"', '"b"', '"c"', '"d"']).toContain(first);
    expect(outcomes.map((item) => item?.shown)).toEqual([first, first, first, first]);
    expect((await store.getToolCallBinding(raced.key))?.shown).toBe(first);
  });

  test("prunes the bindings beyond the newest, by creation time, then as they were made", async () => {
    const store = await journal();
    const made = [
      binding({ createdAt: 50 }),
      binding({ createdAt: 10 }),
      binding({ createdAt: 50 }),
      binding({ createdAt: 30 }),
    ];
    for (const item of made) await store.bindToolCall(item);
    const left = async () =>
      (await Promise.all(made.map((item) => store.getToolCallBinding(item.key)))).flatMap((item) =>
        item ? [item.key] : [],
      );
    expect(await store.pruneToolCallBindings(4)).toBe(0);
    expect(await store.pruneToolCallBindings(Number.POSITIVE_INFINITY)).toBe(0);
    expect(await store.pruneToolCallBindings(2)).toBe(2);
    expect(await left()).toEqual([made[0]?.key, made[2]?.key]);
    expect(await store.pruneToolCallBindings(1)).toBe(1);
    expect(await left()).toEqual([made[2]?.key]);
    expect(await store.pruneToolCallBindings(0)).toBe(1);
    expect(await left()).toEqual([]);
    // a key pruned is free again
    const again = { ...(made[0] as ToolCallBinding), executionId: "exec_again" };
    expect(await store.bindToolCall(again)).toEqual(again);
  });

  test("keeps bindings when their runs are deleted or pruned", async () => {
    const store = await journal();
    const deleted = execution({ status: "completed" });
    const pruned = execution({ status: "rolled_back" });
    await store.createExecution(deleted);
    await store.createExecution(pruned);
    await store.putEntry(entry(deleted.id, 0));
    const first = binding({ executionId: deleted.id, shown: '"shown"' });
    const second = binding({ executionId: pruned.id });
    await store.bindToolCall(first);
    await store.bindToolCall(second);
    expect(await store.deleteExecution(deleted.id)).toBe(true);
    expect(await store.pruneExecutions(0)).toEqual([pruned.id]);
    expect(await store.listExecutions()).toEqual([]);
    expect(await store.getToolCallBinding(first.key)).toEqual(first);
    expect(await store.getToolCallBinding(second.key)).toEqual(second);
    // and a run made again under a bound id does not change its binding
    await store.createExecution({ ...deleted, status: "running" });
    expect(await store.bindToolCall({ ...first, executionId: "exec_new" })).toEqual(first);
  });

  test("keeps the bindings of runtimes of different names apart", async () => {
    const store = await createStore();
    const research = store.journal("research");
    const operations = store.journal("operations");
    const ours = binding();
    const theirs = { ...ours, executionId: "exec_operations", createdAt: ours.createdAt + 1 };
    expect(await research.bindToolCall(ours)).toEqual(ours);
    expect(await operations.getToolCallBinding(ours.key)).toBeUndefined();
    expect(await operations.showToolCall(ours.key, '"no"')).toBeUndefined();
    expect(await operations.bindToolCall(theirs)).toEqual(theirs);
    expect(await operations.showToolCall(ours.key, '"theirs"')).toMatchObject({
      executionId: "exec_operations",
      shown: '"theirs"',
    });
    expect(await research.getToolCallBinding(ours.key)).toEqual(ours);
    expect(await operations.pruneToolCallBindings(0)).toBe(1);
    expect(await research.getToolCallBinding(ours.key)).toEqual(ours);
    expect(await store.journal("research").pruneToolCallBindings(1)).toBe(0);
  });

  test("refuses keys, execution ids and shown text beyond sane limits", async () => {
    const store = await journal();
    const refused = { code: "STORE_FAILED" };
    // what the runtime writes fits: a 69-character key, a decision handle of 1,000 calls
    const handle = JSON.stringify({
      version: 1,
      executionId: `exec_${"0".repeat(30)}`,
      calls: Array.from({ length: 1000 }, (_, seq) => ({ seq, digest: "f".repeat(64) })),
    });
    const fits = binding({ shown: handle });
    expect(await store.bindToolCall(fits)).toEqual(fits);
    for (const key of ["k".repeat(10_000), "", "call_\u0000"]) {
      await expect(store.bindToolCall(binding({ key }))).rejects.toMatchObject(refused);
    }
    for (const wrong of [
      binding({ executionId: "e".repeat(100_000) }),
      binding({ executionId: "" }),
      binding({ shown: "s".repeat(1_000_001) }),
    ]) {
      await expect(store.bindToolCall(wrong)).rejects.toMatchObject(refused);
      expect(await store.getToolCallBinding(wrong.key)).toBeUndefined();
    }
    const bound = binding();
    await store.bindToolCall(bound);
    await expect(store.showToolCall(bound.key, "s".repeat(1_000_001))).rejects.toMatchObject(
      refused,
    );
    expect(await store.getToolCallBinding(bound.key)).toEqual(bound);
  });
}
