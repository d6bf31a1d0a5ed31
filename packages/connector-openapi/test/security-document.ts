// An OpenAPI 3.0 description written for the security tests: operations whose `security` differs
// (none, `[]`, one scheme, two together, alternatives, optional, OAuth 2, OpenID Connect, the
// document's default inherited and overridden), and the secrets a test configures for them.
import type { OpenAPIV3 } from "openapi-types";

export const SECRETS = {
  bearer: "bearer_s3cr3t_01",
  oauth: "oauth_s3cr3t_02",
  basicPassword: "basic_s3cr3t_03",
  apiKey: "apikey_s3cr3t_04",
  tenant: "tenant_s3cr3t_05",
  queryKey: "query_s3cr3t_06",
  session: "session_s3cr3t_07",
} as const;

export const BASIC_USER = "ada";

function get(operationId: string, security?: OpenAPIV3.SecurityRequirementObject[]) {
  return {
    operationId,
    ...(security ? { security } : {}),
    responses: { "200": { description: "OK." } },
  };
}

export function securityDocument(): OpenAPIV3.Document {
  return {
    openapi: "3.0.3",
    info: { title: "Vault API", version: "1.0.0" },
    // relative: resolved against the URL the document is read from
    servers: [{ url: "/api" }],
    security: [{ bearerAuth: [] }],
    paths: {
      "/status": { get: get("status", []) },
      "/notes": {
        get: get("listNotes"),
        post: {
          ...get("createNote", [{ tenantKey: [], bearerAuth: [] }]),
          requestBody: {
            content: { "application/json": { schema: { type: "object" } } },
          },
        },
      },
      "/notes/{noteId}": {
        parameters: [{ name: "noteId", in: "path", required: true, schema: { type: "string" } }],
        get: get("getNote"),
      },
      "/reports": { get: get("getReport", [{ queryKey: [], sessionCookie: [] }]) },
      "/search": {
        get: get("search", [{ digestAuth: [] }, { basicAuth: [] }, { apiKeyHeader: [] }]),
      },
      "/feed": { get: get("feed", [{}, { apiKeyHeader: [] }]) },
      "/exports": { get: get("listExports", [{ oauth: ["exports:read"] }]) },
      "/profile": { get: get("profile", [{ oidc: [] }]) },
      "/keys": { get: get("listKeys", [{ apiKeyHeader: [] }]) },
      "/missing/{id}": {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        get: get("getMissing", [{ apiKeyHeader: [] }]),
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer" },
        basicAuth: { type: "http", scheme: "basic" },
        digestAuth: { type: "http", scheme: "digest" },
        apiKeyHeader: { type: "apiKey", in: "header", name: "X-Api-Key" },
        tenantKey: { type: "apiKey", in: "header", name: "X-Tenant" },
        queryKey: { type: "apiKey", in: "query", name: "api_key" },
        sessionCookie: { type: "apiKey", in: "cookie", name: "session" },
        oauth: {
          type: "oauth2",
          flows: {
            clientCredentials: {
              tokenUrl: "https://auth.example.com/token",
              scopes: { "exports:read": "Read exports." },
            },
          },
        },
        oidc: {
          type: "openIdConnect",
          openIdConnectUrl: "https://auth.example.com/.well-known/openid-configuration",
        },
      },
    },
  };
}
