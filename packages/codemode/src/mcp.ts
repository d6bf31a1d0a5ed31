// codemode/mcp: a durable runtime served to any MCP client: the `codemode` tool, and approvals as
// tools or, when the client supports it, as elicitation.
import type { CodeModeOutput, CodemodeRuntime, PendingAction } from "@codemode/core";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";

export interface CodeMcpServerOptions {
  runtime: CodemodeRuntime;
  /** the server's name in `initialize`; default "codemode" */
  name?: string;
  version?: string;
  /**
   * How a person approves a paused run. "tools" (default): `codemode_pending`, `codemode_approve` and
   * `codemode_reject` tools. "elicitation": the server asks the client's user about each pending call
   * while the `codemode` call is open (clients without elicitation get the tools instead).
   */
  approvals?: "tools" | "elicitation";
}

const CODE_TOOL = "codemode";
const PENDING_TOOL = "codemode_pending";
const APPROVE_TOOL = "codemode_approve";
const REJECT_TOOL = "codemode_reject";

/** JSON for a model: Map and Set as objects and arrays, bigint as a string, bytes by size. */
function toText(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, item: unknown) => {
      if (typeof item === "bigint") return item.toString();
      if (item instanceof Map) return Object.fromEntries(item);
      if (item instanceof Set) return [...item];
      if (item instanceof Uint8Array) return `<${item.byteLength} bytes>`;
      return item;
    },
    2,
  );
}

function structured(value: unknown): Record<string, unknown> {
  return JSON.parse(toText(value)) as Record<string, unknown>;
}

function result(output: unknown, isError = false): CallToolResult {
  return {
    content: [{ type: "text", text: toText(output) }],
    structuredContent: structured(output),
    ...(isError ? { isError: true } : {}),
  };
}

function describePending(action: PendingAction): string {
  return `Call #${action.seq}: ${action.connector}.${action.method}(${toText(action.args)})`;
}

const executionIdSchema = {
  type: "string",
  description: "The executionId of the paused run (from the codemode tool's output).",
};

/**
 * An MCP `Server` (the SDK's low-level server; connect it to any transport) that serves a durable
 * runtime: the `codemode` tool runs code and answers with the `CodeModeOutput`; a paused run is
 * approved or rejected through tools, or through elicitation when asked for and supported.
 */
export function codeMcpServer(options: CodeMcpServerOptions): Server {
  const { runtime } = options;
  const server = new Server(
    { name: options.name ?? "codemode", version: options.version ?? "0.0.0" },
    { capabilities: { tools: {} } },
  );
  const elicit = () =>
    options.approvals === "elicitation" &&
    server.getClientCapabilities()?.elicitation !== undefined;

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
    ];
    if (elicit()) return list;
    list.push(
      {
        name: PENDING_TOOL,
        description: "List the calls of paused runs that wait for a person's approval.",
        inputSchema: {
          type: "object",
          properties: { executionId: { ...executionIdSchema, description: "Only this run." } },
        },
        annotations: { readOnlyHint: true },
      },
      {
        name: APPROVE_TOOL,
        description:
          "Approve the pending call of a paused run: the run resumes, replays what it did and runs the call once.",
        inputSchema: {
          type: "object",
          properties: { executionId: executionIdSchema },
          required: ["executionId"],
        },
        annotations: { destructiveHint: true },
      },
      {
        name: REJECT_TOOL,
        description: "Reject the pending call of a paused run: the run ends without it.",
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

  /** Asks the client's user about each pending call until the run is no longer paused. */
  const settleByElicitation = async (first: CodeModeOutput): Promise<CodeModeOutput> => {
    let output = first;
    while (output.status === "paused") {
      const [action] = output.pending;
      if (!action) break;
      const answer = await server.elicitInput({
        message: `The code wants to run ${describePending(action)}. Approve it?`,
        requestedSchema: {
          type: "object",
          properties: {
            approve: { type: "boolean", title: "Approve", description: "Run this call." },
          },
          required: ["approve"],
        },
      });
      if (answer.action === "accept" && answer.content?.approve === true) {
        output = await runtime.approve({ executionId: output.executionId });
      } else {
        await runtime.reject({ executionId: output.executionId, seq: action.seq });
        return {
          status: "error",
          executionId: output.executionId,
          error: `The person did not approve ${describePending(action)}; the run ended without it.`,
        };
      }
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
          return result({ error: "The codemode tool needs { code: string }." }, true);
        }
        let output = await runtime.execute({ code: input.code });
        if (output.status === "paused" && elicit()) output = await settleByElicitation(output);
        return result(output, output.status === "error");
      }
      case PENDING_TOOL: {
        const executionId = typeof input.executionId === "string" ? input.executionId : undefined;
        return result({ pending: await runtime.pending(executionId) });
      }
      case APPROVE_TOOL: {
        if (typeof input.executionId !== "string") {
          return result({ error: "codemode_approve needs { executionId }." }, true);
        }
        const output = await runtime.approve({ executionId: input.executionId });
        return result(output, output.status === "error");
      }
      case REJECT_TOOL: {
        if (typeof input.executionId !== "string" || typeof input.seq !== "number") {
          return result({ error: "codemode_reject needs { executionId, seq }." }, true);
        }
        const rejected = await runtime.reject({ executionId: input.executionId, seq: input.seq });
        return result({ rejected });
      }
      default:
        return result({ error: `No tool named "${request.params.name}".` }, true);
    }
  });
  return server;
}
