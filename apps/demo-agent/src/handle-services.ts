import { catalogOpenApiDocument } from "./catalog-openapi-document.ts";
import type { DemoStores } from "./demo-stores.ts";
import { CATALOG_PATH, handleCatalogApi } from "./handle-catalog-api.ts";
import { handleNotesMcp } from "./handle-notes-mcp.ts";

/**
 * The services the agent serves as any server would, for its own connectors and for outside
 * clients alike: the notes MCP server at `/mcp`, and the catalog REST API at `/api/catalog/*` with
 * its OpenAPI document at `/openapi.json`. Undefined for every other path.
 */
export function handleServices(
  request: Request,
  stores: DemoStores,
): Promise<Response> | undefined {
  const { pathname, origin } = new URL(request.url);
  if (pathname === "/mcp") return handleNotesMcp(request, stores.notes);
  if (pathname === "/openapi.json" && request.method === "GET") {
    return Promise.resolve(Response.json(catalogOpenApiDocument(origin)));
  }
  if (pathname.startsWith(`${CATALOG_PATH}/`)) return handleCatalogApi(request, stores.catalog);
  return undefined;
}
