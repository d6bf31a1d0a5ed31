import type {
  EntryState,
  ExecutionRecord,
  JournalEntry,
  JournalStore,
  SnippetRecord,
} from "@codemode/core";
import { describe, expect } from "vitest";
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

/** The behaviour every journal store shares: executions, entries, snippets, conditional updates. */
export function runJournalStoreConformance(options: JournalStoreConformanceOptions): void {
  const test = conformanceTest(options.knownGaps);
  const journal = async (name = "default") => (await options.createStore()).journal(name);

  describe(`journal store conformance: ${options.name}`, () => {
    describe("executions", () => {
      const group = "executions";
      test(group, "creates and reads back a run with all its fields", async () => {
        const store = await journal();
        const record = execution({
          result: '{"a":1}',
          error: "e",
          logs: ["x", "y"],
          connectors: ["a", "b"],
        });
        await store.createExecution(record);
        expect(await store.getExecution(record.id)).toEqual(record);
        expect(await store.getExecution("missing")).toBeUndefined();
      });

      test(group, "lists newest first, with a limit and a status filter", async () => {
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

      test(group, "updates only where the status is still the expected one", async () => {
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

      test(group, "lets exactly one of two racing updates win", async () => {
        const store = await journal();
        const record = execution({ status: "paused" });
        await store.createExecution(record);
        const outcomes = await Promise.all([
          store.updateExecution(record.id, ["paused"], { status: "running" }),
          store.updateExecution(record.id, ["paused"], { status: "rejected" }),
        ]);
        expect(outcomes.filter(Boolean)).toHaveLength(1);
      });

      test(group, "clears a field set to undefined", async () => {
        const store = await journal();
        const record = execution({ error: "old" });
        await store.createExecution(record);
        await store.updateExecution(record.id, ["running"], { error: undefined });
        expect((await store.getExecution(record.id))?.error).toBeUndefined();
      });

      test(group, "deletes a run with its entries", async () => {
        const store = await journal();
        const record = execution();
        await store.createExecution(record);
        await store.putEntry(entry(record.id, 0));
        expect(await store.deleteExecution(record.id)).toBe(true);
        expect(await store.getExecution(record.id)).toBeUndefined();
        expect(await store.listEntries(record.id)).toEqual([]);
        expect(await store.deleteExecution(record.id)).toBe(false);
      });

      test(
        group,
        "keeps each run's entries apart, through deletion and a new run of the same id",
        async () => {
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
        },
      );

      test(group, "refuses an entry for a run it does not have", async () => {
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

      test(
        group,
        "prunes terminal runs beyond the newest, never running, paused or the excepted one",
        async () => {
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
        },
      );

      test(group, "lists stale runs by status and age", async () => {
        const store = await journal();
        const stale = execution({ status: "paused", updatedAt: 10 });
        const fresh = execution({ status: "paused", updatedAt: 1_000 });
        const done = execution({ status: "completed", updatedAt: 10 });
        for (const record of [stale, fresh, done]) await store.createExecution(record);
        expect(
          (await store.listStale(["paused", "running"], 100)).map((record) => record.id),
        ).toEqual([stale.id]);
      });

      test(group, "keeps a million characters of text whole", async () => {
        const store = await journal();
        const big = "x".repeat(1_000_000);
        const record = execution({ code: big, result: big });
        await store.createExecution(record);
        const read = await store.getExecution(record.id);
        expect(read?.code.length).toBe(1_000_000);
        expect(read?.result).toBe(big);
      });
    });

    describe("entries", () => {
      const group = "entries";
      test(group, "lists only the entries in the states asked for, in seq order", async () => {
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

      test(group, "puts, replaces and lists entries in seq order", async () => {
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

      test(group, "updates an entry only where its state is still the expected one", async () => {
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

      test(group, "applies an executing entry once, with its result or its error", async () => {
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

    describe("snippets", () => {
      const group = "snippets";
      test(group, "saves, replaces, lists by name and deletes snippets", async () => {
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

    leaseConformance(test, () => journal());

    describe("names", () => {
      const group = "names";
      test(group, "keeps runtimes of different names apart", async () => {
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
