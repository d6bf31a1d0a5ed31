// End to end through TanStack AI's own pieces: a chat route served over HTTP on loopback with
// chatParamsFromRequest and toServerSentEventsResponse, and the framework-agnostic ChatClient that
// useChat wraps, which renders the interrupt and sends the person's answer back.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  chat,
  chatParamsFromRequest,
  type TextOptions,
  toServerSentEventsResponse,
} from "@tanstack/ai";
import { ChatClient, fetchServerSentEvents } from "@tanstack/ai-client";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  CODEMODE_DECISION_EVENT,
  codemodeApproval,
  codemodeApprovals,
  codemodeTool,
} from "./index.ts";
import { crmRuntime } from "./test/crm.ts";
import { ScriptedAdapter, toolResult } from "./test/scripted-adapter.ts";

/** A call's digest, as an interrupt shows it. */
const DIGEST = expect.stringMatching(/^[0-9a-f]{64}$/);

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

async function bodyOf(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

/** The route an application writes: its chat() with the runtime's tool and approvals. */
async function serveChat(handle: (request: Request) => Promise<Response>): Promise<string> {
  const server = createServer(async (incoming, outgoing) => {
    const request = new Request(`http://127.0.0.1${incoming.url}`, {
      method: incoming.method ?? "POST",
      headers: incoming.headers as Record<string, string>,
      body: await bodyOf(incoming),
    });
    const response = await handle(request);
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body?.getReader();
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      outgoing.write(next.value);
    }
    outgoing.end();
  });
  servers.push(server);
  // no idle timeout: ending a kept-alive connection as a late client reuses it fails that fetch
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
}

describe("with TanStack AI's ChatClient over HTTP", () => {
  it("the person sees the paused call, approves it in the client, and the model answers from the result", async () => {
    const { runtime, sent } = crmRuntime();
    const adapter = new ScriptedAdapter([
      {
        toolCalls: [
          {
            id: "call-1",
            name: "codemode",
            input: {
              code: `async () => {
                const customer = await crm.find_customer({ name: "Ada" });
                const sent = await crm.send_invoice({ customer: customer.id, amount: customer.balance });
                return sent.invoice;
              }`,
            },
          },
        ],
      },
      (options: TextOptions) => {
        const output = toolResult(options.messages, "call-1") as { result: string };
        return { text: `Sent ${output.result}.` };
      },
      { text: "Yes." },
    ]);
    const url = await serveChat(async (request) => {
      const params = await chatParamsFromRequest(request);
      const stream = chat({
        adapter,
        messages: params.messages,
        threadId: params.threadId,
        runId: params.runId,
        ...(params.parentRunId ? { parentRunId: params.parentRunId } : {}),
        ...(params.resume ? { resume: params.resume } : {}),
        tools: [codemodeTool(runtime)],
        interrupts: [codemodeApproval],
        middleware: [codemodeApprovals(runtime)],
      });
      return toServerSentEventsResponse(stream);
    });

    const events: Array<{ name: string; value: unknown }> = [];
    const client = new ChatClient({
      connection: fetchServerSentEvents(url),
      interrupts: [codemodeApproval],
      onCustomEvent: (name, value) => events.push({ name, value }),
    });
    await client.sendMessage("Bill Ada what she owes.");

    const [interrupt, ...others] = client.getInterrupts();
    expect(others).toEqual([]);
    if (interrupt?.kind !== "generic" || !("definitionId" in interrupt)) {
      throw new Error(`expected the codemode approval, got ${JSON.stringify(interrupt)}`);
    }
    expect(interrupt.definitionId).toBe("codemode-approval");
    expect(interrupt.payload?.calls).toEqual([
      {
        seq: 1,
        connector: "crm",
        method: "send_invoice",
        input: { customer: "cus_ada", amount: 120 },
        digest: DIGEST,
      },
    ]);
    expect(sent).toEqual([]);

    interrupt.resolveInterrupt({ approved: true });
    await vi.waitFor(
      () => {
        const last = client.getMessages().at(-1);
        const text = last?.parts.find((part) => part.type === "text") as
          | { content: string }
          | undefined;
        expect(text?.content).toBe("Sent inv_1.");
        expect(client.getIsLoading()).toBe(false);
      },
      { timeout: 20_000 },
    );
    expect(sent).toEqual([{ customer: "cus_ada", amount: 120 }]);
    expect(client.getInterrupts()).toEqual([]);
    expect(events.find((event) => event.name === CODEMODE_DECISION_EVENT)?.value).toMatchObject({
      toolCallId: "call-1",
      decision: "approved",
      output: { status: "completed", result: "inv_1" },
    });

    // the client's history keeps the paused output; the model's next turn reads the run as it is now
    await client.sendMessage("Is it sent?");
    expect(toolResult(adapter.calls[2]?.messages ?? [], "call-1")).toMatchObject({
      status: "completed",
      message: expect.stringContaining("no longer waits"),
    });
    client.dispose();
  });
});
