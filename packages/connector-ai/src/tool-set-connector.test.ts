import { createCodemodeRuntime, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { jsonSchema, type ModelMessage, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toolSetConnector } from "./index.ts";

const messages: ModelMessage[] = [{ role: "user", content: "Pay the invoices." }];

function payments() {
  const paid: Array<{ id: string; amount: number; toolCallId: string; context: unknown }> = [];
  const asked: unknown[] = [];
  const connector = toolSetConnector({
    name: "payments",
    messages,
    context: { tenant: "acme" },
    tools: {
      list_invoices: tool({
        description: "Open invoices.",
        inputSchema: z.object({}),
        outputSchema: z.array(z.object({ id: z.string(), amount: z.number() })),
        execute: async () => [
          { id: "inv-1", amount: 40 },
          { id: "inv-2", amount: 900 },
        ],
      }),
      pay: tool({
        description: "Pay an invoice.",
        inputSchema: jsonSchema<{ id: string; amount: number }>({
          type: "object",
          properties: { id: { type: "string" }, amount: { type: "number", minimum: 0 } },
          required: ["id", "amount"],
        }),
        // only large payments wait for a person
        needsApproval: async ({ amount }, options) => {
          asked.push({ amount, options });
          return amount > 100;
        },
        execute: async ({ id, amount }, options) => {
          paid.push({
            id,
            amount,
            toolCallId: options.toolCallId,
            context: options.context,
          });
          return { id, paid: amount };
        },
      }),
      progress: tool({
        description: "A streaming tool: its last value is the result.",
        inputSchema: z.object({ steps: z.number().int() }),
        async *execute({ steps }) {
          for (let step = 1; step <= steps; step++) yield { step };
        },
      }),
      confirm_with_user: tool({
        description: "Ask the person; the answer arrives later.",
        inputSchema: z.object({ question: z.string() }),
      }),
    },
  });
  return { connector, paid, asked };
}

describe("toolSetConnector", () => {
  it("lists tools with schemas, approval and deferral as the runtime needs them", async () => {
    const methods = await payments().connector.methods();
    expect(Object.keys(methods)).toEqual(["list_invoices", "pay", "progress", "confirm_with_user"]);
    expect(methods.list_invoices?.outputSchema).toMatchObject({ type: "array" });
    expect(methods.pay?.inputSchema).toMatchObject({ required: ["id", "amount"] });
    expect(typeof methods.pay?.requiresApproval).toBe("function");
    expect(methods.confirm_with_user?.deferred).toBe(true);
  });

  it("validates input before execute and takes a streaming tool's last value", async () => {
    const { connector, paid } = payments();
    const context = {
      executionId: "exec_1",
      seq: 0,
      idempotencyKey: "exec_1:0",
      signal: new AbortController().signal,
    };
    await expect(connector.invoke("pay", { id: "inv-1", amount: -5 }, context)).rejects.toThrow(
      /Invalid input for payments.pay/,
    );
    expect(paid).toEqual([]);
    expect(await connector.invoke("progress", { steps: 3 }, context)).toEqual({ step: 3 });
  });

  it("pauses only the calls needsApproval selects, runs them once after approval", async () => {
    const { connector, paid, asked } = payments();
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new QuickJSExecutor(),
      connectors: [connector],
    });
    const code = `async () => {
      const done = [];
      for (const invoice of await payments.list_invoices({})) done.push(await payments.pay(invoice));
      return done;
    }`;
    const paused = await runtime.execute({ code });
    expect(paused).toMatchObject({
      status: "paused",
      pending: [{ method: "pay", args: { id: "inv-2", amount: 900 } }],
    });
    // the small payment ran at once, with the AI SDK options this run gives it
    expect(paid).toEqual([
      {
        id: "inv-1",
        amount: 40,
        toolCallId: expect.stringContaining(paused.executionId),
        context: { tenant: "acme" },
      },
    ]);
    expect(asked[0]).toMatchObject({
      amount: 40,
      options: { messages, context: { tenant: "acme" }, experimental_context: { tenant: "acme" } },
    });

    const approved = await runtime.approve({ executionId: paused.executionId });
    expect(approved).toMatchObject({
      status: "completed",
      result: [
        { id: "inv-1", paid: 40 },
        { id: "inv-2", paid: 900 },
      ],
    });
    expect(paid.map((payment) => payment.id)).toEqual(["inv-1", "inv-2"]);
  });

  it("defers a tool without execute until runtime.resolve supplies its result", async () => {
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new QuickJSExecutor(),
      connectors: [payments().connector],
    });
    const waiting = await runtime.execute({
      code: `async () => (await payments.confirm_with_user({ question: "Pay inv-2?" })).answer`,
    });
    expect(waiting).toMatchObject({ status: "paused", pending: [{ method: "confirm_with_user" }] });
    const resolved = await runtime.resolve({
      executionId: waiting.executionId,
      seq: 0,
      result: { answer: "yes" },
    });
    expect(resolved).toMatchObject({ status: "completed", result: "yes" });
  });

  it("refuses what is not a ToolSet", () => {
    expect(() => toolSetConnector({ name: "x", tools: undefined as never })).toThrow(/ToolSet/);
  });
});
