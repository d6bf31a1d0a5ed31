import { type OutputUnit, type SchemaDraft, Validator } from "@cfworker/json-schema";
import {
  type ApprovalRule,
  type CallContext,
  CodemodeError,
  type Connector,
  type ConnectorMethod,
  type ExecutionEndStatus,
  type PassEndStatus,
  type ReplayPolicy,
} from "@codemode/core";
import { type JsonSchema, toJsonSchema } from "@codemode/typegen";

/** One method: a plain function with a schema for its input. */
// biome-ignore lint/suspicious/noExplicitAny: untyped `execute(input)` and `revert(input, result)` read their values freely
export interface FunctionMethod<Input = any, Output = any> {
  description?: string;
  /** Zod 4, any Standard Schema, or JSON Schema; the input is validated against it before `execute` */
  inputSchema?: unknown;
  outputSchema?: unknown;
  /**
   * a person approves each call: the run pauses there until `runtime.approve`; a function decides
   * per call from the input (on the host, before the call is recorded)
   */
  requiresApproval?: boolean | ApprovalRule;
  /** the result comes from outside (a client, a long job) through `runtime.resolve`; no `execute` */
  deferred?: boolean;
  /** "record" (default): later passes replay the result; "reexecute": they call again */
  replay?: ReplayPolicy;
  /** the call fails with a catchable error after this long */
  timeoutMs?: number;
  /** extra words that name the method for search */
  keywords?: readonly string[];
  execute?: (input: Input, context: CallContext) => Output | Promise<Output>;
  /** undoes an applied call when the run is rolled back */
  revert?: (input: Input, result: Output, context: CallContext) => void | Promise<void>;
}

export interface FunctionConnectorOptions {
  /** the sandbox global */
  name: string;
  /** a line or two on what the connector is for */
  instructions?: string;
  methods: Record<string, FunctionMethod>;
  onPassEnd?: (executionId: string, status: PassEndStatus) => void | Promise<void>;
  disposeExecution?: (executionId: string, status: ExecutionEndStatus) => void | Promise<void>;
}

interface StandardSchema {
  "~standard": {
    validate(value: unknown): StandardResult | Promise<StandardResult>;
  };
}

type StandardResult =
  | { value: unknown; issues?: undefined }
  | {
      issues: ReadonlyArray<{
        message: string;
        path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
      }>;
    };

interface Issue {
  path: string;
  message: string;
}

type Validate = (input: unknown) => Promise<{ value: unknown } | { issues: Issue[] }>;

function isStandardSchema(schema: unknown): schema is StandardSchema {
  const standard = (schema as { "~standard"?: { validate?: unknown } } | null | undefined)?.[
    "~standard"
  ];
  return typeof standard?.validate === "function";
}

function draftOf(schema: JsonSchema): SchemaDraft {
  const uri =
    typeof schema === "object" && typeof schema.$schema === "string" ? schema.$schema : "";
  if (uri.includes("draft-04")) return "4";
  if (uri.includes("draft-07") || uri.includes("draft-06")) return "7";
  if (uri.includes("2019-09")) return "2019-09";
  return "2020-12";
}

/** The validator of a method's input: the schema's own (Standard Schema) or a JSON Schema validator. */
function validatorFor(schema: unknown): Validate {
  if (schema === undefined) return async (input) => ({ value: input });
  if (isStandardSchema(schema)) {
    return async (input) => {
      const result = await schema["~standard"].validate(input);
      if (!result.issues) return { value: result.value };
      return {
        issues: result.issues.map((issue) => ({
          path: (issue.path ?? [])
            .map((segment) => String(typeof segment === "object" ? segment.key : segment))
            .join("."),
          message: issue.message,
        })),
      };
    };
  }
  const json = toJsonSchema(schema);
  if (json === undefined || json === true) return async (input) => ({ value: input });
  const validator = new Validator(json as never, draftOf(json), false);
  return async (input) => {
    const result = validator.validate(input);
    if (result.valid) return { value: input };
    // the most specific errors: those at the deepest instance location
    const deepest = (unit: OutputUnit) => unit.instanceLocation.split("/").length;
    const depth = Math.max(...result.errors.map(deepest));
    return {
      issues: result.errors
        .filter((unit) => deepest(unit) === depth)
        .map((unit) => ({
          path: unit.instanceLocation.replace(/^#\/?/, "").replace(/\//g, "."),
          message: unit.error,
        })),
    };
  };
}

/**
 * Plain functions as a Code Mode namespace. Each method's input is validated against its schema
 * (Zod, Standard Schema or JSON Schema) before `execute`; an invalid input is a catchable error that
 * names the field. Configuration mistakes throw here, when the connector is made.
 */
export function functionConnector(options: FunctionConnectorOptions): Connector {
  if (typeof options?.name !== "string" || options.name.trim() === "") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "functionConnector needs a name: the sandbox global it becomes.",
    );
  }
  if (typeof options.methods !== "object" || options.methods === null) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `functionConnector "${options.name}" needs methods: { name: { execute } }.`,
    );
  }
  const where = (method: string) => `Method "${method}" of connector "${options.name}"`;
  const methods: Record<string, ConnectorMethod> = {};
  const validators = new Map<string, Validate>();
  for (const [name, method] of Object.entries(options.methods)) {
    if (method.requiresApproval && method.replay === "reexecute") {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `${where(name)} needs approval and replay "reexecute": replaying would apply the approved call again. Use replay "record".`,
      );
    }
    if (method.deferred && method.execute) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `${where(name)} is deferred: its result comes from runtime.resolve, so it has no execute.`,
      );
    }
    if (!method.deferred && typeof method.execute !== "function") {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `${where(name)} needs an execute function (or deferred: true).`,
      );
    }
    const inputSchema = toJsonSchema(method.inputSchema, "input");
    const outputSchema = toJsonSchema(method.outputSchema, "output");
    methods[name] = {
      ...(method.description ? { description: method.description } : {}),
      ...(inputSchema !== undefined ? { inputSchema } : {}),
      ...(outputSchema !== undefined ? { outputSchema } : {}),
      ...(method.requiresApproval ? { requiresApproval: method.requiresApproval } : {}),
      ...(method.deferred ? { deferred: true } : {}),
      replay: method.replay ?? "record",
      ...(method.timeoutMs !== undefined ? { timeoutMs: method.timeoutMs } : {}),
      ...(method.keywords ? { keywords: method.keywords } : {}),
      revertible: typeof method.revert === "function",
    };
    validators.set(name, validatorFor(method.inputSchema));
  }

  const find = (name: string): FunctionMethod => {
    const method = Object.hasOwn(options.methods, name) ? options.methods[name] : undefined;
    if (!method) {
      throw new CodemodeError(
        "UNKNOWN_METHOD",
        `Connector "${options.name}" has no method "${name}".`,
        {
          details: { available: Object.keys(options.methods) },
        },
      );
    }
    return method;
  };

  const validated = async (name: string, input: unknown): Promise<unknown> => {
    const outcome = await (validators.get(name) as Validate)(input);
    if ("value" in outcome) return outcome.value;
    const list = outcome.issues
      .map((issue) => `${issue.path || "(input)"}: ${issue.message}`)
      .join("; ");
    throw new CodemodeError("INVALID_INPUT", `Invalid input for ${options.name}.${name}: ${list}`, {
      details: { issues: outcome.issues },
    });
  };

  return {
    specificationVersion: "v1",
    name: options.name,
    ...(options.instructions ? { instructions: options.instructions } : {}),
    methods: () => methods,
    async invoke(name, input, context) {
      const method = find(name);
      if (method.deferred || !method.execute) {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `${where(name)} is deferred: the runtime records its result from runtime.resolve.`,
        );
      }
      return method.execute(await validated(name, input), context);
    },
    async revert(name, input, result, context) {
      const method = find(name);
      if (method.revert) await method.revert(await validated(name, input), result, context);
    },
    ...(options.onPassEnd ? { onPassEnd: options.onPassEnd } : {}),
    ...(options.disposeExecution ? { disposeExecution: options.disposeExecution } : {}),
  };
}
