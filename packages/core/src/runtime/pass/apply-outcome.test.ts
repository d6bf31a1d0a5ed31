import { describe, expect, it } from "vitest";
import type { JournalStore } from "../../journal-store.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { RECORD_ATTEMPTS } from "../context/values.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";

/** A memory store whose `applyEntry` fails its first `failures` writes, as a dropped connection would. */
function failingStore(failures: number): { store: JournalStore; attempts: () => number } {
  const base = memoryStore();
  let attempts = 0;
  const store: JournalStore = {
    journal(name) {
      const journal = base.journal(name);
      return Object.assign(Object.create(journal), {
        applyEntry: (...args: Parameters<typeof journal.applyEntry>) => {
          attempts++;
          if (attempts <= failures) return Promise.reject(new Error("connection terminated"));
          return journal.applyEntry(...args);
        },
      });
    },
  };
  return { store, attempts: () => attempts };
}

describe("applyOutcome", () => {
  const program = new MockExecutor(async ({ svc }) => {
    let caught = "none";
    try {
      await svc.write?.({ amount: 5 });
    } catch (error) {
      caught = (error as Error).message;
    }
    await svc.after?.({});
    return caught;
  });
  const connector = () => mockConnector({ name: "svc", methods: { write: {}, after: {} } });

  it("records the outcome after a store error that passes", async () => {
    const { store, attempts } = failingStore(RECORD_ATTEMPTS - 1);
    const svc = connector();
    const runtime = createCodemodeRuntime({ store, executor: program, connectors: [svc] });
    const output = await runtime.execute({ code: "async () => 0" });
    expect(output).toMatchObject({ status: "completed", result: "none" });
    expect(attempts()).toBe(RECORD_ATTEMPTS + 1);
    expect(svc.calls.map((call) => call.method)).toEqual(["write", "after"]);
  });

  it("stops the run at a call whose outcome cannot be recorded: nothing after it runs, and nothing runs it again", async () => {
    const { store } = failingStore(RECORD_ATTEMPTS);
    const svc = connector();
    const runtime = createCodemodeRuntime({ store, executor: program, connectors: [svc] });
    const output = await runtime.execute({ code: "async () => 0" });
    expect(output).toMatchObject({
      status: "error",
      error: expect.stringMatching(
        /^The outcome of svc\.write \(#0\) could not be recorded \(connection terminated\): it ran, so the run stops here/,
      ),
    });
    expect(svc.calls.map((call) => call.method)).toEqual(["write"]);
    const run = await runtime.execution(output.executionId);
    expect(run?.calls).toMatchObject([{ seq: 0, state: "executing" }]);
    expect(await runtime.approve({ executionId: output.executionId })).toMatchObject({
      status: "error",
    });
    const rollback = await runtime.rollback({ executionId: output.executionId });
    expect(rollback.unrecorded).toEqual([0]);
    expect(svc.calls.map((call) => call.method)).toEqual(["write"]);
  });
});
