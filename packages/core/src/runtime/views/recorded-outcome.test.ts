import { describe, expect, it } from "vitest";
import { callEntry, runningRun, testContext } from "../../test/run-context.ts";
import { codec } from "../context/values.ts";
import { recordedOutcome } from "./recorded-outcome.ts";

describe("recordedOutcome", () => {
  it("reads back what a run's last pass reported, for each status, without running anything", async () => {
    const context = testContext([], {
      transformResult: (result) => {
        if (result === "explode") throw new Error("transform failed");
        return { shaped: result };
      },
    });
    const outcome = async (patch: Parameters<typeof context.journal.updateExecution>[2]) => {
      const id = await runningRun(context, `exec_${String(patch.status)}_${String(patch.result)}`);
      await context.journal.putEntry(
        callEntry(
          id,
          0,
          { connector: "gate", method: "open", input: { a: 1 } },
          { state: "pending" },
        ),
      );
      await context.journal.updateExecution(id, ["running"], patch);
      const record = await context.journal.getExecution(id);
      return recordedOutcome(context, record as NonNullable<typeof record>);
    };
    expect(await outcome({ status: "paused" })).toMatchObject({
      status: "paused",
      pending: [{ seq: 0, connector: "gate", method: "open", args: { a: 1 } }],
    });
    expect(await outcome({ status: "completed", result: codec.encode(2), logs: ["hi"] })).toEqual({
      status: "completed",
      executionId: "exec_completed_2",
      result: { shaped: 2 },
      logs: ["hi"],
    });
    // a transform that throws: the recorded result, untransformed, as the pass gave it
    expect(await outcome({ status: "completed", result: codec.encode("explode") })).toMatchObject({
      result: "explode",
    });
    expect(await outcome({})).toMatchObject({
      status: "error",
      error: "The run is still running: another pass has it. Ask again once it has ended.",
    });
    expect(await outcome({ status: "cancelled", error: "Cancelled by ada." })).toMatchObject({
      status: "error",
      error: "Cancelled by ada.",
      code: "ABORTED",
    });
    expect(await outcome({ status: "rolled_back" })).toMatchObject({
      status: "error",
      error: "The run ended rolled back.",
    });
    expect(await outcome({ status: "rejected", error: "A person rejected gate.open." })).toEqual({
      status: "error",
      executionId: "exec_rejected_undefined",
      error: "A person rejected gate.open.",
    });
  });
});
