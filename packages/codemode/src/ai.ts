// codemode/ai: the stateless Code Mode tool of the AI SDK (no journal, no approvals): the tools become
// methods of one sandbox namespace, their schemas TypeScript in the tool's description.
import { toolSetConnector } from "@codemode/connector-ai";
import { type CallContext, CodemodeError, type Executor } from "@codemode/core";
import { createCatalog, normalizeCode } from "@codemode/typegen";
import { jsonSchema, type Tool, type ToolSet, tool } from "ai";

export { type ToolSetConnectorOptions, toolSetConnector } from "@codemode/connector-ai";

export interface CreateCodeToolOptions {
  /** AI SDK tools (Zod, `jsonSchema()` or Standard Schema inputs); those that need approval are left out */
  tools: ToolSet;
  executor: Executor;
  /** the sandbox global holding the tools; default "codemode" */
  namespace?: string;
  /** replaces the description's first paragraph; the declarations always follow */
  description?: string;
}

/** What the tool returns: the code as it ran, its value and its console output. */
export interface CodeToolOutput {
  code: string;
  result: unknown;
  logs: string[];
}

const DEFAULT_DESCRIPTION =
  "Run JavaScript in a sandbox to use the tools below. Write one async arrow function, for example " +
  "`async () => { const a = await codemode.first({}); return a; }`: await every call, combine results " +
  "in code, and return only what you need. console.log output comes back with the result.";

let executions = 0;
/** The signal of a call the AI SDK gave none: it never fires. */
const NEVER_ABORTED: CallContext["signal"] = {
  aborted: false,
  reason: undefined,
  addEventListener: () => {},
  removeEventListener: () => {},
};

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
  if (typeof options.executor?.execute !== "function") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "createCodeTool needs an executor (QuickJSExecutor, DynamicWorkerExecutor, …).",
    );
  }
  const namespace = options.namespace ?? "codemode";
  const allowed: ToolSet = {};
  for (const [name, candidate] of Object.entries(options.tools)) {
    const needsApproval = (candidate as { needsApproval?: unknown }).needsApproval;
    if (needsApproval === true || typeof needsApproval === "function") continue;
    allowed[name] = candidate;
  }
  const connector = toolSetConnector({ name: namespace, tools: allowed });
  const methods = connector.methods() as Awaited<ReturnType<typeof connector.methods>>;
  const catalog = createCatalog({
    sdk: namespace !== "codemode",
    connectors: [
      {
        name: namespace,
        methods: Object.entries(methods).map(([name, method]) => ({
          name,
          ...(method.description ? { description: method.description } : {}),
          ...(method.inputSchema !== undefined ? { inputSchema: method.inputSchema } : {}),
          ...(method.outputSchema !== undefined ? { outputSchema: method.outputSchema } : {}),
        })),
      },
    ],
  });
  const [declared] = catalog.connectors;
  const description = `${options.description ?? DEFAULT_DESCRIPTION}\n\n\`\`\`ts\n${declared?.all() ?? ""}\n\`\`\``;

  return tool({
    description,
    inputSchema: jsonSchema<{ code: string }>({
      type: "object",
      properties: {
        code: { type: "string", description: "One async JavaScript arrow function to run." },
      },
      required: ["code"],
      additionalProperties: false,
    }),
    execute: async ({ code }, { abortSignal }) => {
      const normalized = normalizeCode(code);
      const executionId = `code_${Date.now().toString(36)}_${(executions++).toString(36)}`;
      const signal = abortSignal ?? NEVER_ABORTED;
      let seq = 0;
      const globals: Record<string, (input: unknown) => Promise<unknown>> = {};
      for (const name of Object.keys(methods)) {
        globals[name] = (input) => {
          const call = seq++;
          const context: CallContext = {
            executionId,
            seq: call,
            idempotencyKey: `${executionId}:${call}`,
            signal,
          };
          return connector.invoke(name, input, context);
        };
      }
      const outcome = await options.executor.execute({
        code: normalized,
        globals: { [namespace]: globals },
        signal,
      });
      if ("error" in outcome) {
        const logs =
          outcome.logs.length > 0 ? `\n\nConsole output:\n${outcome.logs.join("\n")}` : "";
        throw new Error(`${outcome.error.name}: ${outcome.error.message}${logs}`);
      }
      return { code: normalized, result: outcome.result, logs: outcome.logs };
    },
  });
}
