/**
 * A JSON Schema in any of the dialects the generator reads: draft-07, 2019-09, 2020-12 and the
 * OpenAPI 3.0/3.1 schema object (with `nullable`, `example`, Swagger's `x-nullable`).
 */
export type JsonSchema = boolean | JsonSchemaObject;

export interface JsonSchemaObject {
  $ref?: string;
  $dynamicRef?: string;
  $anchor?: string;
  $dynamicAnchor?: string;
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
  unevaluatedProperties?: JsonSchema;
  unevaluatedItems?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  dependentRequired?: Record<string, string[]>;
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

function isObjectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isZod(value: unknown): value is ZodLike {
  return isObjectLike(value) && "_zod" in value && typeof value.toJSONSchema === "function";
}

function isStandardJsonSchema(value: unknown): value is StandardJsonSchemaLike {
  if (!isObjectLike(value)) return false;
  const standard = value["~standard"];
  return (
    isObjectLike(standard) &&
    isObjectLike(standard.jsonSchema) &&
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
    if (!isObjectLike(schema)) return undefined;
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
    if (Symbol.for("vercel.ai.schema") in schema && isObjectLike(schema.jsonSchema)) {
      return schema.jsonSchema as JsonSchema;
    }
    if ("~standard" in schema) return undefined; // a Standard Schema without JSON Schema
    return schema as JsonSchemaObject;
  } catch {
    return undefined;
  }
}

/** Where a `$anchor` (or `$dynamicAnchor`) of a document is: its schema, and its pointer when short. */
interface Anchored {
  schema: unknown;
  /** `#` for the root, `#/$defs/<name>` or `#/definitions/<name>` for a definition of the root */
  pointer?: string;
}

const anchorIndexes = new WeakMap<object, Map<string, Anchored>>();

/** `~` and `/` escaped, then percent-encoded where a URI fragment needs it: a pointer segment. */
function pointerSegment(name: string): string {
  return encodeURIComponent(name.replace(/~/g, "~0").replace(/\//g, "~1"));
}

/**
 * The anchors of a document (2019-09 and 2020-12 `$anchor`, `$dynamicAnchor`), found once per
 * document by one walk over its objects and arrays (iterative: no depth exhausts the stack). The
 * first schema to claim a name keeps it.
 */
function anchorsOf(root: object): Map<string, Anchored> {
  const known = anchorIndexes.get(root);
  if (known) return known;
  const anchors = new Map<string, Anchored>();
  const claim = (name: unknown, anchored: Anchored) => {
    if (typeof name === "string" && name !== "" && !anchors.has(name)) anchors.set(name, anchored);
  };
  // an anchor on the root itself is the root: `#`
  const stack: Array<{ node: unknown; pointer?: string }> = [{ node: root, pointer: "#" }];
  const seen = new Set<object>();
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { node, pointer } = next;
    if (!isObjectLike(node) || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item });
      continue;
    }
    const anchored = pointer === undefined ? { schema: node } : { schema: node, pointer };
    claim(node.$anchor, anchored);
    claim(node.$dynamicAnchor, anchored);
    for (const [key, value] of Object.entries(node)) {
      // values of these keywords are data, never schemas that could hold an anchor
      if (key === "enum" || key === "const" || key === "default" || key === "examples") continue;
      if (node === root && (key === "$defs" || key === "definitions") && isObjectLike(value)) {
        for (const [name, definition] of Object.entries(value)) {
          stack.push({ node: definition, pointer: `#/${key}/${pointerSegment(name)}` });
        }
        continue;
      }
      stack.push({ node: value });
    }
  }
  anchorIndexes.set(root, anchors);
  return anchors;
}

/** Whether a reference names an anchor (`#name`) rather than a pointer (`#/…`) or the root (`#`). */
function isAnchorRef(ref: string): boolean {
  return ref.length > 1 && ref.startsWith("#") && ref[1] !== "/";
}

/**
 * The reference to use for `ref` inside `root`: an anchor (`#address`) of a definition of the root
 * becomes its pointer (`#/$defs/address`), so both spellings name one type; any other reference
 * stays as it is.
 */
export function canonicalRef(root: unknown, ref: string): string {
  if (!isAnchorRef(ref) || !isObjectLike(root)) return ref;
  const name = decodePointerSegment(ref.slice(1));
  return (name === undefined ? undefined : anchorsOf(root).get(name)?.pointer) ?? ref;
}

/**
 * Resolves a local reference inside `root`: a JSON pointer (`#/components/schemas/Pet`,
 * `#/$defs/node`, `#`) or an anchor (`#address`, from `$anchor` or `$dynamicAnchor`); `undefined`
 * when it points nowhere or is malformed (a bad percent-escape such as `#/%`). Nothing outside
 * `root` is ever fetched: any other URI resolves to nothing.
 */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const path = ref.slice(1);
  if (path === "") return root;
  if (!path.startsWith("/")) {
    if (!isObjectLike(root)) return undefined;
    const name = decodePointerSegment(path);
    return name === undefined ? undefined : anchorsOf(root).get(name)?.schema;
  }
  let node: unknown = root;
  for (const raw of path.slice(1).split("/")) {
    const decoded = decodePointerSegment(raw);
    if (decoded === undefined) return undefined;
    const segment = decoded.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObjectLike(node) || !Object.hasOwn(node, segment)) return undefined;
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

/** A schema object (not an array, not `true` or `false`). */
export function isObject(value: unknown): value is JsonSchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The reference a schema makes: `$ref`, or `$dynamicRef` (read as a `$ref` to its anchor). */
export function refOf(schema: Record<string, unknown>): string | undefined {
  if (typeof schema.$ref === "string") return schema.$ref;
  return typeof schema.$dynamicRef === "string" ? schema.$dynamicRef : undefined;
}

/** References into these containers name a reusable definition; it becomes a named type. */
export const DEFINITION_POINTER = /\/(?:\$defs|definitions|components\/schemas)\/([^/]+)$/;

const TYPE_KEYWORDS = [
  "type",
  "properties",
  "additionalProperties",
  "patternProperties",
  "items",
  "prefixItems",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "if",
  "$ref",
  "$dynamicRef",
];

/** Whether `schema` has a keyword that shapes its type (other than `except`). */
export function hasTypeKeywords(schema: JsonSchemaObject, except?: string): boolean {
  return TYPE_KEYWORDS.some((keyword) => keyword !== except && schema[keyword] !== undefined);
}
