import { createNameMap, type NameAllocator, toPascalCase } from "./identifier.ts";
import { firstSentence, formatJsDoc } from "./jsdoc.ts";
import { type JsonSchema, type JsonSchemaObject, toJsonSchema } from "./json-schema.ts";
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
  /** Runs a saved snippet with an optional input and returns its result. */
  run(name: string, input?: unknown): Promise<unknown>;
};`;

function acceptsNoInput(schema: JsonSchema | undefined): boolean {
  if (schema === undefined || schema === true) return true;
  if (typeof schema !== "object") return false;
  const required = (node: JsonSchemaObject): boolean =>
    (Array.isArray(node.required) && node.required.length > 0) ||
    (Array.isArray(node.allOf) &&
      node.allOf.some((part) => typeof part === "object" && required(part)));
  const objectLike =
    schema.type === undefined || schema.type === "object" || schema.properties !== undefined;
  return objectLike && !required(schema) && schema.$ref === undefined;
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
  private readonly definitions = new Map<string, MethodDefinition>();
  private readonly byIdentifier = new Map<string, DeclaredMethod>();
  private readonly byOriginal = new Map<string, DeclaredMethod>();
  private readonly rendered = new Map<string, RenderedMethod>();
  private readonly typeNames = new Map<string, { input: string; output: string }>();
  private readonly writer: TypeWriter;
  private everything: string | undefined;
  private shared = false;

  constructor(
    private readonly definition: ConnectorDefinition,
    identifier: string,
    names: NameAllocator,
  ) {
    this.name = identifier;
    this.original = definition.name;
    this.instructions = definition.instructions?.trim() || undefined;
    this.writer = new TypeWriter(names);
    const map = createNameMap(
      definition.methods.map((method) => method.name),
      { kind: `method of connector "${definition.name}"` },
    );
    this.methods = definition.methods.map((method) => {
      const name = map.identifiers.get(method.name) as string;
      this.definitions.set(name, method);
      const pascal = toPascalCase(name);
      this.typeNames.set(name, {
        input: names.allocate(`${pascal}Input`),
        output: names.allocate(`${pascal}Output`),
      });
      const declared: DeclaredMethod = {
        name,
        original: method.name,
        path: `${identifier}.${name}`,
        description: method.description?.trim() || undefined,
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
    const named = (methods: readonly RenderedMethod[], side: "input" | "output") =>
      this.writer.namedDeclarations(
        methods.flatMap((method) => [...method[side].refs]),
        { summary: methods[0]?.summary === true, emitted },
      );
    const parts = [
      ...named(inputs, "input"),
      ...named(outputs, "output"),
      ...inputs.map((method, index) => `${method.input.text}\n${outputs[index]?.output.text}`),
    ];
    const methods = inputs;
    const doc = formatJsDoc(instructions ? instructions.split(/\r?\n/) : []);
    const body = methods.map(({ signature }) => signature).join("\n");
    parts.push(`${doc}declare const ${this.name}: {\n${body}\n};`);
    return `${parts.join("\n\n")}\n`;
  }

  private render(name: string, summary: boolean): RenderedMethod {
    if (!this.shared) {
      this.shared = true;
      this.writer.shareRepeated(
        this.definition.methods.flatMap((method) => [
          toJsonSchema(method.inputSchema, "input"),
          toJsonSchema(method.outputSchema, "output"),
        ]),
      );
    }
    const key = `${summary ? "summary" : "full"}:${name}`;
    const cached = this.rendered.get(key);
    if (cached) return cached;
    const definition = this.definitions.get(name) as MethodDefinition;
    const declared = this.byIdentifier.get(name) as DeclaredMethod;
    const types = this.typeNames.get(name) as { input: string; output: string };
    const root = this.definition.schemaRoot;
    const options = root === undefined ? { summary } : { root, summary };
    const input = this.writer.declare(types.input, declared.inputSchema, options);
    const output = this.writer.declare(
      types.output,
      toJsonSchema(definition.outputSchema, "output"),
      options,
    );
    const doc = [
      ...(firstSentence(declared.description)
        ? [firstSentence(declared.description) as string]
        : []),
      ...(declared.requiresApproval
        ? ["@approval the run pauses here until a person approves"]
        : []),
    ];
    const optional = acceptsNoInput(declared.inputSchema) ? "?" : "";
    const signature = `${formatJsDoc(doc, "  ")}  ${name}(input${optional}: ${types.input}): Promise<${types.output}>;`;
    const method = { input, output, signature, summary };
    this.rendered.set(key, method);
    return method;
  }
}

/** A field documented identically this many times is documented once, at the top. */
const REPEATED_FIELD_DOCS = 2;

/**
 * Moves a one-line JSDoc that documents the same field the same way in many places to a list at the
 * top of the file (`// owner: The account owner of the repository.`), and drops it where it repeats.
 */
function documentRepeatedFieldsOnce(text: string): string {
  const lines = text.split("\n");
  const pair = (index: number): string | undefined => {
    const doc = /^(\s*)\/\*\* (.+) \*\/$/.exec(lines[index] as string);
    if (!doc || (doc[2] as string).startsWith("@")) return undefined;
    const field = new RegExp(`^${doc[1]}("[^"]+"|[\\w$]+)\\??: `).exec(lines[index + 1] ?? "");
    return field ? `${field[1]}: ${doc[2]}` : undefined;
  };
  const counts = new Map<string, number>();
  lines.forEach((_, index) => {
    const key = pair(index);
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  });
  const repeated = [...counts]
    .filter(([, count]) => count >= REPEATED_FIELD_DOCS)
    .map(([key]) => key);
  if (repeated.length === 0) return text;
  const once = new Set(repeated);
  const kept = lines.filter((_, index) => !once.has(pair(index) as string));
  const header = [
    "// Fields documented once here mean the same wherever they appear below:",
    ...repeated.sort().map((key) => `//   ${key}`),
  ];
  return `${header.join("\n")}\n\n${kept.join("\n")}`;
}
