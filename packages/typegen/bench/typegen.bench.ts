// pnpm bench (in packages/typegen): tokens of tool schemas vs our declarations vs the tool
// description per real catalog, typegen time, search latency and recall against a BM25 baseline.
// Every time is a median over several runs in this process; ratios are computed in the same run.
import { readFileSync } from "node:fs";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { type ConnectorDefinition, createCatalog, createToolDescription } from "../src/index.ts";
import {
  MCP_FIXTURES,
  mcpConnector,
  OPENAPI_FIXTURES,
  openApiConnector,
} from "../test/fixtures.ts";
import { Bm25 } from "./bm25.ts";
import { providerJson } from "./provider-json.ts";
import { percentile, time } from "./timing.ts";

const encoder = new Tiktoken(o200k);
const tokens = (text: string) => encoder.encode(text).length;

const connectors: ConnectorDefinition[] = [
  ...MCP_FIXTURES.map(mcpConnector),
  ...OPENAPI_FIXTURES.map(openApiConnector),
];

// `--search` skips the token and typegen tables; `--misses` lists the dev-split queries missed at 5.
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

type Row = { n: number; ours1: number; ours5: number; bm1: number; bm5: number };
const rows = new Map<string, Row>();
const misses: string[] = [];
for (const query of queries) {
  const ours = (await all.search(query.query, { limit })).results.map((result) => result.path);
  const theirs = bm25
    .rank(query.query)
    .slice(0, limit)
    .map((item) => (methods[item] as { path: string }).path);
  const hit = (list: string[], k: number) =>
    list.slice(0, k).some((path) => query.expected.includes(path)) ? 1 : 0;
  for (const key of [
    query.difficulty,
    `${query.difficulty} (${query.split})`,
    "overall",
    `overall (${query.split})`,
  ]) {
    const row = rows.get(key) ?? { n: 0, ours1: 0, ours5: 0, bm1: 0, bm5: 0 };
    row.n++;
    row.ours1 += hit(ours, 1);
    row.ours5 += hit(ours, 5);
    row.bm1 += hit(theirs, 1);
    row.bm5 += hit(theirs, 5);
    rows.set(key, row);
  }
  if (!hit(ours, 5) && query.split === "dev" && process.argv.includes("--misses")) {
    misses.push(
      `${query.id} [${query.difficulty}] ${query.query}\n   expected ${query.expected.join(", ")}\n   got      ${ours.join(", ")}`,
    );
  }
}
console.log(
  "\n| queries | n | recall@1 ours | recall@1 BM25 | recall@5 ours | recall@5 BM25 |\n|---|---:|---:|---:|---:|---:|",
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
    `| ${key} | ${row.n} | ${f(row.ours1)} | ${f(row.bm1)} | ${f(row.ours5)} | ${f(row.bm5)} |`,
  );
}
if (misses.length) console.log(`\nMissed at 5 (dev split):\n${misses.join("\n")}`);
