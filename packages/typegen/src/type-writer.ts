import { arrayShape, comesBack, reachesEagerly, waits } from "./eager-positions.ts";
import { NameAllocator, toPascalCase } from "./identifier.ts";
import { formatJsDoc, schemaDocLines } from "./jsdoc.ts";
import {
  canonicalRef,
  DEFINITION_POINTER,
  hasTypeKeywords,
  isObject,
  type JsonSchemaObject,
  refOf,
  resolvePointer,
  toJsonSchema,
} from "./json-schema.ts";
import { boundText, METADATA_LIMITS } from "./metadata-limits.ts";

/** A rendered type and how tightly it binds: unions need parentheses inside `&` and `[]`. */
interface Rendered {
  text: string;
  binding: "union" | "intersection" | "atom";
}

interface Context {
  root: unknown;
  rootId: number;
  /** the schema the current declaration starts from, so `$ref: "#"` can name it */
  top: unknown;
  depth: number;
  indent: string;
  /** the property that led here, used to name anonymous recursive definitions */
  hint: string;
  owner: string;
  /** document with first sentences only (a connector's overview) */
  summary: boolean;
  /** what a caller sends: a field with a default may be left out */
  input: boolean;
  /**
   * Where TypeScript resolves a named type at once rather than later: the right-hand side of the
   * declaration, its unions and intersections and the tuples and arrays that do not wait
   * (`alias`), or the value of a `Record<string, …>` (`record`); inside an object literal, or a
   * tuple or array that waits, it waits (`false`), so recursion is only safe there (see
   * eager-positions.ts).
   */
  eager: "alias" | "record" | false;
  /** whether a tuple or array written here is where the declaration resolves it (not inside an optional or rest element) */
  chain: boolean;
}

interface NamedType {
  name: string;
  schema: unknown;
  root: unknown;
  rootId: number;
  /** set once rendered: the declaration (full and summary documentation) and the named types it refers to */
  texts: { full?: string; summary?: string };
  refs?: Set<string>;
  /** the declaration itself (a `$ref: "#"` back to a top-level type); never emitted separately */
  self?: boolean;
}

/** One `type X = …;` declaration and the named types it needs. */
export interface TypeDeclaration {
  name: string;
  text: string;
  refs: ReadonlySet<string>;
}

const UNKNOWN: Rendered = { text: "unknown", binding: "atom" };
const NEVER: Rendered = { text: "never", binding: "atom" };
const MAX_DEPTH = METADATA_LIMITS.depth;
const INLINE_WIDTH = 80;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** A property type short enough to repeat in an index signature's value (see `renderObject`). */
const SHORT_TYPE = 60;

function wrap(rendered: Rendered, needs: "intersection" | "atom"): string {
  const weaker =
    rendered.binding === "union" || (needs === "atom" && rendered.binding === "intersection");
  return weaker ? `(${rendered.text})` : rendered.text;
}

/** Each part once, in the order first seen (through a set: linear in the number of parts). */
function distinct(parts: readonly Rendered[]): Rendered[] {
  const seen = new Set<string>();
  const kept: Rendered[] = [];
  for (const part of parts) {
    if (seen.has(part.text)) continue;
    seen.add(part.text);
    kept.push(part);
  }
  return kept;
}

/** ` /* … and 4000 more values *\/` after the members shown, or nothing when all are. */
function more(count: number, what: string): string {
  return count > 0 ? ` /* … and ${count} more ${what} */` : "";
}

/** A union with `left` members left out, said in a comment after the last member shown. */
function union(parts: Rendered[], left = 0, what = "alternatives"): Rendered {
  if (parts.some((part) => part.text === "unknown")) return UNKNOWN;
  const kept = distinct(parts.filter((part) => part.text !== "never"));
  if (kept.length === 0) return NEVER;
  if (kept.length === 1 && left === 0) return kept[0] as Rendered;
  return {
    text: `${kept.map((part) => part.text).join(" | ")}${more(left, what)}`,
    binding: "union",
  };
}

function intersection(parts: Rendered[], left = 0): Rendered {
  const kept = distinct(parts.filter((part) => part.text !== "unknown"));
  if (kept.some((part) => part.text === "never")) return NEVER;
  if (kept.length === 0) return UNKNOWN;
  if (kept.length === 1 && left === 0) return kept[0] as Rendered;
  return {
    text: `${kept.map((part) => wrap(part, "intersection")).join(" & ")}${more(left, "parts")}`,
    binding: "intersection",
  };
}

/**
 * JSON text as TypeScript source, with U+2028 and U+2029 (which JSON leaves as they are) written as
 * escapes: a literal then reads as one line to whoever reads the declarations, and is one string to a
 * parser older than ES2019 too.
 */
function jsonSource(value: unknown): string | undefined {
  return JSON.stringify(value)?.replace(/[\u2028\u2029]/g, (character) =>
    character === "\u2028" ? "\\u2028" : "\\u2029",
  );
}

/** What a literal too long to show is written as: its type. */
function typeOfValue(value: unknown): Rendered {
  if (value === null) return { text: "null", binding: "atom" };
  if (typeof value === "string") return { text: "string", binding: "atom" };
  if (typeof value === "number") return { text: "number", binding: "atom" };
  if (typeof value === "boolean") return { text: "boolean", binding: "atom" };
  return UNKNOWN;
}

function literal(value: unknown): Rendered {
  if (value === null) return { text: "null", binding: "atom" };
  if (typeof value === "number" && !Number.isFinite(value))
    return { text: "number", binding: "atom" };
  // a value whose text is far longer than any literal worth reading is shown as its type
  if (typeof value === "string" && value.length > METADATA_LIMITS.literalLength)
    return typeOfValue(value);
  const text = jsonSource(value);
  if (text === undefined) return UNKNOWN;
  return text.length > METADATA_LIMITS.literalLength
    ? typeOfValue(value)
    : { text, binding: "atom" };
}

/**
 * An enumeration's first `METADATA_LIMITS.enumValues` values as literals; the rest are counted in a
 * comment, with the types they have (`"a" | "b" | string /* … and 49000 more values *\/`), so the
 * type still admits them. Values past the limit are never serialized.
 */
function enumeration(values: readonly unknown[]): Rendered {
  const limit = METADATA_LIMITS.enumValues;
  const shown = values.slice(0, limit).map(literal);
  const rest = new Map<string, Rendered>();
  for (let index = limit; index < values.length; index++) {
    const type = typeOfValue(values[index]);
    rest.set(type.text, type);
  }
  return union([...shown, ...rest.values()], Math.max(0, values.length - limit), "values");
}

/** Keywords whose values are data, not subschemas. */
const SKIPPED_KEYWORDS = new Set(["enum", "const", "examples", "example", "default"]);

/** What does not change an object's rendered type, in its JSON text: `$schema`, `$id`, `title`, `additionalProperties: false`. */
const IRRELEVANT_TEXT =
  /"(?:\$schema|\$id|title)":"(?:[^"\\]|\\.)*",?|"additionalProperties":false,?/g;

/** An enumeration this long is worth a name of its own when it repeats. */
const SHARED_ENUM_SIZE = 8;

/**
 * A key for an inline object schema with two or more properties and no reference inside, or for a
 * long enumeration, identical for schemas that render the same (`additionalProperties: false` and
 * annotations aside); otherwise `undefined`.
 */
function canonical(schema: JsonSchemaObject): string | undefined {
  try {
    return canonicalText(schema);
  } catch {
    // nested deeper than the serializer's stack (only a hostile schema is): never shared
    return undefined;
  }
}

function canonicalText(schema: JsonSchemaObject): string | undefined {
  if (Array.isArray(schema.enum) && schema.enum.length >= SHARED_ENUM_SIZE) {
    const nullable = schema.nullable === true || schema["x-nullable"] === true;
    return `enum:${nullable}:${JSON.stringify(schema.enum)}`;
  }
  if (!isObject(schema.properties) || Object.keys(schema.properties).length < 2) return undefined;
  // Serialized natively (a replacer function would cost more than the rest of building a catalog),
  // then cleared of what does not change the rendered type.
  const text = JSON.stringify(schema);
  if (text.includes('"$ref"')) return undefined;
  return text
    .replace(IRRELEVANT_TEXT, "")
    .replace(/,([}\]])/g, "$1")
    .replace(/\{,/g, "{");
}

function singular(word: string): string {
  if (/ies$/i.test(word)) return word.replace(/ies$/i, "y");
  if (/(?:ss|us|is)$/i.test(word)) return word;
  if (/(?:ches|shes|xes|sses)$/i.test(word)) return word.slice(0, -2);
  return word.replace(/s$/i, "");
}

/**
 * `dependentRequired` (2019-09 on) and the array form of draft-07's `dependencies`, as the JSDoc
 * line each property that makes others required gets: `@dependentRequired b, c`. The property types
 * stay as they are (optional stays optional: without the property, nothing is required).
 */
function dependentRequiredOf(schema: JsonSchemaObject): Map<string, string> | undefined {
  let lines: Map<string, string> | undefined;
  for (const source of [schema.dependentRequired, schema.dependencies]) {
    if (!isObject(source)) continue;
    for (const [property, needed] of Object.entries(source)) {
      if (!Array.isArray(needed) || needed.length === 0 || lines?.has(property)) continue;
      const names = needed.filter((name): name is string => typeof name === "string");
      if (names.length === 0) continue;
      lines ??= new Map();
      lines.set(
        property,
        `@dependentRequired ${boundText(names.join(", "), METADATA_LIMITS.tagLength)}`,
      );
    }
  }
  return lines;
}

/**
 * What a schema's own keywords mean once its applicators (`$ref`, `allOf`, `if`, …) are split off
 * and rendered apart: `unevaluatedProperties` and `unevaluatedItems` then no longer see the
 * properties and items those evaluate, so a schema-valued one is dropped (the type stays wider, as
 * it must: the parts are intersected); `false` stays, meaning what it meant for the rest.
 */
function beside(schema: JsonSchemaObject): Partial<JsonSchemaObject> {
  return {
    ...(schema.unevaluatedProperties !== undefined && schema.unevaluatedProperties !== false
      ? { unevaluatedProperties: undefined }
      : {}),
    ...(schema.unevaluatedItems !== undefined && schema.unevaluatedItems !== false
      ? { unevaluatedItems: undefined }
      : {}),
  };
}

/**
 * Renders JSON Schemas as TypeScript types. Definitions reached through `$defs`, `definitions` or
 * `components/schemas` become named types that are declared once and shared; any other reference
 * is inlined, unless it is recursive, in which case it is named too. A part that cannot be rendered
 * becomes `unknown`; nothing here throws.
 */
export class TypeWriter {
  private readonly named = new Map<string, NamedType>();
  private readonly rootIds = new WeakMap<object, number>();
  private readonly inlining: string[] = [];
  private refs = new Set<string>();
  private nextRootId = 1;
  /** set when a `Record<string, …>` value being rendered names a type that comes back to its owner */
  private recordCycle = false;
  /** canonical JSON of inline object schemas that repeat → the name they are declared under */
  private readonly repeated = new Map<string, string>();
  /** each schema's `canonical` key, worked out once: finding repeats and rendering both ask */
  private readonly keys = new WeakMap<JsonSchemaObject, string | undefined>();

  /** `scope`: the connector whose types this writer names (see `NameAllocator.allocate`) */
  constructor(
    private readonly names: NameAllocator = new NameAllocator(),
    private readonly scope?: string,
  ) {}

  /**
   * `type <name> = …;` for `schema`. Local `$ref`s resolve against `root` (the schema itself by
   * default, or the document it came from, such as an OpenAPI description).
   */
  declare(
    name: string,
    schema: unknown,
    options: { root?: unknown; doc?: readonly string[]; summary?: boolean; input?: boolean } = {},
  ): TypeDeclaration {
    const root = options.root ?? schema;
    const rootId = this.rootId(root);
    if (root === schema && isObject(schema))
      this.named.set(`${rootId}#`, { name, schema, root, rootId, self: true, texts: {} });
    const { rendered, refs } = this.collect(() =>
      this.render(schema, {
        root,
        rootId,
        top: schema,
        depth: 0,
        indent: "",
        hint: "",
        owner: name,
        summary: options.summary === true,
        input: options.input === true,
        eager: "alias",
        chain: true,
      }),
    );
    return {
      name,
      text: `${formatJsDoc(options.doc ?? [])}type ${name} = ${rendered.text};`,
      refs,
    };
  }

  private keyOf(schema: JsonSchemaObject): string | undefined {
    if (this.keys.has(schema)) return this.keys.get(schema);
    const key = canonical(schema);
    this.keys.set(schema, key);
    return key;
  }

  /**
   * Counts the inline object schemas (two or more properties, no `$ref` inside) and long enumerations
   * in `schemas` and inside the named `definitions` of their document, and makes those that occur more
   * than once named types, declared once: the same entity in a tool's input and output, the same body
   * in two operations, the same list of 300 categories in twenty places.
   */
  shareRepeated(schemas: Iterable<unknown>, definitions: Iterable<unknown> = []): void {
    // first sight of each shape: the property that led to it (for its name) and how often it occurs
    const seen = new Map<string, { hint: string; title: string | undefined; count: number }>();
    /** `definition`: a named definition itself, which is shared already; only its parts count */
    const visit = (node: unknown, depth: number, hint: string, definition = false): void => {
      if (depth > MAX_DEPTH || typeof node !== "object" || node === null) return;
      if (Array.isArray(node)) {
        for (const item of node) visit(item, depth + 1, hint);
        return;
      }
      const schema = node as JsonSchemaObject;
      const key = definition ? undefined : this.keyOf(schema);
      if (key !== undefined) {
        const known = seen.get(key);
        const title = typeof schema.title === "string" ? schema.title : undefined;
        if (known) known.count++;
        else seen.set(key, { hint, title, count: 1 });
      }
      for (const [keyword, value] of Object.entries(schema)) {
        if (SKIPPED_KEYWORDS.has(keyword)) continue;
        if ((keyword === "$defs" || keyword === "definitions") && isObject(value)) {
          for (const subschema of Object.values(value)) visit(subschema, depth + 1, hint, true);
        } else if (keyword === "properties" && isObject(value)) {
          for (const [property, subschema] of Object.entries(value))
            visit(subschema, depth + 1, property);
        } else visit(value, depth + 1, hint);
      }
    };
    for (const schema of schemas) visit(schema, 0, "");
    for (const schema of definitions) visit(schema, 0, "", true);
    for (const [key, { hint, title, count }] of seen) {
      if (count < 2 || this.repeated.has(key)) continue;
      const preferred = title?.trim() || singular(hint || "Item");
      this.repeated.set(key, this.names.allocate(toPascalCase(preferred), this.scope));
    }
  }

  /**
   * Names every definition of a document (`$defs`, `definitions`, `components/schemas`) up front, in
   * document order, so a type's name does not depend on which method was described first.
   */
  predeclare(root: unknown): void {
    if (!isObject(root)) return;
    const rootId = this.rootId(root);
    const components = isObject(root.components) ? root.components.schemas : undefined;
    const containers: Array<[string, unknown]> = [
      ["#/$defs", root.$defs],
      ["#/definitions", root.definitions],
      ["#/components/schemas", components],
    ];
    for (const [prefix, container] of containers) {
      if (!isObject(container)) continue;
      for (const [key, schema] of Object.entries(container)) {
        const anonymous = /^_*schema\d*$/i.test(key);
        if (anonymous && !(isObject(schema) && typeof schema.title === "string")) continue;
        const id = `${rootId}${prefix}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
        if (this.named.has(id)) continue;
        const name = this.names.allocate(
          anonymous ? toPascalCase(String((schema as JsonSchemaObject).title)) : toPascalCase(key),
          this.scope,
        );
        this.named.set(id, { name, schema, root, rootId, texts: {} });
      }
    }
  }

  /**
   * The declarations of the named types `refs` need, directly or through each other, nearest first;
   * those already in `emitted` are skipped, and those returned are added to it. Once `budget`
   * characters are spent, the remaining types are declared as opaque objects.
   */
  namedDeclarations(
    refs: Iterable<string>,
    options: { summary?: boolean; emitted?: Set<string>; budget?: number } = {},
  ): string[] {
    const mode = options.summary === true ? "summary" : "full";
    const order: string[] = [];
    const seen = options.emitted ?? new Set<string>();
    let budget = options.budget ?? Number.POSITIVE_INFINITY;
    const queue = [...refs];
    for (let next = 0; next < queue.length; next++) {
      const key = queue[next] as string;
      if (seen.has(key)) continue;
      seen.add(key);
      const named = this.named.get(key);
      if (!named || named.self) continue;
      if (budget <= 0) {
        // Past the budget, the nearest types have been declared: the rest stay opaque but valid.
        order.push(
          `/** Not expanded here: an object. */\ntype ${named.name} = Record<string, unknown>;`,
        );
        continue;
      }
      this.renderNamed(named, mode);
      const text = named.texts[mode] as string;
      budget -= text.length;
      order.push(text);
      queue.push(...(named.refs as Set<string>));
    }
    return order;
  }

  private rootId(root: unknown): number {
    if (!isObject(root)) return 0;
    let id = this.rootIds.get(root);
    if (id === undefined) {
      id = this.nextRootId++;
      this.rootIds.set(root, id);
    }
    return id;
  }

  private collect(render: () => Rendered): { rendered: Rendered; refs: Set<string> } {
    const outer = this.refs;
    this.refs = new Set();
    try {
      return { rendered: render(), refs: this.refs };
    } finally {
      this.refs = outer;
    }
  }

  private renderNamed(named: NamedType, mode: "full" | "summary"): void {
    if (named.texts[mode] !== undefined) return;
    named.texts[mode] = `type ${named.name} = unknown;`; // guards re-entry while rendering
    const { rendered, refs } = this.collect(() =>
      this.render(named.schema, {
        root: named.root,
        rootId: named.rootId,
        top: named.schema,
        depth: 0,
        indent: "",
        hint: "",
        owner: named.name,
        summary: mode === "summary",
        input: false,
        eager: "alias",
        chain: true,
      }),
    );
    const doc = isObject(named.schema)
      ? schemaDocLines(named.schema, { summary: true }).slice(0, 1)
      : [];
    named.texts[mode] = `${formatJsDoc(doc)}type ${named.name} = ${rendered.text};`;
    named.refs = refs;
  }

  private render(schema: unknown, context: Context): Rendered {
    if (context.depth > MAX_DEPTH) return UNKNOWN;
    try {
      return this.renderSchema(schema, context);
    } catch {
      return UNKNOWN;
    }
  }

  private renderSchema(schema: unknown, context: Context): Rendered {
    if (schema === false) return NEVER;
    if (!isObject(schema)) return UNKNOWN;
    const nullable = schema.nullable === true || schema["x-nullable"] === true;
    const withNull = (rendered: Rendered) =>
      nullable ? union([rendered, literal(null)]) : rendered;
    const next = { ...context, depth: context.depth + 1 };

    if (this.repeated.size > 0 && schema !== context.top) {
      const key = this.keyOf(schema);
      const shared = key === undefined ? undefined : this.repeated.get(key);
      if (key !== undefined && shared !== undefined)
        return this.renderShared(key, shared, schema, context);
    }

    const ref = refOf(schema);
    if (ref !== undefined) {
      const target = this.renderRef(canonicalRef(context.root, ref), context);
      // the keywords beside a reference (2019-09 on) hold too: the type is both
      const rest: JsonSchemaObject = {
        ...schema,
        $ref: undefined,
        $dynamicRef: undefined,
        ...beside(schema),
      };
      if (!hasTypeKeywords(rest)) return withNull(target);
      return withNull(intersection([target, this.render(rest, next)]));
    }
    if (schema.const !== undefined) return withNull(literal(schema.const));
    if (Array.isArray(schema.enum)) return withNull(enumeration(schema.enum));

    const parts: Rendered[] = [];
    const { allOf, anyOf, oneOf } = schema;
    const conditional = this.renderConditional(schema, next);
    if (
      Array.isArray(allOf) ||
      Array.isArray(anyOf) ||
      Array.isArray(oneOf) ||
      conditional !== undefined
    ) {
      const rest: JsonSchemaObject = {
        ...schema,
        allOf: undefined,
        anyOf: undefined,
        oneOf: undefined,
        if: undefined,
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, left out
        then: undefined,
        else: undefined,
        ...beside(schema),
      };
      if (hasTypeKeywords(rest)) parts.push(this.render(rest, next));
      if (conditional) parts.push(conditional);
      // Members that only add constraints (`required`, descriptions) do not change the type; past
      // `METADATA_LIMITS.schemaMembers` they are counted, not rendered.
      const members = (list: unknown) => {
        const typed = (Array.isArray(list) ? list : []).filter(
          (member) => !isObject(member) || hasTypeKeywords(member),
        );
        const shown = typed.slice(0, METADATA_LIMITS.schemaMembers);
        return {
          rendered: shown.map((member) => this.render(member, next)),
          left: typed.length - shown.length,
        };
      };
      const all = members(allOf);
      parts.push(...all.rendered);
      for (const list of [anyOf, oneOf]) {
        const alternatives = members(list);
        if (alternatives.rendered.length > 0)
          parts.push(union(alternatives.rendered, alternatives.left));
      }
      return withNull(intersection(parts, all.left));
    }

    const types = Array.isArray(schema.type)
      ? schema.type
      : typeof schema.type === "string"
        ? [schema.type]
        : [];
    if (types.length === 0) {
      if (
        schema.properties ||
        schema.additionalProperties !== undefined ||
        schema.unevaluatedProperties !== undefined ||
        schema.patternProperties
      ) {
        types.push("object");
      } else if (schema.items !== undefined || schema.prefixItems) {
        types.push("array");
      }
    }
    if (types.length === 0) return withNull(UNKNOWN);
    return withNull(union(types.map((type) => this.renderType(type, schema, context))));
  }

  /**
   * `if`/`then`/`else` as a type every valid value has: with both branches, a value either matches
   * `if` and `then`, or `else` (`(If & Then) | Else`); with `else` alone, it matches `if` or `else`;
   * with `then` alone it may match anything, so nothing is added. Never narrower than the schema,
   * since no part is (a part that cannot be rendered is `unknown`).
   */
  private renderConditional(schema: JsonSchemaObject, context: Context): Rendered | undefined {
    if (schema.if === undefined) return undefined;
    const hasThen = schema.then !== undefined;
    const hasElse = schema.else !== undefined;
    if (!hasElse) return undefined;
    const condition = this.render(schema.if, context);
    const otherwise = this.render(schema.else, context);
    if (!hasThen) return union([condition, otherwise]);
    return union([intersection([condition, this.render(schema.then, context)]), otherwise]);
  }

  private renderType(type: string, schema: JsonSchemaObject, context: Context): Rendered {
    switch (type) {
      case "string":
        return { text: "string", binding: "atom" };
      case "number":
      case "integer":
        return { text: "number", binding: "atom" };
      case "boolean":
        return { text: "boolean", binding: "atom" };
      case "null":
        return literal(null);
      case "array":
        return this.renderArray(schema, context);
      case "object":
        return this.renderObject(schema, context);
      default:
        return UNKNOWN;
    }
  }

  private renderArray(schema: JsonSchemaObject, context: Context): Rendered {
    const shape = arrayShape(schema);
    // What is inside waits when the array does; otherwise it is resolved as the array is, and an
    // optional or rest element's contents are no longer where the declaration resolves them.
    const lazy = context.eager === false || waits(shape, context.root, context.chain);
    const inside = (optional: boolean): Context => ({
      ...context,
      depth: context.depth + 1,
      eager: lazy ? false : context.eager,
      chain: context.chain && !optional,
    });
    if (shape.kind === "array") {
      const item = shape.item === undefined ? UNKNOWN : this.render(shape.item, inside(false));
      return { text: `${wrap(item, "atom")}[]`, binding: "atom" };
    }
    const elements = shape.elements.map(({ schema: element, optional }) => {
      const rendered = this.render(element, inside(optional));
      return optional ? `${wrap(rendered, "atom")}?` : rendered.text;
    });
    if (shape.hidden > 0) {
      // the elements past the limit, and any after them, are left open
      elements.push(`...unknown[]${more(shape.hidden, "elements")}`);
    } else if (shape.rest !== false) {
      const item = shape.rest === true ? UNKNOWN : this.render(shape.rest, inside(true));
      elements.push(`...${wrap(item, "atom")}[]`);
    }
    return { text: `[${elements.join(", ")}]`, binding: "atom" };
  }

  private renderObject(schema: JsonSchemaObject, context: Context): Rendered {
    const all = isObject(schema.properties) ? Object.entries(schema.properties) : [];
    // past the limit, properties are counted on a line of their own and the object is left open
    const properties = all.slice(0, METADATA_LIMITS.properties);
    const left = all.length - properties.length;
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const dependents = context.summary ? undefined : dependentRequiredOf(schema);
    const inner = `${context.indent} `;
    const lines: string[] = [];
    const types: Rendered[] = [];
    let documented = false;
    let someOptional = false;
    for (const [key, property] of properties) {
      const rendered = this.render(property, {
        ...context,
        depth: context.depth + 1,
        indent: inner,
        hint: key,
        eager: false,
      });
      types.push(rendered);
      const defaulted = context.input && isObject(property) && property.default !== undefined;
      const optional =
        defaulted || !(required.has(key) || (isObject(property) && property.required === true));
      if (optional) someOptional = true;
      const docLines = this.docLines(property, context);
      const needs = dependents?.get(key);
      if (needs) docLines.push(needs);
      // A summary keeps each field's documentation on one line.
      const doc = formatJsDoc(
        context.summary && docLines.length > 1 ? [docLines.join(" ")] : docLines,
        inner,
      );
      if (doc) documented = true;
      const name = IDENTIFIER.test(key) ? key : jsonSource(key);
      lines.push(`${doc}${inner}${name}${optional ? "?" : ""}: ${rendered.text};`);
    }

    const indexTypes: Rendered[] = [];
    const next: Context = { ...context, depth: context.depth + 1, indent: inner, eager: "record" };
    const outerCycle = this.recordCycle;
    this.recordCycle = false;
    if (isObject(schema.patternProperties)) {
      for (const pattern of Object.values(schema.patternProperties))
        indexTypes.push(this.render(pattern, next));
    }
    // `unevaluatedProperties` here has no applicator beside it (see `beside`): it reads as
    // `additionalProperties` does
    const additional =
      schema.additionalProperties !== undefined
        ? schema.additionalProperties
        : schema.unevaluatedProperties;
    if (isObject(additional)) indexTypes.push(this.render(additional, next));
    else if (additional === true && properties.length === 0) indexTypes.push(UNKNOWN);
    const index = indexTypes.length > 0 ? union(indexTypes) : undefined;
    // `Record<string, T>` inside T's own declaration circularly references itself; an index
    // signature waits
    const literalIndex = this.recordCycle;
    this.recordCycle = outerCycle;
    const record = (value: string) =>
      literalIndex ? `{ [key: string]: ${value} }` : `Record<string, ${value}>`;

    if (properties.length === 0) {
      if (index) return { text: record(index.text), binding: "atom" };
      if (additional === false || schema.properties) return { text: "{}", binding: "atom" };
      return { text: "Record<string, unknown>", binding: "atom" };
    }
    if (left > 0) {
      documented = true;
      lines.push(`${inner}// … and ${left} more properties`, `${inner}[key: string]: unknown;`);
    } else if (index && index.text !== "unknown") {
      // Other keys hold `index`. TypeScript wants every property's type within an index signature's
      // (`{ a: string } & Record<string, number>` would make `a` a `string & number`), an optional
      // one's `undefined` too: the value is the union of them all when the property types are
      // short, `unknown` when one is not, so no text is ever repeated at length.
      const short = types.every(
        (type) => type.text.length <= SHORT_TYPE && !type.text.includes("\n"),
      );
      const absent: Rendered[] = someOptional ? [{ text: "undefined", binding: "atom" }] : [];
      const value = short ? union([index, ...types, ...absent]).text : "unknown";
      lines.push(`${inner}[key: string]: ${value};`);
    }
    const oneLine = `{ ${lines
      .map((line) => line.trim())
      .join(" ")
      .replace(/;$/, "")} }`;
    const body =
      !documented &&
      !oneLine.includes("\n") &&
      oneLine.length + context.indent.length <= INLINE_WIDTH
        ? oneLine
        : `{\n${lines.join("\n")}\n${context.indent}}`;
    return { text: body, binding: "atom" };
  }

  /** A property's JSDoc: its own annotations, or those of the definition it inlines. */
  private docLines(property: unknown, context: Context): string[] {
    if (!isObject(property)) return [];
    const own = schemaDocLines(property, { summary: context.summary });
    if (own.length > 0 || typeof property.$ref !== "string") return own;
    if (DEFINITION_POINTER.test(property.$ref)) return [];
    const target = resolvePointer(context.root, property.$ref);
    return isObject(target) ? schemaDocLines(target, { summary: context.summary }) : [];
  }

  private renderRef(ref: string, context: Context): Rendered {
    const key = `${context.rootId}${ref}`;
    const known = this.named.get(key);
    if (known) {
      if (this.circular(known.schema, context)) return UNKNOWN;
      if (!known.self) this.refs.add(key);
      return { text: known.name, binding: "atom" };
    }
    const target = resolvePointer(context.root, ref);
    if (target === undefined) return UNKNOWN;
    const definition = DEFINITION_POINTER.exec(ref);
    if (definition || this.inlining.includes(key) || comesBack(context.root, ref, target)) {
      if (this.circular(target, context)) return UNKNOWN;
      const name = this.names.allocate(this.nameFor(definition?.[1], target, context), this.scope);
      this.named.set(key, {
        name,
        schema: target,
        root: context.root,
        rootId: context.rootId,
        texts: {},
      });
      this.refs.add(key);
      return { text: name, binding: "atom" };
    }
    this.inlining.push(key);
    try {
      return this.render(target, { ...context, depth: context.depth + 1 });
    } finally {
      this.inlining.pop();
    }
  }

  /**
   * Whether naming `target` here would make the declaration being written circularly reference
   * itself (`type T = T | string`): such a name degrades to `unknown`. In a `Record` value the
   * record becomes an index signature instead (see `renderObject`), so the name stays.
   */
  private circular(target: unknown, context: Context): boolean {
    if (context.eager === false) return false;
    const records = context.eager === "record";
    if (!reachesEagerly(context.root, target, context.top, records, context.chain)) return false;
    if (!records) return true;
    this.recordCycle = true;
    return false;
  }

  private renderShared(
    key: string,
    name: string,
    schema: JsonSchemaObject,
    context: Context,
  ): Rendered {
    if (!this.named.has(`~${key}`)) {
      this.named.set(`~${key}`, {
        name,
        schema,
        root: context.root,
        rootId: context.rootId,
        texts: {},
      });
    }
    this.refs.add(`~${key}`);
    return { text: name, binding: "atom" };
  }

  private nameFor(key: string | undefined, target: unknown, context: Context): string {
    const decoded =
      key === undefined
        ? undefined
        : decodeURIComponent(key).replace(/~1/g, "/").replace(/~0/g, "~");
    if (decoded !== undefined && !/^_*schema\d*$/i.test(decoded)) return toPascalCase(decoded);
    if (isObject(target) && typeof target.title === "string" && target.title.trim() !== "") {
      return toPascalCase(target.title);
    }
    return `${context.owner}${toPascalCase(context.hint || "Node")}`;
  }
}

/**
 * `type <name> = …;` for one schema (JSON Schema, Zod 4 or Standard Schema), after the named types
 * it needs.
 */
export function jsonSchemaToTypeScript(
  name: string,
  schema: unknown,
  options: { root?: unknown } = {},
): string {
  // the declaration's own name is taken first, so no definition is named like it
  const names = new NameAllocator();
  names.allocate(name);
  const writer = new TypeWriter(names);
  const declaration = writer.declare(name, toJsonSchema(schema), options);
  return [...writer.namedDeclarations(declaration.refs), declaration.text].join("\n\n");
}
