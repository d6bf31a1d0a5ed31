// Code Mode's tools registered onto an MCP SDK McpServer, beside the application's own tools.
import {
  type CodeModeOutput,
  CodemodeError,
  type CodemodeRuntime,
  type DecisionHandle,
  decisionHandleOf,
  type PendingAction,
} from "@codemode/core";
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/server";
import { alreadyDecided } from "./already-decided.ts";
import { approvable } from "./approval-round.ts";
import {
  type ApprovalStateCodec,
  type ApprovalStateKey,
  approvalStateCodec,
  processKey,
} from "./approval-state.ts";
import { type CodemodeTasksOptions, registerTaskMethods, type TasksContext } from "./code-tasks.ts";
import { codemodeCall } from "./codemode-call.ts";
import { MAX_REPLY_LENGTH, MIN_REPLY_LENGTH, reply } from "./reply.ts";
import {
  APPROVE_TOOL,
  approveTool,
  CODE_TOOL,
  codeTool,
  PENDING_TOOL,
  pendingTool,
  REJECT_TOOL,
  rejectTool,
} from "./tool-definitions.ts";

/** Who approves a paused run's calls; see `CodemodeToolsOptions.approvals`. */
export type McpApprovals = "elicitation" | "host" | "client-tools";

export interface CodemodeToolsOptions {
  runtime: CodemodeRuntime;
  /**
   * Who approves the calls of a paused run. No default lets the MCP client approve: the model that
   * writes the code usually drives that client.
   *
   * - `"elicitation"` (default): the `codemode` call asks the client's user about every pending
   *   call, one form question per call with its exact input, before any of them runs: on the
   *   2026-07-28 protocol the call answers `input_required` with the questions and a sealed state
   *   naming the calls (see `approvalStateKey`), and the client retries it with the answers; on a
   *   2025-era session the MCP SDK sends the same questions as elicitation requests. The calls run
   *   once all are approved, and a decline of any one rejects the run. When the client declared no
   *   elicitation (a stateless 2025-era request never declares any), leaves a question unanswered,
   *   or the questions (every input whole) do not fit in `maxReplyLength` together, the run is
   *   returned as paused, for the host application to approve or reject out of band
   *   (`runtime.approve`, `runtime.reject`).
   * - `"host"`: never ask through the client; a paused run is returned as paused for the host
   *   application to approve or reject out of band. A retry that carries an approval state (sealed
   *   by a server of the same runtime that asks) decides nothing here, nor under `"client-tools"`.
   * - `"client-tools"`: also serve `codemode_approve` and `codemode_reject`. The model driving the
   *   client can call them and so approve its own calls: only for clients where a person, not the
   *   model, calls these tools. Every reply that shows waiting calls gives the handle of what it
   *   showed; a decision sends it back and covers those calls only, once.
   *
   * `codemode_pending` (read-only) lists the waiting calls in every mode.
   */
  approvals?: McpApprovals;
  /**
   * A session (the server these tools are registered on, connected to one client) lists, decides
   * and reads only the runs it started (`codemode_pending`, `codemode_approve`,
   * `codemode_reject`); a run of another session over the same runtime is as unknown to it. `true`
   * lets every session list and decide every run of the runtime: only when all its clients are one
   * person. A stateless HTTP server has a session per request, so a later request sees no run
   * without it.
   */
  shareRunsAcrossSessions?: boolean;
  /**
   * The most characters of JSON text a reply carries, from 1,000 to `MAX_REPLY_LENGTH` (the
   * default). `structuredContent` is the same value.
   */
  maxReplyLength?: number;
  /**
   * The key that seals the state of an approval round (HMAC-SHA256, at least 32 bytes): give every
   * instance that serves the runtime the same key, so the client's retry with the person's answers
   * is decided by whichever instance it reaches. Default: a key made once per process for the
   * runtime, so a retry must reach the same process. If the server has its own
   * `requestState.verify` hook, it must pass Code Mode's states (they start with
   * `APPROVAL_STATE_PREFIX`) through unchanged.
   */
  approvalStateKey?: ApprovalStateKey;
  /**
   * Serve the MCP Tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28): a `codemode` call
   * of a client that declares it is answered with a task handle when its run has not ended within
   * `afterMs`; `tasks/get` reads the run from the journal (a paused run's task is `input_required`,
   * with one question per waiting call under `"elicitation"`), `tasks/update` decides them as the
   * person answered, `tasks/cancel` cancels the run (`runtime.cancel`). The `codemode` tool then
   * lists no `outputSchema` (a task handle is not a tool result, and the SDK checks every result
   * against it). Default: off.
   */
  tasks?: boolean | CodemodeTasksOptions;
}

/** The tools `registerCodemodeTools` registered (each can be disabled, updated or removed). */
export interface RegisteredCodemodeTools {
  codemode: RegisteredTool;
  pending: RegisteredTool;
  /** with `approvals: "client-tools"` only */
  approve?: RegisteredTool;
  reject?: RegisteredTool;
}

const APPROVALS: readonly McpApprovals[] = ["elicitation", "host", "client-tools"];

const WAITING =
  "The run waits for a person to approve or reject these calls outside this conversation; the application resumes it. Do not run the code again. codemode_pending lists what waits.";

/** one handle per run of `pending`: what a person shown them decides with */
const handlesOf = (pending: readonly PendingAction[]): DecisionHandle[] => {
  const runs = new Map<string, PendingAction[]>();
  for (const action of approvable(pending)) {
    runs.set(action.executionId, [...(runs.get(action.executionId) ?? []), action]);
  }
  return [...runs].map(([executionId, actions]) => decisionHandleOf(actions, executionId));
};

/** The most runs a session remembers as its own (the newest); an older one it no longer decides. */
export const MAX_SESSION_RUNS = 10_000;

/** what a session is told of a run it did not start: the same as of a run that does not exist */
const notThisSessions = (executionId: string) =>
  `This session started no run "${executionId}": it lists and decides only the runs it started.`;

/** the key of a runtime whose host gave none: made once per process */
const processKeys = new WeakMap<CodemodeRuntime, ApprovalStateCodec>();

function codecFor(options: CodemodeToolsOptions): ApprovalStateCodec {
  if (options.approvalStateKey !== undefined) return approvalStateCodec(options.approvalStateKey);
  let codec = processKeys.get(options.runtime);
  if (!codec) {
    codec = approvalStateCodec(processKey());
    processKeys.set(options.runtime, codec);
  }
  return codec;
}

function checkOptions(options: CodemodeToolsOptions): {
  approvals: McpApprovals;
  limit: number;
} {
  if (typeof options?.runtime?.execute !== "function") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "codemode/mcp needs a runtime (from createCodemodeRuntime).",
    );
  }
  const approvals = options.approvals ?? "elicitation";
  if (!APPROVALS.includes(approvals)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `codemode/mcp: approvals must be ${APPROVALS.map((mode) => `"${mode}"`).join(", ")}, not ${JSON.stringify(String(approvals))}.` +
        (String(approvals) === "tools"
          ? ' The approval tools are now opt-in as "client-tools": the model driving the client can call them and approve its own calls.'
          : ""),
    );
  }
  const limit = options.maxReplyLength ?? MAX_REPLY_LENGTH;
  if (!Number.isInteger(limit) || limit < MIN_REPLY_LENGTH || limit > MAX_REPLY_LENGTH) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `codemode/mcp: maxReplyLength must be an integer from ${MIN_REPLY_LENGTH} to ${MAX_REPLY_LENGTH}, not ${limit}.`,
    );
  }
  return { approvals, limit };
}

/**
 * Registers Code Mode's tools onto an `McpServer` (from `@modelcontextprotocol/server`, SDK v2),
 * beside the tools the application registered itself: `codemode` runs code and answers with the
 * `CodeModeOutput`, `codemode_pending` lists the calls that wait, and with `approvals:
 * "client-tools"` `codemode_approve` and `codemode_reject` decide them. Replies are compact JSON of
 * at most `maxReplyLength` characters. Registering is cheap: a server per request (stateless
 * Streamable HTTP) or per session can share one runtime.
 *
 * The `codemode` tool's description names the connectors: await `runtime.ready()` first
 * (connectors that list asynchronously, MCP, have listed then), or the description is updated, and
 * `notifications/tools/list_changed` sent, once they have.
 */
export function registerCodemodeTools(
  server: McpServer,
  options: CodemodeToolsOptions,
): RegisteredCodemodeTools {
  if (typeof server?.registerTool !== "function") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "registerCodemodeTools needs an McpServer (from @modelcontextprotocol/server, MCP SDK v2); codeMcpServer makes one.",
    );
  }
  const { approvals, limit } = checkOptions(options);
  const { runtime } = options;
  /** the runs this session started: the only ones it lists and decides, unless runs are shared */
  const started = new Set<string>();
  const mine = (executionId: string) =>
    options.shareRunsAcrossSessions === true || started.has(executionId);
  const respond = (output: unknown, isError = false) => reply(output, limit, isError);
  const decides = approvals === "client-tools";
  /**
   * a paused output as the client gets it: for the host, with what to do; with client tools, with
   * the handle of the calls it shows (a reply too large to show them carries none)
   */
  const shown = (
    output: CodeModeOutput,
  ): CodeModeOutput & { message?: string; handle?: DecisionHandle } => {
    if (output.status !== "paused") return output;
    if (!decides) return { ...output, message: WAITING };
    const decided = approvable(output.pending);
    return decided.length > 0
      ? { ...output, handle: decisionHandleOf(decided, output.executionId) }
      : output;
  };
  /** the calls of the run that wait now, and their handle: what a refused decision is told */
  const waitingNow = async (executionId: string) => {
    const now = await runtime.pending(executionId);
    const decided = approvable(now);
    return {
      message: alreadyDecided(now, limit),
      pending: now,
      ...(decided.length > 0 ? { handle: decisionHandleOf(decided, executionId) } : {}),
    };
  };

  const codec = codecFor(options);
  const remember = (executionId: string) => {
    started.add(executionId);
    // the newest runs only: a session that runs code without end holds a bounded set
    if (started.size > MAX_SESSION_RUNS) started.delete(started.values().next().value as string);
  };

  const tasks: TasksContext | undefined = options.tasks
    ? {
        runtime,
        codec,
        limit,
        elicits: approvals === "elicitation",
        options: options.tasks === true ? {} : options.tasks,
        remember,
        now: Date.now,
      }
    : undefined;
  if (tasks) registerTaskMethods(server, tasks);

  const runtimeTool = runtime.tool();
  const initial = runtimeTool.description;
  const { outputSchema, ...withoutOutput } = codeTool;
  const codemode = server.registerTool(
    CODE_TOOL,
    { ...(tasks ? withoutOutput : { ...withoutOutput, outputSchema }), description: initial },
    (input, context) =>
      codemodeCall(
        {
          runtime,
          server,
          codec,
          limit,
          tasks,
          asks: approvals === "elicitation",
          remember,
          respond: (output) => respond(shown(output), output.status === "error"),
        },
        input.code,
        context,
      ),
  );
  // the description names the connectors once they have listed (at once when they had). It is set
  // here and the clients are told with a notification whose failure is heard: the SDK's `update()`
  // sends it with no handler, so a client gone meanwhile (its end of a stdio pipe closed: EPIPE)
  // ended the process with an unhandled rejection
  runtime.ready().then(
    () => {
      const current = runtimeTool.description;
      if (codemode.description === initial && current !== initial) {
        codemode.description = current;
        if (server.isConnected()) {
          server.server.sendToolListChanged().catch(() => {
            // the transport failed and closes: a client that comes back lists the tools anew
          });
        }
      }
    },
    () => {
      // a configuration that fails is reported by every codemode call
    },
  );

  const pending = server.registerTool(PENDING_TOOL, pendingTool, async ({ executionId }) => {
    const waiting =
      executionId === undefined || mine(executionId)
        ? (await runtime.pending(executionId)).filter((action) => mine(action.executionId))
        : [];
    return respond(
      decides ? { pending: waiting, handles: handlesOf(waiting) } : { pending: waiting },
    );
  });
  const tools: RegisteredCodemodeTools = { codemode, pending };
  if (approvals !== "client-tools") return tools;

  tools.approve = server.registerTool(
    APPROVE_TOOL,
    approveTool,
    async ({ executionId, handle }) => {
      if (!mine(executionId)) {
        return respond({ status: "error", executionId, error: notThisSessions(executionId) }, true);
      }
      const output = await runtime.approve({ executionId, handle });
      if (output.status === "error" && output.code === "DECISION_STALE") {
        const { message, ...now } = await waitingNow(executionId);
        return respond({ ...output, error: message, ...now }, true);
      }
      return respond(shown(output), output.status === "error");
    },
  );
  tools.reject = server.registerTool(
    REJECT_TOOL,
    rejectTool,
    async ({ executionId, seq, handle }) => {
      if (!mine(executionId)) {
        return respond({ rejected: false, message: notThisSessions(executionId) });
      }
      if (!handle.calls.some((call) => call.seq === seq)) {
        return respond({
          rejected: false,
          message: `Call #${seq} is not one of the calls this handle shows: a person rejects only a call they were shown.`,
        });
      }
      if (await runtime.reject({ executionId, seq, handle })) return respond({ rejected: true });
      return respond({ rejected: false, ...(await waitingNow(executionId)) });
    },
  );
  return tools;
}
