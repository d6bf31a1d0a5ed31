import { describe, expect, it } from "vitest";
import type { Journal } from "../../journal-store.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { withJournal } from "../../test/with-journal.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";

describe("recordApproval", () => {
  it("writes the calls an approval covers approved; a store that fails leaves the run waiting as it was, and nothing runs", async () => {
    const inner = memoryStore();
    let down = false;
    // the store fails every write of an approval of call #1 while it is down
    const store = withJournal(inner, (journal) => ({
      updateEntry: async (...args: Parameters<Journal["updateEntry"]>) => {
        if (down && args[1] === 1 && args[3].state === "approved") {
          throw new Error("connection terminated");
        }
        return journal.updateEntry(...args);
      },
    }));
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ mail }) =>
      Promise.all([mail.send?.({ to: "a" }), mail.send?.({ to: "b" })]),
    );
    const runtime = createCodemodeRuntime({ store, executor, connectors: [mail] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    down = true;
    await expect(runtime.approve({ executionId })).rejects.toMatchObject({
      code: "STORE_FAILED",
      message: expect.stringMatching(
        /^The approval could not be recorded \(connection terminated\)/,
      ),
    });
    // #0 was written approved, then put back: the run waits for both, as before
    expect(await runtime.execution(executionId)).toMatchObject({
      status: "paused",
      calls: [
        { seq: 0, state: "pending" },
        { seq: 1, state: "pending" },
      ],
    });
    expect(mail.calls).toEqual([]);
    down = false;
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "completed" });
    expect(mail.calls.map((call) => call.input)).toEqual([{ to: "a" }, { to: "b" }]);
  });
});
