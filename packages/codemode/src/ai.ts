// codemode/ai: the stateless Code Mode tool of the AI SDK (no journal, no approvals): the tools become
// methods of one sandbox namespace, their schemas TypeScript in the tool's description.
import { toolSetConnector } from "@codemode/connector-ai";
import { CodemodeError, type Executor } from "@codemode/core";
import { jsonSchema, type Tool, type ToolSet, tool } from "ai";
import {
  type CodeToolOutput,
  codeToolInputSchema,
  codeToolRunner,
  needsApproval,
} from "./code-tool.ts";

export { type ToolSetConnectorOptions, toolSetConnector } from "@codemode/connector-ai";
export { withApprovalDetails } from "./approval-details.ts";
export type { CodeToolOutput } from "./code-tool.ts";

export interface CreateCodeToolOptions {
  /** AI SDK tools (Zod, `jsonSchema()` or Standard Schema inputs); those that need approval are left out */
  tools: ToolSet;
  executor: Executor;
  /** the sandbox global holding the tools; default "codemode" */
  namespace?: string;
  /** replaces the description's first paragraph; the declarations always follow */
  description?: string;
}

/**
 * One AI SDK tool, input `{ code }`, that runs the model's code with the given executor. The tools
 * become methods of `codemode` (or `namespace`) and their schemas TypeScript declarations in the
 * description. The code is normalized first (Markdown fences, bare statements, a last expression
 * returned, TypeScript stripped). A tool whose `needsApproval` is `true` or a function is left out:
 * this tool keeps no journal to pause and resume a run with (use `createCodemodeRuntime` for that).
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
    if (!needsApproval(candidate)) allowed[name] = candidate;
  }
  const connector = toolSetConnector({ name: namespace, tools: allowed });
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
      call: (input, context) => connector.invoke(name, input, context),
    })),
  });

  return tool({
    description: runner.description,
    inputSchema: jsonSchema<{ code: string }>(codeToolInputSchema()),
    execute: ({ code }, { abortSignal }) => runner.run(code, abortSignal),
  });
}
