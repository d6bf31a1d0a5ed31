// Metadata from a server or a document the host does not control: huge enumerations, descriptions,
// instructions and names come back bounded from describe, declarations and search, and no text of
// theirs can close a comment or a string and become code in the declarations.
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createProgram, formatDiagnostic } from "../test/typescript.ts";
import { type ConnectorDefinition, createCatalog, METADATA_LIMITS } from "./index.ts";

/** Compiler diagnostics of a declaration file, and the names it declares at its top level. */
function compile(text: string): { problems: string[]; declared: string[] } {
  const { program, file } = createProgram(text, "hostile.d.ts");
  const problems = [
    ...program.getSyntacticDiagnostics(file),
    ...program.getSemanticDiagnostics(file),
  ].map(formatDiagnostic);
  const declared = file.statements.flatMap((statement) => {
    if (ts.isTypeAliasDeclaration(statement)) return [statement.name.text];
    if (ts.isVariableStatement(statement))
      return statement.declarationList.declarations.map((declaration) =>
        declaration.name.getText(file),
      );
    return [ts.isEmptyStatement(statement) ? ";" : ts.SyntaxKind[statement.kind]];
  });
  return { problems, declared };
}

const values = (count: number) => Array.from({ length: count }, (_, index) => `v${index}`);

/** A connector with one method `pick` whose input and output are the given schemas. */
function server(input: unknown, extra: Partial<ConnectorDefinition> = {}): ConnectorDefinition {
  return {
    name: "hostile",
    methods: [{ name: "pick", description: "Pick one.", inputSchema: input, outputSchema: input }],
    ...extra,
  };
}

const { enumValues, schemaMembers, properties, descriptionLength, instructionsLength } =
  METADATA_LIMITS;

describe("huge enumerations", () => {
  it.each([50_000, 100_000])(
    "shows an enum of %i values as its first values and how many more",
    (count) => {
      const catalog = createCatalog({
        connectors: [
          server({
            type: "object",
            properties: { choice: { type: "string", enum: values(count) } },
            required: ["choice"],
          }),
        ],
      });
      for (const target of ["hostile", "hostile.pick"]) {
        const { types } = catalog.describe(target);
        expect(types).toContain(`"v${enumValues - 1}"`);
        expect(types).not.toContain(`"v${enumValues}"`);
        expect(types).toContain(`| string /* … and ${count - enumValues} more values */`);
        // the same whatever the enumeration's length: about a thousand short literals
        expect(types.length).toBeLessThan(enumValues * 12 + 2_000);
        expect(compile(types).problems).toEqual([]);
      }
    },
  );

  it("keeps the members of anyOf, oneOf and allOf, tuple elements and properties within their limits", () => {
    const many = 50_000;
    const members = Array.from({ length: many }, (_, index) => ({
      type: "object",
      properties: { [`k${index}`]: { type: "string" } },
      required: [`k${index}`],
    }));
    const catalog = createCatalog({
      connectors: [
        server({
          type: "object",
          properties: {
            any: { anyOf: members },
            one: { oneOf: members.slice(0, schemaMembers + 1) },
            all: { allOf: members },
            tuple: { type: "array", prefixItems: members.map(() => ({ type: "number" })) },
            wide: {
              type: "object",
              properties: Object.fromEntries(
                Array.from({ length: 100_000 }, (_, index) => [`p${index}`, { type: "number" }]),
              ),
            },
          },
        }),
      ],
    });
    const { types } = catalog.describe("hostile.pick");
    expect(types).toContain(`/* … and ${many - schemaMembers} more alternatives */`);
    expect(types).toContain("/* … and 1 more alternatives */");
    expect(types).toContain(`/* … and ${many - schemaMembers} more parts */`);
    expect(types).toContain(`...unknown[] /* … and ${many - schemaMembers} more elements */`);
    expect(types).toContain(`// … and ${100_000 - properties} more properties`);
    expect(types).not.toContain(`k${schemaMembers}:`);
    expect(types).not.toContain(`p${properties}:`);
    expect(compile(types).problems).toEqual([]);
  });

  it("renders a schema nested thousands of levels deep down to the depth limit", () => {
    let schema: unknown = { type: "string" };
    for (let level = 0; level < 5_000; level++) {
      schema = { type: "object", properties: { a: schema, b: { type: "number" } } };
    }
    const catalog = createCatalog({ connectors: [server(schema)] });
    const { types } = catalog.describe("hostile");
    expect(types).toContain("a?: unknown");
    expect(compile(types).problems).toEqual([]);
  });
});

describe("long descriptions, instructions and names", () => {
  const long = (sentence: string) => sentence.repeat(Math.ceil(1_000_000 / sentence.length));

  it("cuts a description and instructions at their limits and says how much was left out", async () => {
    const description = long("Does a thing. ");
    const instructions = long("Use me. ");
    const catalog = createCatalog({
      connectors: [
        {
          name: "hostile",
          instructions,
          methods: [
            {
              name: "pick",
              description,
              inputSchema: {
                type: "object",
                properties: { field: { type: "string", description, title: description } },
              },
            },
          ],
        },
      ],
    });
    const method = catalog.describe("hostile.pick");
    expect(method.description?.length).toBeLessThan(descriptionLength + 40);
    expect(method.description).toMatch(/… \(\d+ more characters\)$/);
    expect(method.types.length).toBeLessThan(descriptionLength + 2_000);
    const connector = catalog.describe("hostile");
    expect(connector.description?.length).toBeLessThan(instructionsLength + 40);
    expect(connector.description).toMatch(/… \(\d+ more characters\)$/);
    expect(connector.types.length).toBeLessThan(instructionsLength + 2_000);
    expect(catalog.declarations().length).toBeLessThan(instructionsLength + 4_000);
    const found = await catalog.search("does a thing");
    expect(found.results[0]?.path).toBe("hostile.pick");
  });

  it("cuts a long name to an identifier of at most nameLength that still finds the method", () => {
    const stem = "delete_everything_".repeat(10_000);
    const catalog = createCatalog({
      connectors: [
        {
          name: "hostile",
          methods: [
            { name: `${stem}a`, description: "One." },
            { name: `${stem}b`, description: "Two." },
          ],
        },
      ],
    });
    const [one, two] = catalog.connectors[0]?.methods ?? [];
    expect(one?.name.length).toBeLessThanOrEqual(METADATA_LIMITS.nameLength);
    expect(two?.name.length).toBeLessThanOrEqual(METADATA_LIMITS.nameLength);
    expect(one?.name).not.toBe(two?.name);
    expect(catalog.resolve(one?.path ?? "")?.method.original).toBe(`${stem}a`);
    const described = catalog.describe(two?.path ?? "");
    expect(described.kind).toBe("method");
    expect(described.types.length).toBeLessThan(2_000);
    expect(compile(catalog.declarations()).problems).toEqual([]);
  });

  it("cuts type names that come from long titles and definition keys", () => {
    const title = "Very".repeat(50_000);
    const catalog = createCatalog({
      connectors: [
        server({
          type: "object",
          properties: { a: { $ref: "#/$defs/node" }, b: { $ref: `#/$defs/${title}` } },
          $defs: {
            node: { title, type: "object", properties: { next: { $ref: "#/$defs/node" } } },
            [title]: { type: "string" },
          },
        }),
      ],
    });
    const { types } = catalog.describe("hostile");
    for (const [, name] of types.matchAll(/^type (\w+)/gm))
      expect(name?.length).toBeLessThanOrEqual(METADATA_LIMITS.nameLength + 1);
    expect(compile(types).problems).toEqual([]);
  });
});

describe("text that would become code", () => {
  // each would declare `pwnedN` if a comment or a string literal ended where TypeScript sees a line end
  const closing = (n: number) => `*/ declare const pwned${n}: 1; /*`;
  const lineEnd = (n: number) => `Field.\u2028declare const pwned${n}: 1;`;

  it("keeps descriptions, names, values and constraints inside their comments and strings", () => {
    const field = (n: number) => ({
      type: "string",
      description: lineEnd(n),
      pattern: `^a\u2028declare const pwned${n + 1}: 1;\n${closing(n + 2)}`,
      format: `date\u2029declare const pwned${n + 3}: 1;`,
      default: `x\u2028declare const pwned${n + 4}: 1;`,
    });
    const input = {
      type: "object",
      properties: {
        // the same field documented the same way twice: the overview moves its doc to a // line
        note: field(10),
        // documented the same way twice too: the overview writes its name on a // line
        [`a\u2028declare const pwned20: 1; type Z = {`]: { type: "string", description: "Same." },
        [`b\n${closing(21)}`]: { type: "string" },
        choice: { enum: [`c\u2028declare const pwned22: 1;`, `d\u2029${closing(23)}`] },
        fixed: { const: `e\u2028declare const pwned24: 1;` },
      },
    };
    const catalog = createCatalog({
      connectors: [
        {
          name: "hostile",
          instructions: `${closing(1)}\n${lineEnd(2)}\r${lineEnd(3)}`,
          methods: [
            { name: "pick", description: `${lineEnd(4)} ${closing(5)}`, inputSchema: input },
            {
              name: "pick_again",
              description: lineEnd(6),
              inputSchema: {
                type: "object",
                properties: {
                  note: field(10),
                  [`a\u2028declare const pwned20: 1; type Z = {`]: {
                    type: "string",
                    description: "Same.",
                  },
                  count: {},
                },
              },
            },
            { name: `evil\n${closing(7)}\u2028declare const pwned8: 1;`, inputSchema: input },
          ],
        },
      ],
    });
    for (const text of [
      catalog.declarations(),
      catalog.describe("hostile").types,
      catalog.describe("hostile.pick").types,
    ]) {
      const { problems, declared } = compile(text);
      expect(problems).toEqual([]);
      expect(declared.filter((name) => name.includes("pwned"))).toEqual([]);
      expect(declared.filter((name) => !/^[A-Z]\w*$|^hostile$|^codemode$/.test(name))).toEqual([]);
    }
    expect(catalog.describe("hostile").types).toContain("// Fields documented once here");
  });
});

describe("one describe answer", () => {
  const { describeLength } = METADATA_LIMITS;
  // one sentence as long as a description may be
  const long = (seed: string) =>
    `${seed} ${"and more words about it ".repeat(descriptionLength / 24)}`;

  it("lists the methods of a connector too large to declare at once, and each method still describes", () => {
    const methods = Array.from({ length: 1_500 }, (_, index) => ({
      name: `tool_${index}`,
      description: long(`Tool number ${index}`),
      inputSchema: { type: "object", properties: { id: { type: "string" } } },
      ...(index === 1 ? { requiresApproval: true } : {}),
    }));
    const catalog = createCatalog({ connectors: [{ name: "hostile", methods }] });
    const overview = catalog.describe("hostile");
    expect(catalog.connectors[0]?.all().length).toBeGreaterThan(describeLength);
    expect(overview.types.length).toBeLessThanOrEqual(describeLength);
    expect(overview.types).toContain('codemode.describe("hostile.tool_0")');
    expect(overview.types).toContain("\n// hostile.tool_1 @approval: Tool number 1 and more words");
    expect(overview.types).toMatch(/\/\/ … and \d+ more: find them with codemode\.search/);
    expect(compile(overview.types)).toEqual({ problems: [], declared: [] });
    const method = catalog.describe("hostile.tool_1499");
    expect(method.types).toContain("tool_1499(input?: Tool1499Input): Promise<Tool1499Output>;");
  });

  it("declares a method whose declarations are longer with an unknown input and output, and their first part as comments", () => {
    const fields = Object.fromEntries(
      Array.from({ length: properties }, (_, index) => [
        `field_${index}`,
        { type: "string", description: long(`Field ${index}`) },
      ]),
    );
    const catalog = createCatalog({ connectors: [server({ type: "object", properties: fields })] });
    const whole = catalog.connectors[0]?.method("pick") ?? "";
    expect(whole.length).toBeGreaterThan(describeLength);
    const { types } = catalog.describe("hostile.pick");
    expect(types.length).toBeLessThanOrEqual(describeLength);
    expect(types).toContain(
      "declare const hostile: { pick(input?: unknown): Promise<unknown> };\n",
    );
    expect(types).toContain("\n// type PickInput = {\n");
    expect(types).toMatch(/\n\/\/ … cut here: \d+ more characters of declarations\.\n$/);
    expect(compile(types)).toEqual({ problems: [], declared: ["hostile"] });
  });

  it("leaves a connector within the limit declared whole", () => {
    const catalog = createCatalog({ connectors: [server({ type: "string" })] });
    expect(catalog.describe("hostile").types).toBe(catalog.connectors[0]?.all());
  });
});
