// pnpm bench (in packages/typegen): tokens of tool schemas vs our declarations vs the tool
// description per real catalog, typegen time, search latency and recall against a BM25 baseline.
// Every time is a median over several runs in this process; ratios are computed in the same run.
import { readFileSync } from "node:fs";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import {
  type ConnectorDefinition,
  createCatalog,
  createToolDescription,
  type EmbedFunction,
} from "../src/index.ts";
import {
  MCP_FIXTURES,
  mcpConnector,
  OPENAPI_FIXTURES,
  openApiConnector,
} from "../test/fixtures.ts";
import { Bm25 } from "./bm25.ts";
import { providerJson } from "./provider-json.ts";
import { sentenceEncoder } from "./sentence-encoder.ts";
import { percentile, time } from "./timing.ts";

const encoder = new Tiktoken(o200k);
const tokens = (text: string) => encoder.encode(text).length;

const connectors: ConnectorDefinition[] = [
  ...MCP_FIXTURES.map(mcpConnector),
  ...OPENAPI_FIXTURES.map(openApiConnector),
];

// `--search` skips the token and typegen tables; `--misses` lists the dev-split queries missed at 5;
// `--no-embed` leaves out the sentence encoder.
if (!process.argv.includes("--search")) {
  console.log("## Tokens (js-tiktoken o200k) and typegen time per real catalog\n");
  console.log(
    "| catalog | methods | (a) JSON input schemas | (a+) with output schemas | (b) our declarations, with output types | (b)/(a) | (b)/(a+) | (c) tool description | typegen ms (median) |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const connector of connectors) {
    const a = tokens(providerJson(connector, false));
    // Stripe's output schemas, made self-contained per tool, run to tens of millions of tokens.
    const withOutputs = providerJson(connector, true);
    const aPlus = withOutputs.length <= 8_000_000 ? tokens(withOutputs) : undefined;
    const catalog = createCatalog({ connectors: [connector] });
    const b = tokens(catalog.connectors[0]?.all() ?? "");
    const c = tokens(createToolDescription(catalog.connectors));
    const rounds = connector.methods.length > 200 ? 5 : 20;
    const ms = time(() => createCatalog({ connectors: [connector] }).connectors[0]?.all(), rounds);
    console.log(
      `| ${connector.name} | ${connector.methods.length} | ${a} | ${aPlus ?? `> ${(withOutputs.length / 4e6).toFixed(0)}M (${(withOutputs.length / 1e6).toFixed(0)}M chars)`} | ${b} | ${(b / a).toFixed(2)} | ${aPlus ? (b / aPlus).toFixed(2) : "< 0.1"} | ${c} | ${ms.toFixed(1)} |`,
    );
  }
}

const all = createCatalog({ connectors });
const description = createToolDescription(all.connectors);
console.log(
  `\nTool description with all ${all.connectors.length} connectors: ${tokens(description)} tokens.`,
);

interface Query {
  id: string;
  query: string;
  difficulty: "close" | "paraphrase" | "task";
  catalog: string;
  expected: string[];
  split: "dev" | "test";
}
const queries = JSON.parse(
  readFileSync(new URL("./queries.json", import.meta.url), "utf8"),
) as Query[];
const methods = all.connectors.flatMap((connector) => connector.methods);
const bm25 = new Bm25(methods.map((method) => `${method.path} ${method.description ?? ""}`));

// latency over the combined catalog, after a warm-up pass
const limit = 5;
for (const query of queries) await all.search(query.query, { limit });
const latencies: number[] = [];
for (let round = 0; round < 5; round++) {
  for (const query of queries) {
    const start = performance.now();
    await all.search(query.query, { limit });
    latencies.push(performance.now() - start);
  }
}
console.log(
  `\n## Search over ${methods.length} methods (${queries.length} queries × 5 rounds)\n\nlatency p50 ${percentile(latencies, 50).toFixed(3)} ms, p95 ${percentile(latencies, 95).toFixed(3)} ms`,
);

// Rankers side by side on the same queries: ours, a plain BM25 baseline, and (unless --no-embed) ours
// re-ranked with a real sentence encoder as the host's `embed`, and that encoder on its own.
type Ranker = (query: string) => Promise<string[]>;
const rankers = new Map<string, Ranker>([
  ["ours", async (query) => (await all.search(query, { limit })).results.map((r) => r.path)],
  [
    "BM25",
    async (query) =>
      bm25
        .rank(query)
        .slice(0, limit)
        .map((item) => (methods[item] as { path: string }).path),
  ],
]);
if (!process.argv.includes("--no-embed")) {
  const encoder = await sentenceEncoder();
  let vectors: number[][] = [];
  // the catalog embeds its methods in one call (kept for the encoder alone), each query in its own
  const embed: EmbedFunction = async (texts) => {
    const embedded = await encoder(texts);
    if (texts.length > 1) vectors = embedded;
    return embedded;
  };
  const semantic = createCatalog({ connectors, embed });
  const started = performance.now();
  await semantic.search("warm up");
  console.log(
    `\nSentence encoder (Universal Sentence Encoder through @energetic-ai/embeddings, offline): ${vectors.length} items embedded or read from cache in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
  rankers.set("ours + encoder", async (query) =>
    (await semantic.search(query, { limit })).results.map((r) => r.path),
  );
  rankers.set("encoder alone", async (query) => {
    const [queryVector] = await encoder([query]);
    return vectors
      .map((vector, item) => ({ item, score: cosine(queryVector as number[], vector) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map(({ item }) => (methods[item] as { path: string }).path);
  });
}

const names = [...rankers.keys()];
type Row = { n: number; at1: number[]; at5: number[] };
const rows = new Map<string, Row>();
const misses: string[] = [];
/** how deep the lexical ranking has to be read to hold an answer: what a re-rank can reach */
const depths = [5, 20, 50, 100];
const within = new Map<string, number[]>();
for (const query of queries) {
  const hit = (list: string[], k: number) =>
    list.slice(0, k).some((path) => query.expected.includes(path)) ? 1 : 0;
  const lists = await Promise.all(names.map((name) => (rankers.get(name) as Ranker)(query.query)));
  const deep = (await all.search(query.query, { limit: 100 })).results.map((r) => r.path);
  for (const key of [
    query.difficulty,
    `${query.difficulty} (${query.split})`,
    "overall",
    `overall (${query.split})`,
  ]) {
    const row = rows.get(key) ?? { n: 0, at1: names.map(() => 0), at5: names.map(() => 0) };
    row.n++;
    lists.forEach((list, index) => {
      (row.at1[index] as number) += hit(list, 1);
      (row.at5[index] as number) += hit(list, 5);
    });
    rows.set(key, row);
  }
  for (const key of [query.difficulty, "overall"]) {
    const counts = within.get(key) ?? depths.map(() => 0);
    depths.forEach((depth, index) => {
      (counts[index] as number) += hit(deep, depth);
    });
    within.set(key, counts);
  }
  const ours = lists[0] as string[];
  if (!hit(ours, 5) && query.split === "dev" && process.argv.includes("--misses")) {
    misses.push(
      `${query.id} [${query.difficulty}] ${query.query}\n   expected ${query.expected.join(", ")}\n   got      ${ours.join(", ")}`,
    );
  }
}
console.log(
  `\n| queries | n | ${names.map((name) => `recall@1 ${name}`).join(" | ")} | ${names.map((name) => `recall@5 ${name}`).join(" | ")} |\n|---|---:|${names.map(() => "---:|---:|").join("")}`,
);
for (const key of [
  "close",
  "paraphrase",
  "task",
  "overall",
  "close (dev)",
  "close (test)",
  "paraphrase (dev)",
  "paraphrase (test)",
  "task (dev)",
  "task (test)",
  "overall (dev)",
  "overall (test)",
]) {
  const row = rows.get(key);
  if (!row) continue;
  const f = (value: number) => (value / row.n).toFixed(2);
  console.log(
    `| ${key} | ${row.n} | ${row.at1.map(f).join(" | ")} | ${row.at5.map(f).join(" | ")} |`,
  );
}
console.log(
  `\nHow deep our lexical ranking holds an answer (what a re-rank can reach):\n\n| queries | ${depths.map((depth) => `within ${depth}`).join(" | ")} |\n|---|${depths.map(() => "---:|").join("")}`,
);
for (const key of ["close", "paraphrase", "task", "overall"]) {
  const counts = within.get(key) ?? [];
  const n = rows.get(key)?.n ?? 1;
  console.log(`| ${key} | ${counts.map((count) => (count / n).toFixed(2)).join(" | ")} |`);
}
if (misses.length) console.log(`\nMissed at 5 (dev split):\n${misses.join("\n")}`);

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  a.forEach((x, index) => {
    const y = b[index] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  });
  return dot / Math.sqrt(normA * normB || 1);
}
