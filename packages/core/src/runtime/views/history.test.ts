import { describe, expect, it } from "vitest";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { callEntry, runningRun, testContext } from "../../test/run-context.ts";
import { codec } from "../context/values.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { decodeExecution, pending } from "./history.ts";

describe("history", () => {
  it("pending() lists the calls of paused runs only", async () => {
    const gate = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ gate }) =>
      Promise.all([gate.open?.({ a: 1 }), gate.open?.({ b: 2 })]),
    );
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(await runtime.pending(paused.executionId)).toMatchObject([
      { seq: 0, args: { a: 1 } },
      { seq: 1, args: { b: 2 } },
    ]);
    expect(await runtime.pending()).toHaveLength(2);
    await runtime.reject({ executionId: paused.executionId, seq: 1 });
    expect(await runtime.pending(paused.executionId)).toEqual([]);
    expect(await runtime.pending()).toEqual([]);
  });
});

describe("history, one view", () => {
  it("decodes a run and its journal for the audit view, and lists the calls of paused runs only", async () => {
    const context = testContext([]);
    const id = await runningRun(context);
    const call = { connector: "gate", method: "open" };
    await context.journal.putEntry(callEntry(id, 0, { ...call, input: { a: 1 }, result: [1] }));
    await context.journal.putEntry(
      callEntry(id, 1, { ...call, input: { b: 2 }, result: "ignored" }, { error: "it failed" }),
    );
    await context.journal.putEntry(
      callEntry(id, 2, { ...call, input: { c: 3 } }, { state: "pending" }),
    );
    // running: it waits for nothing yet
    expect(await pending(context)).toEqual([]);
    await context.journal.updateExecution(id, ["running"], {
      status: "paused",
      logs: ["line"],
      lease: undefined,
    });
    expect((await pending(context, id)).map((action) => action.seq)).toEqual([2]);
    expect((await pending(context)).map((action) => action.seq)).toEqual([2]);
    const record = await context.journal.getExecution(id);
    expect(await decodeExecution(context, record as NonNullable<typeof record>)).toEqual({
      id,
      status: "paused",
      code: "async () => null",
      logs: ["line"],
      connectors: [],
      createdAt: record?.createdAt,
      updatedAt: record?.updatedAt,
      calls: [
        { seq: 0, kind: "call", ...call, args: { a: 1 }, result: [1], state: "applied" },
        { seq: 1, kind: "call", ...call, args: { b: 2 }, state: "applied", error: "it failed" },
        { seq: 2, kind: "call", ...call, args: { c: 3 }, state: "pending" },
      ],
    });
    await context.journal.updateExecution(id, ["paused"], {
      status: "completed",
      result: codec.encode({ done: true }),
    });
    const completed = await context.journal.getExecution(id);
    expect(
      await decodeExecution(context, completed as NonNullable<typeof completed>),
    ).toMatchObject({
      status: "completed",
      result: { done: true },
    });
  });
});
