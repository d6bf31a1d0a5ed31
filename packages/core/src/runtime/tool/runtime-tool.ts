import { decisionHandleOf, digestOf } from "../../decision-handle.ts";
import type { CodeModeInput, CodeModeOutput } from "../../types.ts";
import { begin, newRunId } from "../commands/begin-run.ts";
import { approve, reject } from "../commands/decisions.ts";
import type { RunContext } from "../context/run-context.ts";
import type { CallObserver } from "../pass/host-globals.ts";
import { pendingEntries } from "../pending-calls.ts";
import { recordedOutcome } from "../views/recorded-outcome.ts";
import { staleCalls } from "../views/shown-calls.ts";
import { approvalReason, isApprovalReason } from "./approval-reason.ts";
import { type ApprovalResponse, approvalResponsesOf, pausedRunOf } from "./approval-responses.ts";
import {
  type CodemodeApprovalCall,
  type CodemodeApprovalDescriptor,
  type CodemodeApprovalStatus,
  type CodemodeProgress,
  type CodemodeTool,
  type CodemodeToolApproval,
  type CodemodeToolCallOptions,
  type CodemodeToolOutput,
  codeInputSchema,
  modelOutputOf,
  type ProgressCall,
} from "./code-tool.ts";
import {
  CODEMODE_TOOL,
  isApprovalCall,
  isCodemodeTool,
  misconfigured,
  ownApproval,
  userApproval,
} from "./tool-approval.ts";
import {
  type BoundRun,
  bindToolCall,
  MAX_TOOL_CALL_ID_LENGTH,
  shownHandle,
  showOnce,
  toolCallRun,
} from "./tool-call-runs.ts";

/**
 * The run a tool call stands for: the one it is bound to, or, with `mayContinue`, for a new call
 * that repeats the code of a call whose run paused again after an approval, that run. The
 * conversation only points at it (the earlier call's paused result); the journal must confirm that
 * the earlier call of this runtime is bound to that run, still paused, with the same code.
 */
async function boundRun(
  context: RunContext,
  toolCallId: string,
  code: string,
  messages: unknown,
  mayContinue: boolean,
): Promise<BoundRun> {
  const own = await toolCallRun(context, toolCallId, code);
  if (own.binding || !mayContinue) return own;
  const earlier = pausedRunOf(messages, code);
  if (!earlier || earlier.toolCallId === toolCallId) return own;
  const before = await toolCallRun(context, earlier.toolCallId, code);
  if (
    before.binding?.executionId !== earlier.executionId ||
    before.run?.status !== "paused" ||
    before.run.code !== code
  ) {
    return own;
  }
  const binding = await bindToolCall(context, own.key, earlier.executionId);
  return { key: own.key, binding, run: await context.journal.getExecution(binding.executionId) };
}

/**
 * What a tool call whose run the journal no longer has (or never started) reads. With a binding,
 * the run it names was deleted or pruned. Without one, the call is not known with this code: its
 * binding was pruned, or the code sent is not the code its approval request was made for (a client
 * that edited the call in its history), and the run, if any, still waits as it was.
 */
const ended = (bound: BoundRun): CodeModeOutput => ({
  status: "error",
  executionId: bound.binding?.executionId ?? "",
  error: bound.binding
    ? "This tool call's run has ended and is no longer kept: nothing ran again. Call codemode again to start a new run."
    : "No run is kept for this tool call with this code (its record was pruned, or the code is not the code its approval request was made for): nothing ran. Call codemode again to start a new run.",
  code: "NOT_FOUND",
});

/** The bound run's outcome as recorded: nothing runs again. */
const outcomeOf = async (context: RunContext, bound: BoundRun): Promise<CodeModeOutput> =>
  bound.run ? recordedOutcome(context, bound.run) : ended(bound);

export interface RuntimeToolOptions {
  /** replaces the generated description */
  description?: string;
  /**
   * How a run that pauses is decided. `"ai-sdk"` (default): the AI SDK's own tool approval, where
   * the first pass runs in the tool's approval check (`toolApproval` in AI SDK 7, `needsApproval`
   * in 6), the person answers the approval request, and the tool's result is the run's real
   * outcome. `"host"`: the tool returns `{ status: "paused" }` and the host decides with
   * `runtime.approve` / `runtime.reject`.
   */
  approvals?: "ai-sdk" | "host";
}

/** What the model reads with a run that paused again after an approval. */
export const CONTINUE_HINT =
  "These calls wait for the person's approval. To ask them, call codemode again with exactly the same code: the run continues where it stopped and repeats nothing.";

/** Preliminary results keep the last few calls; the count covers them all. */
export const PROGRESS_RECENT_CALLS = 10;
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

/**
 * Rejects the paused runs of tool calls the conversation says a person denied; returns their ids.
 * A denial decides what its call's approval request showed, and nothing else: once those calls
 * no longer wait (decided before, or the run went on), it rejects nothing.
 */
export function rejectDenied(context: RunContext, messages: unknown): Promise<string[]> {
  // every tool call of a step hands in the same conversation: it is decided once
  if (!Array.isArray(messages)) return rejectDeniedOnce(context, messages);
  const done = context.toolCalls.denials;
  const known = done.get(messages);
  if (known?.length === messages.length) return known.rejected;
  const rejected = rejectDeniedOnce(context, messages);
  done.set(messages, { length: messages.length, rejected });
  return rejected;
}

async function rejectDeniedOnce(context: RunContext, messages: unknown): Promise<string[]> {
  const rejected: string[] = [];
  const denied = approvalResponsesOf(messages).filter(
    (answer) => !answer.approved && answer.code !== undefined,
  );
  for (const answer of denied.slice(-100)) {
    const bound = await boundRun(
      context,
      answer.toolCallId,
      answer.code as string,
      messages,
      false,
    );
    const shown = shownHandle(bound.binding);
    const [first] = shown?.calls ?? [];
    if (!shown || !first || bound.run?.status !== "paused") continue;
    if (await reject(context, shown.executionId, first.seq, answer.reason, "tool-approval", shown))
      rejected.push(shown.executionId);
  }
  return rejected;
}

/**
 * Whether the calls the bound run's approval request showed still wait as shown: then an `execute`
 * without the person's answer means the request was never put to them. Reads only.
 */
async function waitsAsShown(context: RunContext, bound: BoundRun): Promise<number> {
  const shown = shownHandle(bound.binding);
  if (!shown || bound.run?.status !== "paused") return 0;
  const waiting = await context.journal.listEntries(bound.run.id, { states: ["pending"] });
  const pendingNow = waiting.filter((entry) => entry.state === "pending" && !entry.deferred);
  return (await staleCalls(shown, pendingNow)) === undefined ? shown.calls.length : 0;
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

/**
 * Whether the bound run's approval request asks the person: the run is paused and the calls the
 * request shows still wait as shown. A request shows what waited when it first asked (kept in the
 * binding), so every later ask of the same tool call shows the same calls.
 */
async function asks(context: RunContext, bound: BoundRun): Promise<boolean> {
  const { run } = bound;
  if (run?.status !== "paused") return false;
  const waiting = await context.journal.listEntries(run.id, { states: ["pending"] });
  const pendingNow = waiting.filter((entry) => entry.state === "pending" && !entry.deferred);
  let shown = shownHandle(bound.binding);
  if (!shown) {
    if (pendingNow.length === 0) return false;
    // the handle is made of this one read: a second read could hold another pause, which would
    // then be recorded as shown while this request asks about nothing
    const calls = await Promise.all(
      pendingNow.map(async (entry) => ({
        seq: entry.seq,
        digest: await digestOf(entry),
      })),
    );
    shown = await showOnce(context, bound.key, { version: 1, executionId: run.id, calls });
  }
  return shown !== undefined && (await staleCalls(shown, pendingNow)) === undefined;
}

/**
 * An answer to the tool call's approval request decides what that request showed, once. It never
 * starts a run: an answer whose run ended, was pruned or deleted, or whose calls were decided
 * already (a resent answer, a second process, a host approval in between) runs nothing and gets
 * the run's recorded outcome.
 */
async function* answered(
  context: RunContext,
  bound: BoundRun,
  answer: ApprovalResponse,
  signal?: unknown,
): AsyncGenerator<CodemodeToolOutput> {
  const { run } = bound;
  const shown = shownHandle(bound.binding);
  const approves =
    answer.approved === true &&
    run?.status === "paused" &&
    shown !== undefined &&
    (answer.code === undefined || answer.code === run.code);
  if (!approves) {
    yield await outcomeOf(context, bound);
    return;
  }
  yield* withProgress(async (onCall) => {
    const output = await approve(context, shown.executionId, {
      handle: shown,
      onCall,
      signal,
      source: "tool-approval",
      ...(answer.reason === undefined ? {} : { reason: answer.reason }),
    });
    if (output.status !== "error" || output.code !== "DECISION_STALE") return output;
    const now = await context.journal.getExecution(shown.executionId);
    return now ? recordedOutcome(context, now) : ended(bound);
  }, shown.executionId);
}

/** `runtime.tool()`: the `codemode` tool, with the AI SDK's approvals or the host's. */
export function runtimeTool(context: RunContext, options: RuntimeToolOptions = {}): CodemodeTool {
  const aiSdk = (options.approvals ?? "ai-sdk") === "ai-sdk";
  const { firstPasses } = context.toolCalls;
  const code = (input: CodeModeInput) => (typeof input?.code === "string" ? input.code : "");
  const idOf = (callOptions: CodemodeToolCallOptions | undefined) =>
    typeof callOptions?.toolCallId === "string" && callOptions.toolCallId.length > 0
      ? callOptions.toolCallId
      : undefined;
  /** an id the runtime cannot bind a run to fails its own call, not the model's whole step */
  const unbindable = (toolCallId: string): CodeModeOutput | undefined =>
    toolCallId.length > MAX_TOOL_CALL_ID_LENGTH
      ? {
          status: "error",
          executionId: "",
          error: `A tool call id is at most ${MAX_TOOL_CALL_ID_LENGTH} characters (this one has ${toolCallId.length}); nothing ran. Call codemode again.`,
          code: "TOO_LARGE",
        }
      : undefined;

  async function* execute(
    input: CodeModeInput,
    callOptions?: CodemodeToolCallOptions,
  ): AsyncGenerator<CodemodeToolOutput> {
    const toolCallId = idOf(callOptions);
    if (!aiSdk || toolCallId === undefined) {
      yield* withProgress(
        (onCall) => begin(context, input, { onCall, signal: callOptions?.abortSignal }),
        undefined,
      );
      return;
    }
    const refused = unbindable(toolCallId);
    if (refused) {
      yield refused;
      return;
    }
    const messages = callOptions?.messages;
    await rejectDenied(context, messages);
    const bound = await toolCallRun(context, toolCallId, code(input));
    const ran = firstPasses.take(bound.key);
    if (ran) {
      yield ran;
      return;
    }
    const answer = approvalResponsesOf(messages).find(
      (candidate) => candidate.toolCallId === toolCallId,
    );
    if (answer) {
      // an answer to a request codemode's approval check never made (it binds every call it asks
      // about) was asked before any run: the person saw the program, not the calls it makes
      if (!bound.binding && !isApprovalReason(answer.requestReason)) {
        yield misconfigured("asked-before-run");
        return;
      }
      yield* answered(context, bound, answer, callOptions?.abortSignal);
      return;
    }
    if (bound.binding) {
      // the approval check asked about this run and the calls still wait as it showed them: the
      // AI SDK runs execute before the answer only when the request was overridden
      const unanswered = await waitsAsShown(context, bound);
      if (unanswered > 0) {
        yield misconfigured("not-answered", bound.binding.executionId, unanswered);
        return;
      }
      // the call was made before (a model that repeats its tool call, a resent request): its run
      // is what it is, and nothing runs again
      yield await outcomeOf(context, bound);
      return;
    }
    // a new call whose approval check did not run: where a run can pause, nobody would be asked
    if (await mayPause(context)) {
      yield misconfigured("not-asked");
      return;
    }
    // nothing can pause: the run starts here, bound first, so one request of it runs
    const id = newRunId(context.now());
    const binding = await bindToolCall(context, bound.key, id);
    if (binding.executionId !== id) {
      yield await outcomeOf(context, {
        ...bound,
        binding,
        run: await context.journal.getExecution(binding.executionId),
      });
      return;
    }
    yield* withProgress(
      (onCall) => begin(context, input, { id, onCall, signal: callOptions?.abortSignal }),
      id,
    );
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
  Object.defineProperty(tool, CODEMODE_TOOL, { value: true });
  if (aiSdk) {
    /** the approval check: runs the first pass of a new call; true when the person is asked */
    const decide = async (input: CodeModeInput, callOptions?: CodemodeToolCallOptions) => {
      const toolCallId = idOf(callOptions);
      if (toolCallId === undefined || unbindable(toolCallId)) return false;
      const messages = callOptions?.messages;
      await rejectDenied(context, messages);
      // the conversation holds an answer to this call: the AI SDK checks the approval again before
      // it runs the call (AI SDK 6 and 7 both do). That check binds nothing, runs nothing and
      // shows nothing: an answer given before its call had a run (a request the app's own rule
      // made, a client's forgery, a binding pruned since) must never approve calls shown after it.
      // It stands (true) only while what its request showed still waits; execute then decides, or
      // says why nothing ran.
      if (approvalResponsesOf(messages).some((answer) => answer.toolCallId === toolCallId)) {
        const own = await toolCallRun(context, toolCallId, code(input));
        return own.binding ? (await waitsAsShown(context, own)) > 0 : true;
      }
      const bound = await boundRun(context, toolCallId, code(input), messages, true);
      // a call bound before (the AI SDK asks again, the model repeated its call, or it continues
      // a run that paused again): it asks about what its request showed, while that still waits
      if (bound.binding) return asks(context, bound);
      // nothing can pause: the run starts in `execute`, where its progress streams
      if (!(await mayPause(context))) return false;
      const id = newRunId(context.now());
      const binding = await bindToolCall(context, bound.key, id);
      if (binding.executionId !== id) {
        const run = await context.journal.getExecution(binding.executionId);
        return asks(context, { ...bound, binding, run });
      }
      const outcome = await begin(context, input, { id });
      const gated = outcome.status === "paused" ? outcome.pending : [];
      if (gated.length > 0) {
        await showOnce(context, bound.key, decisionHandleOf(gated, id));
        return true;
      }
      firstPasses.set(bound.key, outcome);
      return false;
    };
    tool.needsApproval = decide;
    /** AI SDK 7: ask, with the calls the run waits for as the request's reason, or go on */
    const decideForCodemode = async (
      input: CodeModeInput,
      callOptions?: CodemodeToolCallOptions,
    ): Promise<CodemodeApprovalStatus> => {
      if (!(await decide(input, callOptions))) return "not-applicable";
      const shown = await approvalDescriptor(context, idOf(callOptions) ?? "", code(input));
      // a decision that moved the run on since the check: execute reports what it is now
      return shown
        ? userApproval(approvalReason(shown.executionId, shown.pending))
        : "not-applicable";
    };
    const toolApproval = (async (first: unknown, second?: CodemodeToolCallOptions) => {
      if (second !== undefined || !isApprovalCall(first)) {
        return decideForCodemode(first as CodeModeInput, second);
      }
      return decideGeneric(first);
    }) as CodemodeToolApproval;
    /** the AI SDK's generic shape: each tool call of the step, whichever its tool */
    const decideGeneric = async (call: CodemodeApprovalCall) => {
      const { toolCall, tools } = call;
      const target = tools?.[toolCall.toolName];
      const options = { toolCallId: toolCall.toolCallId, messages: call.messages };
      if (target === undefined && tools === undefined) {
        return decideForCodemode(toolCall.input as CodeModeInput, options);
      }
      if (!isCodemodeTool(target)) return ownApproval(target, call);
      // a codemode tool decides its own calls (another runtime's too); one with host approvals
      // returns its paused runs for the host
      const decideTarget = (target as CodemodeTool).toolApproval;
      return decideTarget
        ? decideTarget(toolCall.input as CodeModeInput, options)
        : "not-applicable";
    };
    tool.toolApproval = toolApproval;
  }
  return tool;
}

/**
 * What the approval request of a `codemode` call shows: its run, the calls the request showed when
 * it first asked, with their exact recorded input, and the decision's handle; nothing when the call
 * has no paused run or those calls no longer wait as shown.
 */
export async function approvalDescriptor(
  context: RunContext,
  toolCallId: string,
  code: string,
): Promise<CodemodeApprovalDescriptor | undefined> {
  const bound = await boundRun(context, toolCallId, code, undefined, false);
  const handle = shownHandle(bound.binding);
  if (!handle || bound.run?.status !== "paused") return undefined;
  const waiting = await pendingEntries(context, handle.executionId);
  const shown = handle.calls.map(({ seq, digest }) =>
    waiting.find((action) => action.seq === seq && action.digest === digest),
  );
  if (shown.some((action) => action === undefined)) return undefined;
  return {
    executionId: handle.executionId,
    pending: shown as CodemodeApprovalDescriptor["pending"],
    handle,
  };
}
