import type {
  EntryState,
  ExecutionRecord,
  JournalEntry,
  JournalStore,
  SnippetRecord,
  ToolCallBinding,
} from "@codemode/core";
import { describe, expect } from "vitest";
import { cancelConformance } from "./cancel-conformance.ts";
import { conformanceTest, type KnownGap } from "./known-gaps.ts";
import { leaseConformance } from "./lease-conformance.ts";

export interface JournalStoreConformanceOptions {
  name: string;
  /** a new, empty store for each test */
  createStore: () => JournalStore | Promise<JournalStore>;
  knownGaps?: readonly KnownGap[];
}

let counter = 0;

function execution(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  counter += 1;
  const time = 1_000_000 + counter;
  return {
    id: `exec_${String(time).padStart(16, "0")}_${counter}`,
    code: "async () => 1",
    status: "running",
    connectors: ["github"],
    createdAt: time,
    updatedAt: time,
    ...overrides,
  };
}

function entry(
  executionId: string,
  seq: number,
  overrides: Partial<JournalEntry> = {},
): JournalEntry {
  return {
    executionId,
    seq,
    kind: "call",
    connector: "github",
    method: "list_issues",
    args: '{"repo":"a"}',
    state: "executing",
    requiresApproval: false,
    deferred: false,
    replay: "record",
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  };
}

function binding(overrides: Partial<ToolCallBinding> = {}): ToolCallBinding {
  counter += 1;
  return {
    key: `call_${String(counter).padStart(64, "0")}`,
    executionId: `exec_bound_${counter}`,
    createdAt: 1_000_000 + counter,
    ...overrides,
  };
}

/** The behaviour every journal store shares: executions, entries, snippets, conditional updates. */
export function runJournalStoreConformance(options: JournalStoreConformanceOptions): void {
  const suite = conformanceTest(options.knownGaps);
  const journal = async (name = "default") => (await options.createStore()).journal(name);

  describe(`journal store conformance: ${options.name}`, () => {
    suite.group("executions", (test) => {
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
        expect((await store.listExecutions()).map((record) => record.id)).toEqual([
          newer.id,
          older.id,
        ]);
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
        expect(await store.updateExecution(record.id, ["paused"], { status: "completed" })).toBe(
          false,
        );
        expect(
          await store.updateExecution(record.id, ["running"], { status: "paused", updatedAt: 5 }),
        ).toBe(true);
        expect(await store.getExecution(record.id)).toMatchObject({
          status: "paused",
          updatedAt: 5,
        });
        expect(await store.updateExecution("missing", ["running"], { status: "error" })).toBe(
          false,
        );
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
        expect(await store.updateEntry(record.id, 0, ["executing"], { state: "applied" })).toBe(
          false,
        );
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
        expect(left.sort()).toEqual(
          [terminal[0]?.id, terminal[3]?.id, running.id, paused.id].sort(),
        );
      });

      test("lists stale runs by status and age", async () => {
        const store = await journal();
        const stale = execution({ status: "paused", updatedAt: 10 });
        const fresh = execution({ status: "paused", updatedAt: 1_000 });
        const done = execution({ status: "completed", updatedAt: 10 });
        for (const record of [stale, fresh, done]) await store.createExecution(record);
        expect(
          (await store.listStale(["paused", "running"], 100)).map((record) => record.id),
        ).toEqual([stale.id]);
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
    });

    suite.group("entries", (test) => {
      test("lists only the entries in the states asked for, in seq order", async () => {
        const store = await journal();
        const record = execution();
        await store.createExecution(record);
        await store.putEntry(entry(record.id, 3, { state: "pending" }));
        await store.putEntry(entry(record.id, 0, { state: "applied", result: "1" }));
        await store.putEntry(entry(record.id, 1, { state: "pending" }));
        await store.putEntry(entry(record.id, 2, { state: "executing" }));
        const seqs = async (states: EntryState[]) =>
          (await store.listEntries(record.id, { states })).map((item) => item.seq);
        expect(await seqs(["pending"])).toEqual([1, 3]);
        expect(await seqs(["applied", "executing"])).toEqual([0, 2]);
        expect(await seqs(["reverted"])).toEqual([]);
        expect((await store.listEntries(record.id)).map((item) => item.seq)).toEqual([0, 1, 2, 3]);
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

      test("updates an entry only where its state is still the expected one", async () => {
        const store = await journal();
        const record = execution();
        await store.createExecution(record);
        await store.putEntry(entry(record.id, 0, { state: "pending" }));
        expect(await store.updateEntry(record.id, 0, ["applied"], { state: "reverted" })).toBe(
          false,
        );
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
        expect(await store.applyEntry(record.id, 0, { result: '"again"', updatedAt: 9 })).toBe(
          false,
        );
        expect(await store.applyEntry(record.id, 7, { updatedAt: 9 })).toBe(false);
        expect(await store.listEntries(record.id)).toEqual([
          entry(record.id, 0, { state: "applied", result: '"ok"', updatedAt: 5 }),
          entry(record.id, 1, { state: "applied", error: "failed", updatedAt: 6 }),
          entry(record.id, 2, { state: "pending" }),
          entry(record.id, 3, { state: "applied", replay: "reexecute", updatedAt: 8 }),
        ]);
      });
    });

    suite.group("snippets", (test) => {
      test("saves, replaces, lists by name and deletes snippets", async () => {
        const store = await journal();
        const snippet: SnippetRecord = {
          name: "list-open-prs",
          description: "List open pull requests.",
          code: "async (input) => input",
          inputSchema: '{"type":"object"}',
          connectors: ["github"],
          savedAt: 7,
        };
        await store.putSnippet({ ...snippet, name: "b" });
        await store.putSnippet(snippet);
        await store.putSnippet({ ...snippet, code: "async () => 2" });
        expect(await store.getSnippet("list-open-prs")).toEqual({
          ...snippet,
          code: "async () => 2",
        });
        expect((await store.listSnippets()).map((item) => item.name)).toEqual([
          "b",
          "list-open-prs",
        ]);
        expect(await store.deleteSnippet("b")).toBe(true);
        expect(await store.deleteSnippet("b")).toBe(false);
        expect(await store.getSnippet("b")).toBeUndefined();
      });
    });

    suite.group("tool-call bindings", (test) => {
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
        const shared = await options.createStore();
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
          (await Promise.all(made.map((item) => store.getToolCallBinding(item.key)))).flatMap(
            (item) => (item ? [item.key] : []),
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
        const store = await options.createStore();
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
    });

    suite.group("leases", (test) => leaseConformance(test, () => journal()));
    suite.group("cancellation", (test) => cancelConformance(test, () => journal()));

    suite.group("names", (test) => {
      test("keeps runtimes of different names apart", async () => {
        const store = await options.createStore();
        const research = store.journal("research");
        const operations = store.journal("operations");
        const record = execution();
        await research.createExecution(record);
        await research.putSnippet({ name: "s", code: "1", connectors: [], savedAt: 1 });
        expect(await operations.getExecution(record.id)).toBeUndefined();
        expect(await operations.listExecutions()).toEqual([]);
        expect(await operations.listSnippets()).toEqual([]);
        await operations.createExecution({ ...record });
        expect(await operations.deleteExecution(record.id)).toBe(true);
        expect(await research.getExecution(record.id)).toEqual(record);
        expect(await store.journal("research").getExecution(record.id)).toEqual(record);
      });
    });
  });
}
