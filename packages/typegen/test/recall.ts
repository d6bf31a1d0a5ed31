// quick recall runner: npx tsx test/recall.ts [--misses] ; WEIGHTS='{"related":0.8}' to override
import { readFileSync } from "node:fs";
import { createCatalog, DEFAULT_SEARCH_WEIGHTS } from "../src/index.ts";
import { MCP_FIXTURES, mcpConnector, OPENAPI_FIXTURES, openApiConnector } from "./fixtures.ts";
const override = JSON.parse(process.env.WEIGHTS ?? "{}");
const weights = { ...DEFAULT_SEARCH_WEIGHTS, ...override, fields: { ...DEFAULT_SEARCH_WEIGHTS.fields, ...(override.fields ?? {}) } };
const all = createCatalog({ connectors: [...MCP_FIXTURES.map(mcpConnector), ...OPENAPI_FIXTURES.map(openApiConnector)], weights });
const queries = JSON.parse(readFileSync("bench/queries.json", "utf8"));
await all.search("warm up");
const rows: Record<string, number[]> = {};
const misses: string[] = [];
const times: number[] = [];
for (const q of queries) {
  const t = performance.now();
  const r = (await all.search(q.query, { limit: 5 })).results.map((x) => x.path);
  times.push(performance.now() - t);
  const h1 = q.expected.includes(r[0]) ? 1 : 0, h5 = r.some((p) => q.expected.includes(p)) ? 1 : 0;
  for (const k of [q.difficulty + "/" + q.split, "all/" + q.split]) { rows[k] ??= [0, 0, 0]; rows[k][0]++; rows[k][1] += h1; rows[k][2] += h5; }
  if (!h5 && q.split === "dev") misses.push(`${q.id} [${q.difficulty}] ${q.query}\n    want ${q.expected.join(", ")}\n    got  ${r.join(", ")}`);
}
times.sort((a, b) => a - b);
console.log("p50", times[times.length >> 1].toFixed(3), "ms  p95", times[Math.floor(times.length * 0.95)].toFixed(3));
for (const [k, [n, a, b]] of Object.entries(rows).sort()) console.log(k.padEnd(16), n, (a / n).toFixed(2), (b / n).toFixed(2));
if (process.argv.includes("--misses")) console.log(misses.join("\n"));
