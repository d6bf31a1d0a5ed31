import { describe, expect, it } from "vitest";
import type { Journal } from "../../journal-store.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor, type MockSandbox } from "../../test/mock-executor.ts";
import { inAnotherProcess } from "../../test/with-journal.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";

function latch() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open: () => open(), opened };
}

describe("a cancel in another process racing an approval's write", () => {
  it("withdraws every call, the approved one too, when the approving process stops after its write", async () => {
    const inner = memoryStore();
    const approvingWrite = latch(); // process A is about to write #0 approved
    const cancelListed = latch(); // process B has read what waits
    const approvedWritten = latch(); // A's write of #0 is done
    // process A stops (crashes) right after its write of #0: it writes nothing more
    let dead = false;
    const gone = () => Promise.reject(new Error("process A is gone"));
    const a = inAnotherProcess(inner, (journal) => ({
      getExecution: (...args: Parameters<Journal["getExecution"]>) =>
        dead ? gone() : journal.getExecution(...args),
      updateExecution: (...args: Parameters<Journal["updateExecution"]>) =>
        dead ? gone() : journal.updateExecution(...args),
      listEntries: (...args: Parameters<Journal["listEntries"]>) =>
        dead ? gone() : journal.listEntries(...args),
      updateEntry: async (...args: Parameters<Journal["updateEntry"]>) => {
        if (dead) return gone();
        if (args[1] === 0 && args[3].state === "approved") {
          approvingWrite.open();
          await cancelListed.opened;
          const done = await journal.updateEntry(...args);
          dead = true;
          approvedWritten.open();
          return done;
        }
        return journal.updateEntry(...args);
      },
    }));
    const b = inAnotherProcess(inner, (journal) => ({
      listEntries: async (...args: Parameters<Journal["listEntries"]>) => {
        const listed = await journal.listEntries(...args);
        if (args[1]?.states?.includes("approved")) {
          cancelListed.open();
          await approvedWritten.opened;
        }
        return listed;
      },
    }));
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const program = async ({ mail }: MockSandbox) =>
      Promise.all([mail.send?.({ to: "a" }), mail.send?.({ to: "b" })]);
    const runtimeA = createCodemodeRuntime({
      store: a,
      executor: new MockExecutor(program),
      connectors: [mail],
    });
    const cancelledEvents: number[][] = [];
    const runtimeB = createCodemodeRuntime({
      store: b,
      onEvent: (event) => {
        if (event.type === "decision" && event.decision === "cancelled")
          cancelledEvents.push(event.seqs);
      },
      executor: new MockExecutor(program),
      connectors: [mail],
    });
    const { executionId } = await runtimeA.execute({ code: "async () => 0" });
    const approving = runtimeA.approve({ executionId });
    await approvingWrite.opened;
    const cancelled = await runtimeB.cancel({ executionId });
    expect(cancelled).toMatchObject({ cancelled: true });
    await approving.catch(() => undefined);
    expect(mail.calls).toEqual([]);
    const run = await runtimeB.execution(executionId);
    expect(run?.status).toBe("cancelled");
    // a cancelled run withdraws every call it waited for or had approved
    expect(run?.calls.map((call) => call.state)).toEqual(["withdrawn", "withdrawn"]);
    expect(cancelledEvents).toEqual([[0, 1]]);
  });
});
