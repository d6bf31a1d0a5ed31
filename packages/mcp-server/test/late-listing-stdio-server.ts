// A Code Mode MCP server on this process's stdio (`StdioServerTransport`) whose one connector lists
// its methods only once the process gets SIGUSR2: the codemode tool's description changes then,
// while a client is connected. It writes "closed" to stderr when its transport closes and exits 0
// a moment later; a rejection nobody handled ends it before that, with code 1. Run by
// stdio-client-gone.test.ts: `node --experimental-transform-types test/late-listing-stdio-server.ts`.
import { type Connector, createCodemodeRuntime, memoryStore } from "@codemode/core";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { codeMcpServer } from "../src/index.ts";

let list!: () => void;
const listed = new Promise<void>((resolve) => {
  list = resolve;
});
process.on("SIGUSR2", () => list());

const late: Connector = {
  specificationVersion: "v1",
  name: "late",
  methods: async () => {
    await listed;
    return { ping: { inputSchema: { type: "object" } } };
  },
  invoke: async () => "pong",
};

const runtime = createCodemodeRuntime({
  store: memoryStore(),
  executor: { specificationVersion: "v1", execute: async () => ({ result: null, logs: [] }) },
  connectors: [late],
});
const server = codeMcpServer({ runtime });
server.server.onclose = () => {
  process.stderr.write("closed\n");
  setTimeout(() => process.exit(0), 200);
};
await server.connect(new StdioServerTransport());
