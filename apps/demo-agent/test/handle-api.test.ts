// The page's HTTP API over the agent's pieces in Node: snippets run with input, a run's timeline,
// rollback's preview and its message, and decisions from the queue.
import { describe, expect, it } from "vitest";
import { type AgentApi, handleApi } from "../src/handle-api.ts";
import { agentInNode } from "./agent-in-node.ts";

function api() {
  const demo = agentInNode();
  const notes: string[] = [];
  const agent: AgentApi = {
    runtime: demo.runtime,
    stores: demo.stores,
    connectors: ["tracker", "notes", "catalog"],
    events: demo.events,
    model: () => ({ provider: "offline", label: "offline" }),
    changed: (note) => {
      if (note) notes.push(note);
    },
    decide: (executionId, decision) => demo.chat.decide(executionId, decision),
  };
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
  return { demo, call, notes };
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
    const { call, notes } = api();
    const paused = await call("POST", "/api/run", {
      code: 'async () => { await notes.add_note({ title: "Kept", body: "." }); return tracker.create_task({ projectId: "mobile", title: "Gone soon" }); }',
    });
    const executionId = String(paused.body.executionId);
    expect(paused.body.status).toBe("paused");
    expect((await call("POST", "/api/approve", { executionId })).body).toMatchObject({
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

  it("rejects from the queue with a reason, and refuses a bad seq", async () => {
    const { call, demo } = api();
    const paused = await call("POST", "/api/run", {
      code: 'async () => tracker.create_task({ projectId: "mobile", title: "No" })',
    });
    const executionId = String(paused.body.executionId);
    expect((await call("POST", "/api/reject", { executionId, seq: -1 })).status).toBe(400);
    const rejected = await call("POST", "/api/reject", { executionId, seq: 0, reason: "not now" });
    expect(rejected.body).toMatchObject({ rejected: true, status: "rejected", via: "queue" });
    expect((await demo.runtime.execution(executionId))?.error).toContain("not now");
    expect((await call("POST", "/api/reject", { executionId, seq: 0 })).status).toBe(409);
  });

  it("approves from the queue only the calls it showed, with the reason given", async () => {
    const { call, demo } = api();
    const paused = await call("POST", "/api/run", {
      code: 'async () => { await tracker.create_task({ projectId: "mobile", title: "One" }); return tracker.create_task({ projectId: "mobile", title: "Two" }); }',
    });
    const executionId = String(paused.body.executionId);
    expect((await call("POST", "/api/approve", { executionId, seqs: ["0"] })).status).toBe(400);
    const first = await call("POST", "/api/approve", { executionId, seqs: [0], reason: "fine" });
    expect(first.body).toMatchObject({ status: "paused" });
    expect(demo.events.list(executionId).find((event) => event.type === "decision")).toMatchObject({
      decision: "approved",
      seqs: [0],
      reason: "fine",
      by: "queue",
    });
    // a page still showing the first call does not approve the second one blind
    const stale = await call("POST", "/api/approve", { executionId, seqs: [0] });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toContain("No call this approval names (seq 0)");
    expect((await demo.runtime.pending(executionId)).map((action) => action.seq)).toEqual([1]);
    expect((await call("POST", "/api/approve", { executionId, seqs: [1] })).body).toMatchObject({
      status: "completed",
    });
  });
});
