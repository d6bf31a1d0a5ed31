// What the stateless Code Mode tools share (codemode/ai and codemode/browser): the description with
// the tools' declarations, the `{ code }` input schema, and one run of the model's code.
import { type CallContext, CodemodeError, type Executor } from "@codemode/core";
import { createCatalog, type MethodDefinition, normalizeCode } from "@codemode/typegen";

/** What the tool returns: the code as it ran, its value and its console output. */
export interface CodeToolOutput {
  code: string;
  result: unknown;
  logs: string[];
}

/** The JSON Schema of the tool's input, `{ code }`. */
export interface CodeToolInputSchema {
  type: "object";
  properties: { code: { type: "string"; description: string } };
  required: ["code"];
  additionalProperties: false;
}

/** A fresh copy of the input schema (callers may hand it to code that changes it). */
export function codeToolInputSchema(): CodeToolInputSchema {
  return {
    type: "object",
    properties: {
      code: { type: "string", description: "One async JavaScript arrow function to run." },
    },
    required: ["code"],
    additionalProperties: false,
  };
}

const DEFAULT_DESCRIPTION =
  "Run JavaScript in a sandbox to use the tools below. Write one async arrow function, for example " +
  "`async () => { const a = await codemode.first({}); return a; }`: await every call, combine results " +
  "in code, and return only what you need. console.log output comes back with the result.";

/** The signal of a call that was given none: it never fires. */
const NEVER_ABORTED: CallContext["signal"] = {
  aborted: false,
  reason: undefined,
  addEventListener: () => {},
  removeEventListener: () => {},
};

/**
 * A run's id: 128 random bits, so idempotency keys (`<id>:<seq>`) never collide, neither between
 * runs nor between the processes or instances that serve them.
 */
function newExecutionId(): string {
  const bits = crypto.getRandomValues(new Uint8Array(16));
  return `code_${[...bits].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** A method of the tool's namespace: called with the sandbox's input and the call's context. */
export type CodeToolMethod = (input: unknown, context: CallContext) => Promise<unknown>;

export interface CodeToolRunner {
  /** the tool's description: the first paragraph, then the declarations */
  description: string;
  /** runs the model's code; a failure is thrown with the console output */
  run(code: string, signal?: CallContext["signal"]): Promise<CodeToolOutput>;
}

/**
 * The description and the run of a Code Mode tool over `methods`, which become the namespace's
 * methods under their declared (identifier) names. The code is normalized first (Markdown fences,
 * bare statements, a last expression returned, TypeScript stripped).
 */
export function codeToolRunner(options: {
  executor: Executor;
  namespace: string;
  methods: ReadonlyArray<MethodDefinition & { call: CodeToolMethod }>;
  description?: string;
  /** names the caller in configuration errors */
  caller: string;
}): CodeToolRunner {
  if (typeof options.executor?.execute !== "function") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `${options.caller} needs an executor (QuickJSExecutor, DynamicWorkerExecutor, IframeSandboxExecutor, …).`,
    );
  }
  const { executor, namespace } = options;
  const catalog = createCatalog({
    sdk: namespace !== "codemode",
    connectors: [
      {
        name: namespace,
        methods: options.methods.map(({ call: _call, ...method }) => method),
      },
    ],
  });
  const [declared] = catalog.connectors;
  const description = `${options.description ?? DEFAULT_DESCRIPTION}\n\n\`\`\`ts\n${declared?.all() ?? ""}\n\`\`\``;
  const byOriginal = new Map(options.methods.map((method) => [method.name, method.call]));
  const sandboxNames = (declared?.methods ?? []).map(
    (method) => [method.name, byOriginal.get(method.original)] as const,
  );

  return {
    description,
    async run(code, signal = NEVER_ABORTED) {
      if (typeof code !== "string") {
        throw new CodemodeError("INVALID_CONFIG", "The tool's input needs code as a string.");
      }
      const normalized = normalizeCode(code);
      const executionId = newExecutionId();
      let seq = 0;
      const globals: Record<string, (input: unknown) => Promise<unknown>> = {};
      for (const [name, call] of sandboxNames) {
        if (!call) continue;
        globals[name] = (input) => {
          const current = seq++;
          return call(input, {
            executionId,
            seq: current,
            idempotencyKey: `${executionId}:${current}`,
            signal,
          });
        };
      }
      const outcome = await executor.execute({
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
  };
}

/**
 * Whether a tool may ask for approval, so the stateless Code Mode tools leave it out: any truthy
 * `needsApproval` (`true`, a function, `1`, `"yes"`, an object), as the AI SDK asks for any truthy
 * value. Only a falsy one (absent, `false`, `0`, `""`, `null`) keeps the tool in the sandbox.
 */
export function needsApproval(tool: unknown): boolean {
  return Boolean((tool as { needsApproval?: unknown } | null)?.needsApproval);
}
