import {
  type FunctionMethod,
  functionConnector,
  type MethodSchema,
} from "@codemode/connector-function";
import { type CallContext, CodemodeError, type Connector } from "@codemode/core";
import type { ModelMessage, Tool, ToolExecutionOptions, ToolSet } from "ai";

export interface ToolSetConnectorOptions {
  /** the sandbox global */
  name: string;
  /** a line or two on what the tools are for */
  instructions?: string;
  tools: ToolSet;
  /** passed to every tool's `execute` and `needsApproval` as the AI SDK's `messages` */
  messages?: ModelMessage[];
  /** passed to every tool's `execute` and `needsApproval` as `context` (AI SDK 7; `experimental_context` in 6) */
  context?: unknown;
  /**
   * AI SDK 7's `toolApproval` for these tools, as you give it to `streamText`: per tool, a status
   * (`"user-approval"`, `"denied"`, `"approved"`, `"not-applicable"`, or `{ type, reason }`) or a
   * function of the call's input; or one function for every call (`{ toolCall, tools, messages }`).
   * As in the AI SDK it comes before a tool's own `needsApproval`, which still decides a tool the
   * map leaves out: `"user-approval"` pauses the call for a person, `"denied"` fails it with the
   * reason and runs nothing, `"approved"`, `"not-applicable"` or `undefined` runs it; anything
   * else (a rule that throws, `null`, `true`, an unknown status) pauses the call, failing closed.
   */
  toolApproval?: ToolApprovalRules;
  /** given to `toolApproval` functions as `runtimeContext` (default `{}`) */
  runtimeContext?: unknown;
}

/** An approval status as AI SDK 7 writes it (`undefined` reads as `"not-applicable"`). */
export type ToolApprovalStatusLike =
  | undefined
  | "not-applicable"
  | "approved"
  | "denied"
  | "user-approval"
  | { type: "not-applicable" | "approved" | "denied" | "user-approval"; reason?: string };

/** What AI SDK 7 hands a generic `toolApproval` function (the parts this connector gives it). */
export interface ToolApprovalCallOptions {
  toolCall: { type: "tool-call"; toolCallId: string; toolName: string; input: unknown };
  tools: ToolSet | undefined;
  toolsContext: Record<string, unknown>;
  runtimeContext: unknown;
  messages: ModelMessage[];
}

/** What AI SDK 7 hands a per-tool `toolApproval` function besides the input. */
export interface ToolApprovalInputOptions {
  toolCallId: string;
  messages: ModelMessage[];
  toolContext: unknown;
  runtimeContext: unknown;
}

type Decided = ToolApprovalStatusLike | PromiseLike<ToolApprovalStatusLike>;

// method shorthand keeps the parameters bivariant, so a rule typed with the AI SDK's own
// `ToolApprovalConfiguration<typeof tools>` (its narrower tool calls and inputs) fits too
type GenericRule = { rule(options: ToolApprovalCallOptions): Decided }["rule"];
type InputRule = { rule(input: unknown, options: ToolApprovalInputOptions): Decided }["rule"];

/** AI SDK 7's `ToolApprovalConfiguration`, as this connector reads it. */
export type ToolApprovalRules =
  | GenericRule
  | { [tool: string]: ToolApprovalStatusLike | InputRule };

type AnyTool = Tool<unknown, unknown>;
type ExecuteOptions = ToolExecutionOptions<unknown>;

/** What a tool's `execute` and `needsApproval` receive, in the shape of AI SDK 7 and of 6 alike. */
function toolOptions(
  call: { executionId: string; seq: number },
  messages: ModelMessage[],
  context: unknown,
): ExecuteOptions {
  return {
    toolCallId: toolCallId(call),
    messages,
    context,
    experimental_context: context,
  } as ExecuteOptions;
}

/** The AI SDK's call id for a sandbox call: stable across passes of one run, like the idempotency key. */
function toolCallId(call: { executionId: string; seq: number }): string {
  return `codemode-${call.executionId}-${call.seq}`;
}

/** A tool's schema, with the AI SDK's `lazySchema()` made; functionConnector checks what it is. */
function resolved(schema: unknown): MethodSchema | undefined {
  return (typeof schema === "function" ? (schema as () => unknown)() : schema) as MethodSchema;
}

/**
 * A tool's `needsApproval` as the runtime's `requiresApproval`, read the way the AI SDK reads it: a
 * function is called with the call's input and its answer, awaited, asks when it is truthy; any other
 * truthy value (`true`, `1`, `"yes"`, an object) asks for every call; a falsy one never does. Only
 * `=== true` used to ask, so a tool the AI SDK would gate ran unapproved here.
 */
function approvalOf(
  needsApproval: unknown,
  messages: ModelMessage[],
  context: unknown,
): FunctionMethod["requiresApproval"] {
  if (typeof needsApproval === "function") {
    const decide = needsApproval as (input: unknown, options: ExecuteOptions) => unknown;
    return async (input, call) =>
      Boolean(await decide(input, toolOptions(call, messages, context)));
  }
  return needsApproval ? true : undefined;
}

/** The statuses AI SDK 7 knows. */
const STATUSES = new Set(["not-applicable", "approved", "denied", "user-approval"]);

/**
 * A status as `{ type, reason? }`, the way the AI SDK normalizes it, failing closed: `undefined` is
 * `"not-applicable"`, and anything that is no status the AI SDK knows (`null`, `true`, `"ask"`,
 * `{ type: "USER-APPROVAL" }`, an object without a type) asks a person instead of running the call.
 */
function statusOf(status: unknown): { type: string; reason?: string } {
  if (status === undefined) return { type: "not-applicable" };
  if (typeof status === "string" && STATUSES.has(status)) return { type: status };
  if (typeof status === "object" && status !== null) {
    const { type, reason } = status as { type?: unknown; reason?: unknown };
    if (typeof type === "string" && STATUSES.has(type)) {
      return { type, ...(typeof reason === "string" ? { reason } : {}) };
    }
  }
  return { type: "user-approval" };
}

/**
 * The `toolApproval` rule for one tool, as the AI SDK resolves it: the generic function for every
 * call, else the tool's own entry of the map; `undefined` when neither names the tool (then its
 * `needsApproval` decides).
 */
function ruleOf(
  options: ToolSetConnectorOptions,
  name: string,
  messages: ModelMessage[],
):
  | ((
      input: unknown,
      call: { executionId: string; seq: number },
    ) => Promise<{ type: string; reason?: string }>)
  | undefined {
  const rules = options.toolApproval;
  const runtimeContext = options.runtimeContext ?? {};
  if (typeof rules === "function") {
    return async (input, call) =>
      statusOf(
        await rules({
          toolCall: { type: "tool-call", toolCallId: toolCallId(call), toolName: name, input },
          tools: options.tools,
          toolsContext: { [name]: options.context },
          runtimeContext,
          messages,
        }),
      );
  }
  if (typeof rules !== "object" || rules === null || !Object.hasOwn(rules, name)) return undefined;
  const rule = rules[name];
  if (rule === undefined || rule === null) return undefined;
  if (typeof rule !== "function") {
    const status = statusOf(rule);
    return async () => status;
  }
  const decide = rule as (input: unknown, options: unknown) => unknown;
  return async (input, call) =>
    statusOf(
      await decide(input, {
        toolCallId: toolCallId(call),
        messages,
        toolContext: options.context,
        runtimeContext,
      }),
    );
}

/** What a call the app's `toolApproval` denied fails with: it ran nothing. */
function deniedError(name: string, reason: string | undefined): Error {
  return new Error(
    `The app's toolApproval denied this call of ${name}${reason ? `: ${reason}` : ""}. It did not run.`,
  );
}

/** A streaming `execute` yields its results; the last one is the call's result. */
async function settle(output: unknown): Promise<unknown> {
  if (
    typeof output === "object" &&
    output !== null &&
    typeof (output as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function"
  ) {
    let last: unknown;
    for await (const value of output as AsyncIterable<unknown>) last = value;
    return last;
  }
  return output;
}

/**
 * An AI SDK `ToolSet` as a Code Mode namespace: each tool becomes a method whose input is checked
 * against its schema (Zod, `jsonSchema()`, Standard Schema) before `execute`. A truthy `needsApproval`
 * gates every call; a `needsApproval` function runs on the host with each call's input, so only the
 * calls it answers truthy for pause (as the AI SDK reads it). A tool without `execute` is deferred: its result comes through
 * `runtime.resolve`. `execute` gets the AI SDK's options: a `toolCallId` made from the execution id
 * and the call's number, the pass's abort signal, and the `messages` and `context` given here.
 */
export function toolSetConnector(options: ToolSetConnectorOptions): Connector {
  if (typeof options?.tools !== "object" || options.tools === null) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `toolSetConnector "${String(options?.name)}" needs tools: an AI SDK ToolSet.`,
    );
  }
  const messages = options.messages ?? [];
  const methods: Record<string, FunctionMethod> = {};
  for (const [name, candidate] of Object.entries(options.tools)) {
    const tool = candidate as AnyTool;
    if (typeof tool !== "object" || tool === null) {
      throw new CodemodeError("INVALID_CONFIG", `Tool "${name}" is not an AI SDK tool.`);
    }
    const inputSchema = resolved(tool.inputSchema);
    const outputSchema = resolved(tool.outputSchema);
    // AI SDK 7 lets a description depend on the tool's context
    const description: unknown =
      typeof tool.description === "function"
        ? (tool.description as (options: { context: unknown }) => unknown)({
            context: options.context,
          })
        : tool.description;
    const execute = tool.execute;
    const rule = ruleOf(options, name, messages);
    const requiresApproval: FunctionMethod["requiresApproval"] = rule
      ? async (input, call) => (await rule(input, call)).type === "user-approval"
      : approvalOf(tool.needsApproval, messages, options.context);
    methods[name] = {
      ...(typeof description === "string" && description ? { description } : {}),
      inputSchema,
      ...(outputSchema !== undefined ? { outputSchema } : {}),
      ...(requiresApproval !== undefined ? { requiresApproval } : {}),
      ...(typeof execute === "function"
        ? {
            execute: async (input: unknown, call: CallContext) => {
              // a denial runs nothing: the rule is asked again here, as the AI SDK asks it again
              // when an approval comes back
              const status = rule ? await rule(input, call) : undefined;
              if (status?.type === "denied") throw deniedError(name, status.reason);
              const callOptions: ExecuteOptions = {
                ...toolOptions(call, messages, options.context),
                abortSignal: call.signal as ExecuteOptions["abortSignal"],
              };
              return settle(await execute(input, callOptions));
            },
          }
        : { deferred: true }),
    };
  }
  return functionConnector({
    name: options.name,
    ...(options.instructions ? { instructions: options.instructions } : {}),
    methods,
  });
}
