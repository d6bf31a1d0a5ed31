import {
  type FunctionMethod,
  functionConnector,
  type MethodSchema,
} from "@codemode/connector-function";
import { type ApprovalRule, type CallContext, CodemodeError, type Connector } from "@codemode/core";
import type { ModelMessage, Tool, ToolExecutionOptions, ToolSet } from "ai";
import {
  type CallRef,
  type ClearedCalls,
  clearedCalls,
  inputParser,
  type ParseInput,
} from "./judged-input.ts";

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
   * function of the call's input as the tool's schema parses it; or one function for every call
   * (`{ toolCall, tools, messages }`, `toolCall.input` parsed too).
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
function toolOptions(call: CallRef, messages: ModelMessage[], context: unknown): ExecuteOptions {
  return {
    toolCallId: toolCallId(call),
    messages,
    context,
    experimental_context: context,
  } as ExecuteOptions;
}

/** The AI SDK's call id for a sandbox call: stable across passes of one run, like the idempotency key. */
function toolCallId(call: CallRef): string {
  return `codemode-${call.executionId}-${call.seq}`;
}

/** A tool's schema, with the AI SDK's `lazySchema()` made; functionConnector checks what it is. */
function resolved(schema: unknown): MethodSchema | undefined {
  return (typeof schema === "function" ? (schema as () => unknown)() : schema) as MethodSchema;
}

/** An approval status as the AI SDK normalizes it. */
type Status = { type: string; reason?: string };

/** A decision per call, from the call's input as the tool's schema parses it. */
type Decide = (input: unknown, call: CallRef) => Promise<Status>;

/** A tool's approval: one status for every call, or a decision per call. */
type Approval = Status | Decide;

const USER_APPROVAL: Status = { type: "user-approval" };
const NOT_APPLICABLE: Status = { type: "not-applicable" };

/**
 * A tool's `needsApproval`, read the way the AI SDK reads it: a function is called with the call's
 * (parsed) input and its answer, awaited, asks when it is truthy; any other truthy value (`true`,
 * `1`, `"yes"`, an object) asks for every call; a falsy one never does.
 */
function approvalOf(needsApproval: unknown, messages: ModelMessage[], context: unknown): Approval {
  if (typeof needsApproval === "function") {
    const decide = needsApproval as (input: unknown, options: ExecuteOptions) => unknown;
    return async (input, call) =>
      (await decide(input, toolOptions(call, messages, context))) ? USER_APPROVAL : NOT_APPLICABLE;
  }
  return needsApproval ? USER_APPROVAL : NOT_APPLICABLE;
}

/** The statuses AI SDK 7 knows. */
const STATUSES = new Set(["not-applicable", "approved", "denied", "user-approval"]);

/**
 * A status as `{ type, reason? }`, the way the AI SDK normalizes it, failing closed: `undefined` is
 * `"not-applicable"`, and anything that is no status the AI SDK knows (`null`, `true`, `"ask"`,
 * `{ type: "USER-APPROVAL" }`, an object without a type) asks a person instead of running the call.
 */
function statusOf(status: unknown): Status {
  if (status === undefined) return NOT_APPLICABLE;
  if (typeof status === "string" && STATUSES.has(status)) return { type: status };
  if (typeof status === "object" && status !== null) {
    const { type, reason } = status as { type?: unknown; reason?: unknown };
    if (typeof type === "string" && STATUSES.has(type)) {
      return { type, ...(typeof reason === "string" ? { reason } : {}) };
    }
  }
  return USER_APPROVAL;
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
): Approval | undefined {
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
  if (typeof rule !== "function") return statusOf(rule);
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

/**
 * `requiresApproval` for a decision per call. The rule is asked about the input as the tool's
 * schema parses it (defaults filled, transforms applied): the value `execute` receives, as in the
 * AI SDK. An input the schema refuses is not put to the rule: the parse throws `INVALID_INPUT`, and
 * a `requiresApproval` that throws asks a person, so the runtime records the call waiting, like any
 * gated call (with the input as sent; approved, it fails `INVALID_INPUT` when it runs and nothing of
 * the tool runs). Never is a call run that no rule cleared and no person approved. A call the rule
 * lets run is remembered with that parsed value, which its `execute` then receives.
 */
function decidePerCall(
  name: string,
  decide: Decide,
  parse: ParseInput,
  cleared: ClearedCalls<Status> | undefined,
): ApprovalRule {
  return async (input, call) => {
    cleared?.forget(call);
    const parsed = await parse(name, input, call);
    const status = await decide(parsed, call);
    if (status.type === "user-approval") return true;
    cleared?.keep(call, { input: parsed, status });
    return false;
  };
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
 * gates every call; a `needsApproval` function, like a `toolApproval` function, runs on the host with
 * each call's input as the schema parses it (the value `execute` receives), so only the calls it
 * answers truthy for pause (as the AI SDK reads it). A tool without `execute` is deferred: its result
 * comes through `runtime.resolve`. `execute` gets the AI SDK's options: a `toolCallId` made from the
 * execution id and the call's number, the pass's abort signal, and the `messages` and `context` given
 * here.
 */
export function toolSetConnector(options: ToolSetConnectorOptions): Connector {
  if (typeof options?.tools !== "object" || options.tools === null) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `toolSetConnector "${String(options?.name)}" needs tools: an AI SDK ToolSet.`,
    );
  }
  const messages = options.messages ?? [];
  const tools = Object.entries(options.tools).map(([name, candidate]) => {
    const tool = candidate as AnyTool;
    if (typeof tool !== "object" || tool === null) {
      throw new CodemodeError("INVALID_CONFIG", `Tool "${name}" is not an AI SDK tool.`);
    }
    // a `toolApproval` rule comes before `needsApproval`, and only a rule can deny
    const rule = ruleOf(options, name, messages);
    const approval = rule ?? approvalOf(tool.needsApproval, messages, options.context);
    return { name, tool, inputSchema: resolved(tool.inputSchema), rule, approval };
  });
  // the inputs of the tools decided per call are parsed before their rule is asked
  const perCall = tools.filter(({ approval }) => typeof approval === "function");
  const parse = inputParser(
    options.name,
    new Map(perCall.map(({ name, inputSchema }) => [name, inputSchema])),
  );
  const cleared = clearedCalls<Status>();
  const methods: Record<string, FunctionMethod> = {};
  for (const { name, tool, inputSchema, rule, approval } of tools) {
    const outputSchema = resolved(tool.outputSchema);
    // AI SDK 7 lets a description depend on the tool's context
    const description: unknown =
      typeof tool.description === "function"
        ? (tool.description as (options: { context: unknown }) => unknown)({
            context: options.context,
          })
        : tool.description;
    const execute = tool.execute;
    const runs = typeof execute === "function";
    const requiresApproval: FunctionMethod["requiresApproval"] =
      typeof approval === "function"
        ? decidePerCall(name, approval, parse, runs ? cleared : undefined)
        : approval.type === "user-approval" || undefined;
    methods[name] = {
      ...(typeof description === "string" && description ? { description } : {}),
      inputSchema,
      ...(outputSchema !== undefined ? { outputSchema } : {}),
      ...(requiresApproval !== undefined ? { requiresApproval } : {}),
      ...(runs
        ? {
            execute: async (input: unknown, call: CallContext) => {
              // a call its rule let run gets the value the rule was asked about; one a person
              // approved gets the recorded input as parsed now
              const judged = typeof approval === "function" ? cleared.take(call) : undefined;
              const value = judged ? judged.input : input;
              // a denial runs nothing: a call a person approved puts its input to the rule again,
              // as the AI SDK asks again when an approval comes back
              const status =
                typeof rule === "function" ? (judged?.status ?? (await rule(value, call))) : rule;
              if (status?.type === "denied") throw deniedError(name, status.reason);
              const callOptions: ExecuteOptions = {
                ...toolOptions(call, messages, options.context),
                abortSignal: call.signal as ExecuteOptions["abortSignal"],
              };
              return settle(await execute(value, callOptions));
            },
          }
        : { deferred: true }),
    };
  }
  return functionConnector({
    name: options.name,
    ...(options.instructions ? { instructions: options.instructions } : {}),
    methods,
    // what a pass decided and never ran goes with it
    ...(perCall.length > 0
      ? { onPassEnd: (executionId: string) => cleared.endPass(executionId) }
      : {}),
  });
}
