// A small OpenAPI 3.0 description for the hostile-API tests: reads and a write, a path whose literal
// sibling is another operation (/items/export beside /items/{itemId}), an admin operation with a
// credential of its own, and an echo. Every operation answers `{ ok: true }` unless the test's
// server says otherwise.
import type { OpenAPIV3 } from "openapi-types";

export const API_KEY = "key_live_5e1f0a9c";
export const ADMIN_KEY = "adm_live_77d2b4e1";
export const BEARER = "tok_live_/3c+9a";

const ok: OpenAPIV3.ResponsesObject = {
  "200": {
    description: "OK.",
    content: { "application/json": { schema: { type: "object", additionalProperties: true } } },
  },
};

export function hostileApiDocument(server: string): OpenAPIV3.Document {
  return {
    openapi: "3.0.3",
    info: { title: "Items", version: "1" },
    servers: [{ url: server }],
    security: [{ key: [] }],
    paths: {
      "/items": {
        get: { operationId: "listItems", responses: ok },
        post: {
          operationId: "createItem",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { type: "object" } } },
          },
          responses: ok,
        },
      },
      "/items/export": { get: { operationId: "exportItems", responses: ok } },
      "/items/{itemId}": {
        parameters: [{ name: "itemId", in: "path", required: true, schema: { type: "string" } }],
        get: { operationId: "getItem", responses: ok },
      },
      "/admin/keys": {
        get: { operationId: "adminKeys", security: [{ admin: [] }], responses: ok },
      },
      "/echo": { get: { operationId: "echo", security: [{ key: [], bearer: [] }], responses: ok } },
    },
    components: {
      securitySchemes: {
        key: { type: "apiKey", in: "header", name: "X-Api-Key" },
        admin: { type: "apiKey", in: "header", name: "X-Admin-Key" },
        bearer: { type: "http", scheme: "bearer" },
      },
    },
  };
}
