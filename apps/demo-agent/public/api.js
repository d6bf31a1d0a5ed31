// The agent's HTTP API. A `?agent=name` in the page's address picks another agent (Durable Object).
const agent = new URLSearchParams(location.search).get("agent");

function withAgent(path) {
  if (!agent) return path;
  return `${path}${path.includes("?") ? "&" : "?"}agent=${encodeURIComponent(agent)}`;
}

/**
 * Calls the API; resolves with the JSON answer, rejects with the API's error message (and the
 * answer as `error.answer`). A change
 * (any method but GET) is sent as JSON, a body or not: the agent refuses any other content type.
 */
export async function api(path, { method = "GET", body } = {}) {
  const response = await fetch(withAgent(`/api/${path}`), {
    method,
    headers: method === "GET" ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const value = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error(value?.error ?? `${response.status} ${response.statusText}`);
    // the whole answer, for a caller that reads more than the message (a stale decision)
    error.answer = value;
    throw error;
  }
  return value;
}

/** The chat WebSocket's address. */
export function chatUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return withAgent(`${scheme}//${location.host}/chat`);
}
