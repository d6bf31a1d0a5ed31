import { type OutputUnit, type SchemaDraft, Validator } from "@cfworker/json-schema";
import { CodemodeError } from "@codemode/core";
import { messageOf } from "@codemode/core/internal";
import {
  type JsonSchema,
  type JsonSchemaObject,
  type SchemaSide,
  toJsonSchema,
} from "@codemode/typegen";
import type { StandardSchema } from "./method-schema.ts";

/** One reason an input was refused: where (a dotted path, "" for the whole input) and why. */
export interface Issue {
  path: string;
  message: string;
}

/** Checks an input: the value to pass on (a Standard Schema may change it), or the issues. */
export type Validate = (input: unknown) => Promise<{ value: unknown } | { issues: Issue[] }>;

/** A method's schema made ready: the JSON Schema the model reads and the input check. */
export interface CompiledSchema {
  /** `undefined` when the method has no schema */
  jsonSchema: JsonSchema | undefined;
  validate: Validate;
}

const AI_SDK_SCHEMA = Symbol.for("vercel.ai.schema");

const unchecked: Validate = async (input) => ({ value: input });

function isObject(value: unknown): value is Record<PropertyKey, unknown> {
  return typeof value === "object" && value !== null;
}

/** An object that can be a JSON Schema: not an array, not a promise. */
function isJsonObject(value: unknown): value is JsonSchemaObject {
  return isObject(value) && !Array.isArray(value) && typeof value.then !== "function";
}

/** What a value that is not a schema is, for the error. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "function") return "a function (a lazy schema? pass the schema it returns)";
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === "number" || typeof value === "bigint") return `the number ${String(value)}`;
  return `a ${typeof value}`;
}

function draftOf(schema: JsonSchema): SchemaDraft {
  const uri =
    typeof schema === "object" && typeof schema.$schema === "string" ? schema.$schema : "";
  if (uri.includes("draft-04")) return "4";
  if (uri.includes("draft-07") || uri.includes("draft-06")) return "7";
  if (uri.includes("2019-09")) return "2019-09";
  return "2020-12";
}

function jsonSchemaValidator(schema: JsonSchema, refuse: (problem: string) => Error): Validate {
  if (schema === true) return unchecked;
  let validator: Validator;
  try {
    validator = new Validator(schema as never, draftOf(schema), false);
  } catch (error) {
    throw refuse(`is not a JSON Schema that can be checked: ${messageOf(error)}`);
  }
  return async (input) => {
    const result = validator.validate(input);
    if (result.valid) return { value: input };
    // the most specific errors: those at the deepest instance location
    const deepest = (unit: OutputUnit) => unit.instanceLocation.split("/").length;
    let depth = 0;
    for (const unit of result.errors) depth = Math.max(depth, deepest(unit));
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

function standardValidator(schema: StandardSchema): Validate {
  return async (input) => {
    const result = await schema["~standard"].validate(input);
    if (!result.issues) return { value: result.value };
    return {
      issues: result.issues.map((issue) => ({
        path: (issue.path ?? [])
          .map((segment) => String(isObject(segment) ? segment.key : segment))
          .join("."),
        message: issue.message,
      })),
    };
  };
}

/** Why a Standard Schema gave no JSON Schema, and what to do instead. */
function noJsonSchema(
  schema: Record<PropertyKey, unknown>,
  standard: Record<PropertyKey, unknown>,
) {
  const vendor = typeof standard.vendor === "string" ? standard.vendor : "unknown";
  const what = `is a Standard Schema (vendor "${vendor}")`;
  const unknownType = "so the model could not be told its type";
  if (isObject(standard.jsonSchema) || typeof schema.toJSONSchema === "function") {
    return `${what} whose conversion to JSON Schema failed, ${unknownType}.`;
  }
  if ("_zod" in schema) {
    return `${what} without a JSON Schema converter (Zod Mini), ${unknownType}. Use schemas from "zod" itself.`;
  }
  const advice =
    vendor === "zod"
      ? ' Zod 3 has no JSON Schema conversion: use Zod 4 (`import { z } from "zod/v4"` works from zod 3.25 on).'
      : " Use a library that implements Standard JSON Schema (`~standard.jsonSchema`), or JSON Schema typed with jsonSchema<T>().";
  return `${what} that offers no JSON Schema, ${unknownType}.${advice}`;
}

/**
 * Reads a method's `inputSchema` or `outputSchema`: a Standard Schema (Zod included) validates
 * through its own `~standard.validate` and describes itself through Zod's converter or the
 * Standard JSON Schema extension; the AI SDK's schema object and JSON Schema validate as JSON
 * Schema. Anything else, or a schema that cannot say its JSON Schema, throws `INVALID_CONFIG`
 * naming `where`.
 */
export function compileSchema(schema: unknown, side: SchemaSide, where: string): CompiledSchema {
  if (schema === undefined) return { jsonSchema: undefined, validate: unchecked };
  const refuse = (problem: string) => new CodemodeError("INVALID_CONFIG", `${where} ${problem}`);
  if (typeof schema === "boolean") {
    return { jsonSchema: schema, validate: jsonSchemaValidator(schema, refuse) };
  }
  if (!isObject(schema) || Array.isArray(schema)) {
    throw refuse(
      `is ${kindOf(schema)}, not a schema: give Zod, a Standard Schema (Valibot, ArkType…) or JSON Schema (an object).`,
    );
  }
  if ("~standard" in schema) {
    const standard = schema["~standard"];
    if (!isObject(standard) || typeof standard.validate !== "function") {
      throw refuse(
        "has a `~standard` property without a validate function: it is not a Standard Schema.",
      );
    }
    const jsonSchema = toJsonSchema(schema, side);
    if (typeof jsonSchema !== "boolean" && !isJsonObject(jsonSchema)) {
      throw refuse(noJsonSchema(schema, standard));
    }
    return { jsonSchema, validate: standardValidator(schema as unknown as StandardSchema) };
  }
  if (AI_SDK_SCHEMA in schema) {
    let jsonSchema: unknown;
    try {
      jsonSchema = schema.jsonSchema;
    } catch (error) {
      throw refuse(`is an AI SDK schema whose JSON Schema failed: ${messageOf(error)}`);
    }
    if (typeof jsonSchema !== "boolean" && !isJsonObject(jsonSchema)) {
      throw refuse(
        "is an AI SDK schema without a JSON Schema object at hand (an asynchronous one is not supported).",
      );
    }
    return { jsonSchema, validate: jsonSchemaValidator(jsonSchema, refuse) };
  }
  return { jsonSchema: schema, validate: jsonSchemaValidator(schema, refuse) };
}
