// Paused runs as TanStack AI interrupts: after the tools ran, every `codemode` run that waits for a
// person becomes a `codemodeApproval` interrupt showing the exact recorded inputs; the person's
// answer, on the continuation, approves or rejects the run through the runtime, and the model's
// next turn reads the run's new outcome in place of the paused one.
import {
  CodemodeError,
  type CodemodeRuntime,
  type ExecutionStatus,
  type PendingAction,
} from "@codemode/core";
import {
  type ChatMiddleware,
  type ChatMiddlewareContext,
  canonicalInterruptJson,
  type GenericInterruptResolution,
} from "@tanstack/ai";
import { type CodemodeApprovalCall, codemodeApproval } from "./codemode-approval.ts";
import { CODEMODE_TOOL_NAME } from "./codemode-tool.ts";
import { currentToolMessages } from "./current-tool-messages.ts";
import { asJson, type CodemodeToolOutput, toolOutput } from "./tool-output.ts";

/** The most characters of JSON the calls of one interrupt may take (their inputs, mostly). */
export const MAX_SHOWN_LENGTH = 100_000;

/** The custom event a decision emits: `{ toolCallId, executionId, decision, output }`. */
export const CODEMODE_DECISION_EVENT = "codemode:decision";

export interface CodemodeApprovalsOptions {
  /** the name given to `codemodeTool`; default "codemode" */
  toolName?: string;
  /**
   * the most characters of JSON the calls of one interrupt may take, up to the default
   * `MAX_SHOWN_LENGTH`; a run whose calls are larger is not shown and waits for the host
   */
  maxShownLength?: number;
}

/** What the model reads for a paused run that was decided elsewhere or earlier. */
interface EndedRun {
  status: ExecutionStatus;
  executionId: string;
  message: string;
}

type RunReport = CodemodeToolOutput | EndedRun;

/** What one chat() call (one AG-UI run) keeps between its hooks. */
interface RunState {
  /** `codemode` tool call id → the id of its paused run, to ask about at the next boundary */
  toAsk: Map<string, string>;
  /** tool call id → the run's outcome after a decision, for that call's tool message */
  decided: Map<string, { executionId: string; output: RunReport }>;
  /** whether the paused outputs in the history were checked against the journal */
  checked: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A pending action as the person sees it: its input as plain JSON. */
const shownCall = (action: PendingAction): CodemodeApprovalCall => ({
  seq: action.seq,
  connector: action.connector,
  method: action.method,
  input: asJson(action.args),
});

function named(calls: readonly { connector: string; method: string }[]): string {
  const names = calls.slice(0, 3).map((call) => `${call.connector}.${call.method}`);
  return calls.length > 3 ? `${names.join(", ")} and ${calls.length - 3} more` : names.join(", ");
}

function question(calls: readonly CodemodeApprovalCall[]): string {
  return calls.length === 1
    ? `The code wants to call ${named(calls)}. Approve it?`
    : `The code wants to make ${calls.length} calls together (${named(calls)}). None runs unless you approve; approving runs each once.`;
}

const noLongerWaiting = (executionId: string): CodemodeToolOutput => ({
  status: "error",
  executionId,
  error:
    "The run no longer waits for approval (it was approved, rejected or expired elsewhere). Do not run the code again for its effects.",
});

/**
 * A TanStack AI chat middleware that turns the `codemode` tool's paused runs into
 * `codemodeApproval` interrupts (register that definition in `chat({ interrupts })` and on the
 * client). It asks at the `afterTools` boundary, so the model's next turn waits for the person,
 * and shows every call the run waits for with the input recorded when it paused.
 *
 * The answer arrives on the continuation (`parentRunId` and `resume` forwarded to `chat()`):
 * `{ approved: true }` runs the calls once with `runtime.approve`, but only if the run still waits
 * for exactly the calls shown (otherwise it asks again about what waits now); `{ approved: false }`
 * ends the run with `runtime.reject`; a cancelled interrupt leaves the run paused. The outcome
 * replaces the paused result in that `codemode` call's tool message before the model runs, a
 * resumed run that pauses again asks again before the model runs, and each decision emits the
 * custom event `codemode:decision`. Nothing the model sends can approve: only a resume answer can.
 */
export function codemodeApprovals(
  runtime: CodemodeRuntime,
  options: CodemodeApprovalsOptions = {},
): ChatMiddleware<unknown, typeof codemodeApproval> {
  if (typeof runtime?.pending !== "function" || typeof runtime.approve !== "function") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "codemodeApprovals needs a Code Mode runtime (createCodemodeRuntime).",
    );
  }
  const toolName = options.toolName ?? CODEMODE_TOOL_NAME;
  const maxShownLength = options.maxShownLength ?? MAX_SHOWN_LENGTH;
  if (
    !Number.isInteger(maxShownLength) ||
    maxShownLength < 1 ||
    maxShownLength > MAX_SHOWN_LENGTH
  ) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `codemodeApprovals: maxShownLength must be an integer from 1 to ${MAX_SHOWN_LENGTH}, not ${String(maxShownLength)}.`,
    );
  }
  const states = new WeakMap<object, RunState>();
  const stateOf = (ctx: ChatMiddlewareContext): RunState => {
    let state = states.get(ctx);
    if (!state) {
      state = { toAsk: new Map(), decided: new Map(), checked: false };
      states.set(ctx, state);
    }
    return state;
  };

  /** The interrupts for the runs waiting now: each shows every call its run waits for. */
  async function ask(state: RunState) {
    const requests = [];
    for (const [toolCallId, executionId] of state.toAsk) {
      const pending = await runtime.pending(executionId);
      if (pending.length === 0) continue;
      const calls = pending.map(shownCall);
      // too large to show whole: the run waits for the host (runtime.approve or reject)
      if (JSON.stringify(calls).length > maxShownLength) continue;
      requests.push(
        codemodeApproval.interrupt({
          key: executionId,
          reason: "approval",
          message: question(calls),
          payload: { executionId, toolCallId, calls },
        }),
      );
    }
    state.toAsk.clear();
    return requests.length > 0 ? { interrupts: requests } : undefined;
  }

  /** Applies one answer to its run; the run's outcome for the model. */
  async function decide(
    state: RunState,
    resolution: GenericInterruptResolution<typeof codemodeApproval>,
  ): Promise<{ decision: string; output: RunReport } | undefined> {
    const payload = resolution.request.payload;
    if (!payload) return undefined;
    const { executionId, toolCallId, calls } = payload;
    const now = await runtime.pending(executionId);
    const stale = async () => ({
      decision: "stale",
      output: (await ended(executionId)) ?? noLongerWaiting(executionId),
    });
    if (now.length === 0) return stale();
    const paused = () => toolOutput({ status: "paused", executionId, pending: now });
    if (resolution.status === "cancelled") {
      return {
        decision: "cancelled",
        output: {
          ...paused(),
          message:
            "The person closed the approval without deciding. The run still waits for these calls; do not run the code again.",
        },
      };
    }
    if (!resolution.response.approved) {
      const rejected = await runtime.reject({ executionId, seq: (now[0] as PendingAction).seq });
      return rejected
        ? {
            decision: "rejected",
            output: {
              status: "error",
              executionId,
              error: `A person rejected ${named(now)}; the run ended without running the calls it waited for. Do not run the code again unless the user asks.`,
            },
          }
        : stale();
    }
    // the approval covers exactly the calls shown, with the inputs shown
    if (canonicalInterruptJson(now.map(shownCall)) !== canonicalInterruptJson(calls)) {
      state.toAsk.set(toolCallId, executionId);
      return { decision: "changed", output: paused() };
    }
    const output = toolOutput(await runtime.approve({ executionId }));
    if (output.status === "paused") state.toAsk.set(toolCallId, executionId);
    return { decision: "approved", output };
  }

  /** What a paused output the client kept says once its run no longer waits; undefined while it does. */
  async function ended(executionId: string): Promise<EndedRun | undefined> {
    if ((await runtime.pending(executionId)).length > 0) return undefined;
    const execution = await runtime.execution(executionId);
    if (!execution || execution.status === "paused") return undefined;
    return {
      status: execution.status,
      executionId,
      message: `This run was paused when this result was recorded; it no longer waits and is now ${execution.status}. Do not run the code again for its effects.`,
    };
  }

  return {
    name: "codemode-approvals",
    async onConfig(ctx, config) {
      if (ctx.phase === "init" && !config.tools.some((tool) => tool.name === toolName)) {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `codemodeApprovals: chat() has no tool named "${toolName}"; add codemodeTool(runtime) to its tools, or give codemodeApprovals the tool's name as toolName.`,
        );
      }
      if (ctx.phase !== "beforeModel") return;
      const state = stateOf(ctx);
      if (state.checked && state.decided.size === 0) return;
      const check = !state.checked;
      state.checked = true;
      const { decided } = state;
      state.decided = new Map();
      const messages = await currentToolMessages(
        config.messages,
        toolName,
        async (toolCallId, run) => {
          const decision = decided.get(toolCallId);
          if (decision) return decision.executionId === run.executionId && decision.output;
          // once per request: a paused output the client kept, of a run decided since
          if (!check || run.status !== "paused") return undefined;
          return ended(run.executionId);
        },
      );
      return messages ? { messages } : undefined;
    },
    onAfterToolCall(ctx, info) {
      if (info.toolName !== toolName || !info.ok || !isRecord(info.result)) return;
      const { status, executionId } = info.result;
      if (status === "paused" && typeof executionId === "string") {
        stateOf(ctx).toAsk.set(info.toolCallId, executionId);
      }
    },
    async onInterruptBoundary(ctx) {
      if (ctx.phase !== "afterTools" && ctx.phase !== "beforeModel") return;
      const state = states.get(ctx);
      return state && state.toAsk.size > 0 ? ask(state) : undefined;
    },
    async onInterruptResolution(ctx, resolutions) {
      const state = stateOf(ctx);
      for (const resolution of resolutions.for(codemodeApproval)) {
        const outcome = await decide(state, resolution);
        if (!outcome) continue;
        const { toolCallId, executionId } = resolution.request.payload as {
          toolCallId: string;
          executionId: string;
        };
        state.decided.set(toolCallId, { executionId, output: outcome.output });
        ctx.emitCustomEvent(CODEMODE_DECISION_EVENT, {
          toolCallId,
          executionId,
          decision: outcome.decision,
          output: outcome.output,
        });
      }
    },
  };
}
