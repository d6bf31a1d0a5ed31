import type { Client, Tool } from "@modelcontextprotocol/client";

/** Pages a server may return before the listing is taken to loop. */
const MAX_PAGES = 1000;
/** Tools a server may list in all (each becomes a method, typed and searched on every pass). */
export const MAX_TOOLS = 10_000;

/**
 * Every tool of the server: `tools/list`, following `nextCursor` until the last page. Plain requests,
 * not `client.listTools()`, which stops at `listMaxPages` (64 by default), keeps the listing in the
 * client's response cache and serves `callTool` output validators compiled from it.
 */
export async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request({
      method: "tools/list",
      ...(cursor === undefined ? {} : { params: { cursor } }),
    });
    // one at a time: spreading a page of a hundred thousand tools into push overflows the stack
    for (const tool of result.tools) tools.push(tool);
    if (tools.length > MAX_TOOLS) {
      throw new Error(`The MCP server listed more than ${MAX_TOOLS} tools.`);
    }
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === "") return tools;
    if (seen.has(cursor)) {
      throw new Error(`The MCP server returned the cursor "${cursor}" twice while listing tools.`);
    }
    seen.add(cursor);
  }
  throw new Error(`The MCP server listed more than ${MAX_PAGES} pages of tools.`);
}
