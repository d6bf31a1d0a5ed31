import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { createCatalog } from "../src/index.ts";
import { openApiConnector } from "./fixtures.ts";
const enc = new Tiktoken(o200k);
const c = createCatalog({ connectors: [openApiConnector(process.argv[2] as any)] }).connectors[0]!;
const text = c.all();
const parts = text.split("\n\n");
let named = 0, inputs = 0, outputs = 0, decl = 0, docs = 0;
for (const p of parts) { const t = enc.encode(p).length; const m = /type (\w+) =/.exec(p); if (!m) decl += t; else if (m[1].endsWith("Input")) inputs += t; else if (m[1].endsWith("Output")) outputs += t; else named += t; }
for (const line of text.split("\n")) if (line.trim().startsWith("/**") || line.trim().startsWith("*")) docs += enc.encode(line).length;
console.log({ named, inputs, outputs, decl, docs, total: enc.encode(text).length });
const big = parts.map((p) => [enc.encode(p).length, p.slice(0, 80)] as const).sort((a, b) => b[0] - a[0]).slice(0, 8);
console.log(big);
