// Messages from an MCP server over HTTP are read under a limit: the body of a JSON response whole,
// an event stream one event at a time; and the connector's own transport for `url` reads that way.
import type { CallContext } from "@codemode/core";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { mcpConnector } from "./index.ts";
import { limitedFetch } from "./limited-fetch.ts";

const encoder = new TextEncoder();

/** a fetch answering every request with `chunks` as the body, of this content type */
const serving =
  (contentType: string, chunks: string[]): typeof fetch =>
  async () =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
          controller.close();
        },
      }),
      { headers: { "content-type": contentType } },
    );

const read = async (fetchImpl: typeof fetch) =>
  (await limitedFetch(fetchImpl, 100)("http://server.test/mcp")).text();

describe("limitedFetch", () => {
  it("reads a JSON body up to the limit, and cuts one over it off with an error", async () => {
    const fits = ["a".repeat(60), "b".repeat(40)];
    expect(await read(serving("application/json", fits))).toBe(fits.join(""));
    await expect(read(serving("application/json", [...fits, "c"]))).rejects.toThrow(
      /more than 100 bytes \(maxMessageBytes\)/,
    );
  });

  it("counts an event stream per event: many small events pass, one large event does not", async () => {
    const event = (size: number, end = "\n\n") => `data: ${"x".repeat(size - 6)}${end}`;
    const many = Array.from({ length: 50 }, () => event(90));
    expect(await read(serving("text/event-stream", many))).toBe(many.join(""));
    const crlf = Array.from({ length: 50 }, () => event(90, "\r\n\r\n"));
    expect(await read(serving("text/event-stream", crlf))).toBe(crlf.join(""));
    // the same bytes split anywhere: an event spread over chunks is counted whole
    const large = event(150);
    const halves = [large.slice(0, 75), large.slice(75)];
    await expect(read(serving("text/event-stream", halves))).rejects.toThrow(/more than 100 bytes/);
    // a blank line after the large event, in the same chunk, does not hide it
    await expect(read(serving("text/event-stream", [large + event(10)]))).rejects.toThrow(
      /more than 100 bytes/,
    );
    // one line ending is no blank line: a multi-line event is one message
    const lines = `${"data: x\n".repeat(20)}\n`;
    await expect(read(serving("text/event-stream", [lines]))).rejects.toThrow(/more than 100/);
  });
});

const handlers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

const context = (seq: number): CallContext => ({
  executionId: "exec_limit",
  seq,
  idempotencyKey: `exec_limit:${seq}`,
  signal: new AbortController().signal,
});

describe("mcpConnector over url", () => {
  it("reads each message under maxMessageBytes: a result over it fails the call, the next call works", async () => {
    const handler = createMcpHandler(() => {
      const server = new McpServer({ name: "large", version: "1.0.0" });
      server.registerTool("text", { inputSchema: z.object({ size: z.number() }) }, ({ size }) => ({
        content: [{ type: "text", text: "x".repeat(size) }],
      }));
      return server;
    });
    handlers.push(handler);
    const connector = mcpConnector({
      name: "large",
      url: "http://large.test/mcp",
      http: { fetch: (url, init) => handler.fetch(new Request(url, init)) },
      defaultApproval: false,
      maxMessageBytes: 20_000,
      timeoutMs: 60_000,
    });
    expect(await connector.invoke("text", { size: 10 }, context(0))).toBe("x".repeat(10));
    await expect(connector.invoke("text", { size: 50_000 }, context(1))).rejects.toThrow(
      /more than 20000 bytes/,
    );
    expect(await connector.invoke("text", { size: 10 }, context(2))).toBe("x".repeat(10));
    await connector.close();
  });

  it("refuses a maxMessageBytes that is not a positive whole number", () => {
    for (const maxMessageBytes of [0, -1, 1.5, Number.NaN, "10" as unknown as number]) {
      expect(() =>
        mcpConnector({ name: "large", url: "http://large.test/mcp", maxMessageBytes }),
      ).toThrow(expect.objectContaining({ code: "INVALID_CONFIG" }));
    }
  });
});
