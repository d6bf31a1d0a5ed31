import type { ExecutionRecord, Journal, JournalEntry } from "@codemode/core";
import { expect } from "vitest";
import type { DeclareTest } from "./known-gaps.ts";

let counter = 0;

/** A run `running` under `owner`'s lease, lapsing at `expiresAt`. */
function leased(owner: string, expiresAt: number): ExecutionRecord {
  counter += 1;
  return {
    id: `exec_lease_${counter}`,
    code: "async () => 1",
    status: "running",
    connectors: [],
    createdAt: 1_000 + counter,
    updatedAt: 1_000 + counter,
    lease: { owner, expiresAt },
  };
}

function call(executionId: string, seq: number): JournalEntry {
  return {
    executionId,
    seq,
    kind: "call",
    connector: "ledger",
    method: "write",
    args: "{}",
    state: "executing",
    requiresApproval: false,
    deferred: false,
    replay: "record",
    createdAt: 2,
    updatedAt: 2,
  };
}

/**
 * The lease cases of the store suite: a run's lease is kept and moved only by the writes that may
 * move it; its owner alone renews it and writes entries under it; expiry finds and takes only runs
 * whose lease lapsed, never a live one.
 */
export function leaseConformance(test: DeclareTest, journal: () => Promise<Journal>): void {
  test("keeps a run's lease, sets it with a status change and clears it", async () => {
    const store = await journal();
    const run = leased("pass_a", 5_000);
    await store.createExecution(run);
    expect(await store.getExecution(run.id)).toEqual(run);
    expect(
      await store.updateExecution(run.id, ["running"], { status: "paused", lease: undefined }),
    ).toBe(true);
    expect((await store.getExecution(run.id))?.lease).toBeUndefined();
    // the write that takes the run gives it the new pass's lease
    expect(
      await store.updateExecution(run.id, ["paused"], {
        status: "running",
        lease: { owner: "pass_b", expiresAt: 9_000 },
      }),
    ).toBe(true);
    expect((await store.getExecution(run.id))?.lease).toEqual({
      owner: "pass_b",
      expiresAt: 9_000,
    });
  });

  test("renews only for the lease's owner", async () => {
    const store = await journal();
    const run = leased("pass_a", 5_000);
    await store.createExecution(run);
    const renew = (owner: string, expiresAt: number) =>
      store.updateExecution(
        run.id,
        ["running"],
        { lease: { owner, expiresAt }, updatedAt: expiresAt - 100 },
        { owner },
      );
    expect(await renew("pass_b", 8_000)).toBe(false);
    expect((await store.getExecution(run.id))?.lease).toEqual({
      owner: "pass_a",
      expiresAt: 5_000,
    });
    expect(await renew("pass_a", 8_000)).toBe(true);
    expect(await store.getExecution(run.id)).toMatchObject({
      lease: { owner: "pass_a", expiresAt: 8_000 },
      updatedAt: 7_900,
    });
    // a run that is no longer running is renewed by no one
    await store.updateExecution(run.id, ["running"], { status: "error", lease: undefined });
    expect(await renew("pass_a", 9_000)).toBe(false);
  });

  test("writes an entry under a claim only while the claim's owner holds the run", async () => {
    const store = await journal();
    const run = leased("pass_a", 5_000);
    await store.createExecution(run);
    expect(await store.putEntry(call(run.id, 0), { owner: "pass_b" })).toBe(false);
    expect(await store.putEntry(call(run.id, 0), { owner: "pass_b", renewUntil: 9_000 })).toBe(
      false,
    );
    expect(await store.getEntry(run.id, 0)).toBeUndefined();
    expect((await store.getExecution(run.id))?.lease?.expiresAt).toBe(5_000);
    expect(await store.putEntry(call(run.id, 0), { owner: "pass_a" })).toBe(true);
    expect((await store.getExecution(run.id))?.lease?.expiresAt).toBe(5_000);
    // renewing in the same write
    expect(await store.putEntry(call(run.id, 1), { owner: "pass_a", renewUntil: 7_000 })).toBe(
      true,
    );
    expect((await store.getExecution(run.id))?.lease).toEqual({
      owner: "pass_a",
      expiresAt: 7_000,
    });
    expect((await store.listEntries(run.id)).map((entry) => entry.seq)).toEqual([0, 1]);
    // paused: the lease is gone, and so is every claim on the run
    await store.updateExecution(run.id, ["running"], { status: "paused", lease: undefined });
    expect(await store.putEntry(call(run.id, 2), { owner: "pass_a" })).toBe(false);
    expect(await store.putEntry(call(run.id, 2), { owner: "pass_a", renewUntil: 9_000 })).toBe(
      false,
    );
    expect(await store.getEntry(run.id, 2)).toBeUndefined();
    // without a claim the host still writes (a rollback, a resolved call); no run, no entry
    expect(await store.putEntry(call(run.id, 2))).toBe(true);
    await expect(store.putEntry(call("missing", 0), { owner: "pass_a" })).rejects.toThrow(
      /No execution/,
    );
  });

  test("lists and takes only runs whose lease lapsed", async () => {
    const store = await journal();
    const lapsed = leased("pass_gone", 1_000);
    const live = leased("pass_live", 2_000);
    const unleased = { ...leased("x", 0), lease: undefined };
    const paused = { ...leased("x", 0), status: "paused" as const, lease: undefined };
    for (const run of [lapsed, live, unleased, paused]) await store.createExecution(run);
    expect((await store.listLapsed(1_500)).map((run) => run.id)).toEqual([lapsed.id, unleased.id]);
    // the expiry of a lease is the last moment it is live
    expect((await store.listLapsed(1_000)).map((run) => run.id)).toEqual([unleased.id]);
    const expire = (id: string, now: number) =>
      store.updateExecution(
        id,
        ["running"],
        { status: "error", error: "expired", lease: undefined },
        { lapsedBefore: now },
      );
    expect(await expire(live.id, 1_500)).toBe(false);
    expect((await store.getExecution(live.id))?.status).toBe("running");
    expect(await expire(live.id, 2_000)).toBe(false);
    expect(await expire(lapsed.id, 1_500)).toBe(true);
    expect(await store.getExecution(lapsed.id)).toMatchObject({ status: "error" });
    expect((await store.getExecution(lapsed.id))?.lease).toBeUndefined();
    // renewed in time, the run is no longer lapsed when expiry comes for it
    expect(
      await store.updateExecution(
        live.id,
        ["running"],
        { lease: { owner: "pass_live", expiresAt: 4_000 } },
        { owner: "pass_live" },
      ),
    ).toBe(true);
    expect(await store.listLapsed(3_000)).toHaveLength(1);
    expect(await expire(live.id, 3_000)).toBe(false);
    expect(await expire(live.id, 4_001)).toBe(true);
  });

  test("ends a paused run only while nothing wrote it since it was found stale", async () => {
    const store = await journal();
    const paused: ExecutionRecord = {
      ...leased("x", 0),
      status: "paused",
      lease: undefined,
      updatedAt: 1_000,
    };
    await store.createExecution(paused);
    const expire = (before: number) =>
      store.updateExecution(
        paused.id,
        ["paused"],
        { status: "rejected", error: "expired" },
        { updatedBefore: before },
      );
    // the last moment it was written is not before itself
    expect(await expire(1_000)).toBe(false);
    // approved and paused again meanwhile: written since, so kept
    expect(await store.updateExecution(paused.id, ["paused"], { updatedAt: 5_000 })).toBe(true);
    expect(await expire(2_000)).toBe(false);
    expect((await store.getExecution(paused.id))?.status).toBe("paused");
    expect(await expire(5_001)).toBe(true);
    expect((await store.getExecution(paused.id))?.status).toBe("rejected");
  });

  test("lets one of two racing takers of a lapsed run win", async () => {
    const store = await journal();
    const run = leased("pass_gone", 1_000);
    await store.createExecution(run);
    const outcomes = await Promise.all([
      store.updateExecution(run.id, ["running"], { status: "error" }, { lapsedBefore: 2_000 }),
      store.updateExecution(run.id, ["running"], { status: "error" }, { lapsedBefore: 2_000 }),
      store.putEntry(call(run.id, 0), { owner: "pass_gone", renewUntil: 3_000 }),
    ]);
    const status = (await store.getExecution(run.id))?.status;
    expect(outcomes.slice(0, 2).filter(Boolean).length).toBe(status === "error" ? 1 : 0);
    // the owner's write and the expiry exclude each other: the entry exists only in a run that
    // was not taken before it, and a renewed run is not lapsed any more
    if (outcomes[2]) expect(await store.getEntry(run.id, 0)).toBeDefined();
    else expect(await store.getEntry(run.id, 0)).toBeUndefined();
    expect(status === "error").toBe(!outcomes[2]);
  });
}
