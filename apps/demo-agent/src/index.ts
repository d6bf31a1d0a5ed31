// The Worker: /api/*, /chat and the agent's own services (the notes MCP server at /mcp, the catalog
// API's /openapi.json; the catalog API itself is under /api/catalog) go to one Durable Object agent (named by ?agent=, "demo" by default); everything else is the page in public/.

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

export default {
  async fetch(request, env): Promise<Response> {
    const url = new URL(request.url);
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
