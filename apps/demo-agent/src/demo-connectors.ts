import type { Connector } from "codemode";
import { catalogConnector } from "./catalog-connector.ts";
import type { DemoStores } from "./demo-stores.ts";
import { handleServices } from "./handle-services.ts";
import { notesConnector } from "./notes-connector.ts";
import { selfFetch } from "./self-fetch.ts";
import { trackerConnector } from "./tracker-connector.ts";

/**
 * The model's connectors: `tracker` (plain functions over the tracker store), `notes` (an MCP client
 * of the agent's own notes server at `/mcp`, over Streamable HTTP) and `catalog` (the agent's own REST
 * API, from its OpenAPI document); both reach their server in process through `selfFetch`.
 */
export function demoConnectors(stores: DemoStores): Connector[] {
  const fetch = selfFetch(
    async (request) =>
      (await handleServices(request, stores)) ??
      Response.json({ error: `Nothing is served at ${request.url}.` }, { status: 404 }),
  );
  return [trackerConnector(stores.tracker), notesConnector(fetch), catalogConnector(fetch)];
}
