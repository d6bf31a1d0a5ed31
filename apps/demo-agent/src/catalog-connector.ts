import {
  type FetchLike,
  type OpenApiConnector,
  openApiConnector,
} from "@codemode/connector-openapi";
import { catalogOpenApiDocument } from "./catalog-openapi-document.ts";
import { SELF_ORIGIN, type SelfFetch } from "./self-fetch.ts";

/**
 * The document the connector reads: one object for the isolate's life, so the connector that every
 * new Durable Object instance makes parses it once.
 */
const DOCUMENT = catalogOpenApiDocument(SELF_ORIGIN);

interface CreatedItem {
  id: number;
}

/**
 * The catalog API as the sandbox global `catalog`, from its OpenAPI document: one method per
 * operation. GETs run at once; `createItem` (POST) and `deleteItem` (DELETE) wait for a person, and
 * rolling back a run that created an item deletes it again. Requests go to the agent's own handler
 * through `selfFetch`.
 */
export function catalogConnector(fetch: SelfFetch): OpenApiConnector {
  return openApiConnector({
    name: "catalog",
    document: DOCUMENT,
    // the connector's request init (method, headers, a string body, a signal) is a valid RequestInit
    fetch: fetch as unknown as FetchLike,
    // the document is ours and known good; validating it would compile code, which Workers forbid
    validate: false,
    // the declared operations are all the model needs
    request: false,
    instructions: "The shop's catalog (an OpenAPI-described REST API). Prices are in US dollars.",
    operations: {
      createItem: {
        revert: (_input: unknown, item: CreatedItem, client) =>
          client.call("deleteItem", { itemId: item.id }),
      },
    },
  });
}
