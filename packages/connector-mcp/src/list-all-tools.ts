import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/** Pages a server may return before the listing is taken to loop. */
const MAX_PAGES = 1000;

/** Every tool of the server: `tools/list`, following `nextCursor` until the last page. */
export async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === "") return tools;
    if (seen.has(cursor)) {
      throw new Error(`The MCP server returned the cursor "${cursor}" twice while listing tools.`);
    }
    seen.add(cursor);
  }
  throw new Error(`The MCP server listed more than ${MAX_PAGES} pages of tools.`);
}
