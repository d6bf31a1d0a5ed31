// approvals: "elicitation": the client's user is asked about every call a pass left waiting, each
// with its exact input, before any of them runs.
import { type CodeModeOutput, type CodemodeRuntime, decisionHandleOf } from "@codemode/core";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ElicitRequestFormParams, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { describeCall } from "./describe-call.ts";
import { visibleText } from "./visible-text.ts";

export interface ElicitationContext {
  runtime: CodemodeRuntime;
  /** the server the `codemode` call came in on (an `McpServer`'s `server`) */
  server: Server;
  /** the `codemode` call: its questions travel with it (on Streamable HTTP, on its response stream) */
  requestId: RequestId;
  /** aborted when the client cancels the call: no question is left open */
  signal: AbortSignal;
  /** the reply limit, which also bounds an input shown in a question */
  limit: number;
}

/** whether the client said, at `initialize`, that it answers form questions */
export const canElicit = (server: Server): boolean =>
  server.getClientCapabilities()?.elicitation?.form !== undefined;

const QUESTION_SCHEMA: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: { approve: { type: "boolean", title: "Approve", description: "Run this call." } },
  required: ["approve"],
};

/**
 * Asks the client's user about every pending call of the pass, each with its exact input, and
 * approves only when all were approved, with the handle of the calls shown: the runtime refuses it
 * if any of them no longer waits as shown, and the person is then asked about what waits now. A
 * decline rejects the run with that call. Repeats while a resumed pass pauses again. When a question
 * cannot be asked or answered, or an input is too large to show, the run is returned paused, for the
 * host.
 */
export async function settleByElicitation(
  context: ElicitationContext,
  first: CodeModeOutput,
): Promise<CodeModeOutput> {
  const { runtime, server, limit } = context;
  let output = first;
  while (output.status === "paused" && output.pending.length > 0) {
    const { executionId } = output;
    const shown: string[] = [];
    for (const action of output.pending) {
      const call = describeCall(action, limit);
      if (call === undefined) return output;
      shown.push(call);
    }
    const handle = decisionHandleOf(output.pending, executionId);
    for (const [index, action] of output.pending.entries()) {
      const count = output.pending.length;
      // a call in doubt may have run already: approving it runs it again (see PendingAction.inDoubt)
      const doubt = action.inDoubt === undefined ? "" : ` ${visibleText(action.inDoubt)}`;
      const message =
        count === 1
          ? `The code wants to run ${shown[index]}.${doubt} Approve it?`
          : `The code wants to run ${count} calls together; none runs unless you approve each. Call ${index + 1} of ${count}: ${shown[index]}.${doubt} Approve it?`;
      let approved: boolean;
      try {
        const answer = await server.elicitInput(
          { message, requestedSchema: QUESTION_SCHEMA },
          { relatedRequestId: context.requestId, signal: context.signal },
        );
        approved = answer.action === "accept" && answer.content?.approve === true;
      } catch {
        // the question could not be asked or answered: the run stays paused for the host
        return output;
      }
      if (!approved) {
        const rejected = await runtime.reject({ executionId, seq: action.seq, handle });
        return {
          status: "error",
          executionId,
          error: rejected
            ? `The person did not approve call #${action.seq}, ${shown[index]}; the run ended without running any of its waiting calls.`
            : `The person did not approve call #${action.seq}, ${shown[index]}, and the run no longer waits for it as shown (it was approved, rejected or expired elsewhere).`,
        };
      }
    }
    const decided = await runtime.approve({ executionId, handle });
    if (decided.status !== "error" || decided.code !== "DECISION_STALE") {
      output = decided;
      continue;
    }
    // decided elsewhere since the questions: ask about what waits now, if anything
    const now = await runtime.pending(executionId);
    if (now.length === 0) {
      return {
        status: "error",
        executionId,
        error:
          "The run no longer waits for approval (it was approved, rejected or expired elsewhere).",
      };
    }
    output = { status: "paused", executionId, pending: now };
  }
  return output;
}
