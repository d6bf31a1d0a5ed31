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
}

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
    const requiresApproval = approvalOf(tool.needsApproval, messages, options.context);
    methods[name] = {
      ...(typeof description === "string" && description ? { description } : {}),
      inputSchema,
      ...(outputSchema !== undefined ? { outputSchema } : {}),
      ...(requiresApproval !== undefined ? { requiresApproval } : {}),
      ...(typeof execute === "function"
        ? {
            execute: async (input: unknown, call: CallContext) => {
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
