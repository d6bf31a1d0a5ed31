// The agent's chat session in Node (agentInNode), seen as the AI SDK's approval flow sees it: a run
// that pauses comes back as an approval request (the session's card), and the person's answer goes
// back as a `tool-approval-response`, on which the approved call runs (or the run is rejected) and
// the model reads the outcome. Each `say` or `answer` is one turn of the session.
import type { ChatEvent } from "../src/chat-event.ts";
import { agentInNode } from "./agent-in-node.ts";

/** An approval request of one turn: the call and the code it carries. */
export interface ApprovalRequest {
  approvalId: string;
  toolCallId: string;
  code: string;
}

/** What one turn streamed. */
export interface ChatRequestResult {
  /** the model's text */
  text: string;
  /** the `codemode` calls the model made, by their code */
  codes: string[];
  /** the tool's final outputs (not the progress), as `execute` returned them */
  outputs: unknown[];
  /** the approval requests the turn ended with */
  requests: ApprovalRequest[];
}

function resultOf(events: ChatEvent[], answer: string): ChatRequestResult {
  const streamed: ChatRequestResult = { text: answer, codes: [], outputs: [], requests: [] };
  for (const event of events) {
    if (event.type === "tool-call") streamed.codes.push(event.code);
    else if (event.type === "tool-result") streamed.outputs.push(event.output);
    else if (event.type === "approval-request") {
      const { approvalId, toolCallId, code } = event.card;
      streamed.requests.push({ approvalId, toolCallId, code });
    } else if (event.type === "error" || event.type === "tool-error") {
      throw new Error(event.type === "error" ? event.message : event.error);
    }
  }
  return streamed;
}

export function approvalChat() {
  const demo = agentInNode();
  return {
    ...demo,
    /** the user says something */
    async say(text: string) {
      const turn = await demo.say(text);
      return resultOf(turn.events, turn.answer);
    },
    /** the person answers the open approval request */
    async answer(approved: boolean, reason?: string) {
      const turn = await demo.answer(approved, reason);
      return resultOf(turn.events, turn.answer);
    },
  };
}
