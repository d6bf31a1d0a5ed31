// The `codemode` tool messages of a conversation brought up to date before the model reads them:
// the client keeps the paused output it received, while the run has since been decided.
import type { ModelMessage } from "@tanstack/ai";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A tool message's content as a `codemode` output, when it is one: its run and its status. */
export function runOf(
  content: ModelMessage["content"],
): { executionId: string; status: unknown } | undefined {
  if (typeof content !== "string") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return undefined;
  }
  return isRecord(parsed) && typeof parsed.executionId === "string"
    ? { executionId: parsed.executionId, status: parsed.status }
    : undefined;
}

/**
 * `messages` with the tool messages of the `toolName` calls replaced where `update` has something
 * newer for their run (given the call's id, its run and the status the message shows); undefined
 * when nothing changed. Work is linear in the messages, one `update` per `codemode` tool message.
 */
export async function currentToolMessages(
  messages: readonly ModelMessage[],
  toolName: string,
  update: (
    toolCallId: string,
    run: { executionId: string; status: unknown },
  ) => Promise<unknown> | unknown,
): Promise<ModelMessage[] | undefined> {
  const calls = new Set<string>();
  for (const message of messages) {
    for (const call of message.toolCalls ?? []) {
      if (call.function.name === toolName) calls.add(call.id);
    }
  }
  let changed = false;
  const current: ModelMessage[] = [];
  for (const message of messages) {
    const run =
      message.role === "tool" && message.toolCallId !== undefined && calls.has(message.toolCallId)
        ? runOf(message.content)
        : undefined;
    const next = run && (await update(message.toolCallId as string, run));
    if (next === undefined || next === null || next === false) {
      current.push(message);
      continue;
    }
    changed = true;
    current.push({ ...message, content: JSON.stringify(next) });
  }
  return changed ? current : undefined;
}
