// codemode/mcp: a durable runtime served to any MCP client: the `codemode` tool, approvals asked of
// the client's user through elicitation or left to the host application, and replies bounded.
import type { CodeModeOutput, CodemodeRuntime, PendingAction } from "@codemode/core";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { boundedJson } from "./bounded-json.ts";

/**
 * The most characters of JSON text one reply carries (about 25,000 tokens, what MCP clients commonly
 * accept from a tool). A longer reply is replaced by one that says so and what to do.
 */
export const MAX_REPLY_LENGTH = 100_000;
/** the smallest `maxReplyLength` a host may set: room for the too-large message itself */
const MIN_REPLY_LENGTH = 1_000;
/** `structuredContent` is sent only for values nested at most this deep (transports serialize it recursively) */
const MAX_STRUCTURED_DEPTH = 100;
/** how much of an oversized error message a reply keeps */
const ERROR_PREVIEW = 2_000;

/** Who approves a paused run's calls; see `CodeMcpServerOptions.approvals`. */
export type McpApprovals = "elicitation" | "host" | "client-tools";

export interface CodeMcpServerOptions {
  runtime: CodemodeRuntime;
  /** the server's name in `initialize`; default "codemode" */
  name?: string;
  version?: string;
  /**
   * Who approves the calls of a paused run. No default lets the MCP client approve: the model that
   * writes the code usually drives that client.
   *
   * - `"elicitation"` (default): while the `codemode` call is open, the server asks the client's user
   *   about every pending call, one question per call with its exact input, before any of them runs;
   *   they run once all are approved, and a decline of any one rejects the run. When the client has
   *   no elicitation, a question fails, or an input is too large to show, the run is returned as
   *   paused, for the host application to approve or reject out of band (`runtime.approve`,
   *   `runtime.reject`).
   * - `"host"`: never ask through the client; a paused run is returned as paused for the host
   *   application to approve or reject out of band.
   * - `"client-tools"`: also serve `codemode_approve` and `codemode_reject`. The model driving the
   *   client can call them and so approve its own calls: only for clients where a person, not the
   *   model, calls these tools.
   *
   * `codemode_pending` (read-only) lists the waiting calls in every mode.
   */
  approvals?: McpApprovals;
  /**
   * The most characters of JSON text a reply carries, from 1,000 to `MAX_REPLY_LENGTH` (the
   * default). `structuredContent`, when sent, is the same value.
   */
  maxReplyLength?: number;
}

const CODE_TOOL = "codemode";
const PENDING_TOOL = "codemode_pending";
const APPROVE_TOOL = "codemode_approve";
const REJECT_TOOL = "codemode_reject";
const APPROVALS: readonly McpApprovals[] = ["elicitation", "host", "client-tools"];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function preview(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}…`;
}

/**
 * What a reply says when the full one would be too large: the run's status and id, and what to do,
 * without the oversized part.
 */
function tooLarge(output: unknown, limit: number): Record<string, unknown> {
  const over = `more than ${limit} characters as JSON, the limit of this server's replies`;
  if (!isRecord(output)) return { error: `The reply is too large (${over}).` };
  const { status, executionId } = output;
  const run = typeof executionId === "string" ? { executionId } : {};
  if (status === "completed") {
    return {
      status,
      ...run,
      message: `The run completed, but its result is too large to return (${over}). Its calls ran and are recorded: do not run the code again for its effects. To see the data, run code that returns only what you need: selected fields, a count, a slice or a summary.`,
    };
  }
  if (status === "paused" && Array.isArray(output.pending)) {
    return {
      status,
      ...run,
      pending: (output.pending as PendingAction[]).map(({ seq, connector, method }) => ({
        seq,
        connector,
        method,
      })),
      message: `The run is paused; the inputs of its waiting calls are too large to show (${over}).`,
    };
  }
  if (status === "error") {
    const error = typeof output.error === "string" ? output.error : "The run failed.";
    return {
      status,
      ...run,
      error: `${preview(error, ERROR_PREVIEW)} (The full reply is too large: ${over}.)`,
    };
  }
  if (Array.isArray(output.pending)) {
    return {
      pending: (output.pending as PendingAction[]).map(
        ({ executionId: id, seq, connector, method }) => ({
          executionId: id,
          seq,
          connector,
          method,
        }),
      ),
      message: `The inputs of the waiting calls are too large to show (${over}).`,
    };
  }
  return { error: `The reply is too large (${over}).` };
}

function reply(output: unknown, limit: number, isError = false): CallToolResult {
  let encoded = boundedJson(output, limit);
  if (!encoded) {
    encoded =
      boundedJson(tooLarge(output, limit), limit) ??
      boundedJson({ error: "The reply is too large for this server's replies." }, limit);
  }
  const { text, depth } = encoded as { text: string; depth: number };
  const structured = depth <= MAX_STRUCTURED_DEPTH ? (JSON.parse(text) as unknown) : undefined;
  return {
    content: [{ type: "text", text }],
    ...(isRecord(structured) ? { structuredContent: structured } : {}),
    ...(isError ? { isError: true } : {}),
  };
}

const executionIdSchema = {
  type: "string",
  description: "The executionId of the paused run (from the codemode tool's output).",
};

/**
 * An MCP `Server` (the SDK's low-level server; connect it to any transport) that serves a durable
 * runtime: the `codemode` tool runs code and answers with the `CodeModeOutput`, as compact JSON of
 * at most `maxReplyLength` characters. Who approves a paused run is `approvals`: the client's user
 * through elicitation (default), the host application out of band, or, when the host opts in by
 * name, tools the client calls.
 */
export function codeMcpServer(options: CodeMcpServerOptions): Server {
  const { runtime } = options;
  const approvals = options.approvals ?? "elicitation";
  if (!APPROVALS.includes(approvals)) {
    throw new TypeError(
      `codeMcpServer: approvals must be ${APPROVALS.map((mode) => `"${mode}"`).join(", ")}, not ${JSON.stringify(String(approvals))}.` +
        (String(approvals) === "tools"
          ? ' The approval tools are now opt-in as "client-tools": the model driving the client can call them and approve its own calls.'
          : ""),
    );
  }
  const limit = options.maxReplyLength ?? MAX_REPLY_LENGTH;
  if (!Number.isInteger(limit) || limit < MIN_REPLY_LENGTH || limit > MAX_REPLY_LENGTH) {
    throw new TypeError(
      `codeMcpServer: maxReplyLength must be an integer from ${MIN_REPLY_LENGTH} to ${MAX_REPLY_LENGTH}, not ${limit}.`,
    );
  }
  const server = new Server(
    { name: options.name ?? "codemode", version: options.version ?? "0.0.0" },
    { capabilities: { tools: {} } },
  );
  const elicit = () =>
    approvals === "elicitation" && server.getClientCapabilities()?.elicitation !== undefined;
  const respond = (output: unknown, isError = false) => reply(output, limit, isError);

  /** `connector.method(input)` with the exact input, or undefined when it cannot be shown whole */
  const describeCall = (action: PendingAction): string | undefined => {
    const input = boundedJson(action.args, limit);
    return input && `${action.connector}.${action.method}(${input.text})`;
  };
  const waiting = (output: CodeModeOutput): CodeModeOutput & { message?: string } =>
    output.status === "paused" && approvals !== "client-tools"
      ? {
          ...output,
          message:
            "The run waits for a person to approve or reject these calls outside this conversation; the application resumes it. Do not run the code again. codemode_pending lists what waits.",
        }
      : output;

  const tools = (): Tool[] => {
    const codeTool = runtime.tool();
    const list: Tool[] = [
      {
        name: CODE_TOOL,
        description: codeTool.description,
        inputSchema: codeTool.inputSchema["~standard"].jsonSchema.input({
          target: "draft-2020-12",
        }) as Tool["inputSchema"],
      },
      {
        name: PENDING_TOOL,
        description: "List the calls of paused runs that wait for a person's approval.",
        inputSchema: {
          type: "object",
          properties: { executionId: { ...executionIdSchema, description: "Only this run." } },
        },
        annotations: { readOnlyHint: true },
      },
    ];
    if (approvals !== "client-tools") return list;
    list.push(
      {
        name: APPROVE_TOOL,
        description:
          "Approve every pending call of a paused run: the run resumes, replays what it did and runs the calls once.",
        inputSchema: {
          type: "object",
          properties: { executionId: executionIdSchema },
          required: ["executionId"],
        },
        annotations: { destructiveHint: true },
      },
      {
        name: REJECT_TOOL,
        description: "Reject a pending call of a paused run: the run ends without it.",
        inputSchema: {
          type: "object",
          properties: {
            executionId: executionIdSchema,
            seq: { type: "integer", description: "The pending call's number." },
          },
          required: ["executionId", "seq"],
        },
      },
    );
    return list;
  };

  /**
   * Asks the client's user about every pending call of the pass, each with its exact input, and
   * approves only when all were approved and the run still waits for exactly those calls; a decline
   * rejects the run with that call. Repeats while a resumed pass pauses again.
   */
  const settleByElicitation = async (first: CodeModeOutput): Promise<CodeModeOutput> => {
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
          const answer = await server.elicitInput({
            message,
            requestedSchema: {
              type: "object",
              properties: {
                approve: { type: "boolean", title: "Approve", description: "Run this call." },
              },
              required: ["approve"],
            },
          });
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
      output = await runtime.approve({ executionId });
    }
    return output;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    await runtime.ready();
    return { tools: tools() };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const input = (request.params.arguments ?? {}) as Record<string, unknown>;
    switch (request.params.name) {
      case CODE_TOOL: {
        if (typeof input.code !== "string") {
          return respond({ error: "The codemode tool needs { code: string }." }, true);
        }
        let output = await runtime.execute({ code: input.code });
        if (output.status === "paused" && elicit()) output = await settleByElicitation(output);
        return respond(waiting(output), output.status === "error");
      }
      case PENDING_TOOL: {
        const executionId = typeof input.executionId === "string" ? input.executionId : undefined;
        return respond({ pending: await runtime.pending(executionId) });
      }
      case APPROVE_TOOL: {
        if (approvals !== "client-tools") break;
        if (typeof input.executionId !== "string") {
          return respond({ error: "codemode_approve needs { executionId }." }, true);
        }
        const output = await runtime.approve({ executionId: input.executionId });
        return respond(output, output.status === "error");
      }
      case REJECT_TOOL: {
        if (approvals !== "client-tools") break;
        if (typeof input.executionId !== "string" || typeof input.seq !== "number") {
          return respond({ error: "codemode_reject needs { executionId, seq }." }, true);
        }
        const rejected = await runtime.reject({ executionId: input.executionId, seq: input.seq });
        return respond({ rejected });
      }
    }
    return respond(
      { error: `No tool named ${JSON.stringify(preview(String(request.params.name), 100))}.` },
      true,
    );
  });
  return server;
}
