import type { CodeModeInput, CodeModeOutput } from "../types.ts";

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

/** The `codemode` tool as the AI SDK (and anything with JSON Schema tools) takes it. */
export interface CodemodeTool {
  description: string;
  inputSchema: CodeInputSchema;
  execute: (input: CodeModeInput) => Promise<CodeModeOutput>;
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
