// The surfaces the surface-integrity suite reaches through adapters, because this package may not
// depend on them (the `codemode` package depends on this one): a TanStack AI chat route with
// `codemodeTool` and `codemodeApprovals`, and MCP sessions of the codemode MCP server with a real MCP
// client. Each adapter only carries messages: it makes the route's `chat()` call or the session's
// `tools/call` and hands back what the client received; which messages to send, what the person was
// shown and what must follow is decided here, in the suite (`surface-tanstack.ts`, `surface-mcp.ts`).
import type { AbortSignalLike, CodemodeRuntime } from "@codemode/core";

/** One call an interrupt shows, as `codemodeApproval`'s payload carries it. */
export interface TanstackShownCall {
  seq: number;
  connector: string;
  method: string;
  /** the input as plain JSON */
  input: unknown;
  digest: string;
}

/** A `codemodeApproval` interrupt's payload: what the client shows the person. */
export interface TanstackPayload {
  executionId: string;
  toolCallId: string;
  calls: TanstackShownCall[];
}

/** What one TanStack chat request (an AG-UI run) ended with, as the client receives it. */
export interface TanstackTurn {
  /** the payload of each interrupt the run ended with, in order */
  interrupts: TanstackPayload[];
  /** the `codemode:decision` custom events it emitted */
  decisions: Array<{ toolCallId: string; executionId: string; decision: string }>;
  /** what the adapter needs to continue it: the messages snapshot, the run id, the interrupts */
  readonly state: unknown;
}

/** An answer to one interrupt of a turn: its index, and what the client sends back. */
export interface TanstackAnswer {
  interrupt: number;
  answer: { approved: boolean } | "cancel";
  /** the payload the client sends back, when it is not the one the server sent */
  payload?: TanstackPayload;
}

/**
 * A TanStack AI chat route over a runtime (`chat()` with `codemodeTool(runtime)`,
 * `codemodeApprovals(runtime)` and the `codemodeApproval` interrupt, made per request as a route
 * makes it), and a scripted model: its first turn makes the tool calls asked for, every later turn
 * only answers in text.
 */
export interface TanstackSurface {
  /** A new chat request: the model's turn calls the `codemode` tool with `code` under each id. */
  start(
    runtime: CodemodeRuntime,
    toolCalls: ReadonlyArray<{ id: string; code: string }>,
  ): Promise<TanstackTurn>;
  /** The continuation of `turn` (its history, `parentRunId`) with `resume` answering its interrupts. */
  resume(
    runtime: CodemodeRuntime,
    turn: TanstackTurn,
    answers: readonly TanstackAnswer[],
  ): Promise<TanstackTurn>;
  /** A later request with `turn`'s history and a new user message, and no `resume`. */
  say(runtime: CodemodeRuntime, turn: TanstackTurn, text: string): Promise<TanstackTurn>;
}

/** What the person behind an MCP client answers to one form elicitation. */
export type McpElicitResult =
  | { action: "accept"; content: { approve: boolean } }
  | { action: "decline" }
  | { action: "cancel" };

export interface McpSessionOptions {
  approvals: "elicitation" | "client-tools";
  shareRunsAcrossSessions: boolean;
  /** whether the client declares form elicitation at `initialize` */
  elicitation: boolean;
  /** The client's handler of the server's `elicitation/create`, given its message; a throw answers with an error. */
  ask: (message: string) => Promise<McpElicitResult>;
}

/** A tool's reply as the MCP client received it. */
export interface McpReply {
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** One MCP session: its client's side. */
export interface McpClientSession {
  /** `tools/call`; `signal` cancels the request (the client sends `notifications/cancelled`) */
  callTool(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignalLike,
  ): Promise<McpReply>;
  close(): Promise<void>;
}

/**
 * MCP sessions of the codemode MCP server: a new server with `registerCodemodeTools` over
 * `runtime` with these options, connected to a new MCP client (the SDK's `Client`) over a transport.
 */
export interface McpSurface {
  connect(runtime: CodemodeRuntime, options: McpSessionOptions): Promise<McpClientSession>;
}

/** The surfaces a suite can reach besides the AI SDK binding and the host API. */
export interface SurfaceAdapters {
  tanstack?: TanstackSurface;
  mcp?: McpSurface;
}
