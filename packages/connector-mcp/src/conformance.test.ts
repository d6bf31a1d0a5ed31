// mcpConnector against the connector suite, over a real in-process McpServer: a connector that
// connects its own client for each test, as applications re-create connectors per request. The
// server also has a tool that answers only once its call is cancelled.
import { runConnectorConformance } from "@codemode/conformance";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { afterAll } from "vitest";
import { createCatalogServer } from "../test/catalog-server.ts";
import { type McpConnector, mcpConnector } from "./index.ts";

const made: McpConnector[] = [];
let markWaiting: () => void = () => {};
const waiting = new Promise<void>((resolve) => {
  markWaiting = resolve;
});
afterAll(async () => {
  for (const connector of made) await connector.close();
});

runConnectorConformance({
  name: "mcpConnector",
  createConnector: async () => {
    const { server } = createCatalogServer();
    server.registerTool(
      "wait_for_cancel",
      { description: "Answers once the call is cancelled.", annotations: { readOnlyHint: true } },
      (ctx) =>
        new Promise((resolve) => {
          ctx.mcpReq.signal.addEventListener("abort", () => resolve({ content: [] }));
          markWaiting();
        }),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const connector = mcpConnector({ name: "warehouse", transport: clientSide });
    made.push(connector);
    return connector;
  },
  sample: {
    method: "get_item",
    input: { id: "7" },
    expected: { id: "7", name: "Item 7", stock: 3 },
    failing: { method: "restock", input: { id: "7" } },
    waiting: { method: "wait_for_cancel", input: {}, started: () => waiting },
  },
});
