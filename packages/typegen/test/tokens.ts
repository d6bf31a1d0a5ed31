import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { createCatalog } from "../src/index.ts";
import { MCP_FIXTURES, mcpConnector, OPENAPI_FIXTURES, openApiConnector } from "./fixtures.ts";
const enc = new Tiktoken(o200k);
const base: Record<string, number> = { everything: 1781, memory: 901, filesystem: 1665, playwright: 5868, sequential_thinking: 865, github: 369382, stripe: 264903 };
const out: string[] = [];
for (const c of [...MCP_FIXTURES.map(mcpConnector), ...OPENAPI_FIXTURES.map(openApiConnector)]) {
  const b = enc.encode(createCatalog({ connectors: [c] }).connectors[0]!.all()).length;
  out.push(`${c.name} ${b} ${(b / base[c.name]!).toFixed(2)}`);
}
console.log(out.join(" | "));
