// The agent's HTTP API. A `?agent=name` in the page's address picks another agent (Durable Object).
const agent = new URLSearchParams(location.search).get("agent");

function withAgent(path) {
  if (!agent) return path;
  return `${path}${path.includes("?") ? "&" : "?"}agent=${encodeURIComponent(agent)}`;
}

/**
 * Calls the API; resolves with the JSON answer, rejects with the API's error message. A change
 * (any method but GET) is sent as JSON, a body or not: the agent refuses any other content type.
 */
export async function api(path, { method = "GET", body } = {}) {
  const response = await fetch(withAgent(`/api/${path}`), {
    method,
    headers: method === "GET" ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const value = await response.json().catch(() => null);
  if (!response.ok) throw new Error(value?.error ?? `${response.status} ${response.statusText}`);
  return value;
}

/** The chat WebSocket's address. */
export function chatUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return withAgent(`${scheme}//${location.host}/chat`);
}
