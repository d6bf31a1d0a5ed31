/**
 * A JSON Schema in any of the dialects the generator reads: draft-07, 2019-09, 2020-12 and the
 * OpenAPI 3.0/3.1 schema object (with `nullable`, `example`, Swagger's `x-nullable`).
 */
export type JsonSchema = boolean | JsonSchemaObject;

export interface JsonSchemaObject {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[] | boolean;
  additionalProperties?: JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  additionalItems?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  default?: unknown;
  examples?: unknown;
  example?: unknown;
  deprecated?: boolean;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  [keyword: string]: unknown;
}

/** Which side of a transforming schema to describe: what a caller passes in, or what comes out. */
export type SchemaSide = "input" | "output";

interface ZodLike {
  _zod: unknown;
  toJSONSchema(params: Record<string, unknown>): unknown;
}

interface StandardJsonSchemaLike {
  "~standard": {
    jsonSchema: {
      input(options: { target: string }): unknown;
      output(options: { target: string }): unknown;
    };
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isZod(value: unknown): value is ZodLike {
  return isObject(value) && "_zod" in value && typeof value.toJSONSchema === "function";
}

function isStandardJsonSchema(value: unknown): value is StandardJsonSchemaLike {
  if (!isObject(value)) return false;
  const standard = value["~standard"];
  return (
    isObject(standard) &&
    isObject(standard.jsonSchema) &&
    typeof standard.jsonSchema.input === "function"
  );
}

/**
 * Reads a schema as JSON Schema: Zod 4 through zod's own converter (parts JSON Schema cannot express,
 * such as `z.date()`, become `{}`), a Standard Schema that offers JSON Schema, the AI SDK's
 * `jsonSchema()` wrapper, or a JSON Schema as it is. Anything else, or a converter that fails, gives
 * `undefined`, which renders as `unknown`.
 */
export function toJsonSchema(schema: unknown, side: SchemaSide = "input"): JsonSchema | undefined {
  try {
    if (typeof schema === "boolean") return schema;
    if (!isObject(schema)) return undefined;
    if (isZod(schema)) {
      return schema.toJSONSchema({
        io: side,
        unrepresentable: "any",
        target: "draft-2020-12",
        cycles: "ref",
        reused: "inline",
      }) as JsonSchema;
    }
    if (isStandardJsonSchema(schema)) {
      return schema["~standard"].jsonSchema[side]({ target: "draft-2020-12" }) as JsonSchema;
    }
    // The AI SDK's `jsonSchema()` / `zodSchema()` wrappers carry the JSON Schema on `.jsonSchema`.
    if (Symbol.for("vercel.ai.schema") in schema && isObject(schema.jsonSchema)) {
      return schema.jsonSchema as JsonSchema;
    }
    if ("~standard" in schema) return undefined; // a Standard Schema without JSON Schema
    return schema as JsonSchemaObject;
  } catch {
    return undefined;
  }
}

/**
 * Resolves a local JSON pointer (`#/components/schemas/Pet`, `#/$defs/node`, `#`) inside `root`;
 * `undefined` when it points nowhere or is malformed (a bad percent-escape such as `#/%`).
 */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const path = ref.slice(1);
  if (path === "") return root;
  if (!path.startsWith("/")) return undefined; // `$anchor` references are not resolved
  let node: unknown = root;
  for (const raw of path.slice(1).split("/")) {
    const decoded = decodePointerSegment(raw);
    if (decoded === undefined) return undefined;
    const segment = decoded.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node) || !Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return node;
}

/** A pointer segment's percent-escapes decoded, or `undefined` for a malformed one. */
function decodePointerSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
