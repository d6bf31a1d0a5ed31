// One `codemode` tool call: a task (a client that declared the Tasks extension), the retry of an
// approval round (it carries the state the server sealed and the person's answers), or a run; a run
// that pauses asks the person (multi-round-trip request) when the client can answer.
import type { CodeModeOutput, CodemodeRuntime } from "@codemode/core";
import type {
  CallToolResult,
  InputRequiredResult,
  InputResponses,
  McpServer,
  ServerContext,
} from "@modelcontextprotocol/server";
import { type ApprovalRound, askForApproval, decideRound } from "./approval-round.ts";
import { type ApprovalStateCodec, sha256Text } from "./approval-state.ts";
import { runUntilCancelled } from "./cancel-with-call.ts";
import { canElicit, declaresTasks } from "./client-capabilities.ts";
import { startTask, type TasksContext } from "./code-tasks.ts";

export interface CodemodeCallContext {
  runtime: CodemodeRuntime;
  server: McpServer;
  codec: ApprovalStateCodec;
  /** the reply limit */
  limit: number;
  /** with the Tasks extension */
  tasks: TasksContext | undefined;
  /** approvals: "elicitation": a paused run asks the person */
  asks: boolean;
  /** a run this server started or decided */
  remember(executionId: string): void;
  /** the reply to the client for an output */
  respond(output: CodeModeOutput): CallToolResult;
}

const NOT_ASKING =
  'This server takes no answers from its clients (its approvals are not "elicitation"): this retry\'s approval state decided nothing; the run waits for the host application.';

const STATE_REFUSED =
  "This retry's approval state is not one this server gave for this call (altered, expired, sealed with another key, or for other code or another caller): nothing was decided.";

export async function codemodeCall(
  call: CodemodeCallContext,
  code: string,
  context: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const { runtime, codec } = call;
  const round: ApprovalRound = {
    runtime,
    codec,
    limit: call.limit,
    code: await sha256Text(code),
    principal: context.http?.authInfo?.clientId,
    now: Date.now,
    signal: context.mcpReq.signal,
  };
  let output: CodeModeOutput;
  let ask = true;
  const sealed = context.mcpReq.requestState();
  if (sealed === undefined && call.tasks && declaresTasks(context)) {
    const started = await startTask(call.tasks, code, round.principal);
    // a task handle in place of the tool result (the Tasks extension's `CreateTaskResult`)
    if ("task" in started) return started.task as CallToolResult;
    output = started.output;
  } else if (sealed === undefined) {
    output = await runUntilCancelled(runtime, code, context.mcpReq.signal);
  } else if (!call.asks) {
    // only a host that opted in to its clients' answers (approvals: "elicitation") decides a round,
    // whoever sealed the state (one runtime may be served in several modes, with one key)
    return call.respond({ status: "error", executionId: "", error: NOT_ASKING });
  } else {
    // the retry of an approval round: its state must be one this server sealed for this call
    const state = await codec.open(sealed, round.now());
    if (!state || state.code !== round.code || state.principal !== round.principal) {
      return call.respond({ status: "error", executionId: "", error: STATE_REFUSED });
    }
    // answers that arrive for a call the client cancelled decide nothing
    if (context.mcpReq.signal.aborted) throw new Error("The codemode call was cancelled.");
    const responses = context.mcpReq.inputResponses as InputResponses | undefined;
    ({ output, askAgain: ask } = await decideRound(round, state, responses));
  }
  if (output.executionId) call.remember(output.executionId);
  if (ask && output.status === "paused" && call.asks && canElicit(call.server, context)) {
    const questions = await askForApproval(round, output);
    if (questions) return questions;
  }
  return call.respond(output);
}
