// registerCodemodeTools onto the MCP SDK's McpServer, beside the application's own tools, driven by
// the SDK's Client over its in-memory transport: both kinds of tools listed and called, every tool
// annotated and typed, and a runtime whose connector is itself an MCP server (mcpConnector, from
// codemode/mcp) whose description follows once that server has listed its tools.
import { createCodemodeRuntime, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { FORWARD, mailRuntime } from "../../test/mail-runtime.ts";
import { mcpConnector, registerCodemodeTools } from "../mcp.ts";

async function connected(server: McpServer) {
  const client = new Client({ name: "test-client", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

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
      properties: { status: { enum: ["completed", "paused", "error"] } },
      required: ["status", "executionId"],
    });
    expect(byName.codemode_reject?.inputSchema).toMatchObject({
      properties: { seq: { type: "integer" } },
      required: ["executionId", "seq"],
    });
    await client.close();
  });

  it("withdraws an open question when the client cancels the codemode call; the run stays paused", async () => {
    const { runtime, sent } = mailRuntime();
    const server = new McpServer({ name: "shop", version: "1.0.0" });
    registerCodemodeTools(server, { runtime });
    const client = new Client(
      { name: "test-client", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } } },
    );
    let asked!: (signal: AbortSignal) => void;
    const question = new Promise<AbortSignal>((resolve) => {
      asked = resolve;
    });
    client.setRequestHandler(ElicitRequestSchema, (_request, extra) => {
      asked(extra.signal);
      return new Promise(() => {}); // the person never answers
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    // the SDK drops a cancellation of request id 0: the question must not be the server's first request
    await server.server.ping();

    const cancel = new AbortController();
    const call = client.callTool({ name: "codemode", arguments: { code: FORWARD } }, undefined, {
      signal: cancel.signal,
    });
    const signal = await question;
    expect(signal.aborted).toBe(false);
    cancel.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => signal.aborted).toBe(true);
    const [waiting] = await runtime.pending();
    expect(waiting).toMatchObject({ method: "send", args: { to: "oncall" } });
    expect((await runtime.execution(waiting?.executionId as string))?.status).toBe("paused");
    expect(sent).toEqual([]);
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
    const weather = mcpConnector({ name: "weather", transport: upstreamClientSide });
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
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => changed());
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
    expect(paused).toMatchObject({ status: "paused" });
    const executionId = paused.executionId as string;

    expect(await bob("codemode_pending", {})).toEqual({ pending: [], isError: undefined });
    expect(await bob("codemode_pending", { executionId })).toEqual({
      pending: [],
      isError: undefined,
    });
    const approved = await bob("codemode_approve", { executionId });
    expect(approved).toEqual({
      status: "error",
      executionId,
      error: expect.stringContaining("started no run"),
      isError: true,
    });
    // told exactly what it is told of a run that does not exist
    const unknown = await bob("codemode_approve", { executionId: "exec_none" });
    expect(unknown.error).toBe((approved.error as string).replace(executionId, "exec_none"));
    expect(await bob("codemode_reject", { executionId, seq: 1 })).toEqual({
      rejected: false,
      isError: undefined,
    });
    expect((await runtime.execution(executionId))?.status).toBe("paused");
    expect(sent).toEqual([]);

    expect(await alice("codemode_pending", {})).toMatchObject({
      pending: [{ executionId, method: "send", args: { to: "oncall" } }],
    });
    expect(await alice("codemode_approve", { executionId })).toMatchObject({
      status: "completed",
      result: "forwarded",
    });
    expect(sent).toEqual(["oncall"]);
    const again = await alice("codemode", { code: FORWARD });
    const [waiting] = await runtime.pending(again.executionId as string);
    expect(
      await alice("codemode_reject", { executionId: again.executionId, seq: waiting?.seq }),
    ).toMatchObject({ rejected: true });
    expect(sent).toEqual(["oncall"]);
  });

  it("with shareRunsAcrossSessions: true, every session lists and decides every run", async () => {
    const { runtime, sent } = mailRuntime();
    const alice = await session(runtime, { shareRunsAcrossSessions: true });
    const bob = await session(runtime, { shareRunsAcrossSessions: true });
    const { executionId } = await alice("codemode", { code: FORWARD });
    expect(await bob("codemode_pending", {})).toMatchObject({ pending: [{ executionId }] });
    expect(await bob("codemode_approve", { executionId })).toMatchObject({
      status: "completed",
      result: "forwarded",
    });
    expect(sent).toEqual(["oncall"]);
  });
});
