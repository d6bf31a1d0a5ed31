// A server the host does not control, through a real SDK server over the in-memory transport: the
// hostile-server conformance suite, and the connector's own reading of a server's output schema
// (its patterns and formats are never run, whichever client the connector calls through).
import { type HostileServerSdk, runHostileServerConformance } from "@codemode/conformance";
import type { CallContext } from "@codemode/core";
import { Client, type Transport } from "@modelcontextprotocol/client";
import {
  createMcpHandler,
  InMemoryTransport,
  type McpHttpHandler,
  Server,
  type Tool,
} from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { type McpConnector, mcpConnector } from "./index.ts";

// The suite registers its handlers as `setRequestHandler(sdk.ListToolsRequestSchema, …)`: SDK v2's
// Server takes the method's name where v1 took its schema.
const sdk: HostileServerSdk = {
  Server,
  InMemoryTransport,
  ListToolsRequestSchema: "tools/list",
  CallToolRequestSchema: "tools/call",
};

runHostileServerConformance({
  name: "mcpConnector",
  sdk,
  connect: (transport) => mcpConnector({ name: "hostile", transport: transport as Transport }),
  connectTrusted: (transport) =>
    mcpConnector({ name: "hostile", transport: transport as Transport, trustAnnotations: true }),
});

/** Where the suite's server is served on MCP 2026-07-28: what stands for its "transport". */
interface ModernEnd {
  handler?: McpHttpHandler;
}

/**
 * The same suite on MCP 2026-07-28: the suite's server (its info, options and handlers) is made
 * again for each request by createMcpHandler, which serves no other era, and the connector reaches
 * it through the handler's fetch.
 */
const modernSdk: HostileServerSdk = {
  Server: class {
    readonly handlers: Array<[string, (request: never) => unknown]> = [];
    handler: McpHttpHandler | undefined;
    constructor(
      readonly info: ConstructorParameters<typeof Server>[0],
      readonly options: ConstructorParameters<typeof Server>[1],
    ) {}
    setRequestHandler(method: string, handler: (request: never) => unknown) {
      this.handlers.push([method, handler]);
    }
    async connect(end: ModernEnd) {
      this.handler = createMcpHandler(
        () => {
          const server = new Server(this.info, this.options);
          for (const [method, handler] of this.handlers) {
            server.setRequestHandler(method as "tools/list", handler as never);
          }
          return server;
        },
        { legacy: "reject" },
      );
      end.handler = this.handler;
    }
    async close() {
      await this.handler?.close();
    }
  },
  InMemoryTransport: {
    createLinkedPair() {
      const end: ModernEnd = {};
      return [end, end] as const;
    },
  },
  ListToolsRequestSchema: "tools/list",
  CallToolRequestSchema: "tools/call",
};

const modern = (transport: unknown, trustAnnotations = false) =>
  mcpConnector({
    name: "hostile",
    url: "http://hostile.test/mcp",
    http: {
      fetch: (url, init) => {
        const { handler } = transport as ModernEnd;
        if (!handler) throw new Error("the hostile server is not served yet");
        return handler.fetch(new Request(url, init));
      },
    },
    trustAnnotations,
  });

runHostileServerConformance({
  name: "mcpConnector on MCP 2026-07-28",
  sdk: modernSdk,
  connect: (transport) => modern(transport),
  connectTrusted: (transport) => modern(transport, true),
});

const context = (): CallContext => ({
  executionId: "exec_1",
  seq: 0,
  idempotencyKey: "exec_1:0",
  signal: new AbortController().signal,
});

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A server with one tool `answer` of this output schema, answering with `structuredContent`. */
async function serving(outputSchema: Tool["outputSchema"], structuredContent: unknown) {
  const server = new Server({ name: "hostile", version: "1.0.0" }, { capabilities: { tools: {} } });
  const tool: Tool = { name: "answer", inputSchema: { type: "object" }, outputSchema };
  server.setRequestHandler("tools/list", async () => ({ tools: [tool] }));
  server.setRequestHandler("tools/call", async () => ({
    structuredContent: structuredContent as Record<string, unknown>,
    content: [{ type: "text", text: JSON.stringify(structuredContent) }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  closing.push(() => server.close());
  return clientSide;
}

/** The connector over its own client, and over a client the host made with the SDK's defaults (Ajv on Node). */
async function bothClients(transport: () => Promise<Transport>): Promise<McpConnector[]> {
  const own = mcpConnector({ name: "hostile", transport: await transport() });
  const client = new Client({ name: "host", version: "1.0.0" });
  await client.connect(await transport());
  const given = mcpConnector({ name: "hostile", client });
  closing.push(
    () => own.close(),
    () => client.close(),
  );
  return [own, given];
}

describe("a server's output schema is never run on the host", () => {
  const text = `${"a".repeat(39)}b`;

  it.each<[string, Tool["outputSchema"], Record<string, unknown>]>([
    [
      // 2^39 steps of a backtracking engine, with the event loop held: this test could not finish
      "a backtracking pattern on a 40-character result",
      { type: "object", properties: { text: { type: "string", pattern: "^(a+)+$" } } },
      { text },
    ],
    [
      "a backtracking pattern property on a 40-character key",
      { type: "object", patternProperties: { "^(a+)+$": { type: "number" } } },
      { [text]: "not a number" },
    ],
    [
      // a check would refuse this result: it is not checked
      "a pattern the result does not match",
      { type: "object", properties: { text: { type: "string", pattern: "^$" } } },
      { text: "x" },
    ],
    [
      "a pattern that is no regular expression",
      { type: "object", properties: { text: { type: "string", pattern: "(" } } },
      { text: "x" },
    ],
    [
      "a format the result does not have",
      { type: "object", properties: { text: { type: "string", format: "email" } } },
      { text: "not an address" },
    ],
  ])("%s: the call answers with the result as sent", async (_name, outputSchema, result) => {
    for (const connector of await bothClients(() => serving(outputSchema, result))) {
      expect(await connector.invoke("answer", {}, context())).toEqual(result);
    }
  });
});
