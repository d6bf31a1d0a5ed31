// Where TypeScript resolves a type at once while it reads a type alias, so that a reference back to
// the alias there "circularly references itself" (TS2456), and where it waits.
//
// A union, an intersection or a `Record<string, …>` value is resolved with the alias. A tuple or an
// array type waits only when it sits where the alias resolves it (its parents up to the alias are
// unions, intersections, arrays, tuples or type arguments, not an optional or rest element) and one
// of its elements names a type alias (`[A, string]`, `A[]`, `[x?: A]`, `[...A[]]`); otherwise it is
// resolved at once with everything in it (`[[A]?]`, `[...[A][]]` and `[[A][]?]` in a union all
// resolve `A`). An object literal's members always wait. The writer uses the same rules, so a
// reference is written where it waits and degrades to `unknown` where it would not.
import {
  canonicalRef,
  DEFINITION_POINTER,
  hasTypeKeywords,
  isObject,
  type JsonSchemaObject,
  refOf,
  resolvePointer,
} from "./json-schema.ts";
import { METADATA_LIMITS } from "./metadata-limits.ts";

/** A tuple's element as the writer writes it: required, or optional (`X?`). */
export interface TupleElement {
  schema: unknown;
  optional: boolean;
}

/** An array schema as the writer writes it. */
export type ArrayShape =
  /** `X[]`, or `unknown[]` when `item` is undefined */
  | { kind: "array"; item: unknown }
  | {
      kind: "tuple";
      /** the listed elements shown, at most `METADATA_LIMITS.schemaMembers` */
      elements: TupleElement[];
      /** listed elements past the limit: written `...unknown[]` with their count */
      hidden: number;
      /** what may follow the listed ones, written `...X[]`: a schema, `true` (anything) or `false` */
      rest: unknown;
    };

/**
 * What an array schema's elements are: `prefixItems` (2020-12) or an `items` array (draft-07,
 * 2019-09) make a tuple, followed by `items` after `prefixItems`, `additionalItems` after an
 * `items` array, else `unevaluatedItems` (none of them: anything may follow; `false`, or `maxItems`
 * at most the listed length: nothing may). Elements past `minItems` are optional.
 */
export function arrayShape(schema: JsonSchemaObject): ArrayShape {
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : undefined;
  if (!tuple) return { kind: "array", item: schema.items };
  const after = Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems;
  const follows = after !== undefined ? after : schema.unevaluatedItems;
  const maxItems =
    typeof schema.maxItems === "number" && schema.maxItems >= 0
      ? Math.floor(schema.maxItems)
      : Number.POSITIVE_INFINITY;
  // only the elements shown are copied: a tuple may list a million
  const listed = Math.min(tuple.length, maxItems);
  const closed = follows === false || maxItems <= listed;
  const minimum = typeof schema.minItems === "number" ? schema.minItems : 0;
  const shown = tuple.slice(0, Math.min(listed, METADATA_LIMITS.schemaMembers));
  return {
    kind: "tuple",
    elements: shown.map((item, index) => ({ schema: item, optional: index >= minimum })),
    hidden: listed - shown.length,
    rest:
      closed || Array.isArray(follows)
        ? false
        : follows === undefined
          ? true
          : (follows as unknown),
  };
}

/** Whether a schema is written as an array type (alone or as one member of a union of types). */
function isArraySchema(schema: JsonSchemaObject): boolean {
  const type = schema.type;
  if (type === "array" || (Array.isArray(type) && type.includes("array"))) return true;
  return type === undefined && (schema.items !== undefined || Array.isArray(schema.prefixItems));
}

/** True when `schema` reaches `ref` again through its own subschemas and inlined references. */
function refersTo(root: unknown, schema: unknown, ref: string): boolean {
  const seen = new Set<unknown>();
  const stack = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    const written = refOf(node as Record<string, unknown>);
    const nested = written === undefined ? undefined : canonicalRef(root, written);
    if (nested !== undefined) {
      if (nested === ref) return true;
      if (!DEFINITION_POINTER.test(nested)) stack.push(resolvePointer(root, nested));
    }
    for (const value of Object.values(node)) if (typeof value === "object") stack.push(value);
  }
  return false;
}

/** root → canonical reference → whether the reference's target reaches it again */
const recursive = new WeakMap<object, Map<string, boolean>>();

/**
 * Whether `target`, what the canonical reference `ref` points at in `root`, reaches `ref` again
 * (the writer names such a reference rather than inlining it): worked out once per document.
 */
export function comesBack(root: unknown, ref: string, target: unknown): boolean {
  if (typeof root !== "object" || root === null) return refersTo(root, target, ref);
  let known = recursive.get(root);
  if (!known) {
    known = new Map();
    recursive.set(root, known);
  }
  let answer = known.get(ref);
  if (answer === undefined) {
    answer = refersTo(root, target, ref);
    known.set(ref, answer);
  }
  return answer;
}

/**
 * Whether `schema` is written as a type alias's name, alone or in a union or intersection: a `$ref`
 * with no type keyword beside it, to a definition or to a schema that comes back to itself (what
 * the writer names rather than inlines), resolvable within `root`.
 */
export function namesType(root: unknown, schema: unknown): boolean {
  if (!isObject(schema) || typeof schema.$ref !== "string" || hasTypeKeywords(schema, "$ref"))
    return false;
  const ref = canonicalRef(root, schema.$ref);
  const target = resolvePointer(root, ref);
  if (target === undefined) return false;
  return DEFINITION_POINTER.test(ref) || comesBack(root, ref, target);
}

/**
 * Whether TypeScript waits to resolve a tuple or array written where the alias resolves it
 * (`chain`): one of its elements names a type alias.
 */
export function waits(shape: ArrayShape, root: unknown, chain: boolean): boolean {
  if (!chain) return false;
  if (shape.kind === "array") return namesType(root, shape.item);
  return (
    shape.elements.some((element) => namesType(root, element.schema)) ||
    (shape.hidden === 0 && namesType(root, shape.rest))
  );
}

/**
 * True when `from` reaches `goal` where TypeScript resolves at once: through references, `allOf`,
 * `anyOf`, `oneOf` and conditions, into tuples and arrays that do not wait (see `waits`), and, with
 * `records`, through additional and pattern properties. A type alias that comes back to itself that
 * way "circularly references itself". `chain` says whether `from` is written where the alias
 * resolves it.
 */
export function reachesEagerly(
  root: unknown,
  from: unknown,
  goal: unknown,
  records: boolean,
  chain = true,
): boolean {
  // a node is visited at most twice: where the alias resolves it, and where it does not
  const seen = [new Set<unknown>(), new Set<unknown>()] as const;
  const stack: [unknown, boolean][] = [[from, chain]];
  while (stack.length > 0) {
    const [node, resolved] = stack.pop() as [unknown, boolean];
    if (!isObject(node)) continue;
    if (node === goal) return true;
    const visited = seen[resolved ? 1 : 0];
    if (visited.has(node)) continue;
    visited.add(node);
    const ref = refOf(node);
    if (ref !== undefined) stack.push([resolvePointer(root, ref), resolved]);
    for (const list of [node.allOf, node.anyOf, node.oneOf])
      if (Array.isArray(list)) for (const member of list) stack.push([member, resolved]);
    stack.push([node.if, resolved], [node.then, resolved], [node.else, resolved]);
    if (records) {
      stack.push([node.additionalProperties, resolved]);
      if (isObject(node.patternProperties))
        for (const value of Object.values(node.patternProperties)) stack.push([value, resolved]);
    }
    if (!isArraySchema(node)) continue;
    const shape = arrayShape(node);
    if (waits(shape, root, resolved)) continue;
    if (shape.kind === "array") {
      stack.push([shape.item, resolved]);
      continue;
    }
    for (const element of shape.elements)
      stack.push([element.schema, resolved && !element.optional]);
    stack.push([shape.rest, false]);
  }
  return false;
}
