import { describe, expect, it } from "vitest";
import type { JournalStore } from "../../journal-store.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { callEntry, runningRun, testContext, testPass } from "../../test/run-context.ts";
import { withJournal } from "../../test/with-journal.ts";
import { codec, RECORD_ATTEMPTS } from "../context/values.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { applyOutcome } from "./apply-outcome.ts";

/** A memory store whose `applyEntry` fails its first `failures` writes, as a dropped connection would. */
function failingStore(failures: number): { store: JournalStore; attempts: () => number } {
  const base = memoryStore();
  let attempts = 0;
  const store = withJournal(base, (journal) => ({
    applyEntry: (...args: Parameters<typeof journal.applyEntry>) => {
      attempts++;
      if (attempts <= failures) return Promise.reject(new Error("connection terminated"));
      return journal.applyEntry(...args);
    },
  }));
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

describe("applyOutcome, one step", () => {
  it("records what a call gave, or stops the pass and ends the run in failure when the store keeps failing", async () => {
    const context = testContext([]);
    const id = await runningRun(context);
    const call = { connector: "svc", method: "write" };
    await context.journal.putEntry(callEntry(id, 0, call, { state: "executing" }));
    await context.journal.putEntry(callEntry(id, 1, call, { state: "executing" }));
    const pass = await testPass(context, id);
    await applyOutcome(context, pass, 0, "svc.write", { result: codec.encode(5) });
    expect(await context.journal.getEntry(id, 0)).toMatchObject({
      state: "applied",
      result: codec.encode(5),
    });
    const { journal } = context;
    let attempts = 0;
    context.journal = Object.assign(Object.create(journal), {
      applyEntry: () => {
        attempts++;
        return Promise.reject(new Error("connection terminated"));
      },
    });
    await expect(
      applyOutcome(context, pass, 1, "svc.write", { result: codec.encode(6) }),
    ).rejects.toMatchObject({ code: "ABORTED" });
    expect(attempts).toBe(RECORD_ATTEMPTS);
    expect(pass.endsInFailure).toBe(
      "The outcome of svc.write (#1) could not be recorded (connection terminated): it ran, so the run stops here and nothing runs it again.",
    );
    expect(pass.stopped).toBe(pass.endsInFailure);
    // its entry stays executing: in doubt, never run again
    expect((await journal.getEntry(id, 1))?.state).toBe("executing");
    await pass.end();
    pass.release();
  });
});
