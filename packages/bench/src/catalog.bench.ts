// pnpm bench (in packages/bench), first part: the model-facing language side by side with the
// reference, in one Node process: typegen of the same real catalogs (time and tokens), the tokens of
// both tool descriptions and of `describe` for the same methods, and search latency and recall@1/@5
// of both on the typegen package's query set. Tokens are js-tiktoken o200k; times are medians.
//
// Both get the same tools: our connector definitions (OpenAPI operations read against their
// document, MCP `tools/list` as captured), and for the reference the same methods under the same
// sandbox names with self-contained JSON Schemas (its typegen takes no document to resolve `$ref`s
// against), through its public runtime handle (`search`, `describe`, `tool().description`) and
// `generateTypesFromJsonSchema`, which is what its connectors' declarations are made of.
import { readFileSync } from "node:fs";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { selfContained } from "../../typegen/bench/provider-json.ts";
import { percentile, time } from "../../typegen/bench/timing.ts";
import {
  type ConnectorDefinition,
  createCatalog,
  createToolDescription,
  toIdentifier,
  toJsonSchema,
} from "../../typegen/src/index.ts";
import {
  MCP_FIXTURES,
  mcpConnector,
  OPENAPI_FIXTURES,
  openApiConnector,
} from "../../typegen/test/fixtures.ts";
import { reference, referenceContext } from "./reference-in-node.ts";
import { ratio } from "./stats.ts";

const encoder = new Tiktoken(o200k);
const tokens = (text: string) => encoder.encode(text).length;

type Descriptors = Parameters<typeof reference.generateTypesFromJsonSchema>[0];

/** The connector's methods as the reference's JSON Schema descriptors, under our sandbox names. */
function descriptorsOf(connector: ConnectorDefinition): Descriptors {
  const descriptors: Descriptors = {};
  for (const method of connector.methods) {
    const input = toJsonSchema(method.inputSchema) ?? { type: "object" };
    const output = toJsonSchema(method.outputSchema, "output");
    descriptors[toIdentifier(method.name)] = {
      ...(method.description ? { description: method.description } : {}),
      inputSchema: selfContained(input, connector.schemaRoot ?? input) as never,
      ...(output === undefined
        ? {}
        : { outputSchema: selfContained(output, connector.schemaRoot ?? output) as never }),
    };
  }
  return descriptors;
}

/** A reference connector serving the descriptors (its methods are never called here). */
function referenceConnector(connector: ConnectorDefinition, descriptors: Descriptors) {
  const name = toIdentifier(connector.name);
  const tools = Object.fromEntries(
    Object.entries(descriptors).map(([method, descriptor]) => [
      method,
      { ...descriptor, execute: async () => undefined },
    ]),
  );
  const Connector = class extends reference.CodemodeConnector {
    override name() {
      return name;
    }
    override instructions() {
      return connector.instructions;
    }
    override tools() {
      return tools as never;
    }
  };
  return new (
    Connector as unknown as new (
      ctx: unknown,
      env: unknown,
    ) => InstanceType<typeof Connector>
  )({}, {});
}

function referenceRuntime(connectors: ReturnType<typeof referenceConnector>[]) {
  return reference.createCodemodeRuntime({
    ctx: referenceContext as never,
    executor: undefined as never,
    connectors,
  });
}

/**
 * Catalogs whose output schemas both sides leave out: the reference writes every output type out
 * in full, and on Stripe that text outgrows a JavaScript string (RangeError: Invalid string length,
 * after minutes). `--all-outputs` keeps them, to see it fail.
 */
const INPUT_ONLY = process.argv.includes("--all-outputs") ? [] : ["stripe"];
const withoutOutputs = (definition: ConnectorDefinition): ConnectorDefinition => ({
  ...definition,
  methods: definition.methods.map(({ outputSchema: _, ...method }) => method),
});
const definitions: ConnectorDefinition[] = [
  ...MCP_FIXTURES.map(mcpConnector),
  ...OPENAPI_FIXTURES.map(openApiConnector),
].map((definition) =>
  INPUT_ONLY.includes(definition.name) ? withoutOutputs(definition) : definition,
);
const prepared = definitions.map((definition) => {
  const descriptors = descriptorsOf(definition);
  return { definition, descriptors, theirs: referenceConnector(definition, descriptors) };
});

console.log("## Side by side with @cloudflare/codemode 0.5.6: typegen, tokens, search (Node)\n");
console.log(
  "| catalog | methods | declarations, ours | declarations, reference | ours / reference | typegen ms, ours | typegen ms, reference | ours / reference | tool description, ours | tool description, reference | describe(method) mean, ours | describe(method) mean, reference |",
);
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const { definition, descriptors, theirs: connector } of prepared) {
  const catalog = createCatalog({ connectors: [definition] });
  const ourDeclarations = tokens(catalog.connectors[0]?.all() ?? "");
  const rounds = definition.methods.length > 200 ? 3 : 21;
  const ourMs = time(
    () => createCatalog({ connectors: [definition] }).connectors[0]?.all(),
    rounds,
  );
  let typegen: { declarations: number; ms: number } | string;
  try {
    const declarations = tokens(reference.generateTypesFromJsonSchema(descriptors));
    typegen = {
      declarations,
      ms: time(() => reference.generateTypesFromJsonSchema(descriptors), rounds),
    };
  } catch (error) {
    typegen = `fails: ${(error as Error).name} ${(error as Error).message}`;
  }
  const runtime = referenceRuntime([connector]);
  const ourDescription = tokens(createToolDescription(catalog.connectors));
  const theirDescription = tokens(runtime.tool().description);
  const paths = Object.keys(descriptors).map(
    (method) => `${toIdentifier(definition.name)}.${method}`,
  );
  let ourDescribe = 0;
  let theirDescribe = 0;
  let theirFailures = 0;
  for (const path of paths) {
    ourDescribe += tokens(JSON.stringify(catalog.describe(path)));
    try {
      theirDescribe += tokens(JSON.stringify(await runtime.describe(path)));
    } catch {
      theirFailures++;
    }
  }
  console.log(
    `| ${definition.name}${INPUT_ONLY.includes(definition.name) ? " (input schemas only)" : ""} | ${paths.length} | ${ourDeclarations} | ${typeof typegen === "string" ? typegen : typegen.declarations} | ${typeof typegen === "string" ? "–" : ratio(ourDeclarations, typegen.declarations)} | ${ourMs.toFixed(1)} | ${typeof typegen === "string" ? "–" : typegen.ms.toFixed(1)} | ${typeof typegen === "string" ? "–" : ratio(ourMs, typegen.ms)} | ${ourDescription} | ${theirDescription} | ${(ourDescribe / paths.length).toFixed(0)} | ${(theirDescribe / (paths.length - theirFailures)).toFixed(0)}${theirFailures ? ` (${theirFailures} failed)` : ""} |`,
  );
}

interface Query {
  query: string;
  difficulty: "close" | "paraphrase" | "task";
  expected: string[];
}
const queries = JSON.parse(
  readFileSync(new URL("../../typegen/bench/queries.json", import.meta.url), "utf8"),
) as Query[];
const ours = createCatalog({ connectors: definitions });
const theirs = referenceRuntime(prepared.map(({ theirs }) => theirs));
const methodCount = definitions.reduce((total, definition) => total + definition.methods.length, 0);
const limit = 5;

type Search = (query: string) => Promise<string[]>;
const subjects: Array<{ name: string; search: Search }> = [
  {
    name: "ours",
    search: async (query) =>
      (await ours.search(query, { limit })).results.map((result) => result.path),
  },
  {
    name: "reference",
    search: async (query) =>
      (await theirs.search(query)).results.slice(0, limit).map((result) => result.path),
  },
];

const latencies = new Map<string, number[]>(subjects.map(({ name }) => [name, []]));
for (let round = 0; round < 6; round++) {
  for (const { name, search } of round % 2 ? [...subjects].reverse() : subjects) {
    for (const { query } of queries) {
      const start = performance.now();
      await search(query);
      // the first round warms up
      if (round > 0) latencies.get(name)?.push(performance.now() - start);
    }
  }
}

type Row = { n: number; at1: number[]; at5: number[]; empty: number[] };
const rows = new Map<string, Row>();
for (const query of queries) {
  const found = await Promise.all(subjects.map(({ search }) => search(query.query)));
  for (const key of [query.difficulty, "overall"]) {
    const row = rows.get(key) ?? { n: 0, at1: [0, 0], at5: [0, 0], empty: [0, 0] };
    row.n++;
    found.forEach((paths, index) => {
      const hit = (k: number) => paths.slice(0, k).some((path) => query.expected.includes(path));
      if (hit(1)) (row.at1[index] as number)++;
      if (hit(5)) (row.at5[index] as number)++;
      if (paths.length === 0) (row.empty[index] as number)++;
    });
    rows.set(key, row);
  }
}

const [ourLatency, theirLatency] = subjects.map(({ name }) => latencies.get(name) ?? []) as [
  number[],
  number[],
];
console.log(
  `\n### Search over ${methodCount} methods (${queries.length} queries, 5 rounds after a warm-up, subjects alternating)\n`,
);
console.log("| measure | ours | reference | ours / reference |\n|---|---:|---:|---:|");
for (const p of [50, 95]) {
  const mine = percentile(ourLatency, p);
  const other = percentile(theirLatency, p);
  console.log(
    `| latency p${p} | ${mine.toFixed(3)} ms | ${other.toFixed(3)} ms | ${ratio(mine, other)} |`,
  );
}
for (const key of ["close", "paraphrase", "task", "overall"]) {
  const row = rows.get(key);
  if (!row) continue;
  const f = (value: number | undefined) => ((value ?? 0) / row.n).toFixed(2);
  console.log(`| recall@1, ${key} (${row.n}) | ${f(row.at1[0])} | ${f(row.at1[1])} | |`);
  console.log(`| recall@5, ${key} (${row.n}) | ${f(row.at5[0])} | ${f(row.at5[1])} | |`);
  console.log(`| queries answered with nothing, ${key} | ${row.empty[0]} | ${row.empty[1]} | |`);
}
