// One runtime served to many clients over Streamable HTTP on a loopback node:http server, through
// the SDK's StreamableHTTPServerTransport, the two ways the README shows (test/readme-http-servers.ts):
// stateless (a new McpServer and transport per request) and with sessions (a transport per session,
// kept in a map until DELETE or close), each refusing a Host or a web page's Origin it does not
// serve. The clients are the SDK's Client over StreamableHTTPClientTransport.
import { request as httpRequest } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { FORWARD, mailRuntime, sendTo } from "../test/mail-runtime.ts";
import {
  closeServers,
  loopback,
  refuse,
  sessionHandler,
  statelessHandler,
} from "../test/readme-http-servers.ts";

afterEach(closeServers);

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
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { approve: await answer(request.params.message) } };
    });
  }
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  return { client, transport, asked };
}

const yes = async () => true;

type Output = {
  status: string;
  executionId: string;
  result?: unknown;
  handle?: { calls: Array<{ seq: number }> };
};
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

/**
 * A JSON-RPC POST to `url` sent as a browser would send it for a page: with the `Host` and
 * `Origin` given (fetch cannot set `Host`, a DNS-rebinding page's browser does). Its status, once
 * the response has ended.
 */
function post(
  url: URL,
  message: Record<string, unknown>,
  headers: { host?: string; origin?: string; "mcp-session-id"?: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          ...headers,
        },
      },
      (response) => {
        // read to the end: a 200 comes with its headers, before the call it answers has run
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on("error", reject);
    sent.end(JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }));
  });
}

const INITIALIZE = {
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "page", version: "1.0.0" },
  },
};
const CALL_INBOX = {
  method: "tools/call",
  params: { name: "codemode", arguments: { code: "async () => mail.inbox({})" } },
};

describe("Streamable HTTP, DNS-rebinding protection (the SDK's, as the README sets it)", () => {
  it("refuses a Host it does not serve, on a new session and on one a client opened, before anything runs", async () => {
    const { runtime } = mailRuntime();
    const { url, protection, serve } = await loopback();
    const { handle, sessions } = sessionHandler(runtime, {}, protection);
    serve(handle);
    const rebound = `evil.example:${url.port}`;
    expect(await post(url, INITIALIZE, { host: rebound })).toBe(403);
    expect(sessions.size).toBe(0);

    const { client, transport } = await connect(url);
    const sessionId = transport.sessionId as string;
    expect(await post(url, CALL_INBOX, { host: rebound, "mcp-session-id": sessionId })).toBe(403);
    expect(await runtime.executions()).toEqual([]);
    // the same call with the Host the server serves runs
    expect(await post(url, CALL_INBOX, { host: url.host, "mcp-session-id": sessionId })).toBe(200);
    expect(await runtime.executions()).toHaveLength(1);
    await transport.terminateSession();
    await client.close();
  });

  it("refuses a web page of another origin, whatever the Host; its own origin and a client without one are served", async () => {
    const { runtime } = mailRuntime();
    const { url, protection, serve } = await loopback();
    serve(sessionHandler(runtime, {}, protection).handle);
    expect(await post(url, INITIALIZE, { host: url.host, origin: "http://evil.example" })).toBe(
      403,
    );
    expect(
      await post(url, INITIALIZE, { host: url.host, origin: `http://localhost:${url.port}` }),
    ).toBe(200);
    expect(await post(url, INITIALIZE, { host: `localhost:${url.port}` })).toBe(200);
  });

  it("stateless: refuses a Host or an Origin it does not serve, before anything runs", async () => {
    const { runtime } = mailRuntime();
    const { url, protection, serve } = await loopback();
    serve(statelessHandler(runtime, {}, protection));
    expect(await post(url, CALL_INBOX, { host: `evil.example:${url.port}` })).toBe(403);
    expect(await post(url, CALL_INBOX, { host: url.host, origin: "http://evil.example" })).toBe(
      403,
    );
    expect(await runtime.executions()).toEqual([]);
    expect(await post(url, CALL_INBOX, { host: url.host })).toBe(200);
    expect(await runtime.executions()).toHaveLength(1);
  });
});

describe("Streamable HTTP with sessions", () => {
  it("lists the tools and runs code; a paused run is approved through elicitation on the session", async () => {
    const { runtime, sent } = mailRuntime();
    const { url, protection, serve } = await loopback();
    serve(sessionHandler(runtime, {}, protection).handle);
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
    const { url, protection, serve } = await loopback();
    const { handle } = sessionHandler(runtime, {}, protection);
    serve(async (request, response) =>
      request.method === "GET"
        ? refuse(response, 405, "No GET stream.")
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
    const { url, protection, serve } = await loopback();
    const { handle, sessions } = sessionHandler(runtime, {}, protection);
    serve(handle);
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

  it('with approvals: "client-tools", a session lists, decides and reads only the runs it started', async () => {
    const { runtime, sent } = mailRuntime();
    const { url, protection, serve } = await loopback();
    serve(sessionHandler(runtime, { approvals: "client-tools" }, protection).handle);
    const alice = await connect(url);
    const bob = await connect(url);
    const call = async (client: Client, name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })).structuredContent;
    const paused = await run(alice.client, FORWARD);
    const { executionId, handle } = paused;
    const seq = handle?.calls[0]?.seq;
    const none = { pending: [], handles: [] };
    expect(await call(bob.client, "codemode_pending", {})).toEqual(none);
    expect(await call(bob.client, "codemode_pending", { executionId })).toEqual(none);
    expect(await call(bob.client, "codemode_approve", { executionId, handle })).toEqual({
      status: "error",
      executionId,
      error: expect.stringContaining("started no run"),
    });
    expect(await call(bob.client, "codemode_reject", { executionId, seq, handle })).toEqual({
      rejected: false,
      message: expect.stringContaining("started no run"),
    });
    expect(sent).toEqual([]);
    expect(await call(alice.client, "codemode_pending", {})).toMatchObject({
      pending: [{ executionId, seq }],
      handles: [handle],
    });
    expect(await call(alice.client, "codemode_approve", { executionId, handle })).toMatchObject({
      status: "completed",
      result: "forwarded",
    });
    expect(sent).toEqual(["oncall"]);
    for (const { client, transport } of [alice, bob]) {
      await transport.terminateSession();
      await client.close();
    }
  });

  it("closes a session on DELETE: its transport leaves the map and its id is not found again", async () => {
    const { runtime } = mailRuntime();
    const { url, protection, serve } = await loopback();
    const { handle, sessions } = sessionHandler(runtime, {}, protection);
    serve(handle);
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
    const { url, protection, serve } = await loopback();
    const { handle, sessions } = sessionHandler(runtime, {}, protection, 1);
    serve(handle);
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
    const { url, protection, serve } = await loopback();
    serve(statelessHandler(runtime, {}, protection));
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
    const { url, protection, serve } = await loopback();
    serve(statelessHandler(runtime, {}, protection));
    const { client, asked } = await connect(url, yes);
    const paused = await run(client, FORWARD);
    expect(paused).toMatchObject({
      status: "paused",
      message: expect.stringContaining("Do not run"),
    });
    expect(asked).toEqual([]);
    // a later request is a session of its own, which started no run
    const pending = await client.callTool({ name: "codemode_pending", arguments: {} });
    expect(pending.structuredContent).toEqual({ pending: [] });
    expect(sent).toEqual([]);
    // the host application approves out of band, through the runtime every request shares
    expect(await runtime.approve({ executionId: paused.executionId })).toMatchObject({
      status: "completed",
      result: "forwarded",
    });
    expect(sent).toEqual(["oncall"]);
    await client.close();
  });

  it('approves over a later request with approvals: "client-tools" only with shareRunsAcrossSessions', async () => {
    const { runtime, sent } = mailRuntime();
    const { url, protection, serve } = await loopback();
    serve(statelessHandler(runtime, { approvals: "client-tools" }, protection));
    const { client } = await connect(url);
    const paused = await run(client, FORWARD);
    expect(paused).toMatchObject({ status: "paused" });
    const refused = await client.callTool({
      name: "codemode_approve",
      arguments: { executionId: paused.executionId, handle: paused.handle },
    });
    expect(refused).toMatchObject({ isError: true, structuredContent: { status: "error" } });
    expect(sent).toEqual([]);

    serve(
      statelessHandler(
        runtime,
        { approvals: "client-tools", shareRunsAcrossSessions: true },
        protection,
      ),
    );
    const approved = await client.callTool({
      name: "codemode_approve",
      arguments: { executionId: paused.executionId, handle: paused.handle },
    });
    expect(approved.structuredContent).toMatchObject({ status: "completed", result: "forwarded" });
    expect(sent).toEqual(["oncall"]);
    await client.close();
  });

  it("serves two clients at once", async () => {
    const { runtime } = mailRuntime();
    const { url, protection, serve } = await loopback();
    serve(statelessHandler(runtime, {}, protection));
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
