// The Worker: /api/* and /chat go to one Durable Object agent (named by ?agent=, "demo" by default);
// everything else is the page in public/.
export { DemoAgent } from "./demo-agent.ts";

const AGENT_NAME = /^[\w.-]{1,64}$/;

export default {
  async fetch(request, env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname.startsWith("/api/") || url.pathname === "/chat") {
      const name = url.searchParams.get("agent") || "demo";
      if (!AGENT_NAME.test(name)) {
        return Response.json({ error: "agent: 1-64 letters, digits, _, . or -." }, { status: 400 });
      }
      return env.AGENT.get(env.AGENT.idFromName(name)).fetch(request);
    }
    return env.ASSETS.fetch(request);
  },
} satisfies ExportedHandler<Env>;
