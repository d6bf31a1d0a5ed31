// A message sent while an approval card waits, however it arrives (the page disables Send; a socket
// that bypasses the page does not): the agent refuses it with a message that says what to do, keeps
// nothing of it, and the chat goes on once the card is answered (it used to answer "Tool result is
// missing for tool call …" to every later message until the chat was cleared).
import { beforeEach, describe, expect, it } from "vitest";
import { CARD_WAITS_MESSAGE } from "../src/chat-session.ts";
import { agentInNode } from "./agent-in-node.ts";

describe("a message while a card waits", () => {
  let demo: ReturnType<typeof agentInNode>;
  beforeEach(() => {
    demo = agentInNode();
  });

  it("is refused with what to do, and the chat answers again once the card is answered", async () => {
    const asked = await demo.say("create a task Write release notes in mobile");
    expect(asked.card).toBeDefined();
    const kept = demo.history.list();

    const refused = await demo.say("list my tasks");
    expect(refused.events).toEqual([{ type: "error", message: CARD_WAITS_MESSAGE }]);
    expect(demo.history.list()).toEqual(kept);
    expect(await demo.runtime.pending()).toHaveLength(1);

    const answered = await demo.answer(true);
    expect(answered.output).toMatchObject({ status: "completed" });
    const next = await demo.say("list my tasks");
    expect(next.events.some((event) => event.type === "error")).toBe(false);
    expect(next.answer).toContain("You have 8 tasks");
    const again = await demo.say("show stats");
    expect(again.events.some((event) => event.type === "error")).toBe(false);
    expect(again.answer).not.toBe("");
  });

  it("is refused while a card waits, and taken once the chat is cleared", async () => {
    await demo.say("create a task Write release notes in mobile");
    await demo.say("mark task 2 as done");
    expect(demo.cards.list().filter((card) => !card.answer)).toHaveLength(1);
    demo.chat.clear();
    const next = await demo.say("list my tasks");
    expect(next.answer).toContain("You have 7 tasks");
  });
});
