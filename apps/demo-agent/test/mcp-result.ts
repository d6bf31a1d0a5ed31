/**
 * The JSON-RPC `result` of a Streamable HTTP answer of `/mcp`: one JSON body, or one server-sent
 * event (the MCP SDK v2 answers a stateless 2025-era request either way, as the protocol allows).
 */
export async function mcpResult<T>(response: Response): Promise<T> {
  const text = await response.text();
  const json = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((line) => line.startsWith("data: "))
        ?.slice(6) ?? "");
  return (JSON.parse(json) as { result: T }).result;
}
