import { readFileSync } from "node:fs";
import { createCatalog } from "../src/index.ts";
import { MCP_FIXTURES, mcpConnector, OPENAPI_FIXTURES, openApiConnector } from "./fixtures.ts";
const all = createCatalog({ connectors: [...MCP_FIXTURES.map(mcpConnector), ...OPENAPI_FIXTURES.map(openApiConnector)] });
const queries = JSON.parse(readFileSync("bench/queries.json", "utf8"));
for (let r = 0; r < 3; r++) for (const q of queries) await all.search(q.query, { limit: 5 });
const t: [number, string][] = [];
for (const q of queries) { const s = performance.now(); for (let i = 0; i < 5; i++) await all.search(q.query, { limit: 5 }); t.push([(performance.now() - s) / 5, q.query]); }
t.sort((a, b) => b[0] - a[0]); for (const [ms, q] of t.slice(0, 8)) console.log(ms.toFixed(3), q);
const sorted = t.map((x) => x[0]).sort((a, b) => a - b); console.log("p50", sorted[sorted.length >> 1].toFixed(3), "p95", sorted[Math.floor(sorted.length * 0.95)].toFixed(3));
