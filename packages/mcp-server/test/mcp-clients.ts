// MCP SDK v2 clients of a Code Mode server, on either protocol era: the 2025 era over the SDK's
// in-memory transport (a session: `initialize`, server-to-client elicitation), the 2026-07-28 era
// through `createMcpHandler`'s `fetch`, in process (stateless: every request a fresh server).
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { createMcpHandler, type McpServer } from "@modelcontextprotocol/server";

export type Era = "2025" | "2026";

export interface ClientOptions {
  /** the client answers form questions with this (undefined: it declares no elicitation) */
  answer?: (message: string) => { action: "accept" | "decline" | "cancel"; approve?: boolean };
  /** the authenticated caller the HTTP requests carry (2026 era) */
  clientId?: string;
}

export interface TestClient {
  client: Client;
  /** the questions the client was asked, in order */
  asked: string[];
  close(): Promise<void>;
}

function newClient(options: ClientOptions, era: Era) {
  const client = new Client(
    { name: "test-client", version: "1.0.0" },
    {
      capabilities: options.answer ? { elicitation: { form: {} } } : {},
      ...(era === "2026" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    },
  );
  const asked: string[] = [];
  const { answer } = options;
  if (answer) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const { message } = request.params;
      asked.push(message);
      const { action, approve } = answer(message);
      return action === "accept" ? { action, content: { approve: approve ?? false } } : { action };
    });
  }
  return { client, asked };
}

/** a client of `server` over a 2025-era in-memory session */
export async function sessionClient(
  server: McpServer,
  options: ClientOptions = {},
): Promise<TestClient> {
  const { client, asked } = newClient(options, "2025");
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, asked, close: () => client.close() };
}

/**
 * A 2026-07-28 client of the servers `factory` makes, one per request; `route` picks which of
 * several handlers (instances over one journal) serves each request, by its number.
 */
export async function statelessClient(
  factory: (() => McpServer) | (() => McpServer)[],
  options: ClientOptions & { route?: (request: number) => number } = {},
): Promise<TestClient> {
  const factories = Array.isArray(factory) ? factory : [factory];
  const handlers = factories.map((make) => createMcpHandler(() => make(), { legacy: "reject" }));
  let requests = 0;
  const { client, asked } = newClient(options, "2026");
  const authInfo =
    options.clientId === undefined
      ? undefined
      : { token: "t", clientId: options.clientId, scopes: [] as string[] };
  const transport = new StreamableHTTPClientTransport(new URL("http://codemode.test/mcp"), {
    fetch: (url, init) => {
      const which = options.route ? options.route(requests) : 0;
      requests += 1;
      const handler = handlers[which % handlers.length];
      if (!handler) throw new Error("no handler");
      return handler.fetch(new Request(url, init), authInfo ? { authInfo } : undefined);
    },
  });
  await client.connect(transport);
  return {
    client,
    asked,
    close: async () => {
      await client.close();
      await Promise.all(handlers.map((handler) => handler.close()));
    },
  };
}

/**
 * A 2026-07-28 `tools/call` of `codemode` as the specification's JSON-RPC over Streamable HTTP, for
 * what the SDK's client does not send (a retry with a state it did not get, a call answered with a
 * task): `params` beside `name` and `arguments` (`inputResponses`, `requestState`), and the
 * client's capabilities.
 */
export function codemodeCall(
  code: string,
  capabilities: Record<string, unknown>,
  params: Record<string, unknown> = {},
): Request {
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "codemode",
      arguments: { code },
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "raw-client", version: "1" },
        "io.modelcontextprotocol/clientCapabilities": capabilities,
      },
    },
  };
  return new Request("http://codemode.test/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "codemode",
    },
    body: JSON.stringify(body),
  });
}

/** the JSON-RPC `result` of a response, sent as JSON or as one server-sent event */
export async function resultOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  const json = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((line) => line.startsWith("data: "))
        ?.slice(6) ?? "{}");
  return (JSON.parse(json) as { result: Record<string, unknown> }).result;
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** `sealed` (ending in an HMAC-SHA256 signature) with other bits in the last character of its signature */
export function tampered(sealed: string): string {
  const last = BASE64URL.indexOf(sealed.at(-1) ?? "");
  return `${sealed.slice(0, -1)}${BASE64URL[(last + 4) % 64]}`;
}

/**
 * `sealed` with the two unused bits of its signature's last character set (43 characters carry the
 * 32 bytes and 2 bits more): the same signature bytes, written another way
 */
export function unusedBitsSet(sealed: string): string {
  const last = BASE64URL.indexOf(sealed.at(-1) ?? "");
  return `${sealed.slice(0, -1)}${BASE64URL[last | 3]}`;
}
