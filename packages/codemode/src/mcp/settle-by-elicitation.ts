// approvals: "elicitation": the client's user is asked about every call a pass left waiting, each
// with its exact input, before any of them runs.
import type { CodeModeOutput, CodemodeRuntime, PendingAction } from "@codemode/core";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ElicitRequestFormParams, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { boundedJson } from "./bounded-json.ts";
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
 * approves only when all were approved and the run still waits for exactly those calls; a decline
 * rejects the run with that call. Repeats while a resumed pass pauses again. When a question cannot
 * be asked or answered, or an input is too large to show, the run is returned paused, for the host.
 */
export async function settleByElicitation(
  context: ElicitationContext,
  first: CodeModeOutput,
): Promise<CodeModeOutput> {
  const { runtime, server, limit } = context;
  /**
   * `connector.method(input)` with the exact input, every character a person cannot see escaped, or
   * undefined when it cannot be shown whole
   */
  const describeCall = (action: PendingAction): string | undefined => {
    const input = boundedJson(action.args, limit);
    const call = input && visibleText(`${action.connector}.${action.method}(${input.text})`);
    return call !== undefined && call.length <= limit ? call : undefined;
  };
  let output = first;
  while (output.status === "paused" && output.pending.length > 0) {
    const { executionId } = output;
    const shown: string[] = [];
    for (const action of output.pending) {
      const call = describeCall(action);
      if (call === undefined) return output;
      shown.push(call);
    }
    for (const [index, action] of output.pending.entries()) {
      const count = output.pending.length;
      const message =
        count === 1
          ? `The code wants to run ${shown[index]}. Approve it?`
          : `The code wants to run ${count} calls together; none runs unless you approve each. Call ${index + 1} of ${count}: ${shown[index]}. Approve it?`;
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
        const rejected = await runtime.reject({ executionId, seq: action.seq });
        return {
          status: "error",
          executionId,
          error: rejected
            ? `The person did not approve call #${action.seq}, ${shown[index]}; the run ended without running any of its waiting calls.`
            : `The person did not approve call #${action.seq}, ${shown[index]}, and the run no longer waits for it (it was approved, rejected or expired elsewhere).`,
        };
      }
    }
    // the approval covers exactly the calls shown: if the run now waits for others, ask again
    const now = await runtime.pending(executionId);
    const same =
      now.length === shown.length &&
      now.every((action, index) => describeCall(action) === shown[index]);
    if (!same) {
      if (now.length === 0) {
        return {
          status: "error",
          executionId,
          error:
            "The run no longer waits for approval (it was approved, rejected or expired elsewhere).",
        };
      }
      output = { status: "paused", executionId, pending: now };
      continue;
    }
    // named, so that a decision made elsewhere since the check above is not approved blind
    output = await runtime.approve({ executionId, seqs: now.map((action) => action.seq) });
  }
  return output;
}
