// The MCP Tasks extension (`io.modelcontextprotocol/tasks`, protocol 2026-07-28) for Code Mode: a
// `codemode` call of a client that declared the extension may answer with a task handle; the task is
// the run, read from the journal on every `tasks/get`, so any instance over the shared journal (with
// the same `approvalStateKey`) answers for it. A paused run's task is `input_required` with one
// question per waiting call; `tasks/update` decides them as the person answered; `tasks/cancel`
// cancels the run.
import type {
  CodeModeOutput,
  CodemodeRuntime,
  PendingAction,
  RuntimeExecution,
} from "@codemode/core";
import { decisionHandleOf } from "@codemode/core";
import {
  type InputRequest,
  type InputResponses,
  type McpServer,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod/v4";
import { approvable, questionsFor, verdictOf } from "./approval-round.ts";
import type { ApprovalStateCodec } from "./approval-state.ts";
import { canElicit, declaresTasks, TASKS_EXTENSION } from "./client-capabilities.ts";
import { reply } from "./reply.ts";

/** the prefix of a Code Mode task id (sealed: the run, the caller, the expiry) */
export const TASK_ID_PREFIX = "codemode-task.1.";

export interface CodemodeTasksOptions {
  /**
   * A run still going this long after the `codemode` call began is answered as a task; one that
   * ended sooner is answered at once. Default 0: every run of a client that declared the extension
   * that has not ended by the time it is recorded.
   */
  afterMs?: number;
  /** how long a task can be read after it was created (default and most: 24 hours) */
  ttlMs?: number;
  /** how often a client should poll `tasks/get` (default 1,000 ms) */
  pollIntervalMs?: number;
  /**
   * Keeps the run going after the reply (a Worker's `ctx.waitUntil`); by default its promise runs
   * on in the process.
   */
  background?: (work: Promise<unknown>) => void;
}

/** a task's id, opened: whose run it is */
interface TaskRef {
  executionId: string;
  principal?: string;
  /**
   * the server that made the task asks its client's person (approvals: "elicitation"): only then
   * does the task take answers, and only on a server that asks too
   */
  asks: boolean;
  createdAt: number;
  expires: number;
}

const MAX_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_TASK_ID_LENGTH = 4_000;

const WAITING_FOR_HOST =
  "The run waits for a person to approve or reject calls outside this conversation; the application resumes it.";

/** what the tasks methods of one server share */
export interface TasksContext {
  runtime: CodemodeRuntime;
  codec: ApprovalStateCodec;
  limit: number;
  /** the person behind the client answers the questions of a paused run (approvals: "elicitation") */
  elicits: boolean;
  options: CodemodeTasksOptions;
  /** a run this server started or decided, for the session's own bookkeeping */
  remember(executionId: string): void;
  now(): number;
}

const ttlOf = (options: CodemodeTasksOptions) =>
  Math.min(Math.max(options.ttlMs ?? MAX_TTL_MS, 1_000), MAX_TTL_MS);
const pollOf = (options: CodemodeTasksOptions) => Math.max(options.pollIntervalMs ?? 1_000, 100);

/** a run going on after the reply: its failure is the run's, recorded in the journal */
function inBackground(tasks: TasksContext, work: Promise<unknown>): void {
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  tasks.options.background?.(settled);
}

/**
 * Starts the run of a `codemode` call as a task: the output when it ended within `afterMs`, or the
 * `CreateTaskResult` once the run is recorded.
 */
export async function startTask(
  tasks: TasksContext,
  code: string,
  principal: string | undefined,
): Promise<{ output: CodeModeOutput } | { task: Record<string, unknown> }> {
  const { executionId, outcome } = await tasks.runtime.start({ code });
  if (!executionId) return { output: await outcome };
  tasks.remember(executionId);
  const ended = await settledWithin(outcome, tasks.options.afterMs ?? 0);
  if (ended) return { output: ended };
  inBackground(tasks, outcome);
  const now = tasks.now();
  const ttlMs = ttlOf(tasks.options);
  const ref: TaskRef = {
    executionId,
    ...(principal === undefined ? {} : { principal }),
    asks: tasks.elicits,
    createdAt: now,
    expires: now + ttlMs,
  };
  const taskId = await tasks.codec.sealValue(TASK_ID_PREFIX, ref);
  return {
    task: {
      resultType: "task",
      taskId,
      status: "working",
      statusMessage: "The code is running.",
      createdAt: new Date(now).toISOString(),
      lastUpdatedAt: new Date(now).toISOString(),
      ttlMs,
      pollIntervalMs: pollOf(tasks.options),
    },
  };
}

/** the outcome if it settles within `ms` (at once for 0: only one already settled) */
async function settledWithin(
  outcome: Promise<CodeModeOutput>,
  ms: number,
): Promise<CodeModeOutput | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    if (ms <= 0) queueMicrotask(() => resolve(undefined));
    else timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([outcome, late]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

const notFound = () => new ProtocolError(ProtocolErrorCode.InvalidParams, "Task not found.");

/** The run a task id names, for this caller, or a "not found" error (another caller's alike). */
async function openTask(
  tasks: TasksContext,
  taskId: string,
  context: ServerContext,
): Promise<{ ref: TaskRef; run: RuntimeExecution }> {
  const opened = (await tasks.codec.openValue(TASK_ID_PREFIX, taskId)) as
    | Partial<TaskRef>
    | undefined;
  if (
    typeof opened?.executionId !== "string" ||
    typeof opened.asks !== "boolean" ||
    typeof opened.expires !== "number" ||
    typeof opened.createdAt !== "number" ||
    opened.expires <= tasks.now() ||
    opened.principal !== context.http?.authInfo?.clientId
  ) {
    throw notFound();
  }
  const run = await tasks.runtime.execution(opened.executionId);
  if (!run) throw notFound();
  return { ref: opened as TaskRef, run };
}

/**
 * Whether the task takes its client's answers here: this server asks (approvals: "elicitation"), and
 * so did the one that made it (one runtime may be served in several modes, with one key)
 */
const asks = (tasks: TasksContext, ref: TaskRef) => tasks.elicits && ref.asks;

/** the `CodeModeOutput` a run that ended gave its caller */
function outputOf(run: RuntimeExecution): CodeModeOutput {
  const { id: executionId } = run;
  switch (run.status) {
    case "completed":
      return {
        status: "completed",
        executionId,
        result: run.result,
        ...(run.logs ? { logs: run.logs } : {}),
      };
    case "rolled_back":
      return { status: "error", executionId, error: "The run was rolled back after it ended." };
    default:
      return { status: "error", executionId, error: run.error ?? `The run ended ${run.status}.` };
  }
}

/** A task as `tasks/get` shows it: the run's state now. */
async function detailedTask(
  tasks: TasksContext,
  taskId: string,
  ref: TaskRef,
  run: RuntimeExecution,
  context: ServerContext,
): Promise<Record<string, unknown>> {
  const base = {
    taskId,
    createdAt: new Date(ref.createdAt).toISOString(),
    lastUpdatedAt: new Date(Math.max(run.updatedAt, ref.createdAt)).toISOString(),
    ttlMs: Math.max(ref.expires - ref.createdAt, 0),
    pollIntervalMs: pollOf(tasks.options),
  };
  switch (run.status) {
    case "running":
      return { ...base, status: "working", statusMessage: "The code is running." };
    case "paused": {
      const pending = approvable(await tasks.runtime.pending(run.id));
      const questions = asks(tasks, ref) ? shownQuestions(tasks, pending, context) : undefined;
      if (!questions) return { ...base, status: "working", statusMessage: WAITING_FOR_HOST };
      return {
        ...base,
        status: "input_required",
        statusMessage: "The code waits for a person to approve its calls.",
        inputRequests: questions,
      };
    }
    case "cancelled":
      return { ...base, status: "cancelled", statusMessage: run.error ?? "The run was cancelled." };
    default: {
      const output = outputOf(run);
      const result = reply(output, tasks.limit, output.status === "error");
      return { ...base, status: "completed", result };
    }
  }
}

/**
 * The questions a client is asked about a paused run's calls: none when nothing waits for a person,
 * when this request's client cannot show a form, or when they do not fit the reply (the host
 * decides those). `tasks/get` shows them and `tasks/update` decides only when they exist.
 */
function shownQuestions(
  tasks: TasksContext,
  pending: readonly PendingAction[],
  context: ServerContext,
): Record<string, InputRequest> | undefined {
  if (pending.length === 0 || !canElicit(undefined, context)) return undefined;
  return questionsFor(pending, tasks.limit);
}

function requireTasks(context: ServerContext): void {
  if (!declaresTasks(context)) {
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      "Missing required client capability: the io.modelcontextprotocol/tasks extension.",
    );
  }
}

const taskIdSchema = z.string().max(MAX_TASK_ID_LENGTH);

/** Serves `tasks/get`, `tasks/update` and `tasks/cancel` on `server`, and declares the extension. */
export function registerTaskMethods(server: McpServer, tasks: TasksContext): void {
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  server.server.setRequestHandler(
    "tasks/get",
    { params: z.looseObject({ taskId: taskIdSchema }) },
    async ({ taskId }, context) => {
      requireTasks(context);
      const { ref, run } = await openTask(tasks, taskId, context);
      return (await detailedTask(tasks, taskId, ref, run, context)) as never;
    },
  );
  server.server.setRequestHandler(
    "tasks/update",
    {
      params: z.looseObject({
        taskId: taskIdSchema,
        inputResponses: z.record(z.string().max(200), z.unknown()).optional(),
      }),
    },
    async ({ taskId, inputResponses }, context) => {
      requireTasks(context);
      const { ref, run } = await openTask(tasks, taskId, context);
      if (asks(tasks, ref) && run.status === "paused") {
        // the SDK lifts `inputResponses` out of the params of a 2026-07-28 request
        const responses = context.mcpReq.inputResponses ?? inputResponses;
        await decideTask(tasks, run.id, responses as InputResponses | undefined, context);
      }
      return {} as never;
    },
  );
  server.server.setRequestHandler(
    "tasks/cancel",
    { params: z.looseObject({ taskId: taskIdSchema }) },
    async ({ taskId }, context) => {
      requireTasks(context);
      const { run } = await openTask(tasks, taskId, context);
      await tasks.runtime.cancel({
        executionId: run.id,
        by: "an MCP client (tasks/cancel)",
        reason: "The client cancelled the task.",
      });
      return {} as never;
    },
  );
}

/**
 * A `tasks/update` of a paused run: every waiting call approved (each answer keyed by the call's seq
 * and digest, as `tasks/get` asked) approves them with their handle, and the resumed run goes on in
 * the background; a call not approved rejects the run; an answer missing decides nothing yet. Only
 * calls `tasks/get` would ask about are decided: answers to questions it would not show (too large
 * for the reply, or a client that declared no form) decide nothing, the run waits for the host.
 */
async function decideTask(
  tasks: TasksContext,
  executionId: string,
  responses: InputResponses | undefined,
  context: ServerContext,
): Promise<void> {
  const { runtime } = tasks;
  const pending = approvable(await runtime.pending(executionId));
  if (!shownQuestions(tasks, pending, context)) return;
  const handle = decisionHandleOf(pending, executionId);
  const verdict = verdictOf(pending, responses);
  if (typeof verdict === "object") {
    await runtime.reject({ executionId, seq: verdict.declined, handle });
  } else if (verdict === "approved") {
    inBackground(tasks, runtime.approve({ executionId, handle }));
  }
}
