import type { ModelMessage } from "ai";

/**
 * The approval requests of a conversation that no approval response answers yet, by approvalId. The
 * AI SDK cannot go on past one: a new user message after it fails with "Tool result is missing for
 * tool call …", and so does every later one, until the request is answered or the chat cleared.
 */
export function unansweredApprovals(messages: readonly ModelMessage[]): string[] {
  const asked: string[] = [];
  const answered = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type === "tool-approval-request") asked.push(part.approvalId);
      if (part.type === "tool-approval-response") answered.add(part.approvalId);
    }
  }
  return asked.filter((approvalId) => !answered.has(approvalId));
}
