// The agent's pieces in Node (agentInNode) chatting the way the AI SDK's approval flow does: the
// `codemode` tool is `runtime.tool({ approvals: "ai-sdk" })`, a run that pauses comes back as a tool
// approval request, and the person's answer goes back as a `tool-approval-response` in a tool
// message, on which `streamText` runs the approved call (or reports it denied) and the model reads
// the outcome. Each `say` or `answer` is one `streamText` request over the whole conversation, after
// `runtime.rejectDenied(messages)` as a chat route calls it.
import { type ModelMessage, stepCountIs, streamText } from "ai";
import { offlineAgentModel } from "../src/offline-demo-model.ts";
import { agentInNode } from "./agent-in-node.ts";

/** An approval request of one request's stream: the call and the code it carries. */
export interface ApprovalRequest {
  approvalId: string;
  toolCallId: string;
  code: string;
}

/** What one request streamed. */
export interface ChatRequestResult {
  /** the model's text */
  text: string;
  /** the `codemode` calls the model made, by their code */
  codes: string[];
  /** the tool's final outputs (not the progress), as `execute` returned them */
  outputs: unknown[];
  /** the approval requests the request ended with */
  requests: ApprovalRequest[];
}

export function approvalChat() {
  const demo = agentInNode();
  const tool = demo.runtime.tool({ approvals: "ai-sdk" });
  const messages: ModelMessage[] = [];
  let open: ApprovalRequest[] = [];

  async function request(): Promise<ChatRequestResult> {
    await demo.runtime.ready();
    // what a chat route does first: a run whose approval the person denied is rejected for good
    await demo.runtime.rejectDenied(messages);
    const result = streamText({
      model: offlineAgentModel(),
      messages: [...messages],
      tools: { codemode: tool },
      stopWhen: stepCountIs(6),
    });
    const streamed: ChatRequestResult = { text: "", codes: [], outputs: [], requests: [] };
    for await (const part of result.fullStream) {
      if (part.type === "text-delta") streamed.text += part.text;
      else if (part.type === "tool-call") {
        streamed.codes.push((part.input as { code: string }).code);
      } else if (part.type === "tool-result" && !part.preliminary) {
        streamed.outputs.push(part.output);
      } else if (part.type === "tool-approval-request") {
        streamed.requests.push({
          approvalId: part.approvalId,
          toolCallId: part.toolCall.toolCallId,
          code: (part.toolCall.input as { code: string }).code,
        });
      } else if (part.type === "error" || part.type === "tool-error") {
        throw part.error;
      }
    }
    messages.push(...(await result.responseMessages));
    open = streamed.requests;
    return streamed;
  }

  return {
    ...demo,
    messages,
    /** the user says something */
    say(text: string) {
      messages.push({ role: "user", content: text });
      return request();
    },
    /** the person answers every open approval request */
    answer(approved: boolean, reason?: string) {
      if (open.length === 0) throw new Error("No approval request is open.");
      messages.push({
        role: "tool",
        content: open.map((asked) => ({
          type: "tool-approval-response" as const,
          approvalId: asked.approvalId,
          approved,
          ...(reason ? { reason } : {}),
        })),
      });
      return request();
    },
  };
}
