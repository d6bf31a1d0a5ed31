import { createCatalog } from "../src/index.ts";
import { mcpConnector } from "./fixtures.ts";
const c = mcpConnector(process.argv[2] as any);
console.log(createCatalog({ connectors: [c] }).connectors[0]!.all());
console.log(JSON.stringify(c.tools.slice(0, 3)));
