// A Durable Object that holds the durable runtime, evicted at the worst moments: while a run is
// paused with a call still in flight, in the middle of a pass (the object ends itself with
// `ctx.abort`, or every object is aborted while a call waits), and in the middle of a rollback. A
// fresh instance recovers through the public runtime API, and the tracker's ledger shows every side
// effect once: only a call caught between its effect and its record runs twice, with the same key.
import { abortAllDurableObjects } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CodeModeOutput } from "../../src/index.ts";
import type { FaultMode } from "./tracker.ts";

/** A read, a write without approval (seq 1), the approval-gated write (seq 2). */
const COMMENT_THEN_CREATE = `async () => {
  const before = await tracker.list_tasks({});
  const comment = await tracker.add_comment({ text: "Starting on the docs" });
  const made = await tracker.create_task({ title: "Write the docs" });
  return { before: before.length, comment, made };
}`;

const agent = (name: string) => env.AGENT.get(env.AGENT.idFromName(name));
/** RPC return types lose the union's discriminant on `unknown` results: read them as what they are. */
const output = async (reply: Promise<unknown>) => (await reply) as CodeModeOutput;
type Agent = ReturnType<typeof agent>;

async function paused(stub: Agent, code: string) {
  const outcome = await output(stub.execute(code));
  if (outcome.status !== "paused") throw new Error(`expected a pause, got ${outcome.status}`);
  return outcome;
}

/** The journal of a run as `[seq, method, state]`, and its status. */
const journal = (stub: Agent, executionId: string) => stub.journal(executionId);

/** The ledger, and how often a method ran. */
async function effects(stub: Agent) {
  const ledger = await stub.ledger();
  const count = (method: string) => ledger.filter((row) => row.method === method).length;
  return { ledger, count };
}

/**
 * The error an RPC call ends with (`expect(…).rejects` on an RPC promise leaves rejections of its own
 * unhandled).
 */
async function refusal(reply: Promise<unknown>): Promise<string> {
  try {
    await reply;
  } catch (error) {
    return String(error);
  }
  throw new Error("the call was answered");
}

/** Polls the ledger until `method` has run (a pass in flight in the object). */
/** A rollback report without its per-call list (the lists of seqs are what these tests compare). */
function withoutCalls(report: unknown): unknown {
  const { calls: _calls, ...rest } = report as { calls?: unknown };
  return rest;
}

async function until(stub: Agent, method: string) {
  // an outer bound for a loaded machine (about 30 s): the wait ends once the call ran
  for (let tries = 0; tries < 3_000; tries++) {
    if ((await stub.ledger()).some((row) => row.method === method)) return;
    await new Promise((done) => setTimeout(done, 10));
  }
  throw new Error(`${method} never ran`);
}

describe("a Durable Object evicted while a run is paused", () => {
  it("turns the pending approval down on the fresh instance and rolls back what ran before it", async () => {
    const stub = agent("paused-then-expired");
    const run = await paused(stub, COMMENT_THEN_CREATE);
    expect(run.pending).toMatchObject([{ seq: 2, method: "create_task" }]);

    await abortAllDurableObjects();
    const fresh = agent("paused-then-expired");
    expect(await fresh.pending()).toMatchObject([{ executionId: run.executionId, seq: 2 }]);
    expect(await fresh.expirePaused(0)).toEqual([run.executionId]);
    expect(await journal(fresh, run.executionId)).toEqual({
      status: "rejected",
      calls: [
        [0, "list_tasks", "applied"],
        [1, "add_comment", "applied"],
        [2, "create_task", "withdrawn"],
      ],
    });
    expect(await fresh.pending()).toEqual([]);
    expect(await output(fresh.approve(run.executionId))).toMatchObject({
      status: "error",
      error: expect.stringContaining("is rejected"),
    });

    expect(withoutCalls(await fresh.rollback(run.executionId))).toEqual({
      reverted: [1],
      skipped: [0],
    });
    expect(withoutCalls(await fresh.rollback(run.executionId))).toEqual({
      reverted: [],
      skipped: [0],
    });
    const { ledger, count } = await effects(fresh);
    expect(ledger.map((row) => row.method)).toEqual([
      "list_tasks",
      "add_comment",
      "revert_add_comment",
    ]);
    expect(ledger[2]?.key).toBe(`${run.executionId}:1:revert`);
    expect(count("create_task")).toBe(0);
    expect(await fresh.rows("tracker_comments")).toEqual([]);
    expect(await fresh.status(run.executionId)).toBe("rolled_back");
  });

  it("does not report the pause while a sibling call is in flight; the evicted run is recovered by expiry", async () => {
    const stub = agent("paused-in-flight");
    // the wait (seq 0) is held in this instance; the gated write (seq 1) waits for it to settle
    await stub.arm("stall:wait", "stall");
    const running = stub.execute(`async () => {
      const [waited, made] = await Promise.all([
        tracker.wait({ ms: 1 }),
        tracker.create_task({ title: "Write the docs" }),
      ]);
      return { waited, made };
    }`);
    void refusal(running);
    await until(stub, "wait");
    const [first] = await stub.ledger();
    const executionId = first?.key.replace(/:0$/, "") ?? "";
    // the pass has not reported: the run is still running, so no approval can find the wait running
    expect(await journal(stub, executionId)).toEqual({
      status: "running",
      calls: [
        [0, "wait", "executing"],
        [1, "create_task", "pending"],
      ],
    });
    expect(await output(stub.approve(executionId))).toMatchObject({
      status: "error",
      error: expect.stringContaining("is running"),
    });

    await abortAllDurableObjects();
    const fresh = agent("paused-in-flight");
    expect(await fresh.expirePaused(0)).toEqual([executionId]);
    expect(await journal(fresh, executionId)).toEqual({
      status: "error",
      calls: [
        [0, "wait", "executing"],
        [1, "create_task", "withdrawn"],
      ],
    });
    expect(withoutCalls(await fresh.rollback(executionId))).toEqual({
      reverted: [],
      skipped: [],
      unrecorded: [0],
    });
    const { count } = await effects(fresh);
    expect(count("wait")).toBe(1);
    expect(count("create_task")).toBe(0);
  });
});

describe("a Durable Object evicted in the middle of a pass", () => {
  // `abort` ends the object before its storage commits: the journal's `executing` mark and the
  // tracker's rows (the same SQLite) are lost together, and the call stays `approved`, as the
  // approval wrote it before the pass. `abort-after-commit` keeps what was written.
  const cases: Array<{
    point: string;
    mode: FaultMode;
    entry: "approved" | "executing";
    effect: boolean;
  }> = [
    { point: "before:create_task", mode: "abort", entry: "approved", effect: false },
    { point: "after:create_task", mode: "abort", entry: "approved", effect: false },
    { point: "before:create_task", mode: "abort-after-commit", entry: "executing", effect: false },
    { point: "after:create_task", mode: "abort-after-commit", entry: "executing", effect: true },
  ];
  for (const { point, mode, entry, effect } of cases) {
    it(`recovers a run whose approved write ended the object (${point}, ${mode})`, async () => {
      const name = `approved-${point}-${mode}`;
      const stub = agent(name);
      const run = await paused(stub, COMMENT_THEN_CREATE);
      await stub.arm(point, mode);
      expect(await refusal(stub.approve(run.executionId))).toContain(`fault injected at ${point}`);

      const fresh = agent(name);
      expect(await journal(fresh, run.executionId)).toEqual({
        status: "running",
        calls: [
          [0, "list_tasks", "applied"],
          [1, "add_comment", "applied"],
          [2, "create_task", entry],
        ],
      });
      // a stale running run is not resumed by an approval, nor rolled back while it runs
      expect(await output(fresh.approve(run.executionId))).toMatchObject({
        status: "error",
        error: expect.stringContaining("is running; only a paused run can resume"),
      });
      expect(await refusal(fresh.rollback(run.executionId))).toContain("is running");

      expect(await fresh.expirePaused(0)).toEqual([run.executionId]);
      expect(await journal(fresh, run.executionId)).toEqual({
        status: "error",
        calls: [
          [0, "list_tasks", "applied"],
          [1, "add_comment", "applied"],
          // an approved call no pass took is turned down; one whose outcome is unknown stays as it is
          [2, "create_task", entry === "approved" ? "withdrawn" : "executing"],
        ],
      });
      expect(await output(fresh.approve(run.executionId))).toMatchObject({ status: "error" });
      // only applied calls are reverted: a write caught in the crash window has no result to undo,
      // and the report names it
      expect(withoutCalls(await fresh.rollback(run.executionId))).toEqual({
        reverted: [1],
        skipped: [0],
        ...(entry === "executing" ? { unrecorded: [2] } : {}),
      });
      expect(await fresh.status(run.executionId)).toBe("rolled_back");

      const { ledger, count } = await effects(fresh);
      expect(count("list_tasks")).toBe(1);
      expect(count("add_comment")).toBe(1);
      expect(count("revert_add_comment")).toBe(1);
      expect(count("create_task")).toBe(effect ? 1 : 0);
      if (effect) {
        expect(ledger.find((row) => row.method === "create_task")?.key).toBe(
          `${run.executionId}:2`,
        );
      }
      expect(await fresh.rows("tracker_tasks")).toHaveLength(effect ? 1 : 0);
      expect(await fresh.rows("tracker_comments")).toEqual([]);
    });
  }

  it("recovers a run whose object was aborted while the pass awaited a slow call", async () => {
    const stub = agent("aborted-while-waiting");
    await stub.arm("stall:wait", "stall");
    const running = stub.execute(`async () => {
      const comment = await tracker.add_comment({ text: "Waiting on the review" });
      await tracker.wait({ ms: 1 });
      return tracker.create_task({ title: "Merge it" });
    }`);
    // the caller hears of it only when the evicted instance's pass ends, by its executor's time
    // limit (its sandbox's call into the object is never answered): recovery does not wait for that
    void refusal(running);
    await until(stub, "wait");
    await abortAllDurableObjects();

    const fresh = agent("aborted-while-waiting");
    const [first] = await fresh.ledger();
    const executionId = first?.key.replace(/:0$/, "") ?? "";
    expect(await journal(fresh, executionId)).toEqual({
      status: "running",
      calls: [
        [0, "add_comment", "applied"],
        [1, "wait", "executing"],
      ],
    });
    expect(await output(fresh.approve(executionId))).toMatchObject({ status: "error" });
    expect(await fresh.expirePaused(0)).toEqual([executionId]);
    expect(await fresh.status(executionId)).toBe("error");
    // the slow read's outcome was never recorded
    expect(withoutCalls(await fresh.rollback(executionId))).toEqual({
      reverted: [0],
      skipped: [],
      unrecorded: [1],
    });

    const { ledger } = await effects(fresh);
    expect(ledger.map((row) => row.method)).toEqual(["add_comment", "wait", "revert_add_comment"]);
    expect(await fresh.rows("tracker_comments")).toEqual([]);
    expect(await fresh.rows("tracker_tasks")).toEqual([]);
  });
});

describe("a Durable Object evicted during a rollback", () => {
  // The rollback reverts seq 2 (the task), then seq 1 (the comment), where the object ends.
  const cases: Array<{
    point: string;
    mode: FaultMode;
    /** what the interrupted rollback left: seq 2 reverted and recorded, seq 1's effect undone */
    taskReverted: boolean;
    commentUndone: boolean;
  }> = [
    {
      point: "before:revert_add_comment",
      mode: "abort",
      taskReverted: false,
      commentUndone: false,
    },
    { point: "after:revert_add_comment", mode: "abort", taskReverted: false, commentUndone: false },
    {
      point: "before:revert_add_comment",
      mode: "abort-after-commit",
      taskReverted: true,
      commentUndone: false,
    },
    {
      point: "after:revert_add_comment",
      mode: "abort-after-commit",
      taskReverted: true,
      commentUndone: true,
    },
  ];
  for (const { point, mode, taskReverted, commentUndone } of cases) {
    it(`finishes a rollback that ended the object (${point}, ${mode})`, async () => {
      const name = `rollback-${point}-${mode}`;
      const stub = agent(name);
      const run = await paused(stub, COMMENT_THEN_CREATE);
      expect(await output(stub.approve(run.executionId))).toMatchObject({ status: "completed" });
      await stub.arm(point, mode);
      expect(await refusal(stub.rollback(run.executionId))).toContain(`fault injected at ${point}`);

      const fresh = agent(name);
      expect(await journal(fresh, run.executionId)).toEqual({
        status: "completed",
        calls: [
          [0, "list_tasks", "applied"],
          // taken by the rollback before its revert ran, where its storage committed that
          [1, "add_comment", mode === "abort-after-commit" ? "reverting" : "applied"],
          [2, "create_task", taskReverted ? "reverted" : "applied"],
        ],
      });
      if (mode === "abort-after-commit") {
        // until a taken revert is stale, another rollback leaves it to the one that took it
        expect(await fresh.rollback(run.executionId)).toMatchObject({
          calls: [
            { seq: 1, outcome: "skipped", reason: "another rollback is reverting it" },
            { seq: 0 },
          ],
        });
      }
      expect((await effects(fresh)).count("revert_create_task")).toBe(taskReverted ? 1 : 0);
      expect(await fresh.rows("tracker_tasks")).toHaveLength(taskReverted ? 0 : 1);
      expect(await fresh.rows("tracker_comments")).toHaveLength(commentUndone ? 0 : 1);

      if (mode === "abort-after-commit") {
        // a revert taken and never recorded is in doubt: no later rollback runs it by itself
        expect(withoutCalls(await fresh.rollbackLater(run.executionId))).toEqual({
          reverted: [],
          skipped: [0],
          unrecorded: [1],
        });
        // the host checked and says to revert it again: once more, under the same key
        expect(withoutCalls(await fresh.rollbackLater(run.executionId, [1]))).toEqual({
          reverted: [1],
          skipped: [0],
        });
      } else {
        expect(withoutCalls(await fresh.rollbackLater(run.executionId))).toEqual({
          reverted: taskReverted ? [1] : [2, 1],
          skipped: [0],
        });
      }
      expect(await fresh.status(run.executionId)).toBe("rolled_back");
      // a third rollback finds nothing left to revert
      expect(withoutCalls(await fresh.rollback(run.executionId))).toEqual({
        reverted: [],
        skipped: [0],
      });

      const { ledger, count } = await effects(fresh);
      expect(count("create_task")).toBe(1);
      expect(count("revert_create_task")).toBe(1);
      // the crash window of a revert: undone but not yet recorded; run again (by the host's
      // word), under the same key
      const reverts = ledger.filter((row) => row.method === "revert_add_comment");
      expect(reverts.map((row) => row.key)).toEqual(
        Array(commentUndone ? 2 : 1).fill(`${run.executionId}:1:revert`),
      );
      expect(await fresh.rows("tracker_tasks")).toEqual([]);
      expect(await fresh.rows("tracker_comments")).toEqual([]);
    });
  }
});
