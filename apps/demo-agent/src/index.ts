// The Worker: /api/*, /chat and the agent's own services (the notes MCP server at /mcp, the catalog
// API's /openapi.json; the catalog API itself is under /api/catalog) go to one Durable Object agent
// (named by ?agent=, "demo" by default); everything else is the page in public/. Every request
// passes refuseForeignRequest first: a Host the app serves, and changes from the page's own origin.

import { allowedHostsFrom, type RouteClients, refuseForeignRequest } from "@codemode/demo-kit";
import { CATALOG_PATH } from "./handle-catalog-api.ts";

// the agent loads each pass's sandbox worker through this entrypoint (ctx.exports.SandboxLoader)
export { SandboxLoader } from "@codemode/executor-dynamic-worker";
export { DemoAgent } from "./demo-agent.ts";

const AGENT_NAME = /^[\w.-]{1,64}$/;

/** Paths the agent answers; the rest are static assets. */
const toAgent = (pathname: string) =>
  pathname.startsWith("/api/") ||
  pathname === "/chat" ||
  pathname === "/mcp" ||
  pathname === "/openapi.json";

/**
 * The services any client may use (MCP clients and REST clients are not browsers and send no
 * Origin); the rest of the API and the chat are the page's own.
 */
const clientsOf = (pathname: string): RouteClients =>
  pathname === "/mcp" || pathname === "/openapi.json" || pathname.startsWith(`${CATALOG_PATH}/`)
    ? "any-client"
    : "page";

export default {
  async fetch(request, env): Promise<Response> {
    const url = new URL(request.url);
    const refused = refuseForeignRequest(request, {
      clients: clientsOf(url.pathname),
      allowedHosts: allowedHostsFrom(env.ALLOWED_HOSTS),
    });
    if (refused) return refused;
    if (toAgent(url.pathname)) {
      const name = url.searchParams.get("agent") || "demo";
      if (!AGENT_NAME.test(name)) {
        return Response.json({ error: "agent: 1-64 letters, digits, _, . or -." }, { status: 400 });
      }
      return env.AGENT.get(env.AGENT.idFromName(name)).fetch(request);
    }
    return env.ASSETS.fetch(request);
  },
} satisfies ExportedHandler<Env>;
