import type { PassEndStatus } from "../../connector.ts";
import type { ExecuteResult, SandboxError } from "../../executor.ts";
import {
  encodeForJournal,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_RECORDED_LENGTH,
} from "../../invariants.ts";
import type { ExecutionRecord } from "../../journal-store.ts";
import type { CodeModeOutput } from "../../types.ts";
import type { Cancellation } from "../context/cancellation.ts";
import type { Configuration } from "../context/configuration.ts";
import type { RunContext } from "../context/run-context.ts";
import { codec, preview, retried } from "../context/values.ts";
import { pendingEntries, withdrawPending } from "../pending-calls.ts";
import { LEASE_LOST, type PassState } from "./pass-state.ts";

/**
 * Ends a pass in failure: marks the run failed while it is running under the pass's lease (of
 * `owner`), runs the hooks, says why.
 */
export async function failPass(
  context: RunContext,
  executionId: string,
  message: string,
  owner: string,
  logs?: string[],
): Promise<CodeModeOutput> {
  const written = await context.journal.updateExecution(
    executionId,
    ["running"],
    {
      status: "error",
      error: preview(message, MAX_RECORDED_LENGTH),
      ...(logs ? { logs } : {}),
      updatedAt: context.now(),
      lease: undefined,
    },
    { owner },
  );
  const ended = written ? undefined : await context.journal.getExecution(executionId);
  if (ended?.status === "cancelled") {
    return endCancelled(context, executionId, undefined, ended.error ?? message, "error", logs);
  }
  // ended in failure here, or by the pass already (`failRun`: a divergence, a store that failed);
  // never in a run another process has taken meanwhile, whose pass may reach those calls
  if (written || ended?.status === "error") await withdrawUntaken(context, executionId);
  await context.hooks(executionId, "error", "error");
  return { status: "error", executionId, error: message, ...(logs?.length ? { logs } : {}) };
}

/**
 * A run that ended as it went (completed, or failed) without reaching a call a person approved
 * (it went another way when resumed): that approval never took effect, and the call is withdrawn.
 * Calls that still wait stay as they are in a failed run. A store that fails here leaves it.
 */
async function withdrawUntaken(context: RunContext, executionId: string): Promise<void> {
  await withdrawPending(context, executionId, ["approved"]).catch(() => []);
}

/**
 * The model's message for a failed pass: the error, and what to try. An unknown method gets the
 * nearest methods of its namespace (the executor says which namespace and method, by code).
 */
export async function passErrorMessage(
  error: SandboxError,
  config: Configuration,
): Promise<string> {
  const text = preview(error.message, MAX_ERROR_MESSAGE_LENGTH);
  let message = `${preview(error.name, 200)}: ${text}`.replace(/([^.!?])$/, "$1.");
  if (error.code === "UNKNOWN_METHOD" && error.method !== undefined) {
    const namespace = error.method.namespace;
    const method = preview(error.method.name, 100);
    const unavailable = config.unavailable.get(namespace);
    if (unavailable !== undefined) {
      return `TypeError: ${preview(namespace, 100)}.${method} cannot be called now: the connector "${preview(namespace, 100)}" could not be loaded (${unavailable}). The other namespaces work; try this one again later.`;
    }
    // an executor may list every method; a namespace of a thousand needs the nearest few instead
    const nearest = (await config.catalog.search(method, { limit: 50 })).results
      .filter((result) => result.connector === namespace)
      .slice(0, 5)
      .map((result) => result.path);
    return (
      `TypeError: ${preview(namespace, 100)}.${method} is not a method.` +
      (nearest.length ? ` Nearest: ${nearest.join(", ")}.` : "") +
      ` Use codemode.search("what you want to do") and codemode.describe(path) to find the right one.`
    );
  }
  if (error.code === "TIMEOUT") {
    // the prelude holds the clock still for the whole run (sandbox-determinism.ts)
    message +=
      " Inside a run, Date.now() and performance.now() do not move, so a loop that waits for the clock never ends.";
  }
  if (error.name === "ReferenceError") {
    message += ` The globals in the sandbox are: ${[...config.connectors.keys(), "codemode"].join(", ")}.`;
  }
  return message;
}

/**
 * A run that ended cancelled: what it waited for is withdrawn (never run), the decision is told,
 * the connectors dispose of the run; the caller of the pass reads the cancellation.
 */
export async function endCancelled(
  context: RunContext,
  executionId: string,
  cancellation: Pick<Cancellation, "at" | "by" | "reason" | "source"> | undefined,
  text: string,
  pass: PassEndStatus | undefined,
  logs: string[] = [],
): Promise<CodeModeOutput> {
  const seqs = await withdrawPending(context, executionId);
  if (cancellation) {
    context.emit({
      type: "decision",
      executionId,
      decision: "cancelled",
      seqs,
      at: cancellation.at,
      source: cancellation.source,
      ...(cancellation.by ? { by: cancellation.by } : {}),
      ...(cancellation.reason ? { reason: cancellation.reason } : {}),
    });
  }
  await context.hooks(executionId, pass, "cancelled");
  return {
    status: "error",
    executionId,
    error: text,
    code: "ABORTED",
    ...(logs.length ? { logs } : {}),
  };
}

/**
 * The pass was cancelled in this process (`runtime.cancel`), and has settled: the run ends
 * `cancelled` (under the pass's lease), whatever the program did; a call whose outcome is unknown
 * is named too.
 */
async function finishCancelled(
  context: RunContext,
  pass: PassState,
  cancellation: Cancellation,
  logs: string[],
): Promise<CodeModeOutput> {
  const { executionId } = pass;
  const text = pass.endsInFailure
    ? `${cancellation.text} ${pass.endsInFailure}`
    : cancellation.text;
  const written = await retried(() =>
    context.journal.updateExecution(
      executionId,
      ["running"],
      {
        status: "cancelled",
        error: preview(text, MAX_RECORDED_LENGTH),
        ...(logs.length ? { logs } : {}),
        updatedAt: context.now(),
        lease: undefined,
      },
      { owner: pass.owner },
    ),
  ).catch(() => false);
  if (!written) {
    return endedFromOutside(
      context,
      executionId,
      logs,
      await context.journal.getExecution(executionId),
      pass,
    );
  }
  pass.endedCancelled = true;
  return endCancelled(context, executionId, cancellation, text, "error", logs);
}

/**
 * The outcome of a pass whose run is no longer running (it failed, or was ended from outside
 * meanwhile): the model hears what the journal says.
 */
async function endedFromOutside(
  context: RunContext,
  executionId: string,
  logs: string[],
  ended: ExecutionRecord | undefined,
  pass?: PassState,
): Promise<CodeModeOutput> {
  if (ended?.status === "cancelled") {
    // cancelled by another process (or this one, when the pass was not found in time): this pass
    // saw it at its next write to the journal, and stopped there
    if (pass) pass.endedCancelled = true;
    const text = ended.error ?? "The run was cancelled while this pass ran.";
    return endCancelled(context, executionId, undefined, text, "error", logs);
  }
  await context.hooks(executionId, "error", "error");
  const why =
    ended?.error ??
    `The run is ${ended?.status ?? "gone"}: it was ended from outside while this pass ran.`;
  return {
    status: "error",
    executionId,
    error: pass?.stopped === LEASE_LOST ? `${LEASE_LOST} ${why}` : why,
    ...(logs.length ? { logs } : {}),
  };
}

/**
 * `finishPass` of ARCHITECTURE §3, once the pass has settled: the run pauses (a gated call was
 * recorded), fails (the journal or the code says so) or completes with its recorded result.
 */
export async function finishPass(
  context: RunContext,
  pass: PassState,
  config: Configuration,
  outcome: ExecuteResult,
): Promise<CodeModeOutput> {
  const { journal, now } = context;
  const { executionId } = pass;
  if (pass.cancellation) return finishCancelled(context, pass, pass.cancellation, outcome.logs);
  if (pass.endsInFailure !== undefined) {
    return failPass(context, executionId, pass.endsInFailure, pass.owner, outcome.logs);
  }
  if (pass.paused) {
    await journal.updateExecution(
      executionId,
      ["running"],
      { status: "paused", updatedAt: now(), lease: undefined },
      { owner: pass.owner },
    );
  }
  const final = await journal.getExecution(executionId);
  if (final?.status === "paused") {
    await context.hooks(executionId, "paused", undefined);
    const pending = await pendingEntries(context, executionId);
    return { status: "paused", executionId, pending };
  }
  if (final?.status !== "running" || final.lease?.owner !== pass.owner) {
    return endedFromOutside(context, executionId, outcome.logs, final, pass);
  }
  if ("error" in outcome) {
    return failPass(
      context,
      executionId,
      await passErrorMessage(outcome.error, config),
      pass.owner,
      outcome.logs,
    );
  }
  let resultText: string;
  try {
    resultText = encodeForJournal(outcome.result, "The result");
  } catch (error) {
    const message = (error as Error).message;
    if ((error as { code?: string }).code === "NOT_SERIALIZABLE") {
      return failPass(context, executionId, message, pass.owner, outcome.logs);
    }
    // too big for the audit row: the model still gets it
    resultText = codec.encode(`[not recorded: ${message}]`);
  }
  const completed = await journal.updateExecution(
    executionId,
    ["running"],
    {
      status: "completed",
      result: resultText,
      logs: outcome.logs,
      updatedAt: now(),
      lease: undefined,
    },
    { owner: pass.owner },
  );
  if (!completed) {
    const ended = await journal.getExecution(executionId);
    return endedFromOutside(context, executionId, outcome.logs, ended, pass);
  }
  // approvals are written before a pass reads the journal, never during it: a pass that started
  // with none has none to withdraw, and a completed run's common pass reads nothing more
  if ([...pass.recorded.values()].some((entry) => entry.state === "approved")) {
    await withdrawUntaken(context, executionId);
  }
  await context.hooks(executionId, "completed", "completed");
  let result = outcome.result;
  if (context.transformResult) {
    try {
      result = context.transformResult(result);
    } catch {
      // the original result is recorded; the model gets it untransformed
    }
  }
  return {
    status: "completed",
    executionId,
    result,
    ...(outcome.logs.length ? { logs: outcome.logs } : {}),
  };
}
