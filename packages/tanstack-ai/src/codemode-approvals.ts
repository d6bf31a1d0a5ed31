// Paused runs as TanStack AI interrupts: after the tools ran, every `codemode` run that waits for a
// person becomes a `codemodeApproval` interrupt showing the exact recorded inputs; the person's
// answer, on the continuation, approves or rejects the run through the runtime, and the model's
// next turn reads the run's new outcome in place of the paused one.
import { CodemodeError, type CodemodeRuntime } from "@codemode/core";
import type { ChatMiddleware, ChatMiddlewareContext } from "@tanstack/ai";
import { decideApproval, endedRun, type RunReport } from "./approval-decision.ts";
import { approvalQuestion, codemodeApproval, shownCalls } from "./codemode-approval.ts";
import { CODEMODE_TOOL_NAME } from "./codemode-tool.ts";
import { currentToolMessages } from "./current-tool-messages.ts";

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
      const calls = shownCalls(await runtime.pending(executionId));
      if (calls.length === 0) continue;
      // too large to show whole: the run waits for the host (runtime.approve or reject)
      if (JSON.stringify(calls).length > maxShownLength) continue;
      requests.push(
        codemodeApproval.interrupt({
          key: executionId,
          reason: "approval",
          message: approvalQuestion(calls),
          payload: { executionId, toolCallId, calls },
        }),
      );
    }
    state.toAsk.clear();
    return requests.length > 0 ? { interrupts: requests } : undefined;
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
          return endedRun(runtime, run.executionId);
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
        const payload = resolution.request.payload;
        if (!payload) continue;
        const { executionId, toolCallId } = payload;
        const { decision, output, askAgain } = await decideApproval(runtime, resolution, payload);
        if (askAgain) state.toAsk.set(toolCallId, executionId);
        state.decided.set(toolCallId, { executionId, output });
        ctx.emitCustomEvent(CODEMODE_DECISION_EVENT, { toolCallId, executionId, decision, output });
      }
    },
  };
}
