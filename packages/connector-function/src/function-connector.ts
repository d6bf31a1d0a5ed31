import {
  CodemodeError,
  type Connector,
  type ConnectorMethod,
  type ExecutionEndStatus,
  type PassEndStatus,
} from "@codemode/core";
import { compileSchema, type Validate } from "./compile-schema.ts";
import type { FunctionMethod, TypedMethods } from "./function-method.ts";

/** How many of an invalid input's issues the error names. */
const MAX_LISTED_ISSUES = 10;

export interface FunctionConnectorOptions<Methods = Record<string, FunctionMethod>> {
  /** the sandbox global */
  name: string;
  /** a line or two on what the connector is for */
  instructions?: string;
  methods: Methods;
  onPassEnd?: (executionId: string, status: PassEndStatus) => void | Promise<void>;
  disposeExecution?: (executionId: string, status: ExecutionEndStatus) => void | Promise<void>;
}

/**
 * Plain functions as a Code Mode namespace. Each method's input is validated against its schema
 * (Zod, Standard Schema or JSON Schema) before `execute`; an invalid input is a catchable error that
 * names the field. Configuration mistakes throw here, when the connector is made.
 */
export function functionConnector<Inputs = unknown, Outputs = unknown>(
  options: FunctionConnectorOptions<TypedMethods<Inputs, Outputs>>,
): Connector;
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
    const of = `of method "${name}" of connector "${options.name}"`;
    const input = compileSchema(method.inputSchema, "input", `The inputSchema ${of}`);
    const output = compileSchema(method.outputSchema, "output", `The outputSchema ${of}`);
    const inputSchema = input.jsonSchema;
    const outputSchema = output.jsonSchema;
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
    validators.set(name, input.validate);
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
    // an input can fail in as many places as it has values: the message names the first few
    const issues = outcome.issues.slice(0, MAX_LISTED_ISSUES);
    const more = outcome.issues.length - issues.length;
    const list = issues.map((issue) => `${issue.path || "(input)"}: ${issue.message}`).join("; ");
    throw new CodemodeError(
      "INVALID_INPUT",
      `Invalid input for ${options.name}.${name}: ${list}${more > 0 ? `; and ${more} more` : ""}`,
      { details: { issues, ...(more > 0 ? { more } : {}) } },
    );
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
