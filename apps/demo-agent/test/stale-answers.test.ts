// Answers to a card or the queue decide what they showed, or nothing: an answer with another
// handle, one to a card answered before, and one whose calls were decided elsewhere run nothing
// new and say "already decided"; the chat goes on after each.
import { beforeEach, describe, expect, it } from "vitest";
import { agentInNode } from "./agent-in-node.ts";

describe("stale answers", () => {
  let demo: ReturnType<typeof agentInNode>;
  beforeEach(() => {
    demo = agentInNode();
  });

  it("a card's answer with a handle that is not the card's decides nothing", async () => {
    const asked = await demo.say("mark task 2 as done");
    const card = asked.card;
    if (!card) throw new Error("no card");
    const before = demo.tracker.getTask(2)?.status;
    const forged = {
      ...card.handle,
      calls: card.handle.calls.map((call) => ({ ...call, digest: "0".repeat(64) })),
    };
    for (const handle of [forged, { ...card.handle, executionId: "exec_other" }, null, "x"]) {
      expect(await demo.chat.answer(card.approvalId, { approved: true, via: "chat", handle })).toBe(
        "stale",
      );
    }
    expect(demo.cards.get(card.approvalId)?.answer).toBeUndefined();
    expect(demo.tracker.getTask(2)?.status).toBe(before);
    expect((await demo.answer(true)).output).toMatchObject({ status: "completed" });
    expect(demo.tracker.getTask(2)?.status).toBe("done");
  });

  it("a card whose calls were decided elsewhere closes as already decided; nothing runs twice", async () => {
    const asked = await demo.say("create a task Write release notes in mobile");
    const executionId = asked.card?.executionId ?? "";
    // the host decides the run itself, not through the chat
    expect(await demo.runtime.approve({ executionId })).toMatchObject({ status: "completed" });
    expect(demo.tracker.listTasks()).toHaveLength(8);
    const answered = await demo.answer(true);
    expect(demo.cards.list().at(-1)?.answer).toMatchObject({ approved: true, stale: true });
    expect(answered.output).toMatchObject({ status: "completed", executionId });
    expect(demo.tracker.listTasks()).toHaveLength(8);
    // the card is closed, so the chat takes messages again
    expect((await demo.say("list my tasks")).answer).toContain("You have 8 tasks");
  });

  it("the queue's answer to a chat's run with a handle the card did not show decides nothing", async () => {
    const statuses = () => [2, 3, 5].map((id) => demo.tracker.getTask(id)?.status);
    const before = statuses();
    const asked = await demo.say("mark tasks 2, 3 and 5 as done");
    const card = asked.card;
    if (!card) throw new Error("no card");
    const [first] = card.handle.calls;
    if (!first) throw new Error("no call");
    const part = { ...card.handle, calls: [first] };
    const decided = await demo.chat.decide(card.executionId, { approved: true, handle: part });
    expect(decided).toMatchObject({ stale: true, status: "paused" });
    expect(decided.error).toMatch(/^Already decided: /);
    expect(demo.cards.get(card.approvalId)?.answer).toBeUndefined();
    expect(statuses()).toEqual(before);
    // the queue's own handle (what GET /api/queue lists) answers the card: its Reject covers all three
    const shown = card.handle;
    const whole = await demo.turn(() =>
      demo.chat.decide(card.executionId, { approved: false, handle: shown, reason: "not today" }),
    );
    expect(demo.cards.get(card.approvalId)?.answer).toMatchObject({
      approved: false,
      via: "queue",
    });
    expect(whole.answer).not.toBe("");
    const run = await demo.runtime.execution(card.executionId);
    expect(run?.status).toBe("rejected");
    expect(statuses()).toEqual(before);
    expect(run?.calls.filter((call) => call.state === "withdrawn").map((call) => call.seq)).toEqual(
      shown.calls.map((call) => call.seq),
    );
  });
});
