import { describe, expect, it } from "vitest";
import type { Journal } from "../../journal-store.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { withJournal } from "../../test/with-journal.ts";
import type { RuntimeEvent } from "../context/runtime-event.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";

const twoSends = new MockExecutor(async ({ mail }) =>
  Promise.all([mail.send?.({ to: "a" }), mail.send?.({ to: "b" })]),
);

describe("store faults in recordApproval", () => {
  it("counts a write that committed but reported a failure, found approved when tried again: the decision names the call it let run", async () => {
    const inner = memoryStore();
    let ambiguous = true;
    const store = withJournal(inner, (journal) => ({
      updateEntry: async (...args: Parameters<Journal["updateEntry"]>) => {
        const done = await journal.updateEntry(...args);
        // the write reached the database; its answer was lost (a dropped connection)
        if (ambiguous && args[3].state === "approved") {
          ambiguous = false;
          throw new Error("connection reset after commit");
        }
        return done;
      },
    }));
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const events: RuntimeEvent[] = [];
    const executor = new MockExecutor(async ({ mail }) => mail.send?.({ to: "a" }));
    const runtime = createCodemodeRuntime({
      store,
      executor,
      connectors: [mail],
      onEvent: (event) => events.push(event),
    });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "completed" });
    expect(mail.calls).toHaveLength(1);
    const decision = events.find((event) => event.type === "decision");
    // the audit of the decision must name the call it let run
    expect(decision).toMatchObject({ decision: "approved", seqs: [0] });
  });

  it("puts back every call it covered when a later write fails: the run waits for each, as before", async () => {
    const inner = memoryStore();
    let ambiguous = true;
    let down = true;
    const store = withJournal(inner, (journal) => ({
      updateEntry: async (...args: Parameters<Journal["updateEntry"]>) => {
        if (down && args[1] === 1 && args[3].state === "approved") {
          throw new Error("connection terminated");
        }
        const done = await journal.updateEntry(...args);
        if (ambiguous && args[1] === 0 && args[3].state === "approved") {
          ambiguous = false;
          throw new Error("connection reset after commit");
        }
        return done;
      },
    }));
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const events: RuntimeEvent[] = [];
    const runtime = createCodemodeRuntime({
      store,
      executor: twoSends,
      connectors: [mail],
      onEvent: (event) => events.push(event),
    });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    await expect(runtime.approve({ executionId })).rejects.toMatchObject({ code: "STORE_FAILED" });
    down = false;
    // what the person is shown now, and what a decision on it runs
    const shown = (await runtime.pending(executionId)).map((call) => call.seq);
    // "nothing ran, and the run still waits": it should wait for both calls, as before
    expect(shown).toEqual([0, 1]);
    expect(await runtime.execution(executionId)).toMatchObject({
      status: "paused",
      calls: [
        { seq: 0, state: "pending" },
        { seq: 1, state: "pending" },
      ],
    });
  });
});
