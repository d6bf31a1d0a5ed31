// The Worker: POST /api/chat runs the model over the page's messages and tool schemas; GET /api/model
// says which model that is. Everything else is the page in public/ (static assets). Every /api/
// request passes refuseForeignRequest first: a Host the app serves, and changes from the page's own
// origin, as JSON.
import { allowedHostsFrom, type ModelSettings, refuseForeignRequest } from "@codemode/demo-kit";
import { handleChat } from "./handle-chat.ts";
import { selectModel } from "./select-model.ts";

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export default {
  async fetch(request, env): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith("/api/")) return env.ASSETS.fetch(request);
    const refused = refuseForeignRequest(request, {
      clients: "page",
      allowedHosts: allowedHostsFrom(env.ALLOWED_HOSTS),
    });
    if (refused) return refused;
    let selected: ReturnType<typeof selectModel>;
    try {
      selected = selectModel(env as Env & ModelSettings);
    } catch (error) {
      return Response.json({ error: errorText(error) }, { status: 500 });
    }
    if (pathname === "/api/model" && request.method === "GET") {
      return Response.json({ provider: selected.provider, label: selected.label });
    }
    if (pathname === "/api/chat") {
      if (request.method !== "POST") {
        return Response.json({ error: "POST a chat request." }, { status: 405 });
      }
      return handleChat(request, selected.model);
    }
    return Response.json({ error: `No API at ${pathname}.` }, { status: 404 });
  },
} satisfies ExportedHandler<Env>;
