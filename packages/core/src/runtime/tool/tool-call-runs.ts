// A `codemode` tool call of the AI SDK and the run it stands for. The journal keeps each tool call's
// binding (its key, its run, what its approval request showed) apart from the run and longer than
// it, so a later request of the same conversation (the approval answer, in another process perhaps,
// resent, late) finds the run again from nothing but the tool call, and an answer whose run ended,
// was pruned or deleted finds that out instead of starting it again.
import { CodemodeError } from "../../codemode-error.ts";
import { badHandle, type DecisionHandle } from "../../decision-handle.ts";
import type { ExecutionRecord, ToolCallBinding } from "../../journal-store.ts";
import { sha256Hex } from "../../platform.ts";
import { newRunId } from "../commands/begin-run.ts";
import type { RunContext } from "../context/run-context.ts";

/** The longest tool call id the runtime binds a run to. */
export const MAX_TOOL_CALL_ID_LENGTH = 1000;

/** Bindings kept at least, whatever `maxExecutions` is (they are small; runs are not). */
export const MIN_TOOL_CALL_BINDINGS = 1000;

/**
 * The key of one tool call: a digest of its id and its code, each length-prefixed, so no other
 * call's code claims its run and no two ids share a key.
 */
export async function toolCallKey(toolCallId: string, code: string): Promise<string> {
  if (typeof toolCallId !== "string" || toolCallId.length === 0) {
    throw new CodemodeError("INVALID_CONFIG", "A tool call id must be a non-empty string.");
  }
  if (toolCallId.length > MAX_TOOL_CALL_ID_LENGTH) {
    throw new CodemodeError(
      "TOO_LARGE",
      `A tool call id is at most ${MAX_TOOL_CALL_ID_LENGTH} characters (this one has ${toolCallId.length}).`,
    );
  }
  return `call_${await sha256Hex(`codemode-tool-call/1\n${toolCallId.length}:${toolCallId}\n${code.length}:${code}`)}`;
}

/** A tool call's binding and, when the journal still has it, its run. */
export interface BoundRun {
  key: string;
  binding: ToolCallBinding | undefined;
  run: ExecutionRecord | undefined;
}

/** The run a tool call is bound to, if it has one. */
export async function toolCallRun(
  context: RunContext,
  toolCallId: string,
  code: string,
): Promise<BoundRun> {
  const key = await toolCallKey(toolCallId, code);
  const binding = await context.journal.getToolCallBinding(key);
  const run = binding && (await context.journal.getExecution(binding.executionId));
  return { key, binding, run: run ?? undefined };
}

/**
 * Binds the tool call to `executionId` (a new run's id when none is given), unless it is bound
 * already: the first writer wins, across processes, and the binding kept is returned.
 */
export async function bindToolCall(
  context: RunContext,
  key: string,
  executionId: string = newRunId(context.now()),
): Promise<ToolCallBinding> {
  const kept = await context.journal.bindToolCall({ key, executionId, createdAt: context.now() });
  if (kept.executionId === executionId) {
    await context.journal.pruneToolCallBindings(
      Math.max(MIN_TOOL_CALL_BINDINGS, 20 * context.maxExecutions),
    );
  }
  return kept;
}

/**
 * What the tool call's approval request showed: set once, by the first request that asked; later
 * ones get the handle kept.
 */
export async function showOnce(
  context: RunContext,
  key: string,
  handle: DecisionHandle,
): Promise<DecisionHandle | undefined> {
  const kept = await context.journal.showToolCall(key, JSON.stringify(handle));
  return kept && shownHandle(kept);
}

/** The handle a binding's approval request showed, if it asked (and the record reads as one). */
export function shownHandle(binding: ToolCallBinding | undefined): DecisionHandle | undefined {
  if (binding?.shown === undefined) return undefined;
  try {
    const handle = JSON.parse(binding.shown) as DecisionHandle;
    return badHandle(handle, binding.executionId) ? undefined : handle;
  } catch {
    return undefined;
  }
}
