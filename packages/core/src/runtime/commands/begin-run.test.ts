import { describe, expect, it } from "vitest";
import type { Connector } from "../../connector.ts";
import { memoryStore } from "../../memory-store.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";

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
