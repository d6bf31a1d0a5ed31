// The agent's pieces together in Node: the offline model's programs run through the real durable
// runtime (QuickJS here instead of the Worker Loader) against the tracker in SQLite, the way the
// Durable Object wires them; approval, replay and rollback included.
import { beforeEach, describe, expect, it } from "vitest";
import { agentInNode } from "./agent-in-node.ts";

describe("the demo agent's flow", () => {
  let demo: ReturnType<typeof agentInNode>;
  beforeEach(() => {
    demo = agentInNode();
  });

  it("seeds the tracker once", () => {
    expect(demo.tracker.listProjects().map((p) => p.id)).toEqual(["infra", "mobile", "website"]);
    expect(demo.tracker.listTasks()).toHaveLength(7);
  });

  it("lists the real tasks and keeps the turn in the history", async () => {
    const { events, answer } = await demo.say("list my tasks");
    expect(events.map((event) => event.type)).toContain("tool-call");
    const result = events.find((event) => event.type === "tool-result");
    expect(result).toMatchObject({ output: { status: "completed" } });
    expect(answer).toContain("You have 7 tasks: 3 to do, 2 in progress, 2 done.");
    expect(answer).toContain("#1 Redesign the pricing page (doing, high, website)");
    expect(demo.history.list().map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
  });

  it("summarizes projects with one journaled call per project", async () => {
    const { answer, events } = await demo.say("summarize projects");
    expect(answer).toContain("3 projects, 5 open tasks in all:");
    expect(answer).toContain("- Website: 3 tasks, 1 done, 2 open");
    const output = events.find((event) => event.type === "tool-result");
    const id = output?.type === "tool-result" ? output.output.executionId : "";
    const run = await demo.runtime.execution(id);
    expect(run?.calls.map((call) => call.method)).toEqual([
      "list_projects",
      "list_tasks",
      "list_tasks",
      "list_tasks",
    ]);
  });

  it("asks in the chat; approving the card creates the task once and the model says so", async () => {
    const asked = await demo.say("create a task Write release notes in mobile");
    // the turn ends with the card: the model says nothing until the person answers
    expect(asked.answer).toBe("");
    expect(asked.card).toMatchObject({
      request: "create a task Write release notes in mobile",
      done: [{ seq: 0, connector: "tracker", method: "list_projects", state: "applied" }],
      pending: [
        {
          seq: 1,
          method: "create_task",
          args: { projectId: "mobile", title: "Write release notes" },
          effect: { summary: 'Adds the task "Write release notes" to Mobile app' },
        },
      ],
    });
    expect(asked.card?.code).toContain("tracker.create_task");
    expect(demo.tracker.listTasks()).toHaveLength(7);

    const answered = await demo.answer(true, "for the release");
    expect(answered.events.map((event) => event.type)).toContain("tool-result");
    expect(answered.output).toMatchObject({
      status: "completed",
      result: { id: 8, title: "Write release notes" },
    });
    expect(answered.answer).not.toBe("");
    expect(demo.tracker.listTasks()).toHaveLength(8);
    expect(demo.cards.list().at(-1)?.answer).toMatchObject({ approved: true, via: "chat" });
    // the timeline: two passes, the first call replayed in the second, the decision by the chat
    const executionId = asked.card?.executionId ?? "";
    const timeline = demo.events.list(executionId).map((event) => {
      if (event.type === "call") return `call ${event.seq} ${event.live ? "live" : "replayed"}`;
      if (event.type === "decision") return `${event.decision} by ${event.by}`;
      return event.type;
    });
    expect(demo.events.list(executionId).find((event) => event.type === "decision")).toMatchObject({
      reason: "for the release",
    });
    expect(timeline).toEqual([
      "pass-start",
      "call 0 live",
      "waiting",
      "pass-end",
      "approved by chat",
      "pass-start",
      "call 0 replayed",
      "call 1 live",
      "pass-end",
    ]);
    expect(
      await demo.chat.answer(asked.card?.approvalId ?? "", { approved: true, via: "chat" }),
    ).toBe("stale");
    expect(await demo.chat.answer("no-such-card", { approved: true, via: "chat" })).toBe("unknown");
  });

  it("moves several tasks at once: one card with every call, one approval for all of them", async () => {
    const asked = await demo.say("mark tasks 2, 3 and 5 as done");
    expect(asked.card?.pending.map((call) => [call.method, call.args])).toEqual(
      [2, 3, 5].map((id) => ["update_task_status", { id, status: "done" }]),
    );
    expect(asked.card?.pending.map((call) => call.effect?.summary)).toEqual([
      expect.stringContaining("→ done"),
      expect.stringContaining("→ done"),
      expect.stringContaining("→ done"),
    ]);
    const answered = await demo.answer(true);
    expect(answered.output).toMatchObject({ status: "completed" });
    expect(answered.answer).toContain("Moved 3 tasks to done:");
    for (const id of [2, 3, 5]) expect(demo.tracker.getTask(id)?.status).toBe("done");
    // one decision ran the three writes
    const executionId = asked.card?.executionId ?? "";
    const decisions = demo.events.list(executionId).filter((event) => event.type === "decision");
    expect(decisions).toMatchObject([{ decision: "approved", seqs: [3, 4, 5] }]);
  });

  it("a rejection in the chat, with a reason, ends the run and creates nothing", async () => {
    const asked = await demo.say("create a task Never do this");
    const answered = await demo.answer(false, "not this week");
    const executionId = asked.card?.executionId ?? "";
    const run = await demo.runtime.execution(executionId);
    expect(run?.status).toBe("rejected");
    expect(run?.error).toContain("not this week");
    expect(answered.answer).not.toBe("");
    expect(demo.tracker.listTasks().some((task) => task.title === "Never do this")).toBe(false);
    expect(demo.events.list(executionId).at(-1)).toMatchObject({
      type: "decision",
      decision: "rejected",
      reason: "not this week",
      by: "chat",
    });
  });

  it("approving a chat's run from the queue answers its card, and the chat goes on", async () => {
    const before = demo.tracker.getTask(2)?.status;
    expect(before).not.toBe("done");
    const asked = await demo.say("mark task 2 as done");
    expect(asked.card?.pending[0]?.effect).toMatchObject({
      before: { status: before },
      after: { status: "done" },
    });
    const executionId = asked.card?.executionId ?? "";
    const handle = asked.card?.handle;
    if (!handle) throw new Error("the card has no handle");
    const decided = await demo.turn(() =>
      demo.chat.decide(executionId, { approved: true, handle }),
    );
    expect(decided.output).toMatchObject({ status: "completed" });
    expect(demo.tracker.getTask(2)?.status).toBe("done");
    expect(demo.cards.list().at(-1)?.answer).toMatchObject({ approved: true, via: "queue" });
    expect(demo.events.list(executionId)).toContainEqual(
      expect.objectContaining({ type: "decision", by: "queue" }),
    );
  });

  it("pauses on create, creates once on approval from the queue, and rolls back", async () => {
    await demo.say("create a task Write release notes in mobile");
    const [pending] = await demo.runtime.pending();
    expect(pending).toMatchObject({
      seq: 1,
      connector: "tracker",
      method: "create_task",
      args: { projectId: "mobile", title: "Write release notes" },
    });
    expect(demo.tracker.listTasks()).toHaveLength(7);

    const executionId = pending?.executionId ?? "";
    const approved = await demo.runtime.approve({ executionId });
    expect(approved).toMatchObject({
      status: "completed",
      result: { id: 8, projectId: "mobile", title: "Write release notes", status: "todo" },
    });
    expect(demo.tracker.listTasks()).toHaveLength(8);
    const run = await demo.runtime.execution(executionId);
    expect(run?.calls.map((call) => [call.seq, call.method, call.state])).toEqual([
      [0, "list_projects", "applied"],
      [1, "create_task", "applied"],
    ]);

    expect(await demo.runtime.rollback({ executionId })).toMatchObject({
      reverted: [1],
      skipped: [0],
    });
    expect(demo.tracker.listTasks()).toHaveLength(7);
    expect((await demo.runtime.execution(executionId))?.status).toBe("rolled_back");
  });

  it("moves a task after approval and restores its status on rollback", async () => {
    await demo.say("mark task 1 as done");
    const [pending] = await demo.runtime.pending();
    const executionId = pending?.executionId ?? "";
    expect(pending?.method).toBe("update_task_status");
    await demo.runtime.approve({ executionId });
    expect(demo.tracker.getTask(1)?.status).toBe("done");
    await demo.runtime.rollback({ executionId });
    expect(demo.tracker.getTask(1)?.status).toBe("doing");
  });

  it("rejects a create: nothing is created", async () => {
    await demo.say("create a task Never do this");
    const [pending] = await demo.runtime.pending();
    expect(
      await demo.runtime.reject({
        executionId: pending?.executionId ?? "",
        seq: pending?.seq ?? 0,
      }),
    ).toBe(true);
    expect(demo.tracker.listTasks()).toHaveLength(7);
    expect(await demo.runtime.pending()).toEqual([]);
  });
});
