import { describe, expect, it } from "vitest";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
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
});
