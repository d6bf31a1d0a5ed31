import { createNameMap, type NameAllocator, toPascalCase } from "./identifier.ts";
import { firstSentence, formatJsDoc } from "./jsdoc.ts";
import { type JsonSchema, type JsonSchemaObject, toJsonSchema } from "./json-schema.ts";
import { boundText, METADATA_LIMITS } from "./metadata-limits.ts";
import { type TypeDeclaration, TypeWriter } from "./type-writer.ts";

/** A method a connector offers, as the catalog reads it. */
export interface MethodDefinition {
  /** the name as the connector knows it (an MCP tool name, an operationId, …) */
  name: string;
  description?: string;
  /** JSON Schema, a Zod 4 schema or a Standard Schema with JSON Schema */
  inputSchema?: unknown;
  outputSchema?: unknown;
  requiresApproval?: boolean;
  /** extra words that name the method for search: HTTP method and path, tags, … */
  keywords?: readonly string[];
}

/** A connector: one sandbox global whose methods come from a catalog. */
export interface ConnectorDefinition {
  name: string;
  /** one or two lines on what the connector is for; the tool description shows the first line */
  instructions?: string;
  methods: readonly MethodDefinition[];
  /** the document local `$ref`s in the schemas resolve against (for example an OpenAPI description) */
  schemaRoot?: unknown;
}

/** One method as the sandbox sees it. */
export interface DeclaredMethod {
  /** identifier in the sandbox */
  readonly name: string;
  /** name in the connector */
  readonly original: string;
  /** `connector.method` */
  readonly path: string;
  readonly description: string | undefined;
  readonly requiresApproval: boolean;
  readonly keywords: readonly string[];
  /** JSON Schema of the input, as read (for search over parameter names) */
  readonly inputSchema: JsonSchema | undefined;
}

interface RenderedMethod {
  /** the method's identifier */
  name: string;
  input: TypeDeclaration;
  output: TypeDeclaration;
  signature: string;
  /** rendered with first-sentence documentation */
  summary: boolean;
}

/** The declarations of the platform SDK every sandbox has as `codemode`. */
export const CODEMODE_SDK_DECLARATION = `type SearchOutput = {
 results: Array<{
  path: string;
  connector: string;
  method: string;
  description?: string;
  kind: "method" | "snippet";
  score: number;
 }>;
 total: number;
 truncated: boolean;
};

type DescribeOutput = {
 path: string;
 description?: string;
 types: string;
 kind: "connector" | "method" | "snippet";
};

declare const codemode: {
 /** Ranked paths of connector methods and saved snippets for a query in your own words. */
 search(query: string): Promise<SearchOutput>;
 /** TypeScript declarations of a connector ("github"), a method ("github.create_issue") or a snippet. */
 describe(target: string): Promise<DescribeOutput>;
 /** Runs fn once and records its value; when the run resumes, the recorded value is returned instead. */
 step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
 /** Runs a saved snippet with an optional input and returns its result, or { error } when a connector it needs is not configured now; throws when no snippet has the name or it does not parse. */
 run(name: string, input?: unknown): Promise<unknown>;
};`;

function acceptsNoInput(schema: JsonSchema | undefined): boolean {
  if (schema === undefined || schema === true) return true;
  if (typeof schema !== "object") return false;
  // a required field with a default may still be left out by the caller
  const needed = (node: JsonSchemaObject, key: string): boolean => {
    const property = node.properties?.[key];
    return !(typeof property === "object" && property !== null && property.default !== undefined);
  };
  const required = (node: JsonSchemaObject): boolean =>
    (Array.isArray(node.required) && node.required.some((key) => needed(node, key))) ||
    (Array.isArray(node.allOf) &&
      node.allOf.some((part) => typeof part === "object" && required(part)));
  const objectLike =
    schema.type === undefined || schema.type === "object" || schema.properties !== undefined;
  return objectLike && !required(schema) && schema.$ref === undefined;
}

/** The named definitions of a document: `$defs`, `definitions` and OpenAPI's `components.schemas`. */
function definitionsOf(root: unknown): unknown[] {
  if (typeof root !== "object" || root === null) return [];
  const document = root as JsonSchemaObject & {
    components?: { schemas?: Record<string, unknown> };
  };
  return [document.$defs, document.definitions, document.components?.schemas].flatMap(
    (container) =>
      typeof container === "object" && container !== null ? Object.values(container) : [],
  );
}

/**
 * The TypeScript a model reads for one connector: `type XInput`, `type XOutput` and
 * `declare const <name>: { method(input: XInput): Promise<XOutput>; }`, for all methods or one.
 * Rendering is lazy and remembered; named types (OpenAPI components, `$defs`) are shared.
 */
export class ConnectorDeclarations {
  readonly name: string;
  readonly original: string;
  readonly instructions: string | undefined;
  readonly methods: readonly DeclaredMethod[];
  /** each method's output as JSON Schema, read once so its identity is stable */
  private readonly outputs = new Map<string, JsonSchema | undefined>();
  private readonly byIdentifier = new Map<string, DeclaredMethod>();
  private readonly byOriginal = new Map<string, DeclaredMethod>();
  private readonly rendered = new Map<string, RenderedMethod>();
  private readonly typeNames = new Map<string, { input: string; output: string }>();
  private readonly writer: TypeWriter;
  private readonly scope: string;
  private prepared = false;
  private everything: string | undefined;

  constructor(
    private readonly definition: ConnectorDefinition,
    identifier: string,
    private readonly names: NameAllocator,
    /** prepares this connector and the others of its catalog, in catalog order (see `prepare`) */
    private readonly prepareAll: () => void,
  ) {
    this.name = identifier;
    this.original = definition.name;
    this.instructions = bounded(definition.instructions, METADATA_LIMITS.instructionsLength);
    this.scope = toPascalCase(identifier);
    this.writer = new TypeWriter(names, this.scope);
    const map = createNameMap(
      definition.methods.map((method) => method.name),
      { kind: `method of connector "${definition.name}"` },
    );
    this.methods = definition.methods.map((method) => {
      const name = map.identifiers.get(method.name) as string;
      this.outputs.set(name, toJsonSchema(method.outputSchema, "output"));
      const declared: DeclaredMethod = {
        name,
        original: method.name,
        path: `${identifier}.${name}`,
        description: bounded(method.description, METADATA_LIMITS.descriptionLength),
        requiresApproval: method.requiresApproval === true,
        keywords: method.keywords ?? [],
        inputSchema: toJsonSchema(method.inputSchema, "input"),
      };
      this.byIdentifier.set(name, declared);
      this.byOriginal.set(method.name, declared);
      return declared;
    });
  }

  /**
   * Hands out the names of the method types and of the shared and named types, once. It runs before
   * the first declaration is written, not when the catalog is made (on a large API most of making
   * it), and for every connector of a catalog in catalog order, so that names do not depend on which
   * method or connector is described first.
   */
  prepare(): void {
    if (this.prepared) return;
    this.prepared = true;
    for (const method of this.methods) {
      const pascal = toPascalCase(method.name);
      this.typeNames.set(method.name, {
        input: this.names.allocate(`${pascal}Input`, this.scope),
        output: this.names.allocate(`${pascal}Output`, this.scope),
      });
    }
    const schemas = this.methods.flatMap((method) => [
      method.inputSchema,
      this.outputs.get(method.name),
    ]);
    const root = this.definition.schemaRoot;
    if (root !== undefined) this.writer.predeclare(root);
    else for (const schema of schemas) this.writer.predeclare(schema);
    this.writer.shareRepeated(schemas, definitionsOf(root));
  }

  /**
   * Everything the connector offers, as one declaration file: an overview, so documentation keeps
   * first sentences and a field documented the same way in many places is documented once, at the top.
   */
  all(): string {
    if (this.everything === undefined) {
      const methods = this.methods.map((method) => this.render(method.name, true));
      this.everything = documentRepeatedFieldsOnce(
        this.compose(methods, methods, this.instructions),
      );
    }
    return this.everything;
  }

  /**
   * Only what one method needs: its input fully documented, its output (which the code only reads)
   * with first sentences, and its signature.
   */
  method(name: string): string {
    return this.compose([this.render(name, false)], [this.render(name, true)], undefined);
  }

  /** A method by its identifier or its original name. */
  find(name: string): DeclaredMethod | undefined {
    return this.byIdentifier.get(name) ?? this.byOriginal.get(name);
  }

  /**
   * One declaration file: the named types the inputs need, then those only the outputs need, then
   * each method's input and output types, then the namespace.
   */
  private compose(
    inputs: readonly RenderedMethod[],
    outputs: readonly RenderedMethod[],
    instructions: string | undefined,
  ): string {
    const emitted = new Set<string>();
    const named = (methods: readonly RenderedMethod[], side: "input" | "output", budget?: number) =>
      this.writer.namedDeclarations(
        methods.flatMap((method) => [...method[side].refs]),
        { summary: methods[0]?.summary === true, emitted, ...(budget ? { budget } : {}) },
      );
    const single = inputs.length === 1;
    const declarations = inputs.flatMap((method, index) => [method.input, outputs[index]?.output]);
    const parts = [
      ...named(inputs, "input"),
      // one method's output can reach a whole API through expandable fields: keep it bounded
      ...named(outputs, "output", single ? OUTPUT_TYPES_BUDGET : undefined),
      ...pairs(single ? declarations : aliasRepeatedBodies(declarations)),
    ];
    const methods = inputs;
    // the tool description says what @approval means, once for every connector
    const doc = formatJsDoc(instructions ? instructions.split(/\r?\n/) : []);
    const body = methods.map(({ signature }) => signature).join("\n");
    parts.push(`${doc}declare const ${this.name}: {\n${body}\n};`);
    return `${parts.join("\n\n")}\n`;
  }

  private render(name: string, summary: boolean): RenderedMethod {
    const key = `${summary ? "summary" : "full"}:${name}`;
    const cached = this.rendered.get(key);
    if (cached) return cached;
    this.prepareAll();
    const declared = this.byIdentifier.get(name) as DeclaredMethod;
    const types = this.typeNames.get(name) as { input: string; output: string };
    const root = this.definition.schemaRoot;
    const options = root === undefined ? { summary } : { root, summary };
    const input = this.writer.declare(types.input, declared.inputSchema, {
      ...options,
      input: true,
    });
    const output = this.writer.declare(types.output, this.outputs.get(name), options);
    const description = firstSentence(declared.description);
    // An overview marks a gated method with a bare tag, which the tool description explains.
    const approval = summary ? "@approval" : `@approval ${APPROVAL_NOTE}`;
    const lines = [
      ...(description ? [description] : []),
      ...(declared.requiresApproval ? [approval] : []),
    ];
    const doc = summary && lines.length > 1 ? [lines.join(" ")] : lines;
    const optional = acceptsNoInput(declared.inputSchema) ? "?" : "";
    const signature = `${formatJsDoc(doc, " ")} ${name}(input${optional}: ${types.input}): Promise<${types.output}>;`;
    const method = { name, input, output, signature, summary };
    this.rendered.set(key, method);
    return method;
  }
}

/** Text from outside, trimmed and cut at `limit` with a note of how much was left out. */
function bounded(text: string | undefined, limit: number): string | undefined {
  if (typeof text !== "string") return undefined;
  return boundText(text.trim(), limit) || undefined;
}

/** Each method's input and output declarations, one method to a paragraph. */
function pairs(declarations: readonly (TypeDeclaration | undefined)[]): string[] {
  const paragraphs: string[] = [];
  for (let index = 0; index < declarations.length; index += 2) {
    paragraphs.push(`${declarations[index]?.text}\n${declarations[index + 1]?.text}`);
  }
  return paragraphs;
}

/** Bodies shorter than this (`unknown`, `{}`, `string[]`) are cheaper written out than aliased. */
const ALIAS_MIN_CHARS = 16;

/**
 * In an overview, a method type whose body an earlier one has already written becomes an alias of
 * that one (`type DeleteRelationsOutput = DeleteEntitiesOutput;`): the same text names the same
 * types, so the alias is the same type, in fewer tokens.
 */
function aliasRepeatedBodies(
  declarations: readonly (TypeDeclaration | undefined)[],
): (TypeDeclaration | undefined)[] {
  // the first declaration of each body, by its text: linear in the bodies' length, however many
  // share one length (comparing them in turn was quadratic in a server's near-identical tools)
  const first = new Map<string, string>();
  return declarations.map((declaration) => {
    if (!declaration) return declaration;
    const head = `type ${declaration.name} = `;
    const at = declaration.text.indexOf(head);
    if (at < 0) return declaration;
    const body = declaration.text.slice(at + head.length);
    if (body.length < ALIAS_MIN_CHARS) return declaration;
    const earlier = first.get(body);
    if (earlier === undefined) {
      first.set(body, declaration.name);
      return declaration;
    }
    return { ...declaration, text: `${declaration.text.slice(0, at)}${head}${earlier};` };
  });
}

/** What a method that needs approval does to the run. */
const APPROVAL_NOTE = "the run pauses at the call until a person approves it";

/** Characters of output types `describe(method)` declares before it leaves the farther ones opaque. */
const OUTPUT_TYPES_BUDGET = 24_000;

/** A field documented the same way this many times is documented once, at the top. */
const REPEATED_FIELD_DOCS = 2;

/**
 * Moves the most common one-line JSDoc of a field, when it repeats, to a list at the top of the file
 * (`// owner: The account owner of the repository.`) and drops it where it repeats. One entry per
 * field name; an occurrence documented differently keeps its own JSDoc.
 */
function documentRepeatedFieldsOnce(text: string): string {
  const lines = text.split("\n");
  const fieldDoc = (index: number): { field: string; doc: string } | undefined => {
    const doc = /^(\s*)\/\*\* (.+) \*\/$/.exec(lines[index] as string);
    if (!doc || (doc[2] as string).startsWith("@")) return undefined;
    const field = new RegExp(`^${doc[1]}("[^"]+"|[\\w$]+)\\??: `).exec(lines[index + 1] ?? "");
    return field ? { field: field[1] as string, doc: doc[2] as string } : undefined;
  };
  const counts = new Map<string, Map<string, number>>();
  lines.forEach((_, index) => {
    const found = fieldDoc(index);
    if (!found) return;
    const byDoc = counts.get(found.field) ?? new Map<string, number>();
    counts.set(found.field, byDoc);
    byDoc.set(found.doc, (byDoc.get(found.doc) ?? 0) + 1);
  });
  const once = new Map<string, string>();
  for (const [field, byDoc] of counts) {
    let best: [string, number] | undefined;
    for (const entry of byDoc) if (!best || entry[1] > best[1]) best = entry;
    if (best && best[1] >= REPEATED_FIELD_DOCS) once.set(field, best[0]);
  }
  if (once.size === 0) return text;
  const kept = lines.filter((_, index) => {
    const found = fieldDoc(index);
    return !(found && once.get(found.field) === found.doc);
  });
  const header = [
    "// Fields documented once here mean the same wherever they appear below without a comment:",
    ...[...once]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([field, doc]) => `//   ${field}: ${doc}`),
  ];
  return `${header.join("\n")}\n\n${kept.join("\n")}`;
}
