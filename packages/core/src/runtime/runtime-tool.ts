import type { ExecutionRecord } from "../journal-store.ts";
import type { CodeModeInput, CodeModeOutput } from "../types.ts";
import { approvalResponsesOf, pausedRunOf } from "./approval-responses.ts";
import { begin } from "./begin-run.ts";
import {
  type CodemodeApprovalDescriptor,
  type CodemodeProgress,
  type CodemodeTool,
  type CodemodeToolCallOptions,
  type CodemodeToolOutput,
  codeInputSchema,
  modelOutputOf,
  type ProgressCall,
} from "./code-tool.ts";
import { approve, reject } from "./decisions.ts";
import { pendingEntries } from "./history.ts";
import type { CallObserver } from "./host-globals.ts";
import { recordedOutcome } from "./recorded-outcome.ts";
import type { RunContext } from "./run-context.ts";
import { toolCallRun } from "./tool-call-runs.ts";

/** Tool calls that continue another call's paused run, per runtime: call id → run id. */
const continuations = new WeakMap<RunContext, Recent<string>>();

/**
 * The run a tool call stands for: the one it started (found by its id and code), or, for a call
 * that repeats the code of a call whose run paused again after an approval, that run (the
 * conversation says which; the run must be a tool call's, paused, with the same code).
 */
async function boundRun(
  context: RunContext,
  toolCallId: string,
  code: string,
  messages: unknown,
): Promise<{ id: string; run: ExecutionRecord | undefined }> {
  const own = await toolCallRun(context, toolCallId, code);
  if (own.run) return own;
  const remembered = continuations.get(context)?.get(toolCallId);
  const continued = remembered ?? pausedRunOf(messages, code);
  if (continued?.startsWith("exec_call_")) {
    const run = await context.journal.getExecution(continued);
    if (run?.status === "paused" && run.code === code) {
      const known = continuations.get(context) ?? new Recent<string>();
      continuations.set(context, known);
      known.set(toolCallId, continued);
      return { id: continued, run };
    }
  }
  return own;
}

export interface RuntimeToolOptions {
  /** replaces the generated description */
  description?: string;
  /**
   * How a run that pauses is decided. `"ai-sdk"` (default): the AI SDK's own tool approval, where
   * the first pass runs in `needsApproval`, the person answers the approval request, and the tool's
   * result is the run's real outcome. `"host"`: the tool returns `{ status: "paused" }` and the host
   * decides with `runtime.approve` / `runtime.reject`.
   */
  approvals?: "ai-sdk" | "host";
}

/** What the model reads with a run that paused again after an approval. */
export const CONTINUE_HINT =
  "These calls wait for the person's approval. To ask them, call codemode again with exactly the same code: the run continues where it stopped and repeats nothing.";

/** Preliminary results keep the last few calls; the count covers them all. */
export const PROGRESS_RECENT_CALLS = 10;
/** Outcomes and runs a tool remembers between `needsApproval` and `execute` of one request. */
const MEMORY = 256;

class Recent<V> {
  readonly #map = new Map<string, V>();
  set(key: string, value: V) {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > MEMORY) this.#map.delete(this.#map.keys().next().value as string);
  }
  get(key: string) {
    return this.#map.get(key);
  }
  take(key: string) {
    const value = this.#map.get(key);
    this.#map.delete(key);
    return value;
  }
}

/**
 * Runs `run` and yields its progress while it goes on (coalesced: one preliminary result per time
 * the consumer asks, however many calls settled meanwhile), then its outcome.
 */
async function* withProgress(
  run: (onCall: CallObserver) => Promise<CodeModeOutput>,
  executionId: string | undefined,
): AsyncGenerator<CodemodeToolOutput> {
  const recent: ProgressCall[] = [];
  let count = 0;
  let wake: (() => void) | undefined;
  let settled = false;
  const onCall: CallObserver = (call) => {
    count++;
    recent.push(call);
    if (recent.length > PROGRESS_RECENT_CALLS) recent.shift();
    wake?.();
  };
  const outcome = run(onCall).finally(() => {
    settled = true;
    wake?.();
  });
  outcome.catch(() => {});
  let reported = 0;
  while (!settled) {
    await new Promise<void>((resolve) => {
      wake = resolve;
      if (settled || count > reported) resolve();
    });
    wake = undefined;
    if (!settled && count > reported) {
      reported = count;
      const progress: CodemodeProgress = {
        status: "running",
        ...(executionId ? { executionId } : {}),
        callCount: count,
        calls: [...recent],
      };
      yield progress;
    }
  }
  yield await outcome;
}

/** Rejects the paused runs of tool calls the conversation says a person denied; returns their ids. */
export async function rejectDenied(context: RunContext, messages: unknown): Promise<string[]> {
  const rejected: string[] = [];
  const denied = approvalResponsesOf(messages).filter(
    (answer) => !answer.approved && answer.code !== undefined,
  );
  for (const answer of denied.slice(-100)) {
    const { id, run } = await boundRun(context, answer.toolCallId, answer.code as string, messages);
    if (run?.status !== "paused") continue;
    const [first] = await pendingEntries(context, id);
    if (first && (await reject(context, id, first.seq, answer.reason, "tool-approval")))
      rejected.push(id);
  }
  return rejected;
}

/** Whether any configured method can pause a run (a gated or deferred one). */
async function mayPause(context: RunContext): Promise<boolean> {
  const config = await context.configurator.configure();
  for (const connector of config.connectors.values()) {
    for (const { definition } of connector.methods.values()) {
      if (definition.requiresApproval || definition.deferred) return true;
    }
  }
  return false;
}

/** `runtime.tool()`: the `codemode` tool, with the AI SDK's approvals or the host's. */
export function runtimeTool(context: RunContext, options: RuntimeToolOptions = {}): CodemodeTool {
  const aiSdk = (options.approvals ?? "ai-sdk") === "ai-sdk";
  const firstPasses = new Recent<CodeModeOutput>();
  const code = (input: CodeModeInput) => (typeof input?.code === "string" ? input.code : "");
  const idOf = (callOptions: CodemodeToolCallOptions | undefined) =>
    typeof callOptions?.toolCallId === "string" && callOptions.toolCallId.length > 0
      ? callOptions.toolCallId
      : undefined;

  async function* execute(
    input: CodeModeInput,
    callOptions?: CodemodeToolCallOptions,
  ): AsyncGenerator<CodemodeToolOutput> {
    const toolCallId = idOf(callOptions);
    if (!aiSdk || toolCallId === undefined) {
      yield* withProgress((onCall) => begin(context, input, { onCall }), undefined);
      return;
    }
    await rejectDenied(context, callOptions?.messages);
    const ran = firstPasses.take(toolCallId);
    if (ran) {
      yield ran;
      return;
    }
    const { id, run } = await boundRun(context, toolCallId, code(input), callOptions?.messages);
    if (!run) {
      yield* withProgress((onCall) => begin(context, input, { id, onCall }), id);
      return;
    }
    if (run.status === "paused") {
      const answer = approvalResponsesOf(callOptions?.messages).find(
        (candidate) => candidate.toolCallId === toolCallId,
      );
      // only the person's answer in this conversation approves; a call without one stays paused
      if (answer?.approved === true && (answer.code === undefined || answer.code === run.code)) {
        yield* withProgress(
          (onCall) =>
            approve(context, id, {
              onCall,
              source: "tool-approval",
              ...(answer.reason === undefined ? {} : { reason: answer.reason }),
            }),
          id,
        );
        return;
      }
    }
    // the call's run is what it is: a second `execute` of the same call (a resent answer) runs
    // nothing again, whether the run completed, failed, was rejected or rolled back
    yield await recordedOutcome(context, run);
  }

  const tool: CodemodeTool = {
    get description() {
      return (
        options.description ??
        context.configurator.current?.description ??
        "Run JavaScript that composes the configured connectors."
      );
    },
    inputSchema: codeInputSchema(),
    execute,
    toModelOutput: ({ output }) => {
      const shown = modelOutputOf(output);
      // with the AI SDK's approvals, a run that paused again is asked for by repeating the call
      if (aiSdk && shown.type === "json" && (output as { status?: unknown })?.status === "paused") {
        return { type: "json", value: { ...(shown.value as object), next: CONTINUE_HINT } };
      }
      return shown;
    },
  };
  if (aiSdk) {
    tool.needsApproval = async (input, callOptions) => {
      const toolCallId = idOf(callOptions);
      if (toolCallId === undefined) return false;
      await rejectDenied(context, callOptions?.messages);
      const { id, run } = await boundRun(context, toolCallId, code(input), callOptions?.messages);
      // the AI SDK asks again when the answer comes back: the run is still paused, still gated
      if (run) return run.status === "paused";
      // nothing can pause: the run starts in `execute`, where its progress streams
      if (!(await mayPause(context))) return false;
      const outcome = await begin(context, input, { id });
      if (outcome.status === "paused") return true;
      firstPasses.set(toolCallId, outcome);
      return false;
    };
  }
  return tool;
}

/**
 * What the approval request of a `codemode` call shows: its run and every call the run waits for,
 * or nothing when the call has no paused run.
 */
export async function approvalDescriptor(
  context: RunContext,
  toolCallId: string,
  code: string,
): Promise<CodemodeApprovalDescriptor | undefined> {
  const { id, run } = await boundRun(context, toolCallId, code, undefined);
  if (run?.status !== "paused") return undefined;
  return { executionId: id, pending: await pendingEntries(context, id) };
}
