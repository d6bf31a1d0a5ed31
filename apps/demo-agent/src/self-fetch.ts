/**
 * The origin the agent's connectors use for the services it serves itself (`/mcp`, `/openapi.json`,
 * `/api/catalog/*`). Nothing resolves it: `selfFetch` hands such requests to the handler in process.
 */
export const SELF_ORIGIN = "https://demo-agent.internal";

/** A `fetch` as the MCP transport and the OpenAPI connector call it. */
export type SelfFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A `fetch` that never leaves the Durable Object: it turns the call into a `Request` and gives it to
 * `handler`, the same function that answers those routes over HTTP. So the connectors speak the real
 * protocols (Streamable HTTP, REST) without a network hop, and they reach nothing but `SELF_ORIGIN`.
 */
export function selfFetch(handler: (request: Request) => Promise<Response>): SelfFetch {
  return async (input, init) => {
    // no signal: the handler answers in process, at once, so there is nothing to cancel
    const { signal: _signal, ...rest } = init ?? {};
    const request = new Request(input, rest);
    const { origin } = new URL(request.url);
    if (origin !== SELF_ORIGIN) {
      throw new TypeError(`This fetch reaches only ${SELF_ORIGIN}, not ${origin}.`);
    }
    const response = await handler(request);
    // a buffered body: nothing of the answer stays open once the caller has it (so a stream meant to
    // stay open, a 2026-07-28 `subscriptions/listen`, would never end: the notes server it reaches
    // advertises no tool-list changes, and the MCP client then opens none)
    const body = response.body === null ? null : await response.arrayBuffer();
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
