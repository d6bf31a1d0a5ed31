// The TanStack AI and MCP surfaces of the surface-integrity property (@codemode/conformance cannot
// depend on this package or on TanStack AI, so it takes them as adapters). Each only carries
// messages, with the real libraries: TanStack's own chat() with `codemodeTool`, `codemodeApprovals`
// and the `codemodeApproval` interrupt, made per request as a route makes it, and a scripted model
// (the tanstack-ai package's test adapter); the codemode MCP server (`registerCodemodeTools` on the
// SDK's McpServer), one per session, and the SDK's own Client over its in-memory transport.
import type {
  McpSurface,
  SurfaceAdapters,
  TanstackPayload,
  TanstackSurface,
  TanstackTurn,
} from "@codemode/conformance";
import { Client, InMemoryTransport, ProtocolError } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { chat, type Interrupt, type ModelMessage } from "@tanstack/ai";
import { collectRun, payloadOf, resumeItem } from "../../tanstack-ai/src/test/chat-run.ts";
import { ScriptedAdapter, type ScriptedTurn } from "../../tanstack-ai/src/test/scripted-adapter.ts";
import type { CodemodeRuntime } from "../src/index.ts";
import { registerCodemodeTools } from "../src/mcp.ts";
import {
  CODEMODE_DECISION_EVENT,
  codemodeApproval,
  codemodeApprovals,
  codemodeTool,
} from "../src/tanstack-ai.ts";

/** What a turn keeps to be continued: the client's history, the run's id, its raw interrupts. */
interface TurnState {
  messages: ModelMessage[];
  runId: string;
  interrupts: Interrupt[];
}

let chatRuns = 0;

/** One request to the chat route over `runtime`: the model's first turn is `first`, then text. */
async function request(
  runtime: CodemodeRuntime,
  first: ScriptedTurn,
  options: {
    messages: ModelMessage[];
    parentRunId?: string;
    resume?: ReturnType<typeof resumeItem>[];
  },
): Promise<TanstackTurn> {
  const runId = `chat-run-${++chatRuns}`;
  const adapter = new ScriptedAdapter([first, ...Array(6).fill({ text: "Done." })]);
  const run = await collectRun(
    chat({
      adapter,
      messages: options.messages,
      threadId: "thread",
      runId,
      ...(options.parentRunId ? { parentRunId: options.parentRunId } : {}),
      ...(options.resume ? { resume: options.resume } : {}),
      tools: [codemodeTool(runtime)],
      interrupts: [codemodeApproval],
      middleware: [codemodeApprovals(runtime)],
    }),
  );
  const error = run.chunks.find((chunk) => chunk.type === "RUN_ERROR") as
    | { message?: string }
    | undefined;
  if (error) throw new Error(`chat() ended with RUN_ERROR: ${error.message ?? "(no message)"}`);
  const state: TurnState = { messages: run.messages, runId, interrupts: run.interrupts };
  return {
    interrupts: run.interrupts.map((interrupt) => payloadOf(interrupt) as TanstackPayload),
    decisions: run.chunks.flatMap((chunk) =>
      chunk.type === "CUSTOM" && (chunk as { name?: string }).name === CODEMODE_DECISION_EVENT
        ? [(chunk as unknown as { value: TanstackTurn["decisions"][number] }).value]
        : [],
    ),
    state,
  };
}

export const tanstackSurface: TanstackSurface = {
  start: (runtime, toolCalls) =>
    request(
      runtime,
      { toolCalls: toolCalls.map(({ id, code }) => ({ id, name: "codemode", input: { code } })) },
      { messages: [{ role: "user", content: "Tidy the records, please." }] },
    ),
  resume: (runtime, turn, answers) => {
    const state = turn.state as TurnState;
    return request(
      runtime,
      { text: "Done." },
      {
        messages: state.messages,
        parentRunId: state.runId,
        resume: answers.map(({ interrupt, answer, payload }) => {
          const raw = state.interrupts[interrupt];
          if (!raw) throw new Error(`The turn has no interrupt #${interrupt}.`);
          return resumeItem(raw, answer, payload);
        }),
      },
    );
  },
  say: (runtime, turn, text) => {
    const state = turn.state as TurnState;
    return request(
      runtime,
      { text: "Done." },
      { messages: [...state.messages, { role: "user", content: text }] },
    );
  },
};

export const mcpSurface: McpSurface = {
  async connect(runtime, options) {
    const server = new McpServer({ name: "shop", version: "1.0.0" });
    registerCodemodeTools(server, {
      runtime,
      approvals: options.approvals,
      shareRunsAcrossSessions: options.shareRunsAcrossSessions,
    });
    const client = new Client(
      { name: "surface-client", version: "1.0.0" },
      options.elicitation ? { capabilities: { elicitation: { form: {} } } } : {},
    );
    if (options.elicitation) {
      client.setRequestHandler("elicitation/create", (question) =>
        options.ask(question.params.message),
      );
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    // the SDK drops a cancellation of request id 0: the server's first request is not a question
    await server.server.ping();
    // the client checks every reply against the output schema the tool lists
    await client.listTools();
    return {
      async callTool(name, args, signal) {
        let reply: Awaited<ReturnType<typeof client.callTool>>;
        try {
          reply = await client.callTool(
            { name, arguments: args },
            signal ? { signal: signal as AbortSignal } : undefined,
          );
        } catch (error) {
          // a tool the server does not serve (the approval tools without "client-tools") is a
          // protocol error in SDK v2: to the schedule, a refusal like any other
          if (error instanceof ProtocolError) return { isError: true };
          throw error;
        }
        return {
          ...(reply.structuredContent
            ? { structuredContent: reply.structuredContent as Record<string, unknown> }
            : {}),
          ...(reply.isError ? { isError: true } : {}),
        };
      },
      close: () => client.close(),
    };
  },
};

export const SURFACES: SurfaceAdapters = { tanstack: tanstackSurface, mcp: mcpSurface };
