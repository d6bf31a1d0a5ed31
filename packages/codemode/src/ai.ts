// codemode/ai: the AI SDK side of Code Mode. For the durable runtime's `codemode` tool, AI SDK 7's
// `toolApproval` (codemodeToolApproval), what a page reads of its tool parts (codemodeToolState) and
// the approval details of AI SDK 6's requests (withApprovalDetails). And the stateless Code Mode tool
// (createCodeTool: no journal, no approvals): the tools become methods of one sandbox namespace,
// their schemas TypeScript in the tool's description.
import { type ToolApprovalRules, toolSetConnector } from "@codemode/connector-ai";
import {
  type ApprovalRule,
  type CallContext,
  CodemodeError,
  type CodemodeRuntime,
  type CodemodeToolApproval,
  type Executor,
} from "@codemode/core";
import { jsonSchema, type Tool, type ToolSet, tool } from "ai";
import {
  type CodeToolOutput,
  codeToolInputSchema,
  codeToolRunner,
  needsApproval,
} from "./code-tool.ts";

export {
  type ToolApprovalRules,
  type ToolSetConnectorOptions,
  toolSetConnector,
} from "@codemode/connector-ai";
export type {
  CodemodeApprovalCall,
  CodemodeApprovalStatus,
  CodemodeToolApproval,
} from "@codemode/core";
export { withApprovalDetails } from "./approval-details.ts";
export type { CodeToolOutput } from "./code-tool.ts";
export { type CodemodeToolState, codemodeToolState } from "./tool-state.ts";

/**
 * AI SDK 7's `toolApproval` for the runtime's `codemode` tool:
 * `streamText({ tools: { codemode: runtime.tool() }, toolApproval: { codemode: codemodeToolApproval(runtime) } })`.
 * It runs the model's code up to its first calls that need approval (running none of them) and
 * asks only then, once per pause, with those calls, each with its exact input, as the request's
 * `reason` (the chat's `approval.requestReason`); a run that needs no approval runs without asking.
 * It also takes the AI SDK's generic shape: `toolApproval: codemodeToolApproval(runtime)` (every
 * other tool keeps its own `needsApproval`), or `codemodeApproval(options)` returned from your own
 * function for the codemode tool's calls.
 */
export function codemodeToolApproval(runtime: Pick<CodemodeRuntime, "tool">): CodemodeToolApproval {
  const approval = typeof runtime?.tool === "function" ? runtime.tool().toolApproval : undefined;
  if (!approval) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "codemodeToolApproval needs a Code Mode runtime (createCodemodeRuntime).",
    );
  }
  return approval;
}

export interface CreateCodeToolOptions {
  /**
   * AI SDK tools (Zod, `jsonSchema()` or Standard Schema inputs); those that may need approval (any
   * truthy `needsApproval`) are left out
   */
  tools: ToolSet;
  executor: Executor;
  /** the sandbox global holding the tools; default "codemode" */
  namespace?: string;
  /** replaces the description's first paragraph; the declarations always follow */
  description?: string;
  /**
   * AI SDK 7's `toolApproval` for these tools, as your route gives it to `streamText`: a tool whose
   * entry is a status other than `"approved"` or `"not-applicable"` (`"user-approval"`, `"denied"`,
   * or no status the AI SDK knows) is left out, and a call that a rule function answers with
   * anything but those two (or `undefined`) fails without running (this tool cannot ask a person);
   * the function is asked with the input as the tool's schema parses it. Without it, only the
   * tools' own `needsApproval` is seen.
   */
  toolApproval?: ToolApprovalRules;
}

/** The statuses that plainly say a call needs no person (as AI SDK 7 writes them). */
const NOT_NEEDED = new Set<unknown>(["approved", "not-applicable"]);

/**
 * Whether the tool is left out of the sandbox, where nobody can be asked: a `toolApproval` entry of
 * its own that is not a function decides, and keeps the tool only when it plainly says no person is
 * needed (`"approved"`, `"not-applicable"`, or either as `{ type }`); anything else (`"denied"`,
 * `"user-approval"`, `true`, `"ask"`, another case) leaves it out, failing closed. Without an entry
 * (or with `null`) the tool's own `needsApproval` decides: any truthy value leaves it out. A rule
 * function, of the tool or for every call, decides each call when it is made.
 */
function leftOut(rules: ToolApprovalRules | undefined, name: string, candidate: unknown): boolean {
  if (typeof rules === "function") return false;
  const entry: unknown =
    typeof rules === "object" && rules !== null && Object.hasOwn(rules, name)
      ? rules[name]
      : undefined;
  if (entry === undefined || entry === null) return needsApproval(candidate);
  if (typeof entry === "function") return false;
  const type = typeof entry === "object" ? (entry as { type?: unknown }).type : entry;
  return !NOT_NEEDED.has(type);
}

/**
 * Whether a call may not run here because it would wait for a person: a `requiresApproval` flag
 * that is truthy (whatever its type), or a rule whose answer is anything but `false` (the
 * runtime's reading: a rule that throws or answers oddly asks). toolSetConnector puts the rule to
 * the input as the tool's schema parses it; an input the schema refuses throws `INVALID_INPUT`.
 */
async function waitsForPerson(
  rule: unknown,
  input: unknown,
  context: CallContext,
): Promise<boolean> {
  if (typeof rule !== "function") return Boolean(rule);
  return (await (rule as ApprovalRule)(input, context)) !== false;
}

/**
 * One AI SDK tool, input `{ code }`, that runs the model's code with the given executor. The tools
 * become methods of `codemode` (or `namespace`) and their schemas TypeScript declarations in the
 * description. The code is normalized first (Markdown fences, bare statements, a last expression
 * returned, TypeScript stripped). A tool whose `needsApproval` is truthy (`true`, a function, `1`,
 * an object: whatever the AI SDK would ask about) is left out, and so is one whose `toolApproval`
 * entry does not plainly say `"approved"` or `"not-applicable"`: this tool keeps no journal to pause
 * and resume a run with (use `createCodemodeRuntime` for that). A call a `toolApproval` function
 * would ask about or deny, asked with the input as the tool's schema parses it, fails without
 * running; so does an input the schema refuses (`INVALID_INPUT`).
 * A failure is thrown with the console output, which the AI SDK reports to the model as a tool error.
 */
export function createCodeTool(
  options: CreateCodeToolOptions,
): Tool<{ code: string }, CodeToolOutput> {
  if (typeof options?.tools !== "object" || options.tools === null) {
    throw new CodemodeError("INVALID_CONFIG", "createCodeTool needs tools: an AI SDK ToolSet.");
  }
  const namespace = options.namespace ?? "codemode";
  const allowed: ToolSet = {};
  for (const [name, candidate] of Object.entries(options.tools)) {
    if (!leftOut(options.toolApproval, name, candidate)) allowed[name] = candidate;
  }
  const connector = toolSetConnector({
    name: namespace,
    tools: allowed,
    ...(options.toolApproval ? { toolApproval: options.toolApproval } : {}),
  });
  const methods = connector.methods() as Awaited<ReturnType<typeof connector.methods>>;
  const runner = codeToolRunner({
    caller: "createCodeTool",
    executor: options.executor,
    namespace,
    ...(options.description ? { description: options.description } : {}),
    methods: Object.entries(methods).map(([name, method]) => ({
      name,
      ...(method.description ? { description: method.description } : {}),
      ...(method.inputSchema !== undefined ? { inputSchema: method.inputSchema } : {}),
      ...(method.outputSchema !== undefined ? { outputSchema: method.outputSchema } : {}),
      call: async (input, context) => {
        // a call that would wait for a person does not run: nobody can be asked here
        if (await waitsForPerson(method.requiresApproval, input, context)) {
          throw new Error(
            `${name} needs a person's approval for this call, which this tool cannot ask for (it keeps no journal): it did not run.`,
          );
        }
        return connector.invoke(name, input, context);
      },
    })),
  });

  return tool({
    description: runner.description,
    inputSchema: jsonSchema<{ code: string }>(codeToolInputSchema()),
    execute: ({ code }, { abortSignal }) => runner.run(code, abortSignal),
  });
}
