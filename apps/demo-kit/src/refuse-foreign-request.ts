/**
 * Who may call a route: only the app's own page (`"page"`: its HTTP API, its chat), or also clients
 * that are not browsers (`"any-client"`: an MCP server, a REST API), which send no `Origin`.
 */
export type RouteClients = "page" | "any-client";

export interface RequestOriginPolicy {
  /** who may call the route the request is for */
  clients: RouteClients;
  /**
   * Host names served besides the loopback names (`localhost`, `127.0.0.1`, `[::1]`, on any port):
   * `name` (any port) or `name:port`, as `allowedHostsFrom` reads them from a var
   */
  allowedHosts?: readonly string[];
}

/** The loopback names: a DNS-rebinding page cannot name them, its Host is its own domain. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Methods that change nothing, and so need no proof of where they come from. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The Host names of a var: separated by commas or spaces, lower case; empty entries dropped. */
export function allowedHostsFrom(text: string | undefined): string[] {
  return (text ?? "")
    .split(/[\s,]+/)
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
}

const refusal = (status: number, error: string) =>
  new Response(JSON.stringify({ error }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });

/** A Host: a name or an IPv4 address, or an IPv6 address in brackets, and maybe a port. */
const HOST = /^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** The request's Host in lower case, and its name without the port; undefined when it is not one. */
function hostOf(request: Request): { host: string; hostname: string } | undefined {
  const host = (request.headers.get("host") ?? new URL(request.url).host).toLowerCase();
  if (!HOST.test(host)) return undefined;
  try {
    return { host, hostname: new URL(`http://${host}`).hostname };
  } catch {
    return undefined;
  }
}

/**
 * Whether a request may reach the app, checked before any route sees it; a refusal is the
 * response to send, undefined lets the request through. It holds for every route:
 *
 * - the `Host` is one the app serves (a loopback name, or one of `allowedHosts`), else 403: a page
 *   of another domain that rebinds its name to this machine reaches nothing;
 * - a request that changes something (any method but GET, HEAD and OPTIONS, and a WebSocket upgrade)
 *   comes from the app's own page: its `Origin` is the app's origin (the request's scheme and Host),
 *   or, with no `Origin`, `Sec-Fetch-Site: same-origin` proves it; with neither, only an
 *   `"any-client"` route takes it (a client that is not a browser); else 403;
 * - such a request (but an upgrade) says `Content-Type: application/json`, else 415: a form or a
 *   `text/plain` body, which another page may send without asking, is refused.
 */
export function refuseForeignRequest(
  request: Request,
  policy: RequestOriginPolicy,
): Response | undefined {
  const named = hostOf(request);
  const allowed = policy.allowedHosts ?? [];
  if (
    !named ||
    !(
      LOOPBACK.has(named.hostname) ||
      allowed.includes(named.host) ||
      allowed.includes(named.hostname)
    )
  ) {
    return refusal(
      403,
      `This app does not serve the Host "${(request.headers.get("host") ?? "").slice(0, 200)}" (see ALLOWED_HOSTS in its README).`,
    );
  }
  const upgrade = request.headers.get("upgrade")?.toLowerCase() === "websocket";
  if (SAFE_METHODS.has(request.method) && !upgrade) return undefined;
  const appOrigin = new URL(`${new URL(request.url).protocol}//${named.host}`).origin;
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  if (origin !== null && origin.toLowerCase() !== appOrigin) {
    return refusal(
      403,
      `Only this app's own page (${appOrigin}) may change something here, not ${origin.slice(0, 200)}.`,
    );
  }
  if (site !== null && site !== "same-origin") {
    return refusal(403, `Only this app's own page (${appOrigin}) may change something here.`);
  }
  if (origin === null && site === null && policy.clients === "page") {
    return refusal(
      403,
      `This route takes changes from this app's own page only: send Origin: ${appOrigin}.`,
    );
  }
  if (upgrade) return undefined;
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    return refusal(415, "Send a change as JSON, with Content-Type: application/json.");
  }
  return undefined;
}
