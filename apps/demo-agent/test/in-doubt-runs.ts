// Runs with a call in doubt, made in Node the way a process that stopped mid-call leaves them: the
// call's journal entry is put back to `executing` (started, its outcome never recorded), and the
// next pass finds it and waits for a person with the call's `inDoubt` set. A later call the person
// approved before stays approved in the journal: it does not wait again, and the pass that runs the
// call in doubt again runs it too. One from the chat (its approval card) and one from the page's API
// (the queue); and the page's HTTP API over the agent.
import { type CodeModeOutput, decisionHandleOf } from "codemode";
import type { ApprovalCard } from "../src/chat-event.ts";
import { handleApi } from "../src/handle-api.ts";
import { type agentInNode, nodeAgent } from "./agent-in-node.ts";

type Demo = ReturnType<typeof agentInNode>;

/** Puts the applied call at `seq` back to `executing`, as a pass that stopped during it leaves it. */
async function stopDuring(demo: Demo, executionId: string, seq: number): Promise<void> {
  const moved = await demo.store
    .journal("demo")
    .updateEntry(executionId, seq, ["applied"], { state: "executing", result: undefined });
  if (!moved) throw new Error(`call ${seq} of ${executionId} was not applied`);
}

/** The page's HTTP API over the agent in Node, as the Durable Object answers it. */
export function agentApi(demo: Demo): (request: Request) => Promise<Response> {
  const agent = nodeAgent(demo);
  return (request) => handleApi(request, agent);
}

/**
 * A run started from the page (Run code) whose `notes.add_note` is in doubt: it added the note, the
 * run paused at `tracker.create_task`, and the process stopped before the note's result was
 * recorded (put so here). Approving the task from the queue records it `approved` in the journal;
 * the pass that follows finds the note in doubt and waits on the note alone. The task keeps its
 * approval (it does not wait again) and runs when the pass that runs the note again reaches it.
 */
export async function inDoubtNoteRun(demo: Demo): Promise<string> {
  const paused = await demo.runtime.execute({
    code: 'async () => { await notes.add_note({ title: "Kept", body: "." }); return tracker.create_task({ projectId: "mobile", title: "After the note" }); }',
  });
  if (paused.status !== "paused") throw new Error(`the run did not pause: ${paused.status}`);
  const { executionId } = paused;
  await stopDuring(demo, executionId, 0);
  const decided = await demo.chat.decide(executionId, {
    approved: true,
    handle: decisionHandleOf(paused.pending, executionId),
  });
  if (decided.status !== "paused") throw new Error(`the run did not wait: ${decided.status}`);
  return executionId;
}

/**
 * The chat's "create a task for every product under $30 in mobile": the first creation approved
 * and made, then the process stopped before its result was recorded (put so here). Approving the
 * second creation's card records it `approved` and finds the first in doubt: the run pauses again,
 * the model asks again, and the new card shows the first creation alone, in doubt; the second keeps
 * its approval and runs when a pass reaches it. Returns the card and that turn's paused outcome.
 */
export async function inDoubtTaskCard(
  demo: Demo,
): Promise<{ card: ApprovalCard; output: CodeModeOutput | undefined }> {
  await demo.say("create a task for every product under $30 in mobile");
  const second = await demo.answer(true);
  const executionId = second.card?.executionId ?? "";
  const run = await demo.runtime.execution(executionId);
  const created = run?.calls.find(
    (call) => call.method === "create_task" && call.state === "applied",
  );
  if (!created) throw new Error("the first task was not created");
  await stopDuring(demo, executionId, created.seq);
  const third = await demo.answer(true);
  if (!third.card) throw new Error("no card asks about the call in doubt");
  return { card: third.card, output: third.output };
}
