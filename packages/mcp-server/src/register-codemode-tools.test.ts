// registerCodemodeTools onto the MCP SDK's McpServer, beside the application's own tools, driven by
// the SDK's Client over its in-memory transport: both kinds of tools listed and called, every tool
// annotated and typed, and a runtime whose connector is itself an MCP server (mcpConnector, from
// @codemode/connector-mcp) whose description follows once that server has listed its tools.

import { mcpConnector } from "@codemode/connector-mcp";
import { createCodemodeRuntime, type DecisionHandle, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { FORWARD, heldRuntime, mailRuntime } from "../test/mail-runtime.ts";
import { registerCodemodeTools } from "./index.ts";

async function connected(
  server: McpServer,
  client = new Client({ name: "test-client", version: "1.0.0" }),
) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

/** a client that answers form questions (its handler set by the test) */
const elicitingClient = () =>
  new Client(
    { name: "test-client", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } },
  );

/** the application's own server, with a tool of its own */
function appServer() {
  const server = new McpServer({ name: "shop", version: "1.0.0" });
  server.registerTool(
    "greet",
    { description: "Say hello.", inputSchema: { name: z.string() } },
    async ({ name }) => ({ content: [{ type: "text", text: `Hello, ${name}!` }] }),
  );
  return server;
}

describe("registerCodemodeTools", () => {
  it("adds Code Mode's tools to an McpServer that has tools of its own; both kinds answer", async () => {
    const { runtime, sent } = mailRuntime();
    const server = appServer();
    const tools = registerCodemodeTools(server, { runtime, approvals: "host" });
    expect(Object.keys(tools)).toEqual(["codemode", "pending"]);
    const client = await connected(server);

    const { tools: listed } = await client.listTools();
    expect(listed.map((tool) => tool.name)).toEqual(["greet", "codemode", "codemode_pending"]);
    expect(await client.callTool({ name: "greet", arguments: { name: "Ada" } })).toMatchObject({
      content: [{ type: "text", text: "Hello, Ada!" }],
    });
    const paused = await client.callTool({ name: "codemode", arguments: { code: FORWARD } });
    expect(paused.structuredContent).toMatchObject({
      status: "paused",
      pending: [{ connector: "mail", method: "send", args: { to: "oncall" } }],
    });
    const { executionId } = paused.structuredContent as { executionId: string };
    expect(await runtime.approve({ executionId })).toMatchObject({ result: "forwarded" });
    expect(sent).toEqual(["oncall"]);

    // the registered tools are the SDK's own: the application can turn one off
    tools.pending.disable();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "greet",
      "codemode",
    ]);
    await client.close();
  });

  it("annotates every tool it serves, and lists their input and output schemas", async () => {
    const { runtime } = mailRuntime();
    const server = new McpServer({ name: "shop", version: "1.0.0" });
    registerCodemodeTools(server, { runtime, approvals: "client-tools" });
    const client = await connected(server);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName)).toEqual([
      "codemode",
      "codemode_pending",
      "codemode_approve",
      "codemode_reject",
    ]);
    expect(byName.codemode?.annotations).toEqual({
      title: "Run code",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName.codemode_pending?.annotations).toEqual({
      title: "Pending approvals",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName.codemode_approve?.annotations).toEqual({
      title: "Approve a paused run",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(byName.codemode_reject?.annotations).toEqual({
      title: "Reject a paused run",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    for (const tool of tools) {
      expect(tool.title).toBe(tool.annotations?.title);
      expect(tool.outputSchema).toMatchObject({ type: "object" });
    }
    expect(byName.codemode?.description).toContain("- mail");
    expect(byName.codemode?.inputSchema).toMatchObject({
      properties: { code: { type: "string" } },
      required: ["code"],
    });
    expect(byName.codemode?.outputSchema).toMatchObject({
      properties: {
        status: { enum: ["completed", "paused", "error"] },
        // a waiting call's parts a client shows with it are declared, not only let through
        pending: {
          items: {
            properties: {
              operation: { type: "string" },
              inDoubt: { type: "string" },
              deferred: { const: true },
            },
          },
        },
      },
      required: ["status", "executionId"],
    });
    expect(byName.codemode_reject?.inputSchema).toMatchObject({
      properties: { seq: { type: "integer" } },
      required: ["executionId", "handle", "seq"],
    });
    expect(byName.codemode_approve?.inputSchema).toMatchObject({
      properties: { handle: { type: "object" } },
      required: ["executionId", "handle"],
    });
    await client.close();
  });

  it("cancels the run when the client cancels the codemode call: no call starts after, what ran is recorded", async () => {
    const { runtime, release, inCall, expectCancelledAfterFirst } = heldRuntime();
    const server = new McpServer({ name: "shop", version: "1.0.0" });
    registerCodemodeTools(server, { runtime });
    const client = new Client({ name: "test-client", version: "1.0.0" });
    await connected(server, client);
    await server.server.ping();
    const cancel = new AbortController();
    const call = client.callTool(
      {
        name: "codemode",
        arguments: {
          code: "async () => { await slow.first({}); await slow.second({}); return 1 }",
        },
      },
      { signal: cancel.signal },
    );
    await inCall;
    cancel.abort();
    await expect(call).rejects.toThrow();
    release();
    await expectCancelledAfterFirst();
    await client.close();
  });

  it("when the client cancels the codemode call, a late answer decides nothing; the run stays paused", async () => {
    const { runtime, sent } = mailRuntime();
    const server = new McpServer({ name: "shop", version: "1.0.0" });
    registerCodemodeTools(server, { runtime });
    const client = elicitingClient();
    let asked!: (signal: AbortSignal) => void;
    const question = new Promise<AbortSignal>((resolve) => {
      asked = resolve;
    });
    let answer!: (approve: boolean) => void;
    client.setRequestHandler("elicitation/create", (_request, context) => {
      asked(context.mcpReq.signal);
      // the person answers only after the call was cancelled
      return new Promise((resolve) => {
        answer = (approve) => resolve({ action: "accept", content: { approve } });
      });
    });
    await connected(server, client);
    // the SDK drops a cancellation of request id 0: the question must not be the server's first request
    await server.server.ping();

    const cancel = new AbortController();
    const call = client.callTool(
      { name: "codemode", arguments: { code: FORWARD } },
      { signal: cancel.signal },
    );
    const signal = await question;
    expect(signal.aborted).toBe(false);
    cancel.abort();
    await expect(call).rejects.toThrow();
    // a yes that arrives after the call was cancelled decides nothing
    answer(true);
    await server.server.ping();
    const [waiting] = await runtime.pending();
    expect(waiting).toMatchObject({ method: "send", args: { to: "oncall" } });
    expect((await runtime.execution(waiting?.executionId as string))?.status).toBe("paused");
    expect(sent).toEqual([]);
    await client.close();
  });

  it("asks again about what waits now when the calls a person approved were decided elsewhere meanwhile", async () => {
    const { runtime, sent } = mailRuntime();
    const server = new McpServer({ name: "shop", version: "1.0.0" });
    registerCodemodeTools(server, { runtime });
    const client = elicitingClient();
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params.message);
      if (asked.length === 1) {
        // while the person reads the first question, the host approves that call out of band
        const [waiting] = await runtime.pending();
        await runtime.approve({ executionId: waiting?.executionId as string });
      }
      return { action: "accept", content: { approve: true } };
    });
    await connected(server, client);
    const done = await client.callTool({
      name: "codemode",
      arguments: {
        code: `async () => {
          await mail.send({ to: "first", text: "1" });
          await mail.send({ to: "second", text: "2" });
          return "both sent";
        }`,
      },
    });
    expect(done.structuredContent).toMatchObject({ status: "completed", result: "both sent" });
    expect(asked).toEqual([
      expect.stringContaining('"to":"first"'),
      expect.stringContaining('"to":"second"'),
    ]);
    expect(sent).toEqual(["first", "second"]);
    await client.close();
  });

  it("refuses inputs that do not match, and an executionId longer than 200 characters", async () => {
    const { runtime } = mailRuntime();
    const server = new McpServer({ name: "shop", version: "1.0.0" });
    registerCodemodeTools(server, { runtime, approvals: "client-tools" });
    const client = await connected(server);
    const noCode = await client.callTool({ name: "codemode", arguments: { source: "1" } });
    expect(noCode.isError).toBe(true);
    expect(JSON.stringify(noCode.content)).toContain("takes { code: string }");
    const longId = await client.callTool({
      name: "codemode_approve",
      arguments: { executionId: "x".repeat(201) },
    });
    expect(longId.isError).toBe(true);
    const badSeq = await client.callTool({
      name: "codemode_reject",
      arguments: { executionId: "exec_1", seq: 1.5 },
    });
    expect(badSeq.isError).toBe(true);
    expect(await runtime.executions()).toEqual([]);
    await client.close();
  });

  it("refuses a tool name the server has already, and a server that is not an McpServer", () => {
    const { runtime } = mailRuntime();
    const server = new McpServer({ name: "shop", version: "1.0.0" });
    server.registerTool("codemode", { description: "Mine." }, async () => ({ content: [] }));
    expect(() => registerCodemodeTools(server, { runtime })).toThrow(/already registered/);
    expect(() => registerCodemodeTools(server.server as unknown as McpServer, { runtime })).toThrow(
      /needs an McpServer/,
    );
    expect(() =>
      registerCodemodeTools(new McpServer({ name: "x", version: "1" }), {
        runtime,
        maxReplyLength: 10,
      }),
    ).toThrow(/maxReplyLength/);
  });

  it("serves a runtime over an MCP server's tools: the description follows once they are listed", async () => {
    // the upstream MCP server, which starts answering only later
    const upstream = new McpServer({ name: "weather", version: "1.0.0" });
    upstream.registerTool(
      "get_forecast",
      {
        description: "The forecast for a city.",
        inputSchema: { city: z.string() },
        annotations: { readOnlyHint: true },
      },
      async ({ city }) => ({
        content: [{ type: "text", text: JSON.stringify({ city, sky: "clear" }) }],
      }),
    );
    const [upstreamClientSide, upstreamServerSide] = InMemoryTransport.createLinkedPair();
    const weather = mcpConnector({
      name: "weather",
      transport: upstreamClientSide,
      trustAnnotations: true, // the test's own server: its read-only forecast runs at once
    });
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new QuickJSExecutor(),
      connectors: [weather],
    });

    const server = appServer();
    registerCodemodeTools(server, { runtime });
    const client = await connected(server);
    let changed!: () => void;
    const listChanged = new Promise<void>((resolve) => {
      changed = resolve;
    });
    client.setNotificationHandler("notifications/tools/list_changed", async () => changed());
    const before = (await client.listTools()).tools.find((tool) => tool.name === "codemode");
    expect(before?.description).not.toContain("weather");

    await upstream.connect(upstreamServerSide);
    await runtime.ready();
    await listChanged;
    const after = (await client.listTools()).tools.find((tool) => tool.name === "codemode");
    expect(after?.description).toContain("- weather");

    const done = await client.callTool({
      name: "codemode",
      arguments: { code: 'async () => (await weather.get_forecast({ city: "Oslo" })).sky' },
    });
    expect(done.structuredContent).toMatchObject({ status: "completed", result: "clear" });
    await client.close();
    await weather.close();
    await upstream.close();
  });
});

describe("sessions over one runtime (each its own McpServer)", () => {
  /** a session: a server of its own with Code Mode's tools over `runtime`, and its client */
  async function session(
    runtime: ReturnType<typeof mailRuntime>["runtime"],
    options: { shareRunsAcrossSessions?: boolean } = {},
  ) {
    const server = new McpServer({ name: "shop", version: "1.0.0" });
    registerCodemodeTools(server, { runtime, approvals: "client-tools", ...options });
    const client = await connected(server);
    return async (
      name: string,
      args: Record<string, unknown>,
    ): Promise<Record<string, unknown>> => {
      const reply = await client.callTool({ name, arguments: args });
      return { ...(reply.structuredContent as Record<string, unknown>), isError: reply.isError };
    };
  }

  it("a session lists, approves, rejects and reads only the runs it started; the one that started it still can", async () => {
    const { runtime, sent } = mailRuntime();
    const alice = await session(runtime);
    const bob = await session(runtime);
    const paused = await alice("codemode", { code: FORWARD });
    expect(paused).toMatchObject({ status: "paused", handle: { version: 1 } });
    const { executionId, handle } = paused as { executionId: string; handle: DecisionHandle };
    const seq = handle.calls[0]?.seq;

    const none = { pending: [], handles: [], isError: undefined };
    expect(await bob("codemode_pending", {})).toEqual(none);
    expect(await bob("codemode_pending", { executionId })).toEqual(none);
    // even with the handle alice was given
    const approved = await bob("codemode_approve", { executionId, handle });
    expect(approved).toEqual({
      status: "error",
      executionId,
      error: expect.stringContaining("started no run"),
      isError: true,
    });
    // told exactly what it is told of a run that does not exist
    const unknown = await bob("codemode_approve", {
      executionId: "exec_none",
      handle: { ...handle, executionId: "exec_none" },
    });
    expect(unknown.error).toBe((approved.error as string).replace(executionId, "exec_none"));
    expect(await bob("codemode_reject", { executionId, seq, handle })).toEqual({
      rejected: false,
      message: expect.stringContaining("started no run"),
      isError: undefined,
    });
    expect((await runtime.execution(executionId))?.status).toBe("paused");
    expect(sent).toEqual([]);

    expect(await alice("codemode_pending", {})).toMatchObject({
      pending: [{ executionId, method: "send", args: { to: "oncall" } }],
      handles: [handle],
    });
    expect(await alice("codemode_approve", { executionId, handle })).toMatchObject({
      status: "completed",
      result: "forwarded",
    });
    expect(sent).toEqual(["oncall"]);
    const again = (await alice("codemode", { code: FORWARD })) as {
      executionId: string;
      handle: DecisionHandle;
    };
    expect(
      await alice("codemode_reject", {
        executionId: again.executionId,
        seq: again.handle.calls[0]?.seq,
        handle: again.handle,
      }),
    ).toMatchObject({ rejected: true });
    expect(sent).toEqual(["oncall"]);
  });

  it("with shareRunsAcrossSessions: true, every session lists and decides every run", async () => {
    const { runtime, sent } = mailRuntime();
    const alice = await session(runtime, { shareRunsAcrossSessions: true });
    const bob = await session(runtime, { shareRunsAcrossSessions: true });
    const { executionId } = await alice("codemode", { code: FORWARD });
    const listed = await bob("codemode_pending", {});
    expect(listed).toMatchObject({ pending: [{ executionId }] });
    const [handle] = listed.handles as DecisionHandle[];
    expect(await bob("codemode_approve", { executionId, handle })).toMatchObject({
      status: "completed",
      result: "forwarded",
    });
    expect(sent).toEqual(["oncall"]);
  });
});

describe('approvals: "client-tools": a decision carries the handle of the calls shown', () => {
  /** two gated calls, one after the other: the run pauses at each */
  const ONE_THEN_ANOTHER = `async () => {
    await mail.send({ to: "first", text: "1" });
    await mail.send({ to: "second", text: "2" });
    return "both sent";
  }`;

  async function client() {
    const { runtime, sent } = mailRuntime();
    const server = new McpServer({ name: "shop", version: "1.0.0" });
    registerCodemodeTools(server, { runtime, approvals: "client-tools" });
    const connection = await connected(server);
    type Reply = Record<string, unknown> & { executionId: string; handle: DecisionHandle };
    const call = async (name: string, args: Record<string, unknown>): Promise<Reply> => {
      const reply = await connection.callTool({ name, arguments: args });
      return { ...(reply.structuredContent as Reply), isError: reply.isError };
    };
    return { runtime, sent, call };
  }

  it("an approval of calls decided elsewhere since they were shown approves nothing, and says what waits now", async () => {
    const { runtime, sent, call } = await client();
    const shown = await call("codemode", { code: ONE_THEN_ANOTHER });
    const { executionId, handle } = shown;
    // the host approves out of band; the run goes on and waits at the second call
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "paused" });
    expect(sent).toEqual(["first"]);

    const stale = await call("codemode_approve", { executionId, handle });
    expect(stale).toMatchObject({
      status: "error",
      code: "DECISION_STALE",
      isError: true,
      pending: [{ executionId, method: "send", args: { to: "second" } }],
      handle: { executionId, calls: [{ seq: expect.any(Number) }] },
    });
    expect(stale.error).toMatch(
      /^Already decided: .* These calls wait now: #\d+ mail\.send\(\{"to":"second","text":"2"\}\)/,
    );
    expect(sent).toEqual(["first"]);
    // with the handle of what it now shows, it approves that
    expect(await call("codemode_approve", { executionId, handle: stale.handle })).toMatchObject({
      status: "completed",
      result: "both sent",
    });
    expect(sent).toEqual(["first", "second"]);
  });

  it("an approval sent again approves nothing: the run's next pause was never shown with it", async () => {
    const { sent, call } = await client();
    const { executionId, handle } = await call("codemode", { code: ONE_THEN_ANOTHER });
    const next = await call("codemode_approve", { executionId, handle });
    expect(next).toMatchObject({ status: "paused", handle: { executionId } });
    expect(sent).toEqual(["first"]);
    const resent = await call("codemode_approve", { executionId, handle });
    expect(resent).toMatchObject({ code: "DECISION_STALE", isError: true });
    expect(resent.error).toContain('"to":"second"');
    expect(sent).toEqual(["first"]);
  });

  it("a rejection with a stale handle, or of a call its handle does not show, rejects nothing", async () => {
    const { runtime, sent, call } = await client();
    const { executionId, handle } = await call("codemode", { code: ONE_THEN_ANOTHER });
    const first = handle.calls[0]?.seq as number;
    expect(await call("codemode_reject", { executionId, seq: first + 1, handle })).toMatchObject({
      rejected: false,
      message: expect.stringContaining("not one of the calls this handle shows"),
    });
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "paused" });
    const stale = await call("codemode_reject", { executionId, seq: first, handle });
    expect(stale).toMatchObject({
      rejected: false,
      pending: [{ args: { to: "second" } }],
      handle: { executionId },
    });
    expect(stale.message).toContain("Already decided");
    expect((await runtime.execution(executionId))?.status).toBe("paused");
    expect(sent).toEqual(["first"]);
  });
});
