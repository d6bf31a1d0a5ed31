import { describe, expect, it } from "vitest";
import { CodemodeError } from "../../codemode-error.ts";
import { encodeErrorRecord, errorRecordOf, LIVENESS_MS } from "../../invariants.ts";
import type { JournalEntry } from "../../journal-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { callEntry, runningRun, testContext } from "../../test/run-context.ts";
import {
  classify,
  MOVED,
  previewRollback,
  REVERT_IN_DOUBT,
  rollbackCandidates,
  rollbackTarget,
} from "./rollback-preview.ts";

const shop = () =>
  mockConnector({ name: "shop", methods: { buy: { revert: () => undefined }, read: {} } });

describe("classify", () => {
  it("decides, before any revert runs, what a rollback does with each call that reached a connector", async () => {
    const context = testContext([shop()]);
    const { connectors } = await context.configurator.configure();
    const buy = (overrides: Partial<JournalEntry>) =>
      callEntry("exec_1", 3, { connector: "shop", method: "buy", result: 1 }, overrides);
    const verdict = (entry: JournalEntry, live = false) =>
      classify(entry, 10 * LIVENESS_MS, live, connectors);
    const call = { seq: 3, connector: "shop", method: "buy" };
    expect(verdict(buy({}))).toBe("revert");
    expect(verdict(buy({ method: "read" }))).toEqual({
      ...call,
      method: "read",
      outcome: "skipped",
      reason: "the method is not revertible",
    });
    expect(verdict(buy({ connector: "gone" }))).toEqual({
      ...call,
      connector: "gone",
      outcome: "skipped",
      reason: "its connector or method is not configured now",
    });
    expect(verdict(buy({ state: "executing" }))).toEqual({
      ...call,
      outcome: "unrecorded",
      reason: "the process stopped before its outcome was recorded",
    });
    expect(verdict(buy({ state: "pending", error: "in doubt" }))).toMatchObject({
      outcome: "unrecorded",
      reason: "it may have run: a pass started it and its outcome was never recorded",
    });
    expect(verdict(buy({ state: "error", error: "too big" }))).toMatchObject({
      outcome: "unrecorded",
      reason: "it ran, but its result was not recorded: too big",
    });
    const timedOut = errorRecordOf(new CodemodeError("TIMEOUT", "took too long"));
    expect(
      verdict(buy({ error: timedOut.message, result: encodeErrorRecord(timedOut) })),
    ).toMatchObject({
      outcome: "unrecorded",
      reason: "it was abandoned at its time limit and may have run",
    });
    const failed = errorRecordOf(new Error("out of stock"));
    expect(
      verdict(buy({ error: failed.message, result: encodeErrorRecord(failed) })),
    ).toMatchObject({
      outcome: "skipped",
      reason: "the call failed (out of stock)",
    });
    // a claim nobody renews any more is a revert in doubt; a fresh one, or one this process holds, is another rollback's
    expect(verdict(buy({ state: "reverting", updatedAt: 0 }))).toBe("revert-in-doubt");
    expect(verdict(buy({ state: "reverting", updatedAt: 0 }), true)).toMatchObject({
      outcome: "skipped",
      reason: "another rollback is reverting it",
    });
    expect(verdict(buy({ state: "reverting", updatedAt: 10 * LIVENESS_MS }))).toMatchObject({
      outcome: "skipped",
    });
  });

  it("reverts no call whose method now names another operation than the call was recorded for", async () => {
    const context = testContext([
      mockConnector({
        name: "shop",
        methods: {
          buy: { revert: () => undefined, operation: "POST https://shop.example/v2/buy" },
        },
      }),
    ]);
    const { connectors } = await context.configurator.configure();
    const buy = (overrides: Partial<JournalEntry>) =>
      callEntry("exec_1", 3, { connector: "shop", method: "buy", result: 1 }, overrides);
    const verdict = (entry: JournalEntry) => classify(entry, 10 * LIVENESS_MS, false, connectors);
    const call = { seq: 3, connector: "shop", method: "buy" };
    expect(verdict(buy({ operation: "POST https://shop.example/v2/buy" }))).toBe("revert");
    for (const operation of ["POST https://shop.example/v1/buy", undefined]) {
      expect(verdict(buy({ ...(operation ? { operation } : {}) }))).toEqual({
        ...call,
        outcome: "skipped",
        reason: MOVED,
      });
      // a revert an earlier rollback started is in doubt whatever the method names now: the
      // rollback decides it (revert-in-doubt.test.ts), never reverting through a moved method
      expect(verdict(buy({ state: "reverting", updatedAt: 0, operation }))).toBe("revert-in-doubt");
    }
  });
});

describe("previewRollback", () => {
  it("lists what a rollback would do with each call, newest first, and writes nothing", async () => {
    const context = testContext([shop()]);
    const id = await runningRun(context);
    const buy = { connector: "shop", method: "buy" };
    await context.journal.putEntry(callEntry(id, 0, { ...buy, input: { sku: 1 }, result: 1 }));
    await context.journal.putEntry(
      callEntry(id, 1, { ...buy, input: { sku: 2 } }, { state: "reverting", updatedAt: 0 }),
    );
    await context.journal.putEntry(
      callEntry(id, 2, { ...buy, input: { sku: 3 } }, { state: "pending" }),
    );
    await context.journal.putEntry(
      callEntry(id, 3, { connector: "codemode.step", method: "s" }, { kind: "step" }),
    );
    await expect(previewRollback(context, id)).rejects.toMatchObject({ code: "NOT_PAUSED" });
    await context.journal.updateExecution(id, ["running"], { status: "completed" });
    const before = await context.journal.listEntries(id);
    expect((await rollbackCandidates(context, id)).map((entry) => entry.seq)).toEqual([0, 1]);
    expect(await previewRollback(context, id)).toEqual({
      executionId: id,
      status: "completed",
      calls: [
        { seq: 1, ...buy, input: { sku: 2 }, action: "unrecorded", reason: REVERT_IN_DOUBT },
        { seq: 0, ...buy, input: { sku: 1 }, action: "revert" },
      ],
    });
    expect(await context.journal.listEntries(id)).toEqual(before);
    await expect(rollbackTarget(context, "exec_unknown")).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
