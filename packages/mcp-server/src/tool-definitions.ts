// The tools @codemode/mcp-server serves: names, titles, input and output schemas (Zod, as the MCP SDK's
// McpServer takes them) and annotations chosen for what each tool can do.
import { MAX_HANDLE_CALLS } from "@codemode/core";
import type { ToolAnnotations } from "@modelcontextprotocol/server";
import { z } from "zod/v4";

export const CODE_TOOL = "codemode";
export const PENDING_TOOL = "codemode_pending";
export const APPROVE_TOOL = "codemode_approve";
export const REJECT_TOOL = "codemode_reject";

/** the longest executionId a tool takes (the runtime's ids have about 40 characters) */
export const MAX_EXECUTION_ID_LENGTH = 200;

const executionId = z
  .string({ error: "executionId is the run's id, a string, from the codemode tool's output." })
  .max(MAX_EXECUTION_ID_LENGTH)
  .describe("The executionId of the paused run (from the codemode tool's output).");

const pendingAction = z.looseObject({
  executionId: z.string().optional(),
  seq: z.number(),
  connector: z.string(),
  method: z.string(),
  args: z.unknown().optional(),
  digest: z.string().optional(),
  /** where the call goes, when its method names an operation: show it with the call */
  operation: z.string().optional(),
  /** why the call may already have run: approving runs it again under the same idempotency key */
  inDoubt: z.string().optional(),
  /** the call waits for a result from outside (`runtime.resolve`), not for a person */
  deferred: z.literal(true).optional(),
});

/** what a person was shown of a paused run's calls: a decision carries it back */
const decisionHandle = z.object({
  version: z.literal(1),
  executionId: z.string().max(MAX_EXECUTION_ID_LENGTH),
  calls: z
    .array(
      z.object({
        seq: z.number().int().nonnegative(),
        digest: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .min(1)
    .max(MAX_HANDLE_CALLS),
});

const shownHandle = decisionHandle.describe(
  "The handle of the calls a person was shown, exactly as the reply that showed them gave it (codemode, codemode_pending or codemode_approve). The decision covers those calls only, once: if they no longer wait as shown, nothing is decided and the reply says what waits now.",
);

/** a `CodeModeOutput`, or the shorter reply that replaces one too large to send */
const runOutput = z.looseObject({
  status: z.enum(["completed", "paused", "error"]),
  executionId: z.string(),
  result: z.unknown().optional(),
  logs: z.array(z.string()).optional(),
  pending: z.array(pendingAction).optional(),
  /** with `approvals: "client-tools"`, what approves or rejects the waiting calls shown */
  handle: decisionHandle.optional(),
  error: z.string().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
});

export const codeTool = {
  title: "Run code",
  inputSchema: z.object({
    code: z
      .string({
        error: "The codemode tool takes { code: string }: one async JavaScript arrow function.",
      })
      .describe("One async JavaScript arrow function to run."),
  }),
  outputSchema: runOutput,
  /** it runs whatever connector calls the code makes: anything they can do, again on every call */
  annotations: {
    title: "Run code",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  } satisfies ToolAnnotations,
};

export const pendingTool = {
  title: "Pending approvals",
  description: "List the calls of paused runs that wait for a person's approval.",
  inputSchema: z.object({ executionId: executionId.describe("Only this run.").optional() }),
  outputSchema: z.looseObject({
    pending: z.array(pendingAction).optional(),
    /** with `approvals: "client-tools"`, one per run: what approves or rejects its calls shown */
    handles: z.array(decisionHandle).optional(),
    message: z.string().optional(),
  }),
  /** it reads the journal */
  annotations: {
    title: "Pending approvals",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  } satisfies ToolAnnotations,
};

export const approveTool = {
  title: "Approve a paused run",
  description:
    "Approve the pending calls of a paused run that a person was shown, by the handle the reply showing them gave: the run resumes, replays what it did and runs them once. Calls that no longer wait as shown are not approved.",
  inputSchema: z.object({ executionId, handle: shownHandle }),
  outputSchema: runOutput,
  /** the approved calls run, and the code after them until it ends or pauses again */
  annotations: {
    title: "Approve a paused run",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  } satisfies ToolAnnotations,
};

export const rejectTool = {
  title: "Reject a paused run",
  description:
    "Reject a pending call of a paused run that a person was shown, by the handle the reply showing it gave: the run ends without it or any other call it waits for.",
  inputSchema: z.object({
    executionId,
    handle: shownHandle,
    seq: z
      .number({ error: "seq is the pending call's number, an integer." })
      .int()
      .nonnegative()
      .describe("The pending call's number."),
  }),
  outputSchema: z.looseObject({
    rejected: z.boolean(),
    message: z.string().optional(),
    pending: z.array(pendingAction).optional(),
    handle: decisionHandle.optional(),
  }),
  /** it ends the run for good, in the journal only; rejecting it again changes nothing */
  annotations: {
    title: "Reject a paused run",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  } satisfies ToolAnnotations,
};
