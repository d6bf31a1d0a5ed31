// The tools codemode/mcp serves: names, titles, input and output schemas (Zod, as the MCP SDK's
// McpServer takes them) and annotations chosen for what each tool can do.
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
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
});

/** a `CodeModeOutput`, or the shorter reply that replaces one too large to send */
const runOutput = z.looseObject({
  status: z.enum(["completed", "paused", "error"]),
  executionId: z.string(),
  result: z.unknown().optional(),
  logs: z.array(z.string()).optional(),
  pending: z.array(pendingAction).optional(),
  error: z.string().optional(),
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
    "Approve every pending call of a paused run: the run resumes, replays what it did and runs the calls once.",
  inputSchema: z.object({ executionId }),
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
  description: "Reject a pending call of a paused run: the run ends without it.",
  inputSchema: z.object({
    executionId,
    seq: z
      .number({ error: "seq is the pending call's number, an integer." })
      .int()
      .nonnegative()
      .describe("The pending call's number."),
  }),
  outputSchema: z.object({ rejected: z.boolean() }),
  /** it ends the run for good, in the journal only; rejecting it again changes nothing */
  annotations: {
    title: "Reject a paused run",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  } satisfies ToolAnnotations,
};
