// One runtime served to many clients over Streamable HTTP on a loopback node:http server, through
// the SDK's StreamableHTTPServerTransport, the two ways the README shows: stateless (a new McpServer
// and transport per request) and with sessions (a transport per session, kept in a map until DELETE
// or close). The clients are the SDK's Client over StreamableHTTPClientTransport.
import { randomUUID } from "node:crypto";
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { CodemodeRuntime } from "@codemode/core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { FORWARD, mailRuntime, sendTo } from "../../test/mail-runtime.ts";
import { type CodemodeToolsOptions, registerCodemodeTools } from "../mcp.ts";

type Handler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

const jsonRpcError = (response: ServerResponse, status: number, message: string) => {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
};

/** the application's server: its own tools (none here) and Code Mode's, over the shared runtime */
function mcpServer(runtime: CodemodeRuntime, options: Omit<CodemodeToolsOptions, "runtime">) {
  const server = new McpServer({ name: "shop", version: "1.0.0" });
  registerCodemodeTools(server, { runtime, ...options });
  return server;
}

/** stateless: a new server and transport for every POST, all over one runtime */
function statelessHandler(
  runtime: CodemodeRuntime,
  options: Omit<CodemodeToolsOptions, "runtime">,
): Handler {
  return async (request, response) => {
    if (request.method !== "POST") return jsonRpcError(response, 405, "Method not allowed.");
    const server = mcpServer(runtime, options);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };
}

/** with sessions: a server and transport per session, found by the mcp-session-id header */
function sessionHandler(
  runtime: CodemodeRuntime,
  options: Omit<CodemodeToolsOptions, "runtime">,
  maxSessions = 100,
) {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const handle: Handler = async (request, response) => {
    const id = request.headers["mcp-session-id"];
    if (id !== undefined) {
      const transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (!transport) return jsonRpcError(response, 404, "Session not found.");
      return transport.handleRequest(request, response);
    }
    if (sessions.size >= maxSessions) return jsonRpcError(response, 503, "Too many sessions.");
    const server = mcpServer(runtime, options);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
    if (transport.sessionId === undefined) await server.close(); // not an initialize request
  };
  return { handle, sessions };
}

const servers: HttpServer[] = [];

async function listen(handle: Handler): Promise<URL> {
  const http = createServer((request, response) => {
    handle(request, response).catch((error) => {
      if (!response.headersSent) jsonRpcError(response, 500, String(error));
    });
  });
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}

afterEach(async () => {
  for (const http of servers.splice(0)) {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});

/**
 * A client of `url`. With `answer`, it has form elicitation and answers every question with what
 * `answer` resolves to.
 */
async function connect(
  url: URL,
  answer?: (message: string) => Promise<boolean>,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport; asked: string[] }> {
  const client = new Client(
    { name: "test-client", version: "1.0.0" },
    { capabilities: answer ? { elicitation: { form: {} } } : {} },
  );
  const asked: string[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { approve: await answer(request.params.message) } };
    });
  }
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  return { client, transport, asked };
}

const yes = async () => true;

type Output = { status: string; executionId: string; result?: unknown };
const run = async (client: Client, code: string) =>
  (await client.callTool({ name: "codemode", arguments: { code } })).structuredContent as Output;

/** an answer of yes that waits until `count` questions have arrived */
function yesOnceAllAsked(count: number) {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => {
    release = resolve;
  });
  return async () => {
    arrived++;
    if (arrived === count) release();
    await all;
    return true;
  };
}

describe("Streamable HTTP with sessions", () => {
  it("lists the tools and runs code; a paused run is approved through elicitation on the session", async () => {
    const { runtime, sent } = mailRuntime();
    const url = await listen(sessionHandler(runtime, {}).handle);
    const { client, transport, asked } = await connect(url, yes);
    expect(transport.sessionId).toEqual(expect.any(String));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "codemode",
      "codemode_pending",
    ]);
    expect(await run(client, "async () => (await mail.inbox({})).length")).toMatchObject({
      status: "completed",
      result: 1,
    });
    expect(await run(client, FORWARD)).toMatchObject({ status: "completed", result: "forwarded" });
    expect(asked).toEqual([
      expect.stringContaining('mail.send({"to":"oncall","text":"Disk full"})'),
    ]);
    expect(sent).toEqual(["oncall"]);
    await transport.terminateSession();
    await client.close();
  });

  it("asks on the codemode call's own response stream, so a session without a GET stream gets its question", async () => {
    const { runtime, sent } = mailRuntime();
    const { handle } = sessionHandler(runtime, {});
    const url = await listen(async (request, response) =>
      request.method === "GET"
        ? jsonRpcError(response, 405, "No GET stream.")
        : handle(request, response),
    );
    const { client, transport, asked } = await connect(url, yes);
    expect(await run(client, FORWARD)).toMatchObject({ status: "completed", result: "forwarded" });
    expect(asked).toHaveLength(1);
    expect(sent).toEqual(["oncall"]);
    await transport.terminateSession();
    await client.close();
  });

  it("serves two clients at once, each asked only about its own call", async () => {
    const { runtime, sent } = mailRuntime();
    const { handle, sessions } = sessionHandler(runtime, {});
    const url = await listen(handle);
    const yesOnceBothAsked = yesOnceAllAsked(2);
    const alice = await connect(url, yesOnceBothAsked);
    const bob = await connect(url, yesOnceBothAsked);
    expect(sessions.size).toBe(2);
    const [forAlice, forBob] = await Promise.all([
      run(alice.client, sendTo("alice")),
      run(bob.client, sendTo("bob")),
    ]);
    expect(forAlice).toMatchObject({ status: "completed", result: "sent to alice" });
    expect(forBob).toMatchObject({ status: "completed", result: "sent to bob" });
    expect(alice.asked).toEqual([expect.stringContaining('"to":"alice"')]);
    expect(bob.asked).toEqual([expect.stringContaining('"to":"bob"')]);
    expect(sent.sort()).toEqual(["alice", "bob"]);
    for (const { client, transport } of [alice, bob]) {
      await transport.terminateSession();
      await client.close();
    }
  });

  it("closes a session on DELETE: its transport leaves the map and its id is not found again", async () => {
    const { runtime } = mailRuntime();
    const { handle, sessions } = sessionHandler(runtime, {});
    const url = await listen(handle);
    const { client, transport } = await connect(url);
    const sessionId = transport.sessionId as string;
    expect([...sessions.keys()]).toEqual([sessionId]);
    await transport.terminateSession();
    expect(sessions.size).toBe(0);
    const again = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(again.status).toBe(404);
    await client.close();
  });

  it("refuses a new session past its limit, and a request that is not an initialize leaves none", async () => {
    const { runtime } = mailRuntime();
    const { handle, sessions } = sessionHandler(runtime, {}, 1);
    const url = await listen(handle);
    const stray = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(stray.status).toBe(400);
    expect(sessions.size).toBe(0);
    const first = await connect(url);
    await expect(connect(url)).rejects.toThrow();
    expect(sessions.size).toBe(1);
    await first.transport.terminateSession();
    await first.client.close();
  });
});

describe("Streamable HTTP, stateless", () => {
  it("lists the tools and runs code, a new server per request over one runtime", async () => {
    const { runtime } = mailRuntime();
    const url = await listen(statelessHandler(runtime, {}));
    const { client, transport } = await connect(url);
    expect(transport.sessionId).toBeUndefined();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "codemode",
      "codemode_pending",
    ]);
    expect(await run(client, "async () => (await mail.inbox({}))[0].subject")).toMatchObject({
      status: "completed",
      result: "Disk full",
    });
    await client.close();
  });

  it("asks no question (the server never saw the client's initialize): the run comes back paused for the host", async () => {
    const { runtime, sent } = mailRuntime();
    const url = await listen(statelessHandler(runtime, {}));
    const { client, asked } = await connect(url, yes);
    const paused = await run(client, FORWARD);
    expect(paused).toMatchObject({
      status: "paused",
      message: expect.stringContaining("Do not run"),
    });
    expect(asked).toEqual([]);
    const pending = await client.callTool({ name: "codemode_pending", arguments: {} });
    expect(pending.structuredContent).toMatchObject({
      pending: [{ executionId: paused.executionId, method: "send" }],
    });
    expect(sent).toEqual([]);
    // the host application approves out of band, through the runtime every request shares
    expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({
      status: "completed",
      result: "forwarded",
    });
    expect(sent).toEqual(["oncall"]);
    await client.close();
  });

  it('approves over a later request with approvals: "client-tools"', async () => {
    const { runtime, sent } = mailRuntime();
    const url = await listen(statelessHandler(runtime, { approvals: "client-tools" }));
    const { client } = await connect(url);
    const paused = await run(client, FORWARD);
    expect(paused).toMatchObject({ status: "paused" });
    const approved = await client.callTool({
      name: "codemode_approve",
      arguments: { executionId: paused.executionId },
    });
    expect(approved.structuredContent).toMatchObject({ status: "completed", result: "forwarded" });
    expect(sent).toEqual(["oncall"]);
    await client.close();
  });

  it("serves two clients at once", async () => {
    const { runtime } = mailRuntime();
    const url = await listen(statelessHandler(runtime, {}));
    const [first, second] = await Promise.all([connect(url), connect(url)]);
    const code = (n: number) =>
      `async () => { const list = await mail.inbox({}); return ${n} + list.length; }`;
    const results = await Promise.all(
      [first, second].flatMap(({ client }, index) => [
        run(client, code(index * 10)),
        run(client, code(index * 10 + 1)),
      ]),
    );
    expect(results.map((output) => output.result)).toEqual([1, 2, 11, 12]);
    expect(new Set(results.map((output) => output.executionId)).size).toBe(4);
    for (const { client } of [first, second]) await client.close();
  });
});
