import { chat, type StreamChunk } from "@tanstack/ai";
import { describe, expect, it } from "vitest";
import { codemodeTool, PAUSED_MESSAGE } from "./index.ts";
import { crmRuntime } from "./test/crm.ts";
import { ScriptedAdapter, toolResult } from "./test/scripted-adapter.ts";

async function collect(stream: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const FIND = `async () => {
  const customer = await crm.find_customer({ name: "Ada" });
  return { id: customer.id, due: customer.balance };
}`;

describe("codemodeTool", () => {
  it("gives the model one tool with the runtime's description and the { code } schema", async () => {
    const { runtime } = crmRuntime();
    await runtime.ready();
    const adapter = new ScriptedAdapter([{ text: "Nothing to do." }]);
    await collect(
      chat({
        adapter,
        messages: [{ role: "user", content: "Hi" }],
        tools: [codemodeTool(runtime)],
      }),
    );
    const [tool, ...others] = adapter.calls[0]?.tools ?? [];
    expect(others).toEqual([]);
    expect(tool?.name).toBe("codemode");
    // the runtime's description: the globals and the rules (declarations come from describe)
    expect(tool?.description).toBe(runtime.tool().description);
    expect(tool?.description).toContain("crm: The customers of the shop.");
    // what the provider receives: the runtime's schema converted to JSON Schema
    expect(tool?.inputSchema).toMatchObject({
      type: "object",
      properties: { code: { type: "string" } },
      required: ["code"],
    });
  });

  it("runs the model's code against the connector and hands the result back to the model", async () => {
    const { runtime } = crmRuntime();
    const adapter = new ScriptedAdapter([
      { toolCalls: [{ id: "call-1", name: "codemode", input: { code: FIND } }] },
      (options) => {
        const output = toolResult(options.messages, "call-1") as { result: { due: number } };
        return { text: `Ada owes ${output.result.due}.` };
      },
    ]);
    const chunks = await collect(
      chat({
        adapter,
        messages: [{ role: "user", content: "What does Ada owe?" }],
        tools: [codemodeTool(runtime)],
      }),
    );
    expect(adapter.calls).toHaveLength(2);
    expect(toolResult(adapter.calls[1]?.messages ?? [], "call-1")).toEqual({
      status: "completed",
      executionId: expect.stringMatching(/^exec_/),
      result: { id: "cus_ada", due: 120 },
    });
    const text = chunks
      .filter((chunk) => chunk.type === "TEXT_MESSAGE_CONTENT")
      .map((chunk) => (chunk as { delta: string }).delta)
      .join("");
    expect(text).toBe("Ada owes 120.");
    const [execution] = await runtime.executions();
    expect(execution).toMatchObject({ status: "completed", calls: [{ method: "find_customer" }] });
  });

  it("returns a failure of the code as an error result, not a thrown tool error", async () => {
    const { runtime } = crmRuntime();
    const adapter = new ScriptedAdapter([
      {
        toolCalls: [
          {
            id: "call-1",
            name: "codemode",
            input: {
              code: `async () => { console.log("looking"); throw new Error("no such customer"); }`,
            },
          },
        ],
      },
      { text: "It failed." },
    ]);
    await collect(
      chat({
        adapter,
        messages: [{ role: "user", content: "Go" }],
        tools: [codemodeTool(runtime)],
      }),
    );
    expect(toolResult(adapter.calls[1]?.messages ?? [], "call-1")).toMatchObject({
      status: "error",
      error: expect.stringContaining("no such customer"),
      logs: ["looking"],
    });
  });

  it("sends values JSON cannot hold in the value codec's tagged form", async () => {
    const { runtime } = crmRuntime();
    const adapter = new ScriptedAdapter([
      {
        toolCalls: [
          {
            id: "call-1",
            name: "codemode",
            input: {
              code: `async () => ({ at: new Date(0), big: 2n ** 70n, tags: new Set(["a"]) })`,
            },
          },
        ],
      },
      { text: "Done." },
    ]);
    await collect(
      chat({
        adapter,
        messages: [{ role: "user", content: "Go" }],
        tools: [codemodeTool(runtime)],
      }),
    );
    expect(toolResult(adapter.calls[1]?.messages ?? [], "call-1")).toMatchObject({
      status: "completed",
      result: {
        at: { $codemode: "Date", value: "1970-01-01T00:00:00.000Z" },
        big: { $codemode: "bigint", value: "1180591620717411303424" },
        tags: { $codemode: "Set", value: ["a"] },
      },
    });
  });

  it("without codemodeApprovals, a paused run reaches the model as paused and waits for runtime.approve", async () => {
    const { runtime, sent } = crmRuntime();
    const adapter = new ScriptedAdapter([
      {
        toolCalls: [
          {
            id: "call-1",
            name: "codemode",
            input: {
              code: `async () => crm.send_invoice({ customer: "cus_ada", amount: 120 })`,
            },
          },
        ],
      },
      { text: "A person has to approve the invoice." },
    ]);
    await collect(
      chat({
        adapter,
        messages: [{ role: "user", content: "Bill Ada" }],
        tools: [codemodeTool(runtime)],
      }),
    );
    const output = toolResult(adapter.calls[1]?.messages ?? [], "call-1") as {
      executionId: string;
    };
    expect(output).toEqual({
      status: "paused",
      executionId: expect.stringMatching(/^exec_/),
      pending: [
        {
          executionId: output.executionId,
          seq: 0,
          connector: "crm",
          method: "send_invoice",
          args: { customer: "cus_ada", amount: 120 },
        },
      ],
      message: PAUSED_MESSAGE,
    });
    expect(sent).toEqual([]);
    expect(await runtime.approve({ executionId: output.executionId })).toMatchObject({
      status: "completed",
      result: { invoice: "inv_1" },
    });
    expect(sent).toEqual([{ customer: "cus_ada", amount: 120 }]);
  });

  it("refuses input without code before the runtime sees it", async () => {
    const { runtime } = crmRuntime();
    const adapter = new ScriptedAdapter([
      { toolCalls: [{ id: "call-1", name: "codemode", input: { source: "1 + 1" } }] },
      { text: "Oops." },
    ]);
    await collect(
      chat({
        adapter,
        messages: [{ role: "user", content: "Go" }],
        tools: [codemodeTool(runtime)],
      }),
    );
    expect(toolResult(adapter.calls[1]?.messages ?? [], "call-1")).toMatchObject({
      error: expect.stringContaining("{ code: string }"),
    });
    expect(await runtime.executions()).toEqual([]);
  });

  it("refuses a runtime that is not one and a name a provider cannot take", () => {
    const { runtime } = crmRuntime();
    expect(() => codemodeTool({} as never)).toThrow(/createCodemodeRuntime/);
    expect(() => codemodeTool(runtime, { name: "run code" })).toThrow(/letters, digits/);
    expect(codemodeTool(runtime, { name: "run_code" }).name).toBe("run_code");
  });
});
