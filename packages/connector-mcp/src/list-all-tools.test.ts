// A server's listing is read page by page, under a bound on pages and on tools in all.
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, Server, type Tool } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { listAllTools, MAX_TOOLS } from "./list-all-tools.ts";

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** a client of a server that lists `count` tools, `perPage` on each page */
async function listing(count: number, perPage: number): Promise<Client> {
  const server = new Server({ name: "many", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", async (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const end = Math.min(start + perPage, count);
    const tools: Tool[] = [];
    for (let index = start; index < end; index++) {
      tools.push({ name: `tool_${index}`, inputSchema: { type: "object" } });
    }
    return end < count ? { tools, nextCursor: String(end) } : { tools };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "host", version: "1.0.0" });
  await client.connect(clientSide);
  closing.push(
    () => client.close(),
    () => server.close(),
  );
  return client;
}

describe("listAllTools", () => {
  it("follows the pages to the last, and refuses a server listing more than MAX_TOOLS tools", async () => {
    expect(await listAllTools(await listing(2_500, 1_000))).toHaveLength(2_500);
    expect(await listAllTools(await listing(MAX_TOOLS, 5_000))).toHaveLength(MAX_TOOLS);
    await expect(listAllTools(await listing(MAX_TOOLS + 1, 5_000))).rejects.toThrow(
      `The MCP server listed more than ${MAX_TOOLS} tools.`,
    );
  });
});
