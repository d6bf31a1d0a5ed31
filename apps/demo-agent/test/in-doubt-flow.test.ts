// A call in doubt (an earlier pass started it and never recorded its outcome: it may already have
// run) reaches the person with its `inDoubt` and the idempotency key it runs again under, whichever
// way the page reads what waits: the chat's approval card and the tool's paused outcome, the queue
// (GET /api/queue) and GET /api/pending. Running it again from the queue uses that key: the notes
// server, which honours it, adds the note once.
import { describe, expect, it } from "vitest";
import type { WaitingRun } from "../src/waiting-run.ts";
import { agentInNode } from "./agent-in-node.ts";
import { agentApi, inDoubtNoteRun, inDoubtTaskCard } from "./in-doubt-runs.ts";

const MAY_HAVE_RUN = expect.stringContaining("may already have run");

describe("a call in doubt", () => {
  it("reaches the queue and GET /api/pending with why and its key, and runs again under that key", async () => {
    const demo = agentInNode();
    const api = agentApi(demo);
    const get = async (path: string) =>
      (await api(new Request(`http://demo${path}`))).json() as Promise<unknown>;
    const executionId = await inDoubtNoteRun(demo);

    const queue = (await get("/api/queue")) as WaitingRun[];
    const run = queue.find((each) => each.executionId === executionId);
    expect(run?.pending).toEqual([
      expect.objectContaining({
        seq: 0,
        connector: "notes",
        method: "add_note",
        inDoubt: MAY_HAVE_RUN,
        idempotencyKey: `${executionId}:0`,
      }),
      expect.not.objectContaining({ inDoubt: expect.anything() }),
    ]);
    expect(run?.pending[1]).not.toHaveProperty("idempotencyKey");
    expect(await get("/api/pending")).toEqual([
      expect.objectContaining({ seq: 0, inDoubt: MAY_HAVE_RUN }),
      expect.objectContaining({ seq: 1, method: "create_task" }),
    ]);

    // "Run again" in the queue: the note's call runs under the key shown, so the notes server
    // gives back the note it added before instead of adding another
    const approved = await api(
      new Request("http://demo/api/approve", {
        method: "POST",
        body: JSON.stringify({ executionId, handle: run?.handle }),
      }),
    );
    expect(await approved.json()).toMatchObject({ status: "completed", via: "queue" });
    expect(demo.notes.list().filter((note) => note.title === "Kept")).toHaveLength(1);
  });

  it("reaches the chat's card and the tool's paused outcome", async () => {
    const demo = agentInNode();
    const { card, output } = await inDoubtTaskCard(demo);
    const key = `${card.executionId}:${card.pending[0]?.seq}`;
    expect(card.pending).toEqual([
      expect.objectContaining({
        method: "create_task",
        args: { projectId: "mobile", title: "Code Mode mug (MUG-001)" },
        inDoubt: MAY_HAVE_RUN,
        idempotencyKey: key,
      }),
      expect.objectContaining({
        args: { projectId: "mobile", title: "Sandbox T-shirt (TEE-002)" },
      }),
    ]);
    expect(card.pending[1]).not.toHaveProperty("inDoubt");
    // the card kept in the conversation (what a page that connects later gets) says the same
    expect(demo.cards.get(card.approvalId)?.pending[0]).toMatchObject({ idempotencyKey: key });
    // the chat's tool call shows its paused outcome too: the calls it waits for, one in doubt
    expect(output).toMatchObject({
      status: "paused",
      executionId: card.executionId,
      pending: [{ seq: card.pending[0]?.seq, inDoubt: MAY_HAVE_RUN }, {}],
    });
  });
});
