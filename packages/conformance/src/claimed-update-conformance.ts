import type { ExecutionRecord, Journal, JournalEntry } from "@codemode/core";
import { expect } from "vitest";
import type { DeclareTest } from "./known-gaps.ts";
import { entry, execution } from "./store-records.ts";

/** A run `running` under `owner`'s lease, lapsing at `expiresAt`. */
const leased = (owner: string, expiresAt: number): ExecutionRecord =>
  execution({ lease: { owner, expiresAt } });

/** A call waiting for approval. */
const waiting = (executionId: string, seq: number): JournalEntry =>
  entry(executionId, seq, { state: "pending", requiresApproval: true });

/** A take under a claim, as an approved call's (`approved` → `executing`; the store is told the states). */
const TAKE = { state: "executing" as const, updatedAt: 4 };

/**
 * The claimed entry updates of the store suite: `updateEntry` with a `LeaseClaim` (how a pass takes
 * an approved call) changes the entry only while the run is `running` under the claim's owner,
 * checked in the same write as the entry's state, and renews the lease with it when the claim says
 * until when. A store that ignores the claim lets a pass start a call of a run another process has
 * cancelled or expired.
 */
export function claimedUpdateConformance(test: DeclareTest, journal: () => Promise<Journal>): void {
  test("updates an entry under a claim only for the lease's owner", async () => {
    const store = await journal();
    const run = leased("pass_a", 5_000);
    await store.createExecution(run);
    await store.putEntry(waiting(run.id, 0));
    expect(await store.updateEntry(run.id, 0, ["pending"], TAKE, { owner: "pass_b" })).toBe(false);
    expect(
      await store.updateEntry(run.id, 0, ["pending"], TAKE, { owner: "pass_b", renewUntil: 9_000 }),
    ).toBe(false);
    expect((await store.getEntry(run.id, 0))?.state).toBe("pending");
    expect((await store.getExecution(run.id))?.lease).toEqual({
      owner: "pass_a",
      expiresAt: 5_000,
    });
    expect(await store.updateEntry(run.id, 0, ["pending"], TAKE, { owner: "pass_a" })).toBe(true);
    expect(await store.getEntry(run.id, 0)).toMatchObject({ state: "executing", updatedAt: 4 });
    // without `renewUntil` the lease is left as it was
    expect((await store.getExecution(run.id))?.lease).toEqual({
      owner: "pass_a",
      expiresAt: 5_000,
    });
    // the entry's state is still checked: a second take under the same claim takes nothing
    expect(await store.updateEntry(run.id, 0, ["pending"], TAKE, { owner: "pass_a" })).toBe(false);
    // no such entry, no such run: nothing to update
    expect(await store.updateEntry(run.id, 7, ["pending"], TAKE, { owner: "pass_a" })).toBe(false);
    expect(await store.updateEntry("missing", 0, ["pending"], TAKE, { owner: "pass_a" })).toBe(
      false,
    );
  });

  test("renews the lease with a claimed update, and only when the update applies", async () => {
    const store = await journal();
    const run = leased("pass_a", 5_000);
    await store.createExecution(run);
    await store.putEntry(waiting(run.id, 0));
    const claim = (renewUntil: number) => ({ owner: "pass_a", renewUntil });
    expect(await store.updateEntry(run.id, 0, ["pending"], TAKE, claim(7_000))).toBe(true);
    expect((await store.getEntry(run.id, 0))?.state).toBe("executing");
    expect(await store.getExecution(run.id)).toMatchObject({
      status: "running",
      lease: { owner: "pass_a", expiresAt: 7_000 },
    });
    // the entry no longer waits: neither the update nor the renewal lands
    expect(await store.updateEntry(run.id, 0, ["pending"], TAKE, claim(8_000))).toBe(false);
    expect((await store.getExecution(run.id))?.lease).toEqual({
      owner: "pass_a",
      expiresAt: 7_000,
    });
  });

  for (const status of ["paused", "cancelled", "error", "completed"] as const) {
    test(`refuses a claimed update in a run that is ${status}, whatever lease it still names`, async () => {
      const store = await journal();
      const run = leased("pass_a", 5_000);
      await store.createExecution(run);
      await store.putEntry(waiting(run.id, 0));
      // the status alone ends the claim: here the run still names the old owner's lease
      expect(await store.updateExecution(run.id, ["running"], { status })).toBe(true);
      expect((await store.getExecution(run.id))?.lease?.owner).toBe("pass_a");
      expect(await store.updateEntry(run.id, 0, ["pending"], TAKE, { owner: "pass_a" })).toBe(
        false,
      );
      expect(
        await store.updateEntry(run.id, 0, ["pending"], TAKE, {
          owner: "pass_a",
          renewUntil: 9_000,
        }),
      ).toBe(false);
      expect((await store.getEntry(run.id, 0))?.state).toBe("pending");
      expect((await store.getExecution(run.id))?.lease?.expiresAt).toBe(5_000);
      // without a claim the host still withdraws it (the run ended)
      expect(await store.updateEntry(run.id, 0, ["pending"], { state: "withdrawn" })).toBe(true);
    });
  }

  test("refuses a claimed update once a cancellation took the run from its owner", async () => {
    const store = await journal();
    const run = leased("pass_a", 5_000);
    await store.createExecution(run);
    await store.putEntry(waiting(run.id, 0));
    // what `runtime.cancel` writes: the status, and no lease; its withdrawal comes after
    expect(
      await store.updateExecution(run.id, ["running", "paused"], {
        status: "cancelled",
        error: "Cancelled by the host.",
        lease: undefined,
      }),
    ).toBe(true);
    expect(await store.updateEntry(run.id, 0, ["pending"], TAKE, { owner: "pass_a" })).toBe(false);
    expect((await store.getEntry(run.id, 0))?.state).toBe("pending");
    expect((await store.getExecution(run.id))?.lease).toBeUndefined();
  });

  test("lets a claimed update and the expiry of its lapsed run exclude each other", async () => {
    const store = await journal();
    const run = leased("pass_gone", 1_000);
    await store.createExecution(run);
    await store.putEntry(waiting(run.id, 0));
    const [expired, taken] = await Promise.all([
      store.updateExecution(
        run.id,
        ["running"],
        { status: "error", lease: undefined },
        { lapsedBefore: 2_000 },
      ),
      store.updateEntry(run.id, 0, ["pending"], TAKE, { owner: "pass_gone", renewUntil: 3_000 }),
    ]);
    // one of them: a take renews the lease, so the run is not lapsed when the expiry comes after;
    // an expiry that came first leaves the call waiting
    expect([expired, taken].filter(Boolean)).toHaveLength(1);
    expect((await store.getExecution(run.id))?.status).toBe(taken ? "running" : "error");
    expect((await store.getEntry(run.id, 0))?.state).toBe(taken ? "executing" : "pending");
  });
}
