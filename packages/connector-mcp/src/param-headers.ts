// SEP-2243 (MCP 2026-07-28): a tool's inputSchema may mark a property with `x-mcp-header: "Name"`;
// over Streamable HTTP the client then mirrors that argument into an `Mcp-Param-Name` request
// header, and a tool whose marks break the rules must not be offered at all. The SDK does both in
// `listTools()` and `callTool()`, which the connector does not use for the whole schema (see
// mcp-connector.ts): this module reads the marks itself, in one pass linear in the schema, and
// hands `callTool` a schema of the marked properties alone.

/** The schema keyword that marks a property to be sent as a header. */
const HEADER_KEY = "x-mcp-header";

/** RFC 9110 `token`: one or more of the characters allowed in a header name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Types a marked property may have: string, integer and boolean, as the specification says (and the
 * official conformance suite checks since 0.2.0-alpha.12). SDK 2.4's own `listTools()` also lets
 * `number` through, which an earlier suite expected.
 */
const HEADER_TYPES: ReadonlySet<unknown> = new Set(["string", "integer", "boolean"]);

/** Keywords whose value is one subschema, where a mark is out of reach of a `properties` chain. */
const ONE_SCHEMA = [
  "items",
  "additionalItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
] as const;
/** Keywords whose value is an array of subschemas. */
const SCHEMA_ARRAYS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = [
  "$defs",
  "definitions",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
] as const;

/** Marks a tool may have: each is a request header, and each costs its depth to read. */
const MAX_HEADER_PARAMS = 64;
/** How deep among the arguments a mark may sit (the SDK reads the marks it is given recursively). */
const MAX_HEADER_DEPTH = 64;

/** One marked property: where it is among the arguments, its header name and its type. */
export interface HeaderParam {
  path: readonly string[];
  header: string;
  type: string;
}

/** The marks of one inputSchema, or why the tool must be left out. */
export type HeaderParams =
  | { valid: true; params: readonly HeaderParam[] }
  | { valid: false; reason: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Stands for the place of a subschema not reached by `properties` alone. */
const UNREACHABLE = Symbol("unreachable");

/** A property name and the one above it: paths shared, not copied, so deep chains stay linear. */
interface Step {
  name: string;
  up: Step | null;
}

/** The property names from the root to this step, or undefined past `max` of them. */
function namesOf(step: Step | null, max: number): string[] | undefined {
  const names: string[] = [];
  for (let at = step; at !== null; at = at.up) {
    if (names.length === max) return undefined;
    names.push(at.name);
  }
  return names.reverse();
}

/**
 * The `x-mcp-header` marks of a tool's inputSchema, checked against SEP-2243: a mark sits on a
 * property reached from the root by `properties` alone (not under `items`, a combinator, a
 * condition, `$defs` or a `$ref` target), names a header with a token of RFC 9110, marks a property
 * of a primitive type, and no two marks name the same header in any case. Iterative: no schema is
 * deep enough to exhaust the stack, and each subschema is visited once.
 */
export function readHeaderParams(inputSchema: unknown): HeaderParams {
  const params: HeaderParam[] = [];
  const seen = new Set<string>();
  // three stacks side by side, not an object per subschema: a schema of a million properties
  // allocates little more than the stacks. A subschema reached by `properties` alone carries its
  // name and the step above it (null: the root); any other carries `unreachable`.
  const schemas: unknown[] = [inputSchema];
  const names: Array<string | undefined> = [undefined];
  const ups: Array<Step | null | typeof UNREACHABLE> = [null];
  while (schemas.length > 0) {
    const schema = schemas.pop();
    const name = names.pop();
    const up = ups.pop() as Step | null | typeof UNREACHABLE;
    if (!isRecord(schema)) continue;
    const hasMark = Object.hasOwn(schema, HEADER_KEY);
    const properties = isRecord(schema.properties) ? schema.properties : undefined;
    const path: Step | null | typeof UNREACHABLE =
      up === UNREACHABLE ? UNREACHABLE : name === undefined ? null : { name, up };
    if (hasMark) {
      const header = schema[HEADER_KEY];
      if (path === UNREACHABLE || path === null) {
        return {
          valid: false,
          reason: `${HEADER_KEY} on a schema that is no property reached through "properties" alone`,
        };
      }
      if (typeof header !== "string" || !TOKEN.test(header)) {
        return { valid: false, reason: `an ${HEADER_KEY} that is no header name` };
      }
      if (!HEADER_TYPES.has(schema.type)) {
        return {
          valid: false,
          reason: `${HEADER_KEY} on a property that is not a string, integer or boolean`,
        };
      }
      const lower = header.toLowerCase();
      if (seen.has(lower)) {
        return { valid: false, reason: `two properties with one ${HEADER_KEY}, in any case` };
      }
      const where = namesOf(path, MAX_HEADER_DEPTH);
      if (where === undefined) {
        return {
          valid: false,
          reason: `an ${HEADER_KEY} deeper than ${MAX_HEADER_DEPTH} properties`,
        };
      }
      if (seen.size === MAX_HEADER_PARAMS) {
        return { valid: false, reason: `more than ${MAX_HEADER_PARAMS} ${HEADER_KEY} properties` };
      }
      seen.add(lower);
      params.push({ path: where, header, type: schema.type as string });
    }
    if (properties) {
      for (const key in properties) {
        if (!Object.hasOwn(properties, key)) continue;
        const child = properties[key];
        // a property that is no schema object holds no mark
        if (!isRecord(child)) continue;
        schemas.push(child);
        names.push(key);
        ups.push(path);
      }
    }
    for (const keyword of ONE_SCHEMA) {
      if (!Object.hasOwn(schema, keyword)) continue;
      schemas.push(schema[keyword]);
      names.push(undefined);
      ups.push(UNREACHABLE);
    }
    for (const keyword of SCHEMA_ARRAYS) {
      const list = schema[keyword];
      if (!Array.isArray(list)) continue;
      for (const child of list) {
        schemas.push(child);
        names.push(undefined);
        ups.push(UNREACHABLE);
      }
    }
    for (const keyword of SCHEMA_MAPS) {
      const map = schema[keyword];
      if (!isRecord(map)) continue;
      for (const key in map) {
        if (!Object.hasOwn(map, key)) continue;
        schemas.push(map[key]);
        names.push(undefined);
        ups.push(UNREACHABLE);
      }
    }
  }
  return { valid: true, params };
}

/** Sets an own property, even one named `__proto__`. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A schema of the marked properties alone, for `client.callTool` to read the marks from. */
export function headerSchema(params: readonly HeaderParam[]): Record<string, unknown> {
  const root: Record<string, unknown> = { type: "object", properties: {} };
  for (const { path, header, type } of params) {
    let node = root;
    path.forEach((name, index) => {
      const properties = node.properties as Record<string, Record<string, unknown>>;
      if (index === path.length - 1) {
        define(properties, name, { type, [HEADER_KEY]: header });
        return;
      }
      if (!Object.hasOwn(properties, name) || !isRecord(properties[name]?.properties)) {
        define(properties, name, { type: "object", properties: {} });
      }
      node = properties[name] as Record<string, unknown>;
    });
  }
  return root;
}
