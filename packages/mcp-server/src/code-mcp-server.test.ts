// codeMcpServer (@codemode/mcp-server) driven by the MCP SDK's own client over its in-memory transport:
// run code, pause; approve through elicitation when the client offers it, out of band through the
// runtime by default, or with tools only when the host opts into them by name; replies stay compact
// and bounded whatever the code returns.
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { FORWARD, mailRuntime } from "../test/mail-runtime.ts";
import { type CodeMcpServerOptions, codeMcpServer, MAX_REPLY_LENGTH } from "./index.ts";

interface Setup {
  approvals?: CodeMcpServerOptions["approvals"];
  /** the client supports elicitation and answers each question with this (or by its message) */
  answer?: boolean | ((message: string) => boolean);
  transformResult?: (result: unknown) => unknown;
  maxReplyLength?: number;
}

function setup({ approvals, answer, transformResult, maxReplyLength }: Setup = {}) {
  const { runtime, sent } = mailRuntime(transformResult ? { transformResult } : {});
  const server = codeMcpServer({
    runtime,
    ...(approvals ? { approvals } : {}),
    ...(maxReplyLength ? { maxReplyLength } : {}),
  });
  const client = new Client(
    { name: "test-client", version: "1.0.0" },
    { capabilities: answer === undefined ? {} : { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  if (answer !== undefined) {
    client.setRequestHandler("elicitation/create", async (request) => {
      const { message } = request.params;
      asked.push(message);
      const approve = typeof answer === "function" ? answer(message) : answer;
      return { action: "accept", content: { approve } };
    });
  }
  const connect = async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  };
  return { client, connect, sent, asked, runtime };
}

/** two gated calls in one Promise.all: they pause together */
const TWO_SENDS = `async () => {
  await Promise.all([
    mail.send({ to: "alice", text: "first" }),
    mail.send({ to: "bob", text: "second" }),
  ]);
  return "both sent";
}`;

type Output = { status: string; executionId: string; pending?: Array<{ seq: number }> };

describe("codeMcpServer", () => {
  it("reports an error outcome as a tool error", async () => {
    const { client, connect } = setup();
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
});

describe("approvals by default", () => {
  it("gives the MCP client no way to approve: a paused run waits for the host, which approves through the runtime", async () => {
    const { client, connect, sent, runtime } = setup();
    await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["codemode", "codemode_pending"]);
    expect(tools[0]?.description).toContain("mail");
    expect(tools[0]?.inputSchema).toMatchObject({ required: ["code"] });
    expect(tools[1]?.annotations).toMatchObject({ readOnlyHint: true });

    const paused = await client.callTool({ name: "codemode", arguments: { code: FORWARD } });
    const output = paused.structuredContent as Output;
    expect(output).toMatchObject({
      status: "paused",
      pending: [{ method: "send", args: { to: "oncall" } }],
    });
    expect(JSON.stringify(paused.content)).toContain("application");
    const pending = await client.callTool({ name: "codemode_pending", arguments: {} });
    expect(pending.structuredContent).toMatchObject({
      pending: [{ executionId: output.executionId }],
    });

    // the model, driving the client, tries to approve its own call: there is no such tool
    for (const name of ["codemode_approve", "codemode_reject"]) {
      const refused = client.callTool({
        name,
        arguments: { executionId: output.executionId, seq: output.pending?.[0]?.seq },
      });
      await expect(refused).rejects.toThrow(/not found/);
    }
    expect(sent).toEqual([]);
    expect((await runtime.execution(output.executionId))?.status).toBe("paused");

    // the host application approves out of band
    expect(await runtime.approve({ executionId: output.executionId })).toMatchObject({
      status: "completed",
      result: "forwarded",
    });
    expect(sent).toEqual(["oncall"]);
    await client.close();
  });

  it("asks through elicitation when the client supports it", async () => {
    const { client, connect, sent, asked } = setup({ answer: true });
    await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "codemode",
      "codemode_pending",
    ]);
    const done = await client.callTool({ name: "codemode", arguments: { code: FORWARD } });
    expect(done.structuredContent).toMatchObject({ status: "completed", result: "forwarded" });
    expect(asked).toHaveLength(1);
    expect(sent).toEqual(["oncall"]);
    await client.close();
  });

  it("refuses the old name 'tools' at configuration, pointing to 'client-tools'", () => {
    const { runtime } = setup();
    expect(() =>
      codeMcpServer({ runtime, approvals: "tools" as CodeMcpServerOptions["approvals"] }),
    ).toThrow(/client-tools/);
  });
});

describe('approvals: "client-tools" (the host opted in by name)', () => {
  it("serves the approval tools; a paused run is approved over MCP with the handle of the calls shown", async () => {
    const { client, connect, sent, runtime } = setup({ approvals: "client-tools" });
    await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "codemode",
      "codemode_pending",
      "codemode_approve",
      "codemode_reject",
    ]);
    const paused = await client.callTool({ name: "codemode", arguments: { code: FORWARD } });
    const output = paused.structuredContent as Output & { handle: unknown };
    // the handle of the calls the reply shows: what the decision sends back
    const [shown] = await runtime.pending(output.executionId);
    expect(output).toMatchObject({
      status: "paused",
      handle: {
        version: 1,
        executionId: output.executionId,
        calls: [{ seq: shown?.seq, digest: shown?.digest }],
      },
    });
    expect(sent).toEqual([]);
    const unshown = await client.callTool({
      name: "codemode_approve",
      arguments: { executionId: output.executionId },
    });
    expect(unshown.isError).toBe(true);
    expect(sent).toEqual([]);
    const approved = await client.callTool({
      name: "codemode_approve",
      arguments: { executionId: output.executionId, handle: output.handle },
    });
    expect(approved.structuredContent).toMatchObject({ status: "completed", result: "forwarded" });
    expect(approved.isError).toBeUndefined();
    expect(sent).toEqual(["oncall"]);
    await client.close();
  });
});

describe('approvals: "elicitation"', () => {
  it("asks the client's user, showing the exact input, and runs the call once when approved", async () => {
    const { client, connect, sent, asked } = setup({ approvals: "elicitation", answer: true });
    await connect();
    const done = await client.callTool({ name: "codemode", arguments: { code: FORWARD } });
    expect(done.structuredContent).toMatchObject({ status: "completed", result: "forwarded" });
    expect(asked).toEqual([
      expect.stringContaining('mail.send({"to":"oncall","text":"Disk full"})'),
    ]);
    expect(sent).toEqual(["oncall"]);
    await client.close();
  });

  it("shows the characters a person cannot see as \\u escapes, so the question reads as what runs", async () => {
    const { client, connect, sent, asked } = setup({ approvals: "elicitation", answer: true });
    await connect();
    // a right-to-left override, a zero-width space, an isolate, a byte order mark, a C1 control
    const code = String.raw`async () => {
      await mail.send({ to: "ops\u202Egro.live\u200B@\u2066x\u2069\uFEFF\u0085", text: "hi" });
      return "sent";
    }`;
    const done = await client.callTool({ name: "codemode", arguments: { code } });
    expect(done.structuredContent).toMatchObject({ status: "completed", result: "sent" });
    const [question] = asked;
    expect(question).toContain(
      String.raw`mail.send({"to":"ops\u202egro.live\u200b@\u2066x\u2069\ufeff\u0085","text":"hi"})`,
    );
    expect(question).not.toMatch(/[\p{Cc}\p{Cf}]/u);
    // what the person read, parsed, is what ran
    const shown = /mail\.send\((.*)\)\. Approve it\?$/.exec(question ?? "")?.[1] ?? "";
    expect(JSON.parse(shown)).toEqual({ to: sent[0], text: "hi" });
    expect(sent).toEqual(["ops\u202Egro.live\u200B@\u2066x\u2069\uFEFF\u0085"]);
    await client.close();
  });

  it("ends the run without the call when the user declines", async () => {
    const { client, connect, sent, runtime } = setup({ approvals: "elicitation", answer: false });
    await connect();
    const declined = await client.callTool({ name: "codemode", arguments: { code: FORWARD } });
    expect(declined.isError).toBe(true);
    const output = declined.structuredContent as Output;
    expect(output).toMatchObject({ status: "error" });
    expect((await runtime.execution(output.executionId))?.status).toBe("rejected");
    expect(sent).toEqual([]);
    await client.close();
  });

  it("asks about every call that paused together before any runs, each with its input", async () => {
    const { client, connect, sent, asked } = setup({ approvals: "elicitation", answer: true });
    await connect();
    const done = await client.callTool({ name: "codemode", arguments: { code: TWO_SENDS } });
    expect(done.structuredContent).toMatchObject({ status: "completed", result: "both sent" });
    expect(asked).toHaveLength(2);
    expect(asked.join("\n")).toContain('mail.send({"to":"alice","text":"first"})');
    expect(asked.join("\n")).toContain('mail.send({"to":"bob","text":"second"})');
    expect(sent.sort()).toEqual(["alice", "bob"]);
    await client.close();
  });

  it("runs none of the calls that paused together when the user declines any of them", async () => {
    const { client, connect, sent, asked, runtime } = setup({
      approvals: "elicitation",
      answer: (message) => !message.includes('"bob"'),
    });
    await connect();
    const declined = await client.callTool({ name: "codemode", arguments: { code: TWO_SENDS } });
    expect(declined.isError).toBe(true);
    const output = declined.structuredContent as Output & { error: string };
    expect(output.error).toContain('"bob"');
    expect(asked.some((message) => message.includes('"bob"'))).toBe(true);
    expect(sent).toEqual([]);
    const execution = await runtime.execution(output.executionId);
    expect(execution?.status).toBe("rejected");
    const bob = execution?.calls.find((call) => (call.args as { to?: string }).to === "bob");
    expect(bob?.state).toBe("withdrawn");
    // nothing the client does afterwards makes them run
    expect((await runtime.approve({ executionId: output.executionId })).status).toBe("error");
    expect(sent).toEqual([]);
    await client.close();
  });
});

describe("replies", () => {
  const callCode = async (code: string, options: Setup = {}) => {
    const { client, connect } = setup(options);
    await connect();
    const reply = await client.callTool({ name: "codemode", arguments: { code } });
    await client.close();
    const text = (reply.content as Array<{ type: string; text: string }>)[0]?.text ?? "";
    return { reply, text };
  };

  it("are compact JSON, the same value as the structured content", async () => {
    const { reply, text } = await callCode(
      "async () => ({ list: [1, 2, { deep: [true, null] }], when: new Date(0), big: 2n ** 70n, tags: new Set(['a']), index: new Map([['k', 1]]) })",
    );
    expect(text).not.toContain("\n");
    expect(JSON.parse(text)).toEqual(reply.structuredContent);
    expect(reply.structuredContent).toMatchObject({
      status: "completed",
      result: {
        list: [1, 2, { deep: [true, null] }],
        when: "1970-01-01T00:00:00.000Z",
        big: "1180591620717411303424",
        tags: ["a"],
        index: { k: 1 },
      },
    });
  });

  it("stay small for a short program that nests deeply (pretty-printed, this was megabytes)", async () => {
    const { reply, text } = await callCode(
      "async () => { let v = Array(40000).fill(0); for (let i = 0; i < 150; i++) v = [v]; return v; }",
    );
    expect(text.length).toBeLessThanOrEqual(MAX_REPLY_LENGTH);
    expect(JSON.parse(text)).toMatchObject({ status: "completed" });
    expect(JSON.stringify(reply).length).toBeLessThanOrEqual(2 * MAX_REPLY_LENGTH);
  });

  it("handle any depth without a stack overflow; too deep for structuredContent, the value is whole in the text only", async () => {
    const { reply, text } = await callCode("async () => 1", {
      transformResult: () => {
        let value: unknown = "leaf";
        for (let level = 0; level < 40_000; level++) value = [value];
        return value;
      },
    });
    expect(text.length).toBeLessThanOrEqual(MAX_REPLY_LENGTH);
    expect(text).toMatch(/^\{"status":"completed",.*\[\[\[\["leaf"\]\]\]\]/);
    expect(reply.structuredContent).toEqual({
      status: "completed",
      executionId: expect.stringMatching(/^exec_/),
      message: expect.stringContaining("deeper than 100 levels"),
    });
  });

  it("say the result was too large, and what to do, past MAX_REPLY_LENGTH", async () => {
    const { reply, text } = await callCode("async () => 'x'.repeat(900000)");
    expect(text.length).toBeLessThanOrEqual(MAX_REPLY_LENGTH);
    expect(JSON.stringify(reply.structuredContent).length).toBeLessThanOrEqual(MAX_REPLY_LENGTH);
    expect(reply.structuredContent).toMatchObject({
      status: "completed",
      executionId: expect.any(String),
    });
    expect(text).toContain("too large");
    expect(text).toContain(String(MAX_REPLY_LENGTH));
    expect(text).not.toContain("xxxxxxxxxx");
  });

  it("stop converting once over the limit: a value that shares itself 2^60 ways, and a cycle", async () => {
    const huge = await callCode("async () => 1", {
      transformResult: () => {
        let value: unknown[] = ["leaf"];
        for (let level = 0; level < 60; level++) value = [value, value];
        return value;
      },
    });
    expect(huge.text).toContain("too large");
    const cyclic = await callCode("async () => 1", {
      transformResult: () => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      },
    });
    expect(cyclic.text).toContain("too large");
    expect(cyclic.text.length).toBeLessThanOrEqual(MAX_REPLY_LENGTH);
  });

  it("take the host's smaller limit", async () => {
    const { text } = await callCode("async () => 'y'.repeat(5000)", { maxReplyLength: 2_000 });
    expect(text.length).toBeLessThanOrEqual(2_000);
    expect(text).toContain("too large");
  });
});
