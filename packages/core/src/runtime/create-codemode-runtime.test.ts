import { describe, expect, it } from "vitest";
import { DEFAULT_LEASE_MS, MAX_LEASE_MS, MIN_LEASE_MS } from "../invariants.ts";
import { memoryStore } from "../memory-store.ts";
import { mockConnector } from "../test/mock-connector.ts";
import { MockExecutor } from "../test/mock-executor.ts";
import type { RuntimeEvent } from "./context/runtime-event.ts";
import { type CodemodeRuntimeOptions, createCodemodeRuntime } from "./create-codemode-runtime.ts";

describe("createCodemodeRuntime", () => {
  it("refuses options it cannot run with, saying what is missing", () => {
    const store = memoryStore();
    const executor = new MockExecutor(() => 1);
    const refused = (options: unknown) => () =>
      createCodemodeRuntime(options as CodemodeRuntimeOptions);
    expect(refused(undefined)).toThrow(/needs an executor/);
    expect(refused({ store, connectors: [] })).toThrow(/needs an executor/);
    expect(refused({ store, executor })).toThrow(/needs connectors: an array/);
    expect(refused({ executor, connectors: [] })).toThrow(/needs a store/);
    expect(refused({ store, executor, connectors: [], name: "my runtime" })).toThrow(
      /may only use letters, digits/,
    );
    for (const leaseMs of [MIN_LEASE_MS - 1, MAX_LEASE_MS + 1, Number.NaN]) {
      expect(refused({ store, executor, connectors: [], leaseMs })).toThrow(
        expect.objectContaining({ code: "INVALID_CONFIG" }),
      );
    }
    expect(refused({ store, executor, connectors: [], leaseMs: DEFAULT_LEASE_MS })).not.toThrow();
    for (const budget of [-1, 1.5, Number.NaN, "16"]) {
      for (const name of ["maxLookups", "maxSnippetRuns"]) {
        expect(refused({ store, executor, connectors: [], limits: { [name]: budget } })).toThrow(
          expect.objectContaining({
            code: "INVALID_CONFIG",
            message: expect.stringContaining(`limits.${name} must be a whole number`),
          }),
        );
      }
    }
    expect(
      refused({ store, executor, connectors: [], limits: { maxLookups: 0, maxSnippetRuns: 0 } }),
    ).not.toThrow();
  });

  it("refuses a store of another version of the JournalStore contract, or a journal missing a method", () => {
    const executor = new MockExecutor(() => 1);
    const real = memoryStore();
    const make = (store: unknown) => () =>
      createCodemodeRuntime({
        store,
        executor,
        connectors: [],
      } as unknown as CodemodeRuntimeOptions);
    const invalid = expect.objectContaining({ code: "INVALID_CONFIG" });
    expect(make({ journal: (name: string) => real.journal(name) })).toThrow(invalid);
    expect(
      make({ specificationVersion: "v2", journal: (name: string) => real.journal(name) }),
    ).toThrow(/implements version/);
    const { listSnippets: _dropped, ...partial } = Object.fromEntries(
      Object.entries(Object.getOwnPropertyDescriptors(Object.getPrototypeOf(real.journal("x"))))
        .filter(([key]) => key !== "constructor")
        .map(([key]) => [key, () => undefined]),
    );
    expect(
      make({
        specificationVersion: "v1",
        journal: () => ({ specificationVersion: "v1", ...partial }),
      }),
    ).toThrow(/listSnippets/);
    expect(make(real)).not.toThrow();
  });

  it("hands each method to its step over one context: runs, history, events and the catalog", async () => {
    const store = memoryStore();
    const events: RuntimeEvent["type"][] = [];
    const notes = mockConnector({ name: "notes", methods: { add: {} } });
    const options = {
      store,
      executor: new MockExecutor(async ({ notes }) => notes.add?.({ text: "hi" })),
      connectors: [notes],
      transformResult: (result: unknown) => ({ shaped: result }),
      onEvent: (event: RuntimeEvent) => events.push(event.type),
    };
    const runtime = createCodemodeRuntime(options);
    await runtime.ready();
    expect(runtime.tool().description).toContain("notes");
    const output = await runtime.execute({ code: "async () => notes.add({ text: 'hi' })" });
    expect(output).toMatchObject({ status: "completed", result: { shaped: { text: "hi" } } });
    expect(events).toEqual(["pass-start", "call", "pass-end"]);
    // the history is the journal's: another runtime over the same store and name reads it
    const other = createCodemodeRuntime({ ...options, onEvent: () => {} });
    expect(await other.execution(output.executionId)).toMatchObject({
      status: "completed",
      result: { text: "hi" },
      calls: [{ seq: 0, connector: "notes", method: "add", args: { text: "hi" } }],
    });
    expect((await other.executions()).map((run) => run.id)).toEqual([output.executionId]);
    // a runtime of another name keeps a history of its own
    const named = createCodemodeRuntime({ ...options, name: "second" });
    expect(await named.executions()).toEqual([]);
    await runtime.saveSnippet("add_note", { executionId: output.executionId });
    expect((await runtime.search("add note")).results.map((result) => result.path)).toContain(
      "add_note",
    );
    expect(await runtime.clearHistory()).toBe(1);
    expect(await runtime.execution(output.executionId)).toBeUndefined();
  });
});
