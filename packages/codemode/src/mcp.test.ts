// codeMcpServer (codemode/mcp) driven by the MCP SDK's own client over its in-memory transport:
// run code, pause, approve with a tool; and approve through elicitation when the client offers it.
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createCodemodeRuntime, functionConnector, memoryStore } from "./index.ts";
import { codeMcpServer } from "./mcp.ts";

function setup(approvals: "tools" | "elicitation", answer?: boolean) {
  const sent: string[] = [];
  const mail = functionConnector({
    name: "mail",
    methods: {
      inbox: {
        description: "Unread messages.",
        execute: async () => [{ from: "ops", subject: "Disk full" }],
      },
      send: {
        description: "Send a message.",
        inputSchema: {
          type: "object",
          properties: { to: { type: "string" }, text: { type: "string" } },
          required: ["to", "text"],
        },
        requiresApproval: true,
        execute: async ({ to }: { to: string }) => {
          sent.push(to);
          return { sent: true };
        },
      },
    },
  });
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new QuickJSExecutor(),
    connectors: [mail],
  });
  const server = codeMcpServer({ runtime, approvals });
  const client = new Client(
    { name: "test-client", version: "1.0.0" },
    { capabilities: answer === undefined ? {} : { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { approve: answer } };
    });
  }
  const connect = async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  };
  return { client, connect, sent, asked };
}

const CODE = `async () => {
  const [first] = await mail.inbox({});
  await mail.send({ to: "oncall", text: first.subject });
  return "forwarded";
}`;

describe("codeMcpServer", () => {
  it("serves the codemode tool and approval tools; a paused run is approved over MCP", async () => {
    const { client, connect, sent } = setup("tools");
    await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "codemode",
      "codemode_pending",
      "codemode_approve",
      "codemode_reject",
    ]);
    expect(tools[0]?.description).toContain("mail");
    expect(tools[0]?.inputSchema).toMatchObject({ required: ["code"] });

    const paused = await client.callTool({ name: "codemode", arguments: { code: CODE } });
    const output = paused.structuredContent as { status: string; executionId: string };
    expect(output).toMatchObject({
      status: "paused",
      pending: [{ method: "send", args: { to: "oncall" } }],
    });
    expect(sent).toEqual([]);
    const pending = await client.callTool({ name: "codemode_pending", arguments: {} });
    expect(pending.structuredContent).toMatchObject({
      pending: [{ executionId: output.executionId }],
    });

    const approved = await client.callTool({
      name: "codemode_approve",
      arguments: { executionId: output.executionId },
    });
    expect(approved.structuredContent).toMatchObject({ status: "completed", result: "forwarded" });
    expect(approved.isError).toBeUndefined();
    expect(sent).toEqual(["oncall"]);
    await client.close();
  });

  it("reports an error outcome as a tool error", async () => {
    const { client, connect } = setup("tools");
    await connect();
    const failed = await client.callTool({
      name: "codemode",
      arguments: { code: "async () => { throw new Error('no luck'); }" },
    });
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toMatchObject({
      status: "error",
      error: expect.stringContaining("no luck"),
    });
    await client.close();
  });

  it("asks the client's user through elicitation and runs the call once when approved", async () => {
    const { client, connect, sent, asked } = setup("elicitation", true);
    await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["codemode"]);
    const done = await client.callTool({ name: "codemode", arguments: { code: CODE } });
    expect(done.structuredContent).toMatchObject({ status: "completed", result: "forwarded" });
    expect(asked).toEqual([expect.stringContaining('mail.send({\n  "to": "oncall"')]);
    expect(sent).toEqual(["oncall"]);
    await client.close();
  });

  it("ends the run without the call when the user declines", async () => {
    const { client, connect, sent } = setup("elicitation", false);
    await connect();
    const declined = await client.callTool({ name: "codemode", arguments: { code: CODE } });
    expect(declined.isError).toBe(true);
    expect(declined.structuredContent).toMatchObject({ status: "error" });
    expect(sent).toEqual([]);
    await client.close();
  });
});
