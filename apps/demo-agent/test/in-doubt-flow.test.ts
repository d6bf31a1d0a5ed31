// A call in doubt (an earlier pass started it and never recorded its outcome: it may already have
// run) reaches the person with its `inDoubt` and the idempotency key it runs again under, whichever
// way the page reads what waits: the chat's approval card and the tool's paused outcome, the queue
// (GET /api/queue) and GET /api/pending. It waits alone: a later call the person approved before
// stays approved in the journal and is not asked about again. Running the call in doubt again from
// the queue uses that key (the notes server, which honours it, adds the note once), and the same
// pass then runs the call approved before, without another ask.
import { describe, expect, it } from "vitest";
import type { WaitingRun } from "../src/waiting-run.ts";
import { agentInNode } from "./agent-in-node.ts";
import { agentApi, inDoubtNoteRun, inDoubtTaskCard } from "./in-doubt-runs.ts";

const MAY_HAVE_RUN = expect.stringContaining("may already have run");

describe("a call in doubt", () => {
  it("reaches the queue and GET /api/pending alone with why and its key, runs again under that key, then the call approved before runs", async () => {
    const demo = agentInNode();
    const api = agentApi(demo);
    const get = async (path: string) =>
      (await api(new Request(`http://demo${path}`))).json() as Promise<unknown>;
    const afterTheNote = () =>
      demo.tracker
        .listTasks({ projectId: "mobile" })
        .filter((task) => task.title === "After the note");
    const executionId = await inDoubtNoteRun(demo);

    // the task the person approved is `approved` in the journal: it does not wait again
    const journal = await demo.runtime.execution(executionId);
    expect(journal?.calls.map(({ seq, method, state }) => ({ seq, method, state }))).toEqual([
      { seq: 0, method: "add_note", state: "pending" },
      { seq: 1, method: "create_task", state: "approved" },
    ]);
    expect(afterTheNote()).toHaveLength(0);

    const queue = (await get("/api/queue")) as WaitingRun[];
    expect(queue.map((each) => each.executionId)).toEqual([executionId]);
    const [run] = queue;
    expect(run?.pending).toEqual([
      expect.objectContaining({
        seq: 0,
        connector: "notes",
        method: "add_note",
        inDoubt: MAY_HAVE_RUN,
        idempotencyKey: `${executionId}:0`,
      }),
    ]);
    expect(run?.handle.calls.map((call) => call.seq)).toEqual([0]);
    expect(await get("/api/pending")).toEqual([
      expect.objectContaining({
        executionId,
        seq: 0,
        connector: "notes",
        method: "add_note",
        inDoubt: MAY_HAVE_RUN,
      }),
    ]);

    // "Run again" in the queue: the note's call runs under the key shown, so the notes server
    // gives back the note it added before instead of adding another; the task approved before runs
    // in the same pass, and the run completes without asking about it again
    const approved = await api(
      new Request("http://demo/api/approve", {
        method: "POST",
        body: JSON.stringify({ executionId, handle: run?.handle }),
      }),
    );
    expect(await approved.json()).toMatchObject({ status: "completed", via: "queue" });
    expect(demo.notes.list().filter((note) => note.title === "Kept")).toHaveLength(1);
    expect(afterTheNote()).toHaveLength(1);
    expect(await demo.runtime.execution(executionId)).toMatchObject({
      status: "completed",
      result: { title: "After the note" },
    });
    expect(await get("/api/queue")).toEqual([]);
    expect(await get("/api/pending")).toEqual([]);
  });

  it("reaches the chat's card and the tool's paused outcome alone, and the creation approved before runs with it", async () => {
    const demo = agentInNode();
    const tasks = (title: string) =>
      demo.tracker.listTasks({ projectId: "mobile" }).filter((task) => task.title === title);
    const { card, output } = await inDoubtTaskCard(demo);
    const [mug] = card.pending;
    const key = `${card.executionId}:${mug?.seq}`;
    expect(card.pending).toEqual([
      expect.objectContaining({
        method: "create_task",
        args: { projectId: "mobile", title: "Code Mode mug (MUG-001)" },
        inDoubt: MAY_HAVE_RUN,
        idempotencyKey: key,
      }),
    ]);
    expect(card.handle?.calls.map((call) => call.seq)).toEqual([mug?.seq]);
    // the card kept in the conversation (what a page that connects later gets) says the same
    expect(demo.cards.get(card.approvalId)?.pending).toEqual([
      expect.objectContaining({ seq: mug?.seq, inDoubt: MAY_HAVE_RUN, idempotencyKey: key }),
    ]);
    // the chat's tool call shows its paused outcome too: the one call it waits for, in doubt
    expect(output).toEqual({
      status: "paused",
      executionId: card.executionId,
      pending: [
        expect.objectContaining({ seq: mug?.seq, method: "create_task", inDoubt: MAY_HAVE_RUN }),
      ],
    });
    // the T-shirt's creation, approved on the card before, keeps its approval in the journal
    const journal = await demo.runtime.execution(card.executionId);
    expect(journal?.calls.filter((call) => call.method === "create_task")).toEqual([
      expect.objectContaining({ seq: mug?.seq, state: "pending" }),
      expect.objectContaining({
        seq: (mug?.seq ?? 0) + 1,
        args: { projectId: "mobile", title: "Sandbox T-shirt (TEE-002)" },
        state: "approved",
      }),
    ]);
    expect(tasks("Code Mode mug (MUG-001)")).toHaveLength(1);
    expect(tasks("Sandbox T-shirt (TEE-002)")).toHaveLength(0);

    // Run again: the mug runs again (the tracker does not honour the key: twice), the T-shirt's
    // approved creation runs once without another card, and the next card asks about the next one
    const next = await demo.answer(true);
    expect(tasks("Code Mode mug (MUG-001)")).toHaveLength(2);
    expect(tasks("Sandbox T-shirt (TEE-002)")).toHaveLength(1);
    const asked = next.events.flatMap((event) =>
      event.type === "approval-request" ? [event.card] : [],
    );
    expect(asked.map((each) => each.pending.map((call) => call.args))).toEqual([
      [{ projectId: "mobile", title: "Sticker pack (STK-003)" }],
    ]);
    expect(asked[0]?.pending[0]).not.toHaveProperty("inDoubt");
  });
});
