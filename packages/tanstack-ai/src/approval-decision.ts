// One answer to a `codemodeApproval` interrupt applied to its run through the runtime, and what
// the model reads afterwards.
import type { CodemodeRuntime, ExecutionStatus } from "@codemode/core";
import { canonicalInterruptJson, type GenericInterruptResolution } from "@tanstack/ai";
import {
  type CodemodeApprovalCall,
  callNames,
  type codemodeApproval,
  shownCalls,
  shownHandle,
} from "./codemode-approval.ts";
import { type CodemodeToolOutput, toolOutput } from "./tool-output.ts";

/** What the model reads for a paused run that was decided elsewhere or earlier. */
export interface EndedRun {
  status: ExecutionStatus;
  executionId: string;
  message: string;
}

/** What the model reads for a run after a decision. */
export type RunReport = CodemodeToolOutput | EndedRun;

export interface Decision {
  decision: "approved" | "rejected" | "cancelled" | "changed" | "stale";
  output: RunReport;
  /** the run waits for a person again: ask before the model runs */
  askAgain: boolean;
}

/** What a paused output says once its run no longer waits; undefined while it does. */
export async function endedRun(
  runtime: CodemodeRuntime,
  executionId: string,
): Promise<EndedRun | undefined> {
  if ((await runtime.pending(executionId)).length > 0) return undefined;
  const execution = await runtime.execution(executionId);
  if (!execution || execution.status === "paused") return undefined;
  return {
    status: execution.status,
    executionId,
    message: `This run was paused when this result was recorded; it no longer waits and is now ${execution.status}. Do not run the code again for its effects.`,
  };
}

/**
 * Applies a person's answer to the calls its interrupt showed, and to no others: approve runs them
 * once, and only while each still waits with the input shown (otherwise it asks again about what
 * waits now); reject ends the run without them, on the same condition; cancel leaves the run
 * paused. The runtime checks the condition in the decision itself (the calls' handle), so a call
 * that starts to wait in between is never covered.
 */
export async function decideApproval(
  runtime: CodemodeRuntime,
  resolution: GenericInterruptResolution<typeof codemodeApproval>,
  payload: { executionId: string; calls: readonly CodemodeApprovalCall[] },
): Promise<Decision> {
  const { executionId, calls } = payload;
  const handle = shownHandle(executionId, calls);
  const now = await runtime.pending(executionId);
  const stale = async (): Promise<Decision> => ({
    decision: "stale",
    output: (await endedRun(runtime, executionId)) ?? {
      status: "error",
      executionId,
      error:
        "The run no longer waits for approval (it was approved, rejected or expired elsewhere). Do not run the code again for its effects.",
    },
    askAgain: false,
  });
  if (now.length === 0) return stale();
  const paused = toolOutput({ status: "paused", executionId, pending: now });
  const changed: Decision = { decision: "changed", output: paused, askAgain: true };
  if (resolution.status === "cancelled") {
    return {
      decision: "cancelled",
      output: {
        ...paused,
        message:
          "The person closed the approval without deciding. The run still waits for these calls; do not run the code again.",
      },
      askAgain: false,
    };
  }
  const [first] = calls;
  if (!first) return stale();
  if (!resolution.response.approved) {
    if (!(await runtime.reject({ executionId, seq: first.seq, handle }))) {
      return (await runtime.pending(executionId)).length > 0 ? changed : stale();
    }
    return {
      decision: "rejected",
      output: {
        status: "error",
        executionId,
        error: `A person rejected ${callNames(calls)}; the run ended without running the calls it waited for. Do not run the code again unless the user asks.`,
      },
      askAgain: false,
    };
  }
  // the calls as the client says it showed them must be the calls as recorded, inputs included
  const shownSeqs = new Set(calls.map((call) => call.seq));
  const shownNow = shownCalls(now.filter((action) => shownSeqs.has(action.seq)));
  if (canonicalInterruptJson(shownNow) !== canonicalInterruptJson(calls)) return changed;
  const approved = await runtime.approve({ executionId, handle });
  if (approved.status === "error" && approved.code === "DECISION_STALE") {
    return (await runtime.pending(executionId)).length > 0 ? changed : stale();
  }
  const output = toolOutput(approved);
  return { decision: "approved", output, askAgain: output.status === "paused" };
}
