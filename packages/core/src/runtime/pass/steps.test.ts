import { describe, expect, it } from "vitest";
import type { HostFunction } from "../../executor.ts";
import { memoryStore } from "../../memory-store.ts";
import { PRELUDE_CHANNEL } from "../../sandbox-protocol.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { runningRun, testContext, testPass } from "../../test/run-context.ts";
import { withJournal } from "../../test/with-journal.ts";
import { codec } from "../context/values.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { decideStep, recordStep, STEP_CONNECTOR } from "./steps.ts";

describe("steps", () => {
  it("records a step's value once and replays it: the body runs again, the value is the recorded one", async () => {
    let runs = 0;
    const gate = mockConnector({ name: "gate", methods: { open: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ codemode, gate }) => {
      const value = await codemode.step("now", () => ++runs);
      await gate.open?.({});
      return value;
    });
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [gate] });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({
      status: "completed",
      result: 1,
    });
    expect(runs).toBe(2);
  });

  for (const failing of ["putEntry", "applyEntry"] as const) {
    it(`ends the run when the journal fails a step's ${failing === "putEntry" ? "entry" : "value"}: a program that catches it goes no further`, async () => {
      const svc = mockConnector({ name: "svc", methods: { write: {} } });
      const store = withJournal(memoryStore(), () => ({
        [failing]: () => Promise.reject(new Error("connection terminated")),
      }));
      const executor = new MockExecutor(async ({ codemode, svc }) => {
        let value: unknown;
        try {
          value = await codemode.step("pick", () => 1);
        } catch {
          value = 2;
        }
        return svc.write?.({ value });
      });
      const runtime = createCodemodeRuntime({ store, executor, connectors: [svc] });
      const output = await runtime.execute({ code: "async () => 0" });
      expect(output).toMatchObject({
        status: "error",
        error: expect.stringMatching(
          failing === "putEntry"
            ? /^The decision on codemode\.step \(#0\) failed in the journal \(connection terminated\)/
            : /^The outcome of codemode\.step \(#0\) could not be recorded \(connection terminated\)/,
        ),
      });
      expect((await runtime.execution(output.executionId))?.status).toBe("error");
      expect(svc.calls).toEqual([]);
    });
  }

  it("refuses a step record that no step of this pass handed out, even from the host function itself", async () => {
    const bank = mockConnector({
      name: "bank",
      methods: { charge: { execute: async () => ({ id: "real" }) } },
    });
    const outcomes: string[] = [];
    const executor = new MockExecutor(async ({ bank }, request) => {
      // what a sandbox escape would reach: the raw host function of the prelude's channel
      const record = request.globals.codemode?.[PRELUDE_CHANNEL.stepRecord] as HostFunction;
      const charging = bank.charge?.({});
      for (const forged of [
        { seq: 0, value: "forged" },
        { seq: 0, token: "0".repeat(32), value: "forged" },
      ]) {
        await record(forged).then(
          () => outcomes.push("recorded"),
          (error: { code?: string }) => outcomes.push(String(error.code)),
        );
      }
      return charging;
    });
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [bank] });
    const output = await runtime.execute({ code: "async () => 0" });
    expect(outcomes).toEqual(["INVALID_INPUT", "INVALID_INPUT"]);
    expect(output).toMatchObject({ status: "completed", result: { id: "real" } });
    expect((await runtime.execution(output.executionId))?.calls).toMatchObject([
      { seq: 0, state: "applied", result: { id: "real" } },
    ]);
  });

  it("refuses step names past the limit or that a store cannot keep, without numbering them", async () => {
    const codes: string[] = [];
    const executor = new MockExecutor(async ({ codemode }) => {
      for (const name of ["x".repeat(1_001), "\ud800"]) {
        await codemode
          .step(name, () => 1)
          .catch((error: { code: string }) => codes.push(error.code));
      }
      return codemode.step("fine", () => 2);
    });
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [] });
    const output = await runtime.execute({ code: "async () => 0" });
    expect(codes).toEqual(["TOO_LARGE", "INVALID_INPUT"]);
    expect((await runtime.execution(output.executionId))?.calls).toMatchObject([
      { seq: 0, kind: "step", method: "fine", result: 2 },
    ]);
  });
});

describe("decideStep and recordStep, one step", () => {
  it("number a step, record its value once with its token, and replay it on a later pass", async () => {
    const context = testContext([]);
    const id = await runningRun(context);
    const live = await testPass(context, id);
    const started = await decideStep(context, live, { name: "fetch" });
    expect(started).toEqual({ replay: false, seq: 0, token: expect.any(String) });
    expect(await context.journal.getEntry(id, 0)).toMatchObject({
      kind: "step",
      connector: STEP_CONNECTOR,
      method: "fetch",
      state: "executing",
    });
    const { token } = started as { token: string };
    await expect(
      recordStep(context, live, { seq: 0, token: "guess", value: 1 }),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    // the answer is the value as recorded (what the step returns), not the object handed in
    const value = { n: 1, at: new Date(0), failed: new Error("no") };
    const answered = await recordStep(context, live, { seq: 0, token, value });
    expect(answered.value).not.toBe(value);
    expect(answered.value).toEqual(codec.decode(codec.encode(value)));
    await expect(recordStep(context, live, { seq: 0, token, value: 2 })).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    expect(await context.journal.getEntry(id, 0)).toMatchObject({
      state: "applied",
      result: codec.encode(value),
    });
    await live.end();
    live.release();

    const replay = await testPass(context, id);
    const replayed = await decideStep(context, replay, { name: "fetch" });
    expect(replayed).toEqual({
      replay: true,
      value: answered.value,
      seq: 0,
      token: expect.any(String),
    });
    // the replayed step's record writes nothing, and answers the recorded value too
    const again = replayed as { token: string };
    expect(await recordStep(context, replay, { seq: 0, token: again.token, value: 3 })).toEqual({
      value: answered.value,
    });
    expect((await context.journal.getEntry(id, 0))?.result).toBe(codec.encode(value));
    await replay.end();
    replay.release();

    const diverged = await testPass(context, id);
    await expect(decideStep(context, diverged, { name: "other" })).rejects.toMatchObject({
      code: "DIVERGENCE",
    });
    await diverged.end();
    diverged.release();
  });
});
