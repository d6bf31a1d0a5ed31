import { describe, expect, it } from "vitest";
import type { JournalEntry } from "../../journal-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { callEntry, runningRun, testContext } from "../../test/run-context.ts";
import type { ResolvedConnector } from "../context/configuration.ts";
import { decideRevertInDoubt, revertResolutionsOf } from "./revert-in-doubt.ts";

describe("revertResolutionsOf", () => {
  it("takes the host's lists of seqs, and refuses anything else", () => {
    expect(
      revertResolutionsOf({ revertAgain: [1], markReverted: [2, 3], other: true }, 10),
    ).toEqual({
      revertAgain: [1],
      markReverted: [2, 3],
    });
    expect(revertResolutionsOf({}, 10)).toEqual({});
    for (const bad of [{ revertAgain: [-1] }, { markReverted: "1" }, { revertAgain: [1, 2, 3] }]) {
      expect(() => revertResolutionsOf(bad, 2)).toThrow(
        expect.objectContaining({ code: "INVALID_INPUT" }),
      );
    }
  });
});

describe("decideRevertInDoubt", () => {
  /** A revert in doubt of `ops.create` (seq 4), and what is decided with `reconcileRevert`. */
  async function decide(
    resolutions: { revertAgain?: number[]; markReverted?: number[] },
    reconcileRevert?: () => Promise<unknown>,
    moved = false,
  ) {
    const asked: unknown[] = [];
    const ops = Object.assign(
      mockConnector({ name: "ops", methods: { create: { revert: () => undefined } } }),
      reconcileRevert
        ? {
            reconcileRevert: async (
              method: string,
              input: unknown,
              result: unknown,
              call: { idempotencyKey: string },
            ) => {
              asked.push([method, input, result, call.idempotencyKey]);
              return reconcileRevert();
            },
          }
        : {},
    );
    const context = testContext([ops]);
    const id = await runningRun(context);
    const entry: JournalEntry = callEntry(
      id,
      4,
      { connector: "ops", method: "create", input: { n: 1 }, result: "a" },
      { state: "reverting" },
    );
    await context.journal.putEntry(entry);
    const resolved = (await context.configurator.configure()).connectors.get(
      "ops",
    ) as ResolvedConnector;
    const decision = await decideRevertInDoubt(
      context,
      entry,
      resolved,
      "create",
      resolutions,
      moved,
    );
    return { decision, asked, state: (await context.journal.getEntry(id, 4))?.state, id };
  }

  it("follows the host's decision first: revert again, or record it reverted", async () => {
    expect(await decide({ revertAgain: [4] }, async () => ({ status: "applied" }))).toMatchObject({
      decision: { kind: "revert" },
      asked: [],
      state: "reverting",
    });
    expect(await decide({ markReverted: [4] })).toMatchObject({
      decision: { kind: "reverted", reason: "recorded reverted by the host" },
      state: "reverted",
    });
  });

  it("sends nothing through a method that now names another operation: only the host records it reverted", async () => {
    const reconcile = async () => ({ status: "not-applied" });
    for (const resolutions of [{ revertAgain: [4] }, {}]) {
      const moved = await decide(resolutions, reconcile, true);
      expect(moved.asked).toEqual([]);
      expect(moved.state).toBe("reverting");
      expect(moved.decision).toEqual({
        kind: "unrecorded",
        reason: `a rollback started its revert and never recorded what became of it, and its method now names another operation than the call was recorded for, so it is not reverted again through it: check it by the revert's key ${moved.id}:4:revert, then roll back with markReverted: [4] once it is undone`,
      });
    }
    expect(await decide({ markReverted: [4] }, reconcile, true)).toMatchObject({
      decision: { kind: "reverted", reason: "recorded reverted by the host" },
      asked: [],
      state: "reverted",
    });
  });

  it("else asks the connector's reconcileRevert by the revert's key, and leaves what nobody can tell to the host", async () => {
    const applied = await decide({}, async () => ({ status: "applied" }));
    expect(applied).toMatchObject({
      decision: { kind: "reverted", reason: "its connector read back that it ran" },
      state: "reverted",
    });
    expect(applied.asked).toEqual([["create", { n: 1 }, "a", `${applied.id}:4:revert`]]);
    expect(await decide({}, async () => ({ status: "not-applied" }))).toMatchObject({
      decision: { kind: "revert" },
      state: "reverting",
    });
    for (const reconcile of [
      undefined,
      async () => undefined,
      async () => {
        throw new Error("lookup failed");
      },
    ]) {
      const unknown = await decide({}, reconcile);
      expect(unknown.state).toBe("reverting");
      expect(unknown.decision).toEqual({
        kind: "unrecorded",
        reason: `a rollback started its revert and never recorded what became of it, so it may be undone already: check it by the revert's key ${unknown.id}:4:revert, then roll back with revertAgain: [4] to revert it again under that key, or markReverted: [4]`,
      });
    }
  });
});
