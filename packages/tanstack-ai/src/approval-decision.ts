// One answer to a `codemodeApproval` interrupt applied to its run through the runtime, and what
// the model reads afterwards.
import type { CodemodeRuntime, ExecutionStatus } from "@codemode/core";
import { canonicalInterruptJson, type GenericInterruptResolution } from "@tanstack/ai";
import { callNames, type codemodeApproval, shownCalls } from "./codemode-approval.ts";
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
 * Applies a person's answer: approve runs the calls once, and only when the run still waits for
 * exactly the calls shown with the inputs shown (otherwise it asks again about what waits now);
 * reject ends the run without them; cancel leaves the run paused.
 */
export async function decideApproval(
  runtime: CodemodeRuntime,
  resolution: GenericInterruptResolution<typeof codemodeApproval>,
  payload: { executionId: string; calls: unknown },
): Promise<Decision> {
  const { executionId, calls } = payload;
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
  const [first] = now;
  if (!first) return stale();
  const paused = toolOutput({ status: "paused", executionId, pending: now });
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
  if (!resolution.response.approved) {
    if (!(await runtime.reject({ executionId, seq: first.seq }))) return stale();
    return {
      decision: "rejected",
      output: {
        status: "error",
        executionId,
        error: `A person rejected ${callNames(now)}; the run ended without running the calls it waited for. Do not run the code again unless the user asks.`,
      },
      askAgain: false,
    };
  }
  if (canonicalInterruptJson(shownCalls(now)) !== canonicalInterruptJson(calls)) {
    return { decision: "changed", output: paused, askAgain: true };
  }
  const output = toolOutput(await runtime.approve({ executionId }));
  return { decision: "approved", output, askAgain: output.status === "paused" };
}
