import { describe, expect, it } from "vitest";
import type { Journal } from "../../journal-store.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { withJournal } from "../../test/with-journal.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";

/** a read the connector says may run again (`replay: "reexecute"`): 1 on the first pass, 2 after */
function counter() {
  let n = 0;
  return mockConnector({
    name: "inbox",
    methods: { count: { replay: "reexecute", execute: () => ++n } },
  });
}

describe("an approval the resumed run never reaches", () => {
  it("is withdrawn when the run goes another way and completes", async () => {
    const inbox = counter();
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ inbox, mail }) => {
      const n = await inbox.count({});
      if (n === 1) await mail.send({ to: "boss" });
      return n;
    });
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor,
      connectors: [inbox, mail],
    });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    expect(await runtime.approve({ executionId })).toMatchObject({
      status: "completed",
      result: 2,
    });
    expect(mail.calls).toEqual([]);
    const run = await runtime.execution(executionId);
    // the run has ended: nothing it approved should still read as approved-and-waiting-to-run
    expect(run?.calls.filter((call) => call.state === "approved")).toEqual([]);
  });

  it("is withdrawn when the run diverges at the approved call and fails", async () => {
    const inbox = counter();
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ inbox, mail }) => {
      const n = await inbox.count({});
      await mail.send({ to: n === 1 ? "boss" : "everyone" });
      return n;
    });
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor,
      connectors: [inbox, mail],
    });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "error" });
    expect(mail.calls).toEqual([]);
    const run = await runtime.execution(executionId);
    expect(run?.status).toBe("error");
    expect(run?.calls.filter((call) => call.state === "approved")).toEqual([]);
  });

  it("is looked for only by a pass that started with an approved call: a run that completes at once reads no more", async () => {
    const lists: (readonly string[] | undefined)[] = [];
    const store = withJournal(memoryStore(), (journal) => ({
      listEntries: (...args: Parameters<Journal["listEntries"]>) => {
        lists.push(args[1]?.states);
        return journal.listEntries(...args);
      },
    }));
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const runtime = createCodemodeRuntime({
      store,
      executor: new MockExecutor(async ({ mail }) => mail.send({ to: "boss" })),
      connectors: [mail],
    });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const looked = () => lists.filter((states) => states?.includes("approved")).length;
    expect(looked()).toBe(0);
    await runtime.approve({ executionId });
    // the approval's pass started with the call approved: it looks once, after it completed
    expect(mail.calls).toHaveLength(1);
    expect(looked()).toBe(1);
    lists.length = 0;
    const plain = createCodemodeRuntime({
      store,
      executor: new MockExecutor(async () => 1),
      connectors: [mail],
    });
    expect(await plain.execute({ code: "async () => 1" })).toMatchObject({ status: "completed" });
    expect(looked()).toBe(0);
  });
});
