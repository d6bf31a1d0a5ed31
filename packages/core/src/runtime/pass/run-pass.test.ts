import { describe, expect, it } from "vitest";
import type { Connector } from "../../connector.ts";
import { decisionHandleOf } from "../../decision-handle.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { runningRun, TEST_OWNER, testContext } from "../../test/run-context.ts";
import { withJournal } from "../../test/with-journal.ts";
import type { RuntimeEvent } from "../context/runtime-event.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { runPass } from "./run-pass.ts";

describe("runPass", () => {
  it("stops waiting for a call that never settles a while after the pass: its outcome is unknown and the run ends", async () => {
    let reached = 0;
    const slow: Connector = {
      specificationVersion: "v1",
      name: "slow",
      methods: () => ({ hang: {} }),
      // ignores its signal and never answers
      invoke: () => {
        reached++;
        return new Promise(() => {});
      },
    };
    const executor = new MockExecutor(({ slow }) => {
      void slow.hang?.({}).catch(() => undefined);
      return "returned";
    });
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor,
      connectors: [slow],
      leaseMs: 300,
    });
    const output = await runtime.execute({ code: "async () => 0" });
    expect(output).toMatchObject({
      status: "error",
      error: expect.stringMatching(
        /^#0 slow\.hang did not settle within 5000 ms after its signal was aborted: .*unknown/,
      ),
    });
    const run = await runtime.execution(output.executionId);
    expect(run?.status).toBe("error");
    expect(run?.calls).toMatchObject([{ seq: 0, state: "error" }]);
    // nothing runs it again
    expect(await runtime.approve({ executionId: output.executionId })).toMatchObject({
      status: "error",
    });
    expect(reached).toBe(1);
  });

  it("refuses an input without code as INVALID_INPUT, starting no run", async () => {
    const executor = new MockExecutor(() => "ran");
    const store = memoryStore();
    const runtime = createCodemodeRuntime({ store, executor, connectors: [] });
    for (const input of ["async () => 1", {}, { code: 1 }, null]) {
      expect(await runtime.execute(input as unknown as { code: string })).toEqual({
        status: "error",
        executionId: "",
        code: "INVALID_INPUT",
        error: expect.stringMatching(/^execute takes \{ code: "async \(\) => …" \}, not /),
      });
    }
    expect(await runtime.executions()).toEqual([]);
    expect((await runtime.execute({ code: "async () => 1" })).status).toBe("completed");
  });

  it("offers the leading recorded calls as a replay hint, and fails the pass on a count it could not have replayed", async () => {
    const shop = mockConnector({
      name: "shop",
      methods: { read: {}, buy: { requiresApproval: true } },
    });
    let lie = false;
    const executor = new MockExecutor(async ({ shop }, request) => {
      if (request.replay) {
        expect(request.replay.calls.map((call) => call.method)).toEqual(["read", "read"]);
        request.replay.advance(lie ? 5 : 0);
      }
      await shop.read?.({ n: 1 });
      await shop.read?.({ n: 2 });
      return shop.buy?.({});
    });
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [shop] });
    const honest = await runtime.execute({ code: "async () => 0" });
    expect((await runtime.approve({ executionId: honest.executionId })).status).toBe("completed");
    lie = true;
    const lied = await runtime.execute({ code: "async () => 1" });
    expect(await runtime.approve({ executionId: lied.executionId })).toMatchObject({
      status: "error",
      error: expect.stringMatching(/reported 5 replayed calls/),
    });
  });

  it("reports only once a call the executor abandoned has settled and been recorded", async () => {
    let settled = false;
    const slow = mockConnector({
      name: "slow",
      methods: {
        wait: {
          execute: () =>
            new Promise((resolve) =>
              setTimeout(() => {
                settled = true;
                resolve("late");
              }, 30),
            ),
        },
      },
    });
    // an executor that returns without awaiting the call, as a timed-out sandbox would
    const executor = new MockExecutor(({ slow }) => {
      void slow.wait?.({}).catch(() => undefined);
      return "early";
    });
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [slow] });
    const output = await runtime.execute({ code: "async () => 0" });
    expect(settled).toBe(true);
    expect(output.status).toBe("completed");
    expect((await runtime.execution(output.executionId))?.calls).toMatchObject([
      { state: "applied", result: "late" },
    ]);
  });

  it("a resumed pass whose run was deleted before it read the journal runs nothing: the run does not start again", async () => {
    // found by store-postgres's surface-integrity run under load (seed 894396834): the host's
    // deleteExecution in one process at once with a person's approval in another; the approval took
    // the paused run, the delete removed it, and the pass read an empty journal and ran the program
    // from the start as a new run (its pass-start said 0 recorded) until its first write failed
    const gate = mockConnector({
      name: "gate",
      methods: { note: {}, open: { requiresApproval: true } },
    });
    const executor = new MockExecutor(async ({ gate }) => {
      await gate.note?.({ n: 1 });
      return gate.open?.({ door: 1 });
    });
    const inner = memoryStore();
    /** what arrives just before the next read of a whole journal (a pass's), once */
    let beforePassRead: (() => Promise<unknown>) | undefined;
    const store = withJournal(inner, (journal) => ({
      listEntries: async (...args: Parameters<typeof journal.listEntries>) => {
        const arrives = beforePassRead;
        if (arrives && args[1] === undefined) {
          beforePassRead = undefined;
          await arrives();
        }
        return journal.listEntries(...args);
      },
    }));
    const events: RuntimeEvent[] = [];
    const options = { store, executor, connectors: [gate] };
    const approving = createCodemodeRuntime({ ...options, onEvent: (event) => events.push(event) });
    const deleting = createCodemodeRuntime(options);
    const { executionId, status } = await approving.execute({ code: "async () => 0" });
    expect(status).toBe("paused");
    const handle = decisionHandleOf(await approving.pending(executionId));
    beforePassRead = async () => expect(await deleting.deleteExecution(executionId)).toBe(true);
    const output = await approving.approve({ executionId, handle });
    expect(beforePassRead).toBeUndefined();
    expect(output).toMatchObject({ status: "error", executionId, code: "NOT_FOUND" });
    // the program ran once, in the run's first pass; the approval's pass never ran it again
    expect(executor.requests).toHaveLength(1);
    expect(
      events.filter((event) => event.type === "pass-start").map((event) => event.recorded),
    ).toEqual([0]);
    expect(gate.calls.map((call) => `${call.method} #${call.seq}`)).toEqual(["note #0"]);
    expect(await approving.execution(executionId)).toBeUndefined();
  });
});

describe("runPass, one step", () => {
  it("runs the program of a running run with the pass's host functions, and reports once it has finished", async () => {
    const shop = mockConnector({ name: "shop", methods: { read: {} } });
    const events: RuntimeEvent["type"][] = [];
    const executor = new MockExecutor(async ({ shop }) => shop.read?.({ sku: 1 }));
    const context = testContext([shop], { executor, onEvent: (event) => events.push(event.type) });
    const id = await runningRun(context);
    const record = await context.journal.getExecution(id);
    const output = await runPass(context, record as NonNullable<typeof record>, {
      owner: TEST_OWNER,
    });
    expect(output).toEqual({ status: "completed", executionId: id, result: { sku: 1 } });
    expect(events).toEqual(["pass-start", "call", "pass-end"]);
    const ended = await context.journal.getExecution(id);
    expect(ended?.status).toBe("completed");
    expect(ended?.lease).toBeUndefined();
    // the run's own clock and chance, the same on every pass
    expect(executor.requests[0]?.prelude).toContain(String(record?.createdAt));
    expect(context.live.has(id)).toBe(false);
  });

  it("fails a run whose connectors are not all configured now, running nothing", async () => {
    const executor = new MockExecutor(() => "ran");
    const context = testContext([], { executor });
    const id = await runningRun(context);
    await context.journal.updateExecution(id, ["running"], { connectors: ["gone"] });
    const record = await context.journal.getExecution(id);
    expect(
      await runPass(context, record as NonNullable<typeof record>, { owner: TEST_OWNER }),
    ).toEqual({
      status: "error",
      executionId: id,
      error: "This run needs connectors that are not configured now: gone.",
    });
    expect(executor.requests).toEqual([]);
    expect((await context.journal.getExecution(id))?.status).toBe("error");
  });
});
