// The page's HTTP API over the agent's pieces in Node: snippets run with input, a run's timeline,
// rollback's preview and its message, decisions from the queue, and a run cancelled from the page.
import { describe, expect, it } from "vitest";
import { handleApi } from "../src/handle-api.ts";
import type { WaitingRun } from "../src/waiting-run.ts";
import { agentInNode, nodeAgent } from "./agent-in-node.ts";

function api() {
  const demo = agentInNode();
  const notes: string[] = [];
  const agent = nodeAgent(demo, (note) => {
    if (note) notes.push(note);
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await handleApi(
      new Request(`http://demo${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
      agent,
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  /** the queue's entry for a run, as the page shows it */
  const queued = async (executionId: string) => {
    const runs = (await call("GET", "/api/queue")).body as unknown as WaitingRun[];
    const run = runs.find((each) => each.executionId === executionId);
    if (!run) throw new Error(`the queue does not list ${executionId}`);
    return run;
  };
  return { demo, call, notes, queued };
}

describe("the agent's HTTP API", () => {
  it("runs a snippet with its input; a missing snippet is an error", async () => {
    const { call } = api();
    const saved = await call("POST", "/api/run", {
      code: "async (input) => (await tracker.list_tasks({})).filter((t) => t.status === (input?.status ?? 'todo')).length",
    });
    await call("POST", "/api/snippets", { name: "count", executionId: saved.body.executionId });
    expect(
      (await call("POST", "/api/snippets/count/run", { input: { status: "done" } })).body,
    ).toMatchObject({
      status: "completed",
      result: 2,
    });
    expect((await call("POST", "/api/snippets/no-such-snippet/run", {})).body).toMatchObject({
      status: "error",
      error: expect.stringContaining('No snippet is named "no-such-snippet"'),
    });
    const huge = await call("POST", "/api/snippets/count/run", { input: "x".repeat(100_001) });
    expect(huge.status).toBe(400);
  });

  it("gives a run's timeline, previews its rollback and says what the rollback did", async () => {
    const { call, notes, queued } = api();
    const paused = await call("POST", "/api/run", {
      code: 'async () => { await notes.add_note({ title: "Kept", body: "." }); return tracker.create_task({ projectId: "mobile", title: "Gone soon" }); }',
    });
    const executionId = String(paused.body.executionId);
    expect(paused.body.status).toBe("paused");
    const { handle } = await queued(executionId);
    expect((await call("POST", "/api/approve", { executionId, handle })).body).toMatchObject({
      status: "completed",
      via: "queue",
    });
    const timeline = await call("GET", `/api/executions/${executionId}/timeline`);
    expect((timeline.body.events as Array<{ type: string }>).map((event) => event.type)).toEqual([
      "pass-start",
      "call",
      "waiting",
      "pass-end",
      "decision",
      "pass-start",
      "call",
      "call",
      "pass-end",
    ]);
    const preview = await call("GET", `/api/executions/${executionId}/rollback-preview`);
    expect(preview.body.calls).toMatchObject([
      { seq: 1, method: "create_task", action: "revert" },
      {
        seq: 0,
        method: "add_note",
        action: "cannot_revert",
        reason: "the method is not revertible",
      },
    ]);
    const rolled = await call("POST", "/api/rollback", { executionId });
    expect(rolled.body.status).toBe("rolled_back");
    expect(rolled.body.message).toBe(
      [
        `Rolled back ${executionId}: reverted 1 call: tracker.create_task (seq 1).`,
        "Not reverted: notes.add_note (seq 0): the method is not revertible.",
        "The run is now rolled_back.",
      ].join("\n"),
    );
    expect(notes).toContain(rolled.body.message);
  });

  it("says so when a rollback can undo nothing, and the run keeps its status", async () => {
    const { call } = api();
    const run = await call("POST", "/api/run", {
      code: 'async () => notes.add_note({ title: "Stays", body: "." })',
    });
    const rolled = await call("POST", "/api/rollback", { executionId: run.body.executionId });
    expect(rolled.body.status).toBe("completed");
    expect(rolled.body.message).toContain(
      "The run stays completed, because nothing could be undone.",
    );
  });

  it("shows in the queue what a card shows: each call's input and effect, the calls before, the program", async () => {
    const { call, queued } = api();
    const paused = await call("POST", "/api/run", {
      code: 'async () => { await tracker.list_projects({}); return Promise.all([tracker.update_task_status({ id: 2, status: "done" }), tracker.update_task_status({ id: 3, status: "done" })]); }',
    });
    const executionId = String(paused.body.executionId);
    const run = await queued(executionId);
    expect(run.code).toContain("Promise.all");
    expect(run.done).toMatchObject([{ seq: 0, method: "list_projects", state: "applied" }]);
    expect(run.pending.map((action) => [action.seq, action.args, action.effect?.after])).toEqual([
      [1, { id: 2, status: "done" }, { status: "done" }],
      [2, { id: 3, status: "done" }, { status: "done" }],
    ]);
    expect(run.pending[0]?.effect?.summary).toMatch(/^Task #2 ".+": \w+ → done$/);
    expect(run.handle).toEqual({
      version: 1,
      executionId,
      calls: run.pending.map(({ seq, digest }) => ({ seq, digest })),
    });
  });

  it("rejects every call the queue showed with one Reject, with the reason; a call never run is withdrawn", async () => {
    const { call, demo, queued } = api();
    const statuses = () => [2, 3].map((id) => demo.tracker.getTask(id)?.status);
    const before = statuses();
    const paused = await call("POST", "/api/run", {
      code: 'async () => Promise.all([tracker.update_task_status({ id: 2, status: "done" }), tracker.update_task_status({ id: 3, status: "done" })])',
    });
    const executionId = String(paused.body.executionId);
    const { handle } = await queued(executionId);
    expect(
      (await call("POST", "/api/reject", { executionId, handle: { ...handle, calls: [] } })).status,
    ).toBe(400);
    expect((await call("POST", "/api/reject", { executionId })).status).toBe(400);
    const rejected = await call("POST", "/api/reject", { executionId, handle, reason: "not now" });
    expect(rejected.body).toMatchObject({ rejected: true, status: "rejected", via: "queue" });
    expect((await demo.runtime.execution(executionId))?.error).toContain("not now");
    const run = await demo.runtime.execution(executionId);
    expect(run?.calls.map((entry) => [entry.seq, entry.state])).toEqual([
      [0, "withdrawn"],
      [1, "withdrawn"],
    ]);
    expect(statuses()).toEqual(before);
    const again = await call("POST", "/api/reject", { executionId, handle });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ stale: true, rejected: false });
    expect(again.body.error).toMatch(/^Already decided: /);
  });

  it("approves from the queue only the calls it showed, once: a page still showing them gets 'already decided'", async () => {
    const { call, demo, queued } = api();
    const paused = await call("POST", "/api/run", {
      code: 'async () => { await tracker.create_task({ projectId: "mobile", title: "One" }); return tracker.create_task({ projectId: "mobile", title: "Two" }); }',
    });
    const executionId = String(paused.body.executionId);
    const first = await queued(executionId);
    expect(first.pending.map((action) => action.seq)).toEqual([0]);
    const approved = await call("POST", "/api/approve", {
      executionId,
      handle: first.handle,
      reason: "fine",
    });
    expect(approved.body).toMatchObject({ status: "paused", via: "queue" });
    expect(demo.events.list(executionId).find((event) => event.type === "decision")).toMatchObject({
      decision: "approved",
      seqs: [0],
      reason: "fine",
      by: "queue",
    });
    // the same answer again (a page that still shows the first call, a resent request): the run
    // now waits for the second call, which nobody was shown with this handle
    for (const path of ["/api/approve", "/api/reject"]) {
      const stale = await call("POST", path, { executionId, handle: first.handle });
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({ stale: true, status: "paused" });
      expect(stale.body.error).toMatch(/^Already decided: .*Nothing ran for this answer\.$/);
    }
    expect(demo.tracker.listTasks().filter((task) => task.title === "Two")).toHaveLength(0);
    const second = await queued(executionId);
    expect(second.pending.map((action) => action.seq)).toEqual([1]);
    expect(
      (await call("POST", "/api/approve", { executionId, handle: second.handle })).body,
    ).toMatchObject({ status: "completed" });
    expect(demo.tracker.listTasks().filter((task) => task.title === "Two")).toHaveLength(1);
  });

  it("cancels a waiting run from the page: it ends cancelled, its calls never run, the queue drops it, and a later decision or cancel changes nothing", async () => {
    const { call, demo, notes, queued } = api();
    const paused = await call("POST", "/api/run", {
      code: 'async () => tracker.create_task({ projectId: "mobile", title: "Never made" })',
    });
    const executionId = String(paused.body.executionId);
    const { handle } = await queued(executionId);
    expect((await call("POST", "/api/cancel", {})).status).toBe(400);
    const cancelled = await call("POST", "/api/cancel", { executionId, reason: "changed my mind" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ cancelled: true, status: "cancelled", was: "paused" });
    expect(cancelled.body.error).toMatch(
      /^Cancelled by a person on the demo page at .*: changed my mind\./,
    );
    expect(notes.at(-1)).toBe(`Run ${executionId} was cancelled: nothing of it runs any more.`);
    const run = await demo.runtime.execution(executionId);
    expect(run?.status).toBe("cancelled");
    expect(run?.calls.map((entry) => entry.state)).toEqual(["withdrawn"]);
    expect(demo.events.list(executionId).find((event) => event.type === "decision")).toMatchObject({
      decision: "cancelled",
      seqs: [0],
      reason: "changed my mind",
      by: "api",
    });
    const runs = (await call("GET", "/api/queue")).body as unknown as WaitingRun[];
    expect(runs.some((each) => each.executionId === executionId)).toBe(false);
    // the card the queue showed decides nothing now, and a second cancel says the run has ended
    const late = await call("POST", "/api/approve", { executionId, handle });
    expect(late.status).toBe(409);
    const again = await call("POST", "/api/cancel", { executionId });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ cancelled: false, status: "cancelled" });
    expect(demo.tracker.listTasks().some((task) => task.title === "Never made")).toBe(false);
  });
});
