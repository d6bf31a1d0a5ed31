import { describe, expect, it } from "vitest";
import { callDigest } from "../decision-handle.ts";
import { callEntry, runningRun, testContext } from "../test/run-context.ts";
import { pendingEntries, withdrawPending } from "./pending-calls.ts";

describe("pending calls", () => {
  it("lists a run's waiting calls as a person sees them: decoded input, digest, in doubt, deferred", async () => {
    const context = testContext([]);
    const id = await runningRun(context);
    const call = { connector: "gate", method: "open" };
    const waiting = callEntry(id, 1, { ...call, input: { at: new Date(0) } }, { state: "pending" });
    await context.journal.putEntry(callEntry(id, 0, { ...call, result: 1 }));
    await context.journal.putEntry(waiting);
    await context.journal.putEntry(
      callEntry(id, 2, call, {
        state: "pending",
        error: "it may have run",
        requiresApproval: true,
      }),
    );
    await context.journal.putEntry(callEntry(id, 3, call, { state: "pending", deferred: true }));
    expect(await pendingEntries(context, id)).toEqual([
      {
        executionId: id,
        seq: 1,
        connector: "gate",
        method: "open",
        args: { at: new Date(0) },
        digest: await callDigest("gate", "open", waiting.args, undefined),
      },
      expect.objectContaining({ seq: 2, inDoubt: "it may have run" }),
      expect.objectContaining({ seq: 3, deferred: true }),
    ]);
  });

  it("withdraws every waiting call of an ended run, through a store error, and tells their seqs", async () => {
    const context = testContext([]);
    const id = await runningRun(context);
    const call = { connector: "gate", method: "open" };
    await context.journal.putEntry(callEntry(id, 0, { ...call, result: 1 }));
    await context.journal.putEntry(callEntry(id, 1, call, { state: "pending" }));
    await context.journal.putEntry(callEntry(id, 2, call, { state: "pending" }));
    const { journal } = context;
    let failures = 1;
    context.journal = Object.assign(Object.create(journal), {
      updateEntry: (...args: Parameters<typeof journal.updateEntry>) =>
        failures-- > 0
          ? Promise.reject(new Error("connection terminated"))
          : journal.updateEntry(...args),
    });
    expect(await withdrawPending(context, id)).toEqual([1, 2]);
    expect((await journal.listEntries(id)).map((entry) => entry.state)).toEqual([
      "applied",
      "withdrawn",
      "withdrawn",
    ]);
    expect(await pendingEntries(context, id)).toEqual([]);
    expect(await withdrawPending(context, id)).toEqual([]);
  });
});
