// The declarations the model reads, checked on the committed real catalogs (fixtures/): they must
// compile under `strict`, be usable the way a model writes code against them, keep their shape, and
// stay byte-stable (snapshots under __snapshots__/).
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  MCP_FIXTURES,
  mcpConnector,
  OPENAPI_FIXTURES,
  openApiConnector,
} from "../test/fixtures.ts";
import { type Compilation, createProgram, formatDiagnostic } from "../test/typescript.ts";
import {
  type Catalog,
  type ConnectorDeclarations,
  type ConnectorDefinition,
  createCatalog,
  createToolDescription,
  type JsonSchema,
  toIdentifier,
} from "./index.ts";

type Fixture = (typeof MCP_FIXTURES)[number] | (typeof OPENAPI_FIXTURES)[number];
const FIXTURES: readonly Fixture[] = [...MCP_FIXTURES, ...OPENAPI_FIXTURES];
const SLOW = 120_000;

// ---------------------------------------------------------------------------------------------
// Catalogs: every fixture alone and all of them together, built once per test file.

function loadDefinition(fixture: Fixture): ConnectorDefinition {
  return fixture === "github" || fixture === "stripe"
    ? openApiConnector(fixture)
    : mcpConnector(fixture);
}

const definitions = new Map<Fixture, ConnectorDefinition>();
function definition(fixture: Fixture): ConnectorDefinition {
  let found = definitions.get(fixture);
  if (!found) {
    found = loadDefinition(fixture);
    definitions.set(fixture, found);
  }
  return found;
}

const singles = new Map<Fixture, Catalog>();
function single(fixture: Fixture): Catalog {
  let found = singles.get(fixture);
  if (!found) {
    found = createCatalog({ connectors: [definition(fixture)] });
    singles.set(fixture, found);
  }
  return found;
}

function connectorOf(catalog: Catalog, fixture: Fixture): ConnectorDeclarations {
  const name = definition(fixture).name;
  const connector = catalog.connectors.find((candidate) => candidate.original === name);
  if (!connector) throw new Error(`no connector "${name}" in the catalog`);
  return connector;
}

let everything: Catalog | undefined;
function combined(): Catalog {
  everything ??= createCatalog({ connectors: FIXTURES.map(definition) });
  return everything;
}

/** Every `step`-th item, `count` of them: a deterministic spread over the whole catalog. */
function sample<T>(items: readonly T[], count: number): T[] {
  const step = Math.max(1, Math.floor(items.length / count));
  return items.filter((_, index) => index % step === 0).slice(0, count);
}

// ---------------------------------------------------------------------------------------------
// Compiling (test/typescript.ts).

/** `type X` declared more than once in a text (the compiler would also say so, less plainly). */
function duplicateTypeNames(text: string): string[] {
  const counts = new Map<string, number>();
  for (const [, name] of text.matchAll(/^type (\w+)/gm))
    counts.set(name as string, (counts.get(name as string) ?? 0) + 1);
  return [...counts]
    .filter(([, count]) => count > 1)
    .map(([name, count]) => `type ${name} is declared ${count} times`);
}

interface CompileOptions {
  fileName?: string;
  /**
   * Also check the lib files (`skipLibCheck: false` in full). A generated name that clashes with a
   * lib global is reported in the generated file either way, so the per-method compiles leave the
   * lib files' own diagnostics out: checking lib.es2022 again costs ~0.3 s a program, and the
   * whole-catalog compiles already do it.
   */
  libDiagnostics?: boolean;
}

function diagnostics(text: string, options: CompileOptions = {}): ts.Diagnostic[] {
  const { program, file } = createProgram(text, options.fileName ?? "declarations.d.ts");
  if (options.libDiagnostics !== false) return [...ts.getPreEmitDiagnostics(program)];
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(file),
    ...program.getSemanticDiagnostics(file),
  ];
}

/** Everything wrong with a declaration text: compiler diagnostics and repeated type names. */
function problems(text: string, options: CompileOptions = {}): string[] {
  return [...diagnostics(text, options).map(formatDiagnostic), ...duplicateTypeNames(text)];
}

/** Methods whose describe() output is snapshotted: GET, list, POST body, DELETE, PUT, nesting, recursion. */
const SNAPSHOT_METHODS = {
  github: [
    "meta_root", // GET without parameters
    "repos_get", // simple GET with path parameters, a large shared output
    "issues_list_for_repo", // list with filters and per_page/page pagination
    "search_repos", // GET with a required query, enums, pagination
    "issues_create", // POST with a JSON body (a field named `body` inside `body`)
    "gists_create", // POST with a map (`files: Record<string, …>`)
    "git_create_tree", // POST with an array of objects
    "repos_create_or_update_file_contents", // PUT
    "repos_delete", // DELETE without a response body
    "markdown_render", // non-JSON (text/html) response
    "users_get_authenticated", // union output (private | public user)
    "code_security_create_configuration", // deeply nested body
  ],
  stripe: [
    "GetBalance", // simple GET
    "GetTaxRates", // list with cursor pagination (limit, starting_after, ending_before)
    "GetCoupons", // list whose `created` filter is `RangeQuerySpecs | number`
    "GetCountrySpecsCountry", // GET with a path parameter
    "GetEventsId", // GET of an event (a type name clashing with the `Event` global)
    "PostCoupons", // POST with a form body, `metadata: Record<string, string> | ""`
    "PostCouponsCoupon", // POST update of one object
    "PostWebhookEndpoints", // POST with a long enum list
    "PostTerminalConfigurations", // deeply nested body
    "DeleteCustomersCustomer", // DELETE
    "GetFilesFile", // recursive named types (File ↔ FileLink)
    "GetQuotesQuotePdf", // non-JSON (PDF) response
  ],
} as const;

// ---------------------------------------------------------------------------------------------

describe("declarations compile under strict", () => {
  it.each(FIXTURES)(
    "%s alone: declarations() (connector + codemode SDK)",
    (fixture) => {
      const text = single(fixture).declarations();
      expect(text).toContain("declare const codemode: {");
      expect(problems(text)).toEqual([]);
    },
    SLOW,
  );

  it(
    "all fixtures in one catalog: declarations()",
    () => {
      const text = combined().declarations();
      expect(text.length).toBeGreaterThan(1_000_000);
      expect(problems(text)).toEqual([]);
    },
    SLOW,
  );

  it(
    "describe(connector).types of each connector in the combined catalog",
    () => {
      const failures: string[] = [];
      for (const connector of combined().connectors) {
        const described = combined().describe(connector.name);
        expect(described.kind).toBe("connector");
        for (const problem of problems(described.types, { libDiagnostics: false }))
          failures.push(`${connector.name}: ${problem}`);
      }
      expect(failures).toEqual([]);
    },
    SLOW,
  );

  it.each(FIXTURES)(
    "describe(method).types on its own: %s",
    (fixture) => {
      const connector = connectorOf(combined(), fixture);
      const chosen: readonly string[] =
        fixture === "github" || fixture === "stripe" ? SNAPSHOT_METHODS[fixture] : [];
      // MCP connectors: every method; OpenAPI: every n-th of 50 plus the snapshotted ones.
      const methods =
        chosen.length === 0
          ? connector.methods
          : [
              ...sample(connector.methods, 50),
              ...connector.methods.filter((method) => chosen.includes(method.name)),
            ];
      expect(methods.length).toBeGreaterThanOrEqual(
        chosen.length === 0 ? connector.methods.length : 50,
      );
      const failures: string[] = [];
      for (const method of new Set(methods)) {
        const described = combined().describe(method.path);
        expect(described.kind).toBe("method");
        expect(described.path).toBe(method.path);
        for (const problem of problems(described.types, { libDiagnostics: false }))
          failures.push(`${method.path}: ${problem}`);
      }
      expect(failures).toEqual([]);
    },
    SLOW,
  );
});

// ---------------------------------------------------------------------------------------------

const MEMORY_PROGRAM = `
const program = async () => {
  const created = await memory.create_entities({
    entities: [{ name: "a", entityType: "b", observations: [] }],
  });
  const first: string | undefined = created.entities[0]?.name;
  await memory.create_relations({ relations: [{ from: "a", to: "a", relationType: "self" }] });
  const graph = await memory.read_graph();
  const size: number = graph.entities.length + graph.relations.length;
  const found = await memory.search_nodes({ query: "a" });
  const s = await codemode.search("x");
  const described = await codemode.describe(s.results[0]?.path ?? "memory");
  const stamp = await codemode.step("now", () => Date.now());
  return { first, size, found: found.entities.map((entity) => entity.name), path: s.results[0]?.path, types: described.types, stamp };
};
`;

describe("declarations are usable the way a model writes code", () => {
  it("memory: a program calling methods and codemode type-checks", () => {
    const text = `${single("memory").declarations()}${MEMORY_PROGRAM}`;
    expect(problems(text, { fileName: "program.ts" })).toEqual([]);
  });

  it("github: a program against a connector offering two of its operations type-checks", () => {
    const github = definition("github");
    const wanted = new Set(["issues/create", "search/repos"]);
    const catalog = createCatalog({
      connectors: [{ ...github, methods: github.methods.filter((m) => wanted.has(m.name)) }],
    });
    const program = `${catalog.declarations()}
const program = async () => {
  const found = await github.search_repos({ q: "language:typescript", per_page: 5 });
  const repo = found.items[0];
  if (!repo) return null;
  const issue = await github.issues_create({
    owner: repo.owner?.login ?? "octocat",
    repo: repo.name,
    body: { title: "Bug", body: "Steps", labels: ["bug"] },
  });
  const number: number = issue.number;
  const author: string | undefined = issue.user?.login;
  return { number, author, url: issue.html_url };
};
`;
    expect(problems(program, { fileName: "program.ts", libDiagnostics: false })).toEqual([]);
  });

  it("stripe: a program paging through a list type-checks", () => {
    const types = single("stripe").describe("stripe.GetTaxRates").types;
    const program = `${types}
const program = async () => {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await stripe.GetTaxRates({ limit: 100, active: true, ...(after ? { starting_after: after } : {}) });
    ids.push(...page.data.map((rate) => rate.id));
    if (!page.has_more) break;
    after = page.data[page.data.length - 1]?.id;
  }
  return ids;
};
`;
    expect(problems(program, { fileName: "program.ts", libDiagnostics: false })).toEqual([]);
  });

  // The compile check must be able to fail: each of these is a mistake a model makes.
  it.each<[string, string, number]>([
    [
      "wrong argument type",
      `const program = async () => memory.create_entities({ entities: [{ name: 1, entityType: "b", observations: [] }] });`,
      2322,
    ],
    ["missing required field", `const program = async () => memory.search_nodes({});`, 2345],
    ["unknown method", `const program = async () => memory.create_entity({ entities: [] });`, 2551],
    [
      "field the output does not have",
      `const program = async () => (await memory.read_graph()).nodes;`,
      2339,
    ],
    ["unknown type in a declaration", `type Broken = MissingType;`, 2304],
  ])("a program with a %s fails to type-check", (_, code, expected) => {
    const text = `${single("memory").declarations()}\n${code}\n`;
    const found = diagnostics(text, { fileName: "program.ts", libDiagnostics: false });
    expect(found.map((diagnostic) => diagnostic.code)).toContain(expected);
    const lastLine = text.split("\n").length - 1;
    for (const diagnostic of found) {
      expect(diagnostic.file?.fileName).toBe("program.ts");
      const line = diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line;
      expect(line, formatDiagnostic(diagnostic)).toBe(lastLine - 1);
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe("snapshots", () => {
  // Fresh catalogs: the snapshots must not depend on which other tests ran first.
  it.each(MCP_FIXTURES)("%s: connector.all()", async (fixture) => {
    const catalog = createCatalog({ connectors: [definition(fixture)] });
    const text = connectorOf(catalog, fixture).all();
    await expect(text).toMatchFileSnapshot(`./__snapshots__/${fixture}.d.ts`);
  });

  it.each(OPENAPI_FIXTURES)(
    "%s: describe(path).types of chosen methods",
    async (fixture) => {
      const catalog = createCatalog({ connectors: [definition(fixture)] });
      const connector = connectorOf(catalog, fixture);
      const parts = SNAPSHOT_METHODS[fixture].map((name) => {
        const path = `${connector.name}.${name}`;
        const described = catalog.describe(path);
        expect(described.kind, path).toBe("method");
        expect(described.path, path).toBe(path);
        return `// ${path}\n${described.types}`;
      });
      await expect(parts.join("\n")).toMatchFileSnapshot(`./__snapshots__/${fixture}-methods.d.ts`);
    },
    SLOW,
  );

  it(
    "the tool description of the combined catalog, byte-identical when built twice",
    async () => {
      const first = createToolDescription(combined().connectors);
      const again = createCatalog({ connectors: FIXTURES.map(loadDefinition) });
      expect(createToolDescription(again.connectors)).toBe(first);
      expect(again.declarations()).toBe(combined().declarations());
      await expect(first).toMatchFileSnapshot("./__snapshots__/tool-description.txt");
    },
    SLOW,
  );
});

// ---------------------------------------------------------------------------------------------

function schemaProperties(schema: JsonSchema | undefined): {
  properties: string[];
  required: Set<string>;
} {
  if (typeof schema !== "object" || schema === null) return { properties: [], required: new Set() };
  const properties =
    typeof schema.properties === "object" && schema.properties !== null
      ? Object.keys(schema.properties)
      : [];
  // a field with a default is optional for the caller even when the schema lists it as required
  const defaulted = (key: string) => {
    const property = (schema.properties as Record<string, unknown> | undefined)?.[key];
    return typeof property === "object" && property !== null && "default" in property;
  };
  return {
    properties,
    required: new Set(
      (Array.isArray(schema.required) ? schema.required : []).filter((key) => !defaulted(key)),
    ),
  };
}

/** The `declare const <name>: { … }` of a declaration text, as the compiler reads it. */
function declaredMethods(
  compilation: Compilation,
  connector: string,
): Map<string, ts.MethodSignature> {
  const methods = new Map<string, ts.MethodSignature>();
  for (const statement of compilation.file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || declaration.name.text !== connector) continue;
      if (!declaration.type || !ts.isTypeLiteralNode(declaration.type)) continue;
      for (const member of declaration.type.members) {
        if (ts.isMethodSignature(member) && ts.isIdentifier(member.name))
          methods.set(member.name.text, member);
      }
    }
  }
  return methods;
}

describe("structure of the generated declarations", () => {
  it.each(MCP_FIXTURES)("%s: every tool is a method of the connector's const", (fixture) => {
    const catalog = single(fixture);
    const connector = connectorOf(catalog, fixture);
    const text = connector.all();
    expect(text).toMatch(new RegExp(`^declare const ${connector.name}: \\{$`, "m"));
    const { tools } = mcpConnector(fixture);
    expect(connector.methods).toHaveLength(tools.length);
    for (const tool of tools) {
      const method = connector.find(tool.name);
      expect(method?.name, tool.name).toBe(toIdentifier(tool.name));
      expect(text).toContain(`\n ${method?.name}(input`);
    }
  });

  it.each(FIXTURES)("%s: method identifiers and paths are unique", (fixture) => {
    const connector = connectorOf(combined(), fixture);
    const names = connector.methods.map((method) => method.name);
    expect(new Set(names).size).toBe(names.length);
    const paths = combined().connectors.flatMap((each) => each.methods.map((m) => m.path));
    expect(new Set(paths).size).toBe(paths.length);
  });

  it.each(FIXTURES)(
    "%s: each input type has the schema's properties, none is unknown, input? only when nothing is required",
    (fixture) => {
      const connector = connectorOf(single(fixture), fixture);
      const compilation = createProgram(connector.all(), "declarations.d.ts");
      const checker = compilation.program.getTypeChecker();
      const signatures = declaredMethods(compilation, connector.name);
      expect([...signatures.keys()]).toEqual(connector.methods.map((method) => method.name));
      const failures: string[] = [];
      for (const method of connector.methods) {
        const signature = signatures.get(method.name) as ts.MethodSignature;
        const parameter = signature.parameters[0];
        if (signature.parameters.length !== 1 || !parameter?.type) {
          failures.push(`${method.path}: not one typed parameter`);
          continue;
        }
        const inputType = checker.getTypeFromTypeNode(parameter.type);
        const { properties, required } = schemaProperties(method.inputSchema);
        if (properties.length > 0 && inputType.flags & ts.TypeFlags.Unknown) {
          failures.push(`${method.path}: input is unknown but the schema has ${properties}`);
          continue;
        }
        const declared = new Map(
          checker
            .getPropertiesOfType(inputType)
            .map((symbol) => [symbol.name, (symbol.flags & ts.SymbolFlags.Optional) !== 0]),
        );
        for (const property of properties) {
          const optional = declared.get(property);
          if (optional === undefined) failures.push(`${method.path}: no property "${property}"`);
          else if (optional === required.has(property))
            failures.push(
              `${method.path}: "${property}" is ${optional ? "optional" : "required"} in TypeScript but not in the schema`,
            );
        }
        const optionalInput = parameter.questionToken !== undefined;
        if (optionalInput !== (required.size === 0))
          failures.push(
            `${method.path}: input${optionalInput ? "?" : ""} with required ${[...required]}`,
          );
      }
      expect(failures).toEqual([]);
    },
    SLOW,
  );

  it("an overview aliases a method type whose body an earlier one wrote; describe(method) writes it out", () => {
    const connector = connectorOf(single("memory"), "memory");
    const overview = connector.all();
    expect(overview).toContain("type DeleteRelationsOutput = DeleteEntitiesOutput;");
    expect(overview).toContain("type SearchNodesOutput = ReadGraphOutput;");
    // short bodies are written out: an alias would not be shorter
    expect(overview).toContain("type ReadGraphInput = {};");
    expect(connector.method("delete_relations")).toContain(
      "type DeleteRelationsOutput = { success: boolean; message: string };",
    );
  });

  it(
    "the combined catalog's type names are unique across connectors",
    () => {
      expect(duplicateTypeNames(combined().declarations())).toEqual([]);
    },
    SLOW,
  );
});
