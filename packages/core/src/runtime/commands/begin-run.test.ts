import { describe, expect, it } from "vitest";
import type { Connector } from "../../connector.ts";
import { MAX_RECORDED_LENGTH } from "../../invariants.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { testContext } from "../../test/run-context.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { begin, newRunId, refusedCode } from "./begin-run.ts";

describe("runtime.start", () => {
  it("resolves once the run is recorded, before it ends; the outcome is what execute returns", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: Connector = {
      specificationVersion: "v1",
      name: "slow",
      methods: () => ({ wait: {} }),
      invoke: async () => {
        await gate;
        return "done";
      },
    };
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new MockExecutor(async ({ slow }) => slow.wait?.({})),
      connectors: [slow],
    });
    const { executionId, outcome } = await runtime.start({ code: "async () => slow.wait({})" });
    // recorded and still running: a reader of the journal finds it
    expect((await runtime.execution(executionId))?.status).toBe("running");
    release();
    expect(await outcome).toMatchObject({ status: "completed", executionId, result: "done" });
    expect((await runtime.execution(executionId))?.status).toBe("completed");
  });

  it("resolves with the outcome and no id for code refused before a run is recorded", async () => {
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new MockExecutor(() => "ran"),
      connectors: [],
    });
    const started = await runtime.start({ code: 42 as unknown as string });
    expect(started.executionId).toBe("");
    expect(await started.outcome).toMatchObject({ status: "error", code: "INVALID_INPUT" });
    expect(await runtime.executions()).toEqual([]);
  });
});

describe("begin, one command", () => {
  it("records the run running under its first pass's lease, then runs that pass", async () => {
    const started: string[] = [];
    const shop = mockConnector({ name: "shop", methods: { read: {} } });
    const executor = new MockExecutor(async ({ shop }, request) => {
      // the first pass holds the run: recorded running under its lease, with a secret seed
      const id = started[0] as string;
      const record = await context.journal.getExecution(id);
      expect(record).toMatchObject({
        status: "running",
        connectors: ["shop"],
        code: "async () => 1",
      });
      expect(record?.lease?.owner).toMatch(/^pass_[0-9a-f]+$/);
      expect(request.prelude).not.toContain(id);
      return shop.read?.({ sku: 1 });
    });
    const context = testContext([shop], { executor });
    const output = await begin(
      context,
      { code: "async () => 1" },
      {
        onStarted: (id) => started.push(id),
      },
    );
    expect(output).toEqual({ status: "completed", executionId: started[0], result: { sku: 1 } });
    expect(started).toEqual([expect.stringMatching(/^exec_\d{16}_[0-9a-f]+$/)]);
    expect(executor.requests).toHaveLength(1);
  });

  it("refuses input without code, and code the journal cannot keep, before a run is recorded", async () => {
    const context = testContext([]);
    expect(await begin(context, "async () => 1" as unknown as { code: string })).toEqual({
      status: "error",
      executionId: "",
      code: "INVALID_INPUT",
      error: 'execute takes { code: "async () => …" }, not a string.',
    });
    expect(await begin(context, { code: "async () => '\u0000'" })).toEqual({
      status: "error",
      executionId: "",
      error: refusedCode("\u0000")?.error,
      code: "INVALID_INPUT",
    });
    expect(refusedCode("x".repeat(MAX_RECORDED_LENGTH + 1))?.code).toBe("TOO_LARGE");
    expect(refusedCode("async () => 1")).toBeUndefined();
    expect(await context.journal.listExecutions()).toEqual([]);
  });

  it("does not start a run again under an id the journal has: its recorded outcome comes back", async () => {
    const executor = new MockExecutor(() => "ran");
    const context = testContext([], { executor });
    const id = newRunId(context.now());
    expect(await begin(context, { code: "async () => 1" }, { id })).toMatchObject({
      status: "completed",
      result: "ran",
    });
    expect(await begin(context, { code: "async () => 2" }, { id })).toEqual({
      status: "completed",
      executionId: id,
      result: "ran",
    });
    expect(executor.requests).toHaveLength(1);
  });
});
