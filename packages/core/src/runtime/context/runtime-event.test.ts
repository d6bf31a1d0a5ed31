import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor, type MockSandbox } from "../../test/mock-executor.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { eventSink, type RuntimeEvent } from "./runtime-event.ts";

function setup(program: (sandbox: MockSandbox) => unknown, onEvent = (_event: RuntimeEvent) => {}) {
  let clock = 1_000;
  const ops = mockConnector({
    name: "ops",
    methods: {
      read: {
        execute: (input) => {
          clock += 5;
          return input;
        },
      },
      write: { requiresApproval: true, execute: (input) => input, revert: () => undefined },
      note: { execute: () => "noted" },
    },
  });
  const events: RuntimeEvent[] = [];
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new MockExecutor(program),
    connectors: [ops],
    now: () => clock++,
    onEvent: (event) => {
      events.push(event);
      onEvent(event);
    },
  });
  return { runtime, events };
}

const kinds = (events: RuntimeEvent[]) =>
  events.map((event) =>
    event.type === "call" ? `call ${event.seq} ${event.live ? "live" : "replayed"}` : event.type,
  );

describe("runtime events", () => {
  it("tell a run's passes, its live and replayed calls, the wait and who decided", async () => {
    const { runtime, events } = setup(async ({ ops, codemode }) => {
      await ops.read({ n: 1 });
      await codemode.step("pick", () => 7);
      await ops.write({ n: 2 });
      return ops.note({});
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(paused.status).toBe("paused");
    expect(kinds(events)).toEqual(["pass-start", "call 0 live", "step", "waiting", "pass-end"]);
    const live = events[1] as Extract<RuntimeEvent, { type: "call" }>;
    expect(live.endedAt - live.startedAt).toBeGreaterThanOrEqual(5);
    expect(events[3]).toMatchObject({ seq: 2, connector: "ops", method: "write", for: "approval" });
    expect(events[4]).toMatchObject({ status: "paused" });

    events.length = 0;
    const done = await runtime.approve({ executionId: paused.executionId });
    expect(done).toMatchObject({ status: "completed", result: "noted" });
    expect(kinds(events)).toEqual([
      "decision",
      "pass-start",
      "call 0 replayed",
      "step",
      "call 2 live",
      "call 3 live",
      "pass-end",
    ]);
    expect(events[0]).toMatchObject({ decision: "approved", seqs: [2], source: "api" });
    expect(events[1]).toMatchObject({ recorded: 3 });
    expect(events[3]).toMatchObject({ name: "pick", live: false });
    expect(events.at(-1)).toMatchObject({ status: "completed" });
  });

  it("tell a rejection with its reason, and nothing for a decision that found no paused run", async () => {
    const { runtime, events } = setup(async ({ ops }) => ops.write({ n: 1 }));
    const paused = await runtime.execute({ code: "async () => 0" });
    events.length = 0;
    expect(
      await runtime.reject({ executionId: paused.executionId, seq: 0, reason: " too much " }),
    ).toBe(true);
    expect(events).toEqual([
      expect.objectContaining({
        type: "decision",
        decision: "rejected",
        seqs: [0],
        reason: "too much",
        source: "api",
      }),
    ]);
    events.length = 0;
    expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({
      status: "error",
    });
    expect(events).toEqual([]);
  });

  it("tell an approval with the reason the person gave", async () => {
    const { runtime, events } = setup(async ({ ops }) => ops.write({ n: 1 }));
    const paused = await runtime.execute({ code: "async () => 0" });
    events.length = 0;
    const reason = ` ${"ok ".repeat(400)}`;
    await runtime.approve({ executionId: paused.executionId, reason });
    expect(events[0]).toMatchObject({ type: "decision", decision: "approved", seqs: [0] });
    expect((events[0] as { reason?: string }).reason).toBe(reason.trim().slice(0, 1000));
  });

  it("tell each revert of a rollback and how it ended; an observer that throws changes nothing", async () => {
    const { runtime, events } = setup(
      async ({ ops }) => {
        await ops.note({});
        return ops.write({ n: 1 });
      },
      () => {
        throw new Error("observer broke");
      },
    );
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({
      status: "completed",
    });
    events.length = 0;
    await runtime.rollback({ executionId: paused.executionId });
    expect(events.map((event) => [event.type, "seq" in event ? event.seq : undefined])).toEqual([
      ["revert", 1],
      ["revert", 0],
      ["rollback-end", undefined],
    ]);
    expect(events[0]).toMatchObject({ outcome: "reverted", method: "write" });
    expect(events[1]).toMatchObject({
      outcome: "skipped",
      reason: "the method is not revertible",
    });
    expect(events[2]).toMatchObject({ status: "rolled_back", reverted: 1, notReverted: 1 });
  });
});

describe("previewRollback", () => {
  it("lists what a rollback would revert and what it cannot, and changes nothing", async () => {
    const { runtime } = setup(async ({ ops }) => {
      await ops.read({ n: 1 });
      return ops.write({ n: 2 });
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    await runtime.approve({ executionId: paused.executionId });
    const preview = await runtime.previewRollback({ executionId: paused.executionId });
    expect(preview).toEqual({
      executionId: paused.executionId,
      status: "completed",
      calls: [
        { seq: 1, connector: "ops", method: "write", input: { n: 2 }, action: "revert" },
        {
          seq: 0,
          connector: "ops",
          method: "read",
          input: { n: 1 },
          action: "cannot_revert",
          reason: "the method is not revertible",
        },
      ],
    });
    expect((await runtime.execution(paused.executionId))?.status).toBe("completed");
    expect(await runtime.previewRollback({ executionId: paused.executionId })).toEqual(preview);
    await expect(runtime.previewRollback({ executionId: "exec_none" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("eventSink", () => {
  it("hands each event to the observer, and swallows what the observer throws", () => {
    const event: RuntimeEvent = { type: "pass-start", executionId: "exec_1", at: 1, recorded: 0 };
    const heard: RuntimeEvent[] = [];
    eventSink((each) => heard.push(each))(event);
    expect(heard).toEqual([event]);
    expect(() =>
      eventSink(() => {
        throw new Error("observer failed");
      })(event),
    ).not.toThrow();
    expect(() => eventSink(undefined)(event)).not.toThrow();
  });

  it("swallows what an asynchronous observer rejects with: nothing unhandled ends the process", async () => {
    // the observer writes each event to a log in a database of its own, which has gone away: each
    // call returns a promise that rejects
    const log = new Database(":memory:");
    log.exec("CREATE TABLE events (type TEXT)");
    const insert = log.prepare("INSERT INTO events (type) VALUES (?)");
    log.close();
    const unhandled: unknown[] = [];
    const hear = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", hear);
    try {
      const heard: string[] = [];
      const runtime = createCodemodeRuntime({
        store: memoryStore(),
        executor: new MockExecutor(async ({ ops }) => ops.read({ n: 1 })),
        connectors: [
          mockConnector({ name: "ops", methods: { read: { execute: (input) => input } } }),
        ],
        onEvent: async (event) => {
          heard.push(event.type);
          insert.run(event.type);
        },
      });
      expect(await runtime.execute({ code: "async () => 0" })).toMatchObject({
        status: "completed",
        result: { n: 1 },
      });
      expect(heard).toEqual(["pass-start", "call", "pass-end"]);
      // a rejection nobody handles is reported once the microtasks have run
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", hear);
    }
  });
});
