// Property tests: JSON Schemas generated over the draft-07, 2020-12 and OpenAPI 3.0 dialects (with
// non-identifier names, comment terminators, recursion, dangling references, garbage keywords and
// wrong-typed keywords) always become declarations the TypeScript compiler accepts, and no JSON value
// given as a schema makes typegen throw. Samples are compiled in batches: one program per batch, each
// sample's text in a namespace of its own, its top-level names checked against the lib's globals.
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createProgram, formatDiagnostic } from "../test/typescript.ts";
import {
  type ConnectorDefinition,
  createCatalog,
  jsonSchemaToTypeScript,
  SANDBOX_GLOBALS,
  toIdentifier,
} from "./index.ts";

// ---------------------------------------------------------------------------------------------
// Arbitraries

/**
 * Whether a name holds a character this JavaScript engine's Unicode tables let stand in an identifier
 * and TypeScript's older ones do not (U+1ACF, a combining mark of Unicode 14): such an identifier is
 * valid in the sandbox but not to the compiler, which says nothing about typegen. Names that become
 * identifiers leave those characters out.
 */
function newerThanTypeScript(name: string): boolean {
  for (const character of name) {
    const code = character.codePointAt(0) as number;
    if (/\p{ID_Continue}/u.test(character) && !ts.isIdentifierPart(code, ts.ScriptTarget.ES2022))
      return true;
  }
  return false;
}

/** Any text of up to `maxLength` code points (names, titles and descriptions alike). */
function binary(maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: "binary", maxLength }).filter((value) => !newerThanTypeScript(value));
}

/** Text that has broken generated TypeScript somewhere: comment ends, quotes, line separators, HTML. */
const TRICKY_TEXT = [
  "*/",
  "/*",
  "/** x */",
  "**/",
  "a */ b",
  "*",
  '"',
  "'",
  "`",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder as data
  "${x}",
  "\\",
  "\n",
  "\r\n",
  "\r",
  "\u2028",
  "\u2029",
  "\u0000",
  "<p>para</p><br>",
  "[link](https://example.com/a_(b))",
  "&amp; &lt;T&gt;",
  "e.g. this one. Then more.",
  "@param x",
  "// not a comment",
  "é",
  "名前",
  "🙂",
  "\ud800",
  " ",
  "",
];

const text = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...TRICKY_TEXT) },
  { weight: 1, arbitrary: binary(8) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.constantFrom(...TRICKY_TEXT, "word", "Word."), { maxLength: 5 })
      .map((parts) => parts.join(" ")),
  },
);

const PROPERTY_NAMES = [
  "id",
  "name",
  "owner",
  "body",
  "a b",
  "a-b",
  "*/",
  "/*",
  "'",
  '"',
  "`",
  "\\",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder as data
  "${x}",
  "é",
  "名前",
  "🙂",
  "1",
  "0x1",
  "",
  " ",
  "__proto__",
  "constructor",
  "toString",
  "then",
  "a\nb",
  "a\u2028b",
  "\ud800",
  "class",
  "default",
  "$",
  "_",
  "Record",
];
const propertyName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PROPERTY_NAMES) },
  { weight: 1, arbitrary: binary(4) },
);

/** Keys of `$defs`, `definitions` and `components.schemas`: they become type names. */
const DEFINITION_NAMES = [
  "Node",
  "node",
  "Pet",
  "pet",
  "a b",
  "a/b",
  "a~b",
  "a%b",
  "T",
  "t",
  "Input",
  "MInput",
  "MOutput",
  "schema",
  "Schema1",
  "_schema",
  "1st",
  "½",
  "a½",
  "Ⅻ",
  "é",
  "名前",
  "*/",
  "",
  "__proto__",
  "constructor",
  "then",
  "Record",
  "Promise",
  "PropertyKey",
  "Generator",
  "ReadonlyArray",
  "Uppercase",
  "ArrayLike",
  "SearchOutput",
  "Item",
  "items",
];
const CONTAINERS = ["$defs", "definitions", "components/schemas"];
const TYPES = ["string", "number", "integer", "boolean", "null", "array", "object"];

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

const reference = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.constantFrom(...CONTAINERS), fc.constantFrom(...DEFINITION_NAMES), fc.boolean())
      .map(([container, name, encode]) => {
        const segment = escapePointer(name);
        return `#/${container}/${encode ? encodeURIComponent(segment) : segment}`;
      }),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "#",
      "#/properties/id",
      "#/properties/name",
      "#/items",
      "#/allOf/0",
      "#/$defs/Node/properties/next",
      "#/$defs/Node/items",
      "#/nope",
      "#anchor",
      "#/%",
      "#/$defs/%E0%A4%A",
      "https://example.com/schema.json",
      "other.json#/$defs/Node",
      "",
      "#/",
    ),
  },
);

/** Values of `enum`, `const`, `default` and `examples`: JSON, as JSON.parse would give it. */
const jsonValue = fc
  .oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    { weight: 2, arbitrary: text },
    { weight: 1, arbitrary: fc.constantFrom(-0, 1e21, 5e-324, Number.MAX_SAFE_INTEGER, -1.5) },
    {
      weight: 1,
      arbitrary: fc
        .uniqueArray(fc.tuple(propertyName, fc.jsonValue({ maxDepth: 1 })), {
          maxLength: 3,
          selector: ([key]) => key,
        })
        .map((entries) => Object.fromEntries(entries)),
    },
  )
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown);

const typeValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TYPES) },
  { weight: 2, arbitrary: fc.subarray(TYPES, { minLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom("any", "file", "Object", ["string", "string"]) },
);

/** An object from key-value pairs (so `__proto__` is an own key, as JSON.parse makes it). */
function entries<T>(
  key: fc.Arbitrary<string>,
  value: fc.Arbitrary<T>,
  maxLength: number,
): fc.Arbitrary<Record<string, T>> {
  return fc
    .uniqueArray(fc.tuple(key, value), { maxLength, selector: ([name]) => name })
    .map((pairs) => Object.fromEntries(pairs));
}

/** Keywords with values of the wrong type: each must degrade (to `unknown`, or be ignored). */
const WRONG_TYPES: ReadonlyArray<[string, unknown[]]> = [
  ["properties", [5, "x", [], null, true]],
  ["items", ["x", 5, null]],
  ["required", [{}, "x", 1, [1, null, {}]]],
  ["additionalProperties", ["x", 1, null, []]],
  ["patternProperties", [[], "x", 5, null]],
  ["prefixItems", [{}, "x", null]],
  ["allOf", [{}, "x", null, 1]],
  ["anyOf", [{}, "x", null, 1]],
  ["oneOf", [{}, "x", null, [null, 1, "x"]]],
  ["enum", ["x", {}, 1, null]],
  ["$ref", [5, {}, null, []]],
  ["$defs", [[], "x", 1, null]],
  ["definitions", [[], "x", 1, null]],
  ["description", [5, {}, [], null, true]],
  ["title", [5, {}, [], null]],
  ["nullable", ["yes", 1, null]],
  ["type", [5, {}, ["string", 1], null, []]],
  ["minItems", ["2", {}, null, -1, 1.5]],
  ["examples", ["not a list", {}, null]],
  ["format", [5, {}, null]],
  ["minimum", ["0", {}, null]],
  ["exclusiveMaximum", ["yes", {}]],
  ["deprecated", ["yes", 1]],
];
const wrongTypes = fc.array(
  fc.oneof(
    ...WRONG_TYPES.map(([keyword, values]) =>
      fc.constantFrom(...values).map((value) => [keyword, value] as [string, unknown]),
    ),
  ),
  { maxLength: 2 },
);

/** Annotations, constraints and keywords nobody defined: none of them may change whether it compiles. */
const annotations = fc.array(
  fc.oneof(
    text.map((value) => ["description", value] as [string, unknown]),
    text.map((value) => ["title", value] as [string, unknown]),
    fc
      .constantFrom("date-time", "uri", "email", "int64", "binary", "*/", "")
      .map((value) => ["format", value] as [string, unknown]),
    jsonValue.map((value) => ["default", value] as [string, unknown]),
    fc.array(jsonValue, { maxLength: 2 }).map((value) => ["examples", value] as [string, unknown]),
    jsonValue.map((value) => ["example", value] as [string, unknown]),
    fc.boolean().map((value) => ["deprecated", value] as [string, unknown]),
    text.map((value) => ["pattern", value] as [string, unknown]),
    fc
      .constantFrom(0, -1.5, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 1e300)
      .chain((value) =>
        fc.constantFrom<[string, unknown]>(
          ["minimum", value],
          ["maximum", value],
          ["exclusiveMinimum", value],
          ["minLength", value],
          ["maxItems", value],
        ),
      ),
    fc.constantFrom<[string, unknown]>(
      ["exclusiveMinimum", true],
      ["exclusiveMaximum", false],
      ["nullable", true],
      ["nullable", false],
      ["x-nullable", true],
      ["readOnly", true],
      ["$schema", "http://json-schema.org/draft-07/schema#"],
      ["$schema", "https://json-schema.org/draft/2020-12/schema"],
      ["$id", "https://example.com/a.json"],
      ["$comment", "*/ a comment"],
      ["not", { type: "string" }],
      ["if", { type: "string" }],
      ["discriminator", { propertyName: "kind" }],
    ),
    fc
      .tuple(fc.string({ maxLength: 6 }), jsonValue)
      .map(([key, value]) => [`x-${key}`, value] as [string, unknown]),
    fc.tuple(fc.string({ maxLength: 6 }), jsonValue),
  ),
  { maxLength: 3 },
);

function merge(...parts: Array<ReadonlyArray<[string, unknown]>>): Record<string, unknown> {
  return Object.fromEntries(parts.flat());
}

/** A schema: a boolean, a leaf, or an object schema of some shape, nesting at most `depth` deep. */
const schema: fc.Memo<unknown> = fc.memo((depth) => {
  const leaf = fc.oneof(
    fc.boolean(),
    fc.constant({}),
    typeValue.map((type) => ({ type })),
    fc.tuple(typeValue, annotations).map(([type, notes]) => merge([["type", type]], notes)),
    reference.map(($ref) => ({ $ref })),
    fc.array(jsonValue, { maxLength: 4 }).map((values) => ({ enum: values })),
  );
  if (depth <= 1) return leaf;
  const sub = schema(depth - 1);
  const list = fc.array(sub, { maxLength: 3 });
  const shape = fc.oneof(
    // objects
    fc.record(
      {
        type: fc.constantFrom("object", ["object", "null"]),
        properties: entries(propertyName, sub, 4),
        required: fc.oneof(
          fc.array(propertyName, { maxLength: 4 }),
          fc.constantFrom<unknown>(true, "id"),
        ),
        additionalProperties: fc.oneof(fc.boolean(), sub),
        patternProperties: entries(fc.constantFrom("^x-", ".*", "[", "^\\d+$", "*/"), sub, 2),
      },
      { requiredKeys: [] },
    ),
    fc.record({ required: fc.constant(true), type: typeValue }, { requiredKeys: ["required"] }),
    // arrays and tuples
    fc.record(
      { type: fc.constant("array"), items: sub, minItems: fc.nat(3) },
      { requiredKeys: ["items"] },
    ),
    fc.record(
      {
        type: fc.constant("array"),
        items: list,
        additionalItems: fc.oneof(fc.boolean(), sub),
        minItems: fc.oneof(fc.nat(4), fc.constantFrom(-1, 1.5)),
      },
      { requiredKeys: ["items"] },
    ),
    fc.record(
      {
        type: fc.constant("array"),
        prefixItems: list,
        items: fc.oneof(fc.boolean(), sub),
        minItems: fc.oneof(fc.nat(4), fc.constantFrom(-1, 1.5)),
      },
      { requiredKeys: ["prefixItems"] },
    ),
    // enumerations
    fc.record(
      {
        enum: fc.array(jsonValue, { maxLength: 10 }),
        type: typeValue,
        nullable: fc.boolean(),
      },
      { requiredKeys: ["enum"] },
    ),
    fc.constant({ type: "string", enum: ["a", "b", "c", "d", "e", "f", "g", "h", "i"] }),
    jsonValue.map((value) => ({ const: value })),
    // combinations
    fc.record(
      { allOf: list, anyOf: list, oneOf: list, type: typeValue, nullable: fc.boolean() },
      { requiredKeys: [] },
    ),
    // references with and without siblings
    fc.record(
      {
        $ref: reference,
        description: text,
        nullable: fc.boolean(),
        type: typeValue,
        properties: entries(propertyName, sub, 2),
      },
      { requiredKeys: ["$ref"] },
    ),
    // a definition inside a definition
    fc.record({ $defs: entries(fc.constantFrom(...DEFINITION_NAMES), sub, 2), $ref: reference }),
  );
  return fc.oneof(
    { weight: 1, arbitrary: leaf },
    {
      weight: 3,
      arbitrary: fc
        .tuple(shape, annotations, wrongTypes)
        .map(([body, notes, wrong]) => merge(Object.entries(body), notes, wrong)),
    },
  );
});

const definitionName = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...DEFINITION_NAMES) },
  { weight: 1, arbitrary: binary(3) },
);
const definitions = entries(definitionName, schema(3), 4);

/** A schema document: a schema with the definitions its local references point into. */
const documentArbitrary = fc
  .record({ body: schema(4), $defs: definitions, definitions }, { requiredKeys: ["body"] })
  .map(({ body, ...containers }) => {
    const own = typeof body === "object" && body !== null ? Object.entries(body) : [];
    if (own.length === 0 && Object.keys(containers).length === 0) return body;
    return merge(own, Object.entries(containers));
  })
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown);

const methodName = fc.oneof(
  fc.constantFrom(
    "list",
    "get-item",
    "issues/create",
    "2fa",
    "delete",
    "constructor",
    "then",
    "__proto__",
    "toString",
    "名前",
    "a b",
    "½",
    "*/",
    "",
    "Record",
    "m",
  ),
  binary(5),
);

/** Connector names that are no sandbox global (those are refused at configuration, by design). */
const connectorName = fc
  .oneof(
    fc.constantFrom(
      "github",
      "my-api",
      "名前",
      "api 2",
      "*/",
      "Record",
      "PropertyKey",
      "x½",
      "then",
    ),
    fc.string({ maxLength: 5 }),
  )
  .filter((name) => !SANDBOX_GLOBALS.has(toIdentifier(name)));

const connectorArbitrary: fc.Arbitrary<ConnectorDefinition> = fc
  .record(
    {
      name: connectorName,
      instructions: text,
      methods: fc.uniqueArray(
        fc.record(
          {
            name: methodName,
            description: text,
            inputSchema: documentArbitrary,
            outputSchema: documentArbitrary,
            requiresApproval: fc.boolean(),
          },
          { requiredKeys: ["name"] },
        ),
        { minLength: 1, maxLength: 3, selector: (method) => toIdentifier(method.name) },
      ),
      // an OpenAPI-style document the methods' `#/components/schemas/…` references point into
      schemaRoot: fc
        .record({ schemas: definitions, $defs: definitions }, { requiredKeys: ["schemas"] })
        .map(({ schemas, $defs }) => ({ components: { schemas }, ...($defs ? { $defs } : {}) }))
        .map((value) => JSON.parse(JSON.stringify(value)) as unknown),
    },
    { requiredKeys: ["name", "methods"] },
  )
  .map((connector) => connector as ConnectorDefinition);

type Sample = { schema: unknown } | { connector: ConnectorDefinition; snippetInput?: unknown };

const sampleArbitrary: fc.Arbitrary<Sample> = fc.oneof(
  documentArbitrary.map((schema) => ({ schema })),
  fc
    .record(
      { connector: connectorArbitrary, snippetInput: documentArbitrary },
      {
        requiredKeys: ["connector"],
      },
    )
    .map((sample) => sample as Sample),
);

// ---------------------------------------------------------------------------------------------
// What typegen makes of a sample, and compiling a batch of them at once

/** The declaration texts of one sample: each would be handed to a model as one file. */
function declarationsOf(sample: Sample): string[] {
  if ("schema" in sample) return [jsonSchemaToTypeScript("T", sample.schema)];
  const snippets =
    "snippetInput" in sample
      ? [{ name: "saved-run", code: "async () => 1", inputSchema: sample.snippetInput }]
      : [];
  const catalog = createCatalog({ connectors: [sample.connector], snippets });
  const [connector] = catalog.connectors;
  if (!connector) throw new Error("the catalog lost its connector");
  // a snippet's description ends with its source code, after its input type
  const snippetTypes = snippets.map((snippet) => {
    const types = catalog.describe(snippet.name).types;
    return types.slice(0, types.indexOf("// Run it with"));
  });
  return [
    catalog.declarations(),
    ...connector.methods.map((method) => catalog.describe(method.path).types),
    ...snippetTypes,
  ];
}

/** "Definitions of the following identifiers conflict with those in another file: A, B, …" */
const LISTED_CONFLICTS = 6200;

/** The names a declaration text declares at its top level: types, and values (`declare const`). */
function topLevelNames(block: ts.ModuleBlock): { types: string[]; values: string[] } {
  const types: string[] = [];
  const values: string[] = [];
  for (const statement of block.statements) {
    if (ts.isTypeAliasDeclaration(statement) || ts.isInterfaceDeclaration(statement))
      types.push(statement.name.text);
    else if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) values.push(declaration.name.text);
  }
  return { types, values };
}

/**
 * Compiles the declaration texts of a batch of samples and returns each failing sample's problems.
 * Every text sits in a namespace of its own so that samples do not clash with each other; since a
 * namespace would also hide a clash with a lib global (a generated `type PropertyKey` at the top of
 * a file the model reads is a duplicate identifier), the top-level names of every text are declared
 * again, once each, at the top of a second, tiny program.
 */
function compileBatch(texts: readonly string[][]): Map<number, string[]> {
  const problems = new Map<number, string[]>();
  const report = (sample: number, problem: string) => {
    const list = problems.get(sample) ?? [];
    list.push(problem);
    problems.set(sample, list);
  };
  const owners: number[] = [];
  const chunks: string[] = [];
  texts.forEach((parts, sample) => {
    parts.forEach((part, index) => {
      owners.push(sample);
      chunks.push(`namespace Sample${sample}_${index} {\n${part}\n}\n`);
    });
  });
  const source = chunks.join("");
  const { program, file } = createProgram(source, "batch.ts");
  const declared = {
    types: new Map<string, Set<number>>(),
    values: new Map<string, Set<number>>(),
  };
  file.statements.forEach((statement, index) => {
    const sample = owners[index] as number;
    if (!ts.isModuleDeclaration(statement) || !statement.body || !ts.isModuleBlock(statement.body))
      return;
    const names = topLevelNames(statement.body);
    for (const kind of ["types", "values"] as const)
      for (const name of names[kind]) {
        const samples = declared[kind].get(name) ?? new Set<number>();
        samples.add(sample);
        declared[kind].set(name, samples);
      }
  });
  const sampleAt = (position: number): number => {
    let found = 0;
    file.statements.forEach((statement, index) => {
      if (statement.pos <= position) found = owners[index] as number;
    });
    return found;
  };
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(file),
    ...program.getSemanticDiagnostics(file),
  ];
  for (const diagnostic of diagnostics)
    report(
      diagnostic.file === file && diagnostic.start !== undefined ? sampleAt(diagnostic.start) : 0,
      formatDiagnostic(diagnostic),
    );

  // the names again, at the top level, beside the lib files
  const lines: Array<{ kind: "types" | "values"; name: string }> = [];
  for (const kind of ["types", "values"] as const)
    for (const name of declared[kind].keys()) lines.push({ kind, name });
  const globals = lines
    .map(({ kind, name }) => (kind === "types" ? `type ${name} = 0;` : `declare const ${name}: 0;`))
    .join("\n");
  const top = createProgram(globals, "globals.ts");
  for (const diagnostic of [
    ...top.program.getSyntacticDiagnostics(top.file),
    ...top.program.getSemanticDiagnostics(top.file),
  ]) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
    // past a few clashes with one lib file the compiler lists them in one diagnostic
    const clashes =
      diagnostic.code === LISTED_CONFLICTS
        ? message.slice(message.indexOf(": ") + 2).split(", ")
        : [
            lines[
              diagnostic.start === undefined
                ? -1
                : top.file.getLineAndCharacterOfPosition(diagnostic.start).line
            ]?.name,
          ];
    for (const name of clashes) {
      const samples = new Set([
        ...(declared.types.get(name as string) ?? []),
        ...(declared.values.get(name as string) ?? []),
      ]);
      if (samples.size === 0) samples.add(0);
      for (const sample of samples)
        report(sample, `at the top level of a file, "${name}" clashes: ${message}`);
    }
  }
  return problems;
}

/** A failing sample as a reader needs it: what went in, what came out, what the compiler said. */
function explain(sample: Sample, texts: readonly string[], problems: readonly string[]): string {
  const input = "schema" in sample ? sample.schema : sample.connector;
  return [
    `input: ${JSON.stringify(input, null, 2)}`,
    ...texts.map((part, index) => `declarations ${index + 1}:\n${part}`),
    `problems:\n${problems.join("\n")}`,
  ].join("\n\n");
}

// ---------------------------------------------------------------------------------------------

const BATCH = 150;

describe("typegen properties", () => {
  it("turns every generated schema and connector into declarations that compile", () => {
    fc.assert(
      fc.property(
        fc.array(sampleArbitrary, { minLength: 1, maxLength: BATCH, size: "max" }),
        (samples) => {
          const texts = samples.map(declarationsOf);
          const problems = compileBatch(texts);
          const [first] = problems;
          if (first) {
            const [index, found] = first;
            throw new Error(explain(samples[index] as Sample, texts[index] ?? [], found));
          }
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);

  it("compiles the counterexamples the property found", () => {
    const samples: Sample[] = [
      // an optional element of an optional tuple element that refers back to the root (seed -58653366)
      {
        connector: { name: "", methods: [{ name: "list" }] },
        snippetInput: {
          allOf: [{ prefixItems: [{ items: [{ $ref: "#" }] }] }],
          nullable: true,
        },
      },
      { schema: { prefixItems: [{ prefixItems: [{ $ref: "#" }] }] } },
      // a reference back inside a rest element of tuples, in an intersection (seed 1446840761)
      {
        connector: { name: "", methods: [{ name: "" }] },
        snippetInput: {
          oneOf: [{ items: [], additionalItems: { prefixItems: [{ $ref: "#" }], minItems: 1 } }],
          type: ["object"],
        },
      },
      {
        schema: {
          $defs: {
            a: { nullable: true, items: { prefixItems: [{ $ref: "#/$defs/b" }], minItems: 1 } },
            b: { prefixItems: [{ prefixItems: [{ $ref: "#/$defs/a" }] }], nullable: true },
          },
          anyOf: [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/b" }],
        },
      },
    ];
    const texts = samples.map(declarationsOf);
    const [first] = compileBatch(texts);
    if (first) {
      const [index, found] = first;
      throw new Error(explain(samples[index] as Sample, texts[index] ?? [], found));
    }
  }, 120_000);

  it("never throws on a JSON value given as a schema", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 3 }), (value, root) => {
        const schema = JSON.parse(JSON.stringify(value)) as unknown;
        const schemaRoot = JSON.parse(JSON.stringify(root)) as unknown;
        jsonSchemaToTypeScript("T", schema);
        jsonSchemaToTypeScript("T", schema, { root: schemaRoot });
        for (const withRoot of [false, true]) {
          const catalog = createCatalog({
            connectors: [
              {
                name: "api",
                methods: [{ name: "call", inputSchema: schema, outputSchema: schema }],
                ...(withRoot ? { schemaRoot } : {}),
              },
            ],
          });
          expect(catalog.declarations()).toContain("declare const api");
          expect(catalog.describe("api.call").kind).toBe("method");
        }
      }),
      { numRuns: 300 },
    );
  });
});
