// The OpenAPI 3.1 description of the catalog API, served at /openapi.json and read by the `catalog`
// connector. Written as a plain object: nothing generates it.
import type { OpenApiDocument } from "@codemode/connector-openapi";

const error = {
  description: "What was wrong.",
  content: { "application/json": { schema: { $ref: "#/components/schemas/CatalogError" } } },
};

const item = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/CatalogItem" } } },
});

/** The document, with `origin` (where the Worker answers) in its `servers`. */
export function catalogOpenApiDocument(origin: string): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: {
      title: "Catalog API",
      version: "1.0.0",
      description:
        "The shop's catalog: items with a SKU, a price in US dollars and the stock. Adding and deleting items needs a person's approval.",
    },
    servers: [{ url: `${origin}/api/catalog` }],
    paths: {
      "/items": {
        get: {
          operationId: "listItems",
          summary: "List catalog items, optionally filtered.",
          tags: ["items"],
          parameters: [
            {
              name: "q",
              in: "query",
              description: "Only items whose name or SKU contains this (any case).",
              schema: { type: "string" },
            },
            {
              name: "maxPrice",
              in: "query",
              description: "Only items at this price or below, in US dollars.",
              schema: { type: "number", minimum: 0 },
            },
          ],
          responses: {
            "200": {
              description: "The items, oldest first.",
              content: {
                "application/json": {
                  schema: { type: "array", items: { $ref: "#/components/schemas/CatalogItem" } },
                },
              },
            },
          },
        },
        post: {
          operationId: "createItem",
          summary: "Add an item to the catalog.",
          description:
            "Repeating a request with the same Idempotency-Key header returns the item the first one added.",
          tags: ["items"],
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/NewCatalogItem" } },
            },
          },
          responses: { "201": item("The new item."), "400": error, "409": error },
        },
      },
      "/items/{itemId}": {
        parameters: [
          {
            name: "itemId",
            in: "path",
            required: true,
            description: "The item's id.",
            schema: { type: "integer", minimum: 1 },
          },
        ],
        get: {
          operationId: "getItem",
          summary: "Get one catalog item.",
          tags: ["items"],
          responses: { "200": item("The item."), "404": error },
        },
        delete: {
          operationId: "deleteItem",
          summary: "Remove an item from the catalog.",
          tags: ["items"],
          responses: { "204": { description: "Deleted." }, "404": error },
        },
      },
    },
    components: {
      schemas: {
        CatalogItem: {
          type: "object",
          properties: {
            id: { type: "integer" },
            sku: { type: "string", description: "The stock keeping unit, e.g. MUG-001." },
            name: { type: "string" },
            price: { type: "number", description: "In US dollars." },
            stock: { type: "integer", description: "Units in stock." },
            createdAt: { type: "string", format: "date-time" },
          },
          required: ["id", "sku", "name", "price", "stock", "createdAt"],
        },
        NewCatalogItem: {
          type: "object",
          properties: {
            name: { type: "string", minLength: 1, maxLength: 120 },
            price: { type: "number", minimum: 0, description: "In US dollars." },
            sku: {
              type: "string",
              pattern: "^[A-Z0-9-]{3,20}$",
              description: "Default: made from the name and the next id.",
            },
            stock: { type: "integer", minimum: 0, description: "Default 0." },
          },
          required: ["name", "price"],
          additionalProperties: false,
        },
        CatalogError: {
          type: "object",
          properties: { error: { type: "string" } },
          required: ["error"],
        },
      },
    },
  };
}
