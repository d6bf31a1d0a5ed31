// codemode/browser: Code Mode for tools a web page owns. The page describes its tools with JSON
// Schema and an `execute`; the model's code runs in IframeSandboxExecutor. Needs neither the AI SDK
// nor Zod.
import { type CallContext, CodemodeError, type Executor } from "@codemode/core";
import { IframeSandboxExecutor } from "@codemode/executor-iframe";
import {
  type CodeToolInputSchema,
  type CodeToolOutput,
  codeToolInputSchema,
  codeToolRunner,
  needsApproval,
} from "./code-tool.ts";

export {
  DEFAULT_CSP,
  IframeSandboxExecutor,
  type IframeSandboxExecutorOptions,
} from "@codemode/executor-iframe";
export type { CodeToolInputSchema, CodeToolOutput } from "./code-tool.ts";

/** A tool the page owns: JSON Schema for the model, `execute` on the page. */
export interface JsonSchemaExecutableToolDescriptor {
  description?: string;
  /** the input's JSON Schema: what the model sees as TypeScript; it is not checked at run time */
  inputSchema: unknown;
  /** the output's JSON Schema, when the tool has one */
  outputSchema?: unknown;
  /**
   * any truthy value (`true`, a function, and from JavaScript `1`, `"yes"`, an object): the tool is
   * left out of Code Mode (nothing can pause the sandbox) and listed in `omitted`
   */
  needsApproval?: boolean | ((...args: never[]) => unknown);
  execute(input: never): unknown;
}

export type JsonSchemaExecutableToolDescriptors = Record<
  string,
  JsonSchemaExecutableToolDescriptor
>;

export interface CreateBrowserCodeToolOptions {
  tools: JsonSchemaExecutableToolDescriptors;
  /** default: a new `IframeSandboxExecutor()` */
  executor?: Executor;
  /** the sandbox global holding the tools; default "codemode" */
  namespace?: string;
  /** replaces the description's first paragraph; the declarations always follow */
  description?: string;
}

/** The Code Mode tool as a plain descriptor, to register as a client-side tool. */
export interface BrowserCodeTool {
  readonly name: "codemode";
  /** includes the TypeScript declarations of the tools */
  readonly description: string;
  readonly inputSchema: CodeToolInputSchema;
  /** the tools left out because they need approval */
  readonly omitted: readonly string[];
  /** runs the model's code; a failure is thrown, with the console output in its message */
  execute(
    input: { code: string },
    options?: { abortSignal?: CallContext["signal"] },
  ): Promise<CodeToolOutput>;
}

/**
 * One `codemode` tool over the page's own tools: its description carries their TypeScript
 * declarations, its input is `{ code }`, and `execute` runs the code in the executor (an
 * `IframeSandboxExecutor` by default), where each tool is `codemode.<name>(input)`. A tool whose
 * `needsApproval` is truthy (`true`, a function, any other truthy value) is left out: Code Mode
 * cannot pause the iframe to ask.
 * Register it as a client-side tool; when the tools change, make a new one.
 */
export function createBrowserCodeTool(options: CreateBrowserCodeToolOptions): BrowserCodeTool {
  if (typeof options?.tools !== "object" || options.tools === null) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "createBrowserCodeTool needs tools: { name: { description, inputSchema, execute } }.",
    );
  }
  const omitted: string[] = [];
  const methods = [];
  for (const [name, tool] of Object.entries(options.tools)) {
    if (typeof tool?.execute !== "function") {
      throw new CodemodeError("INVALID_CONFIG", `The tool "${name}" needs an execute function.`);
    }
    if (needsApproval(tool)) {
      omitted.push(name);
      continue;
    }
    const execute = tool.execute.bind(tool) as (input: unknown) => unknown;
    methods.push({
      name,
      ...(tool.description ? { description: tool.description } : {}),
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
      call: async (input: unknown) => execute(input),
    });
  }
  const runner = codeToolRunner({
    caller: "createBrowserCodeTool",
    executor: options.executor ?? new IframeSandboxExecutor(),
    namespace: options.namespace ?? "codemode",
    methods,
    ...(options.description ? { description: options.description } : {}),
  });
  return {
    name: "codemode",
    description: runner.description,
    inputSchema: codeToolInputSchema(),
    omitted,
    execute: (input, callOptions) => {
      if (typeof input?.code !== "string") {
        return Promise.reject(
          new CodemodeError("INVALID_CONFIG", "The codemode tool's input needs code as a string."),
        );
      }
      return runner.run(input.code, callOptions?.abortSignal);
    },
  };
}
