import { CodemodeError } from "../codemode-error.ts";
import type { ExecutionRecord } from "../journal-store.ts";
import { sha256Hex } from "../platform.ts";
import type { RunContext } from "./run-context.ts";

/** The longest tool call id the runtime binds a run to. */
export const MAX_TOOL_CALL_ID_LENGTH = 1000;

/**
 * The id of the run one tool call asks for: a digest of the call's id and its code, so a later
 * request of the same conversation (the AI SDK's approval answer, in another process perhaps) finds
 * the run again from nothing but the tool call, and no other call's code can claim it.
 */
export async function toolCallRunId(toolCallId: string, code: string): Promise<string> {
  if (typeof toolCallId !== "string" || toolCallId.length === 0) {
    throw new CodemodeError("INVALID_CONFIG", "A tool call id must be a non-empty string.");
  }
  if (toolCallId.length > MAX_TOOL_CALL_ID_LENGTH) {
    throw new CodemodeError(
      "TOO_LARGE",
      `A tool call id is at most ${MAX_TOOL_CALL_ID_LENGTH} characters (this one has ${toolCallId.length}).`,
    );
  }
  return `exec_call_${(await sha256Hex(`${toolCallId}\u0000${code}`)).slice(0, 40)}`;
}

/** The run a tool call started, if the journal has it. */
export async function toolCallRun(
  context: RunContext,
  toolCallId: string,
  code: string,
): Promise<{ id: string; run: ExecutionRecord | undefined }> {
  const id = await toolCallRunId(toolCallId, code);
  return { id, run: await context.journal.getExecution(id) };
}
