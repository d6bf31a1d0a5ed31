import type { DecisionHandle } from "../../decision-handle.ts";
import type { CodeModeInput, CodeModeOutput, PendingAction } from "../../types.ts";

/**
 * The input schema of the `codemode` tool: a Standard Schema that offers its JSON Schema (what the AI
 * SDK, TanStack AI and MCP servers read), with `{ code: string }` as its type.
 */
export interface CodeInputSchema {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => { value: CodeModeInput } | { issues: ReadonlyArray<{ message: string }> };
    readonly types?: { readonly input: unknown; readonly output: CodeModeInput };
    readonly jsonSchema: {
      readonly input: (options: { target: string }) => Record<string, unknown>;
      readonly output: (options: { target: string }) => Record<string, unknown>;
    };
  };
}

/** A connector call of the run so far, as a preliminary result shows it. */
export interface ProgressCall {
  connector: string;
  method: string;
  failed: boolean;
}

/**
 * A preliminary result of the `codemode` tool while its run goes on: the calls made so far (the
 * AI SDK shows these to the person; the model reads only the final result).
 */
export interface CodemodeProgress {
  status: "running";
  executionId?: string;
  /** every call settled so far */
  callCount: number;
  /** the last few of them */
  calls: ProgressCall[];
}

/** What the `codemode` tool yields: progress while the run goes on, then the pass's outcome. */
export type CodemodeToolOutput = CodeModeOutput | CodemodeProgress;

/** What the AI SDK hands `execute` and `needsApproval` (the parts the tool reads). */
export interface CodemodeToolCallOptions {
  toolCallId?: string;
  messages?: unknown;
  abortSignal?: unknown;
}

/** A JSON value, as the AI SDK types a tool result the model reads. */
export type JsonValue =
  | null
  | string
  | number
  | boolean
  | JsonValue[]
  | { [key: string]: JsonValue | undefined };

/** The AI SDK's `ToolResultOutput`, the shapes this tool gives the model. */
export type CodemodeModelOutput =
  | { type: "json"; value: JsonValue }
  | { type: "text"; value: string };

const json = (value: unknown): CodemodeModelOutput => ({ type: "json", value: value as JsonValue });

/**
 * The `codemode` tool's approval decision in AI SDK 7's terms (a `ToolApprovalStatus`): ask, with
 * the calls the run waits for as the request's reason, or go on without asking.
 */
export type CodemodeApprovalStatus = "not-applicable" | { type: "user-approval"; reason: string };

/** A tool call as AI SDK 7 hands a generic `toolApproval` function (the parts read here). */
export interface CodemodeApprovalCall {
  toolCall: { toolName: string; toolCallId: string; input: unknown };
  /** the tools of the call (the AI SDK passes them): a tool that is no `codemode` tool keeps its own `needsApproval` */
  tools?: Record<string, unknown> | undefined;
  toolsContext?: unknown;
  messages?: unknown;
}

/**
 * AI SDK 7's `toolApproval` for the `codemode` tool. It takes both of the AI SDK's shapes: per tool,
 * `toolApproval: { codemode: decide }`, called with `(input, { toolCallId, messages })`; and as the
 * generic function, `toolApproval: decide` or `decide(options)` from your own, called with
 * `{ toolCall, tools, messages }`, where a tool that is no `codemode` tool gets what its own
 * `needsApproval` says (as the AI SDK decides without a `toolApproval`).
 */
export interface CodemodeToolApproval {
  (input: CodeModeInput, options: CodemodeToolCallOptions): Promise<CodemodeApprovalStatus>;
  (call: CodemodeApprovalCall): Promise<CodemodeApprovalStatus | "user-approval">;
}

/**
 * The `codemode` tool as the AI SDK takes it (and anything with JSON Schema tools): `execute`
 * yields preliminary results and then the outcome; with the AI SDK's approvals, `toolApproval`
 * (AI SDK 7) or `needsApproval` (AI SDK 6, and 7 without a `toolApproval`) runs the first pass and
 * asks the person when it pauses.
 */
export interface CodemodeTool {
  description: string;
  inputSchema: CodeInputSchema;
  needsApproval?: (input: CodeModeInput, options?: CodemodeToolCallOptions) => Promise<boolean>;
  /**
   * AI SDK 7: `streamText({ toolApproval: { codemode: tool.toolApproval } })` (what
   * `codemodeToolApproval(runtime)` of `codemode/ai` gives); absent with `approvals: "host"`
   */
  toolApproval?: CodemodeToolApproval;
  execute: (
    input: CodeModeInput,
    options?: CodemodeToolCallOptions,
  ) => AsyncIterable<CodemodeToolOutput>;
  toModelOutput: (options: { output: unknown }) => CodemodeModelOutput;
}

/**
 * What the UI's approval request of a `codemode` call carries (`approval.descriptor` of the tool
 * part, added by `runtime.approvalDetails()`): the run and every call it waits for, with the exact
 * input recorded.
 */
export interface CodemodeApprovalDescriptor {
  executionId: string;
  pending: PendingAction[];
  /** what the request decides: a host route that approves for this card passes it to `runtime.approve` */
  handle: DecisionHandle;
}

const SCHEMA = {
  type: "object",
  properties: {
    code: { type: "string", description: "One async JavaScript arrow function to run." },
  },
  required: ["code"],
  additionalProperties: false,
};

const validate = (value: unknown) =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { code?: unknown }).code === "string"
    ? { value: { code: (value as CodeModeInput).code } }
    : { issues: [{ message: "The codemode tool takes { code: string }." }] };

/** The `{ code }` input schema, as a Standard Schema and as the AI SDK's own schema object. */
export function codeInputSchema(): CodeInputSchema {
  const inputSchema: CodeInputSchema = {
    "~standard": {
      version: 1,
      vendor: "codemode",
      validate,
      jsonSchema: { input: () => SCHEMA, output: () => SCHEMA },
    },
  };
  // the AI SDK also recognizes its own schema marker and then uses the JSON Schema as it is
  Object.assign(inputSchema, {
    [Symbol.for("vercel.ai.schema")]: true,
    jsonSchema: SCHEMA,
    validate: (value: unknown) => {
      const outcome = validate(value);
      return "value" in outcome
        ? { success: true, value: outcome.value }
        : { success: false, error: new Error(outcome.issues[0]?.message) };
    },
  });
  return inputSchema;
}

/** Console lines the model reads from one run; the rest are counted. */
export const MODEL_LOG_LINES = 50;

/**
 * What the model reads of the tool's output: the outcome without what only a person's screen needs,
 * the console output cut to its last `MODEL_LOG_LINES` lines.
 */
export function modelOutputOf(output: unknown): CodemodeModelOutput {
  const value = output as Partial<CodeModeOutput> | undefined;
  if (typeof value !== "object" || value === null || typeof value.status !== "string") {
    return json(output ?? null);
  }
  const logs = (value as { logs?: unknown }).logs;
  const kept =
    Array.isArray(logs) && logs.length > MODEL_LOG_LINES
      ? [`… ${logs.length - MODEL_LOG_LINES} earlier lines`, ...logs.slice(-MODEL_LOG_LINES)]
      : logs;
  switch (value.status) {
    case "completed":
      return json({
        status: "completed",
        executionId: value.executionId,
        result: (value as { result?: unknown }).result ?? null,
        ...(kept ? { logs: kept } : {}),
      });
    case "paused":
      return json({
        status: "paused",
        executionId: value.executionId,
        pending: ((value as { pending?: PendingAction[] }).pending ?? []).map(
          ({ seq, connector, method, args, inDoubt }) => ({
            seq,
            connector,
            method,
            args,
            ...(inDoubt !== undefined ? { inDoubt } : {}),
          }),
        ),
      });
    case "error":
      return json({
        status: "error",
        executionId: value.executionId,
        error: (value as { error?: unknown }).error,
        ...(kept ? { logs: kept } : {}),
      });
    default:
      return json(value);
  }
}
