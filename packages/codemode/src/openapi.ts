// codemode/openapi: an OpenAPI 3.x or Swagger 2.0 document's operations as a namespace.
export * from "@codemode/connector-openapi";
