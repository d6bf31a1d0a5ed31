// Requirement selection over documents parsed by swagger-parser (through loadDocument): which
// alternative wins, what `{}` and `[]` mean, how credentials find their schemes, and what a refusal says.
import { CodemodeError } from "@codemode/core";
import type { OpenAPIV2, OpenAPIV3 } from "openapi-types";
import { describe, expect, it } from "vitest";
import { addressPolicy } from "./address-policy.ts";
import type { Credential } from "./credentials.ts";
import { loadDocument } from "./load-document.ts";
import { DEFAULT_LIMITS } from "./options.ts";
import { readOperations } from "./read-operations.ts";
import {
  checkCredentialSchemes,
  chooseCredentials,
  type DocumentSecurity,
  readDocumentSecurity,
  type SecurityRequirement,
} from "./security.ts";

const ok = { "200": { description: "OK." } };

function openApi3(
  security: OpenAPIV3.SecurityRequirementObject[] | undefined,
  operation: OpenAPIV3.SecurityRequirementObject[] | undefined,
): OpenAPIV3.Document {
  return {
    openapi: "3.0.3",
    info: { title: "Selection", version: "1" },
    servers: [{ url: "https://api.example.com" }],
    ...(security ? { security } : {}),
    paths: {
      "/thing": {
        get: {
          operationId: "getThing",
          ...(operation ? { security: operation } : {}),
          responses: ok,
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "Bearer" },
        basic: { type: "http", scheme: "basic" },
        digest: { type: "http", scheme: "digest" },
        key: { type: "apiKey", in: "header", name: "X-Api-Key" },
        queryKey: { type: "apiKey", in: "query", name: "api_key" },
        oauth: {
          type: "oauth2",
          flows: {
            clientCredentials: {
              tokenUrl: "https://auth.example.com/token",
              scopes: { read: "Read." },
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

async function read(document: OpenAPIV3.Document | OpenAPIV2.Document) {
  const parsed = await loadDocument(document, {
    validate: true,
    policy: addressPolicy("selection", false, undefined),
    maxBytes: DEFAULT_LIMITS.documentBytes,
    timeoutMs: DEFAULT_LIMITS.documentTimeoutMs,
    maxRedirects: DEFAULT_LIMITS.redirects,
    key: "selection",
  });
  const operations = readOperations(parsed);
  return { security: readDocumentSecurity(parsed, operations), operation: operations[0] };
}

/** What a GET /thing of this document carries with these credentials (or its refusal). */
async function choose(
  document: OpenAPIV3.Document | OpenAPIV2.Document,
  credentials: readonly Credential[],
) {
  const { security, operation } = await read(document);
  return chooseCredentials("api.getThing", operation?.security, security, credentials);
}

const bearer: Credential = { type: "bearer", token: "t" };
const basic: Credential = { type: "basic", username: "u", password: "p" };
const key: Credential = { type: "apiKey", in: "header", name: "x-api-key", value: "k" };
const queryKey: Credential = { type: "apiKey", in: "query", name: "api_key", value: "q" };

describe("chooseCredentials", () => {
  it("takes the operation's security over the document's, and [] as no credential", async () => {
    expect(await choose(openApi3([{ bearer: [] }], undefined), [key, bearer])).toEqual({
      credentials: [bearer],
    });
    expect(await choose(openApi3([{ bearer: [] }], [{ key: [] }]), [key, bearer])).toEqual({
      credentials: [key],
    });
    expect(await choose(openApi3([{ bearer: [] }], []), [key, bearer])).toEqual({
      credentials: [],
    });
  });

  it("picks the first alternative the credentials satisfy whole, skipping unsupported schemes", async () => {
    const document = openApi3(undefined, [
      { digest: [] },
      { key: [], queryKey: [] },
      { basic: [] },
      { bearer: [] },
    ]);
    // key alone does not satisfy key AND queryKey: basic, the next alternative, wins
    expect(await choose(document, [bearer, key, basic])).toEqual({ credentials: [basic] });
    expect(await choose(document, [bearer, queryKey, key, basic])).toEqual({
      credentials: [key, queryKey],
    });
  });

  it("prefers credentials to {} and falls back to anonymous when none fit", async () => {
    const document = openApi3(undefined, [{}, { key: [] }]);
    expect(await choose(document, [key])).toEqual({ credentials: [key] });
    expect(await choose(document, [bearer])).toEqual({ credentials: [] });
  });

  it("serves OAuth 2 and OpenID Connect with a bearer token, and a named credential first", async () => {
    const named: Credential = { type: "bearer", token: "o", scheme: "oauth" };
    expect(await choose(openApi3(undefined, [{ oauth: ["read"] }]), [bearer, named])).toEqual({
      credentials: [named],
    });
    expect(await choose(openApi3(undefined, [{ oidc: [] }]), [named, bearer])).toEqual({
      credentials: [bearer],
    });
    // a credential that names a scheme serves no other
    expect(await choose(openApi3(undefined, [{ bearer: [] }]), [named])).toMatchObject({
      refusal: expect.any(String),
    });
  });

  it("matches API key header names in any case, query parameters exactly", async () => {
    const shouting: Credential = { type: "apiKey", in: "header", name: "X-API-KEY", value: "k" };
    expect(await choose(openApi3(undefined, [{ key: [] }]), [shouting])).toEqual({
      credentials: [shouting],
    });
    const upper: Credential = { type: "apiKey", in: "query", name: "API_KEY", value: "q" };
    expect(await choose(openApi3(undefined, [{ queryKey: [] }]), [upper])).toMatchObject({
      refusal: expect.any(String),
    });
  });

  it("sends every credential when the document declares no security anywhere", async () => {
    expect(await choose(openApi3(undefined, undefined), [bearer, key])).toEqual({
      credentials: [bearer, key],
    });
  });

  it("sends none to an operation without security when others declare some", async () => {
    const document = openApi3(undefined, undefined);
    document.paths["/other"] = {
      get: { operationId: "other", security: [{ bearer: [] }], responses: ok },
    };
    expect(await choose(document, [bearer, key])).toEqual({ credentials: [] });
  });

  it("reads Swagger 2 securityDefinitions", async () => {
    const swagger: OpenAPIV2.Document = {
      swagger: "2.0",
      info: { title: "Selection", version: "1" },
      host: "api.example.com",
      security: [{ basic: [] }],
      paths: {
        "/thing": {
          get: { operationId: "getThing", security: [{ oauth: [] }, { key: [] }], responses: ok },
        },
      },
      securityDefinitions: {
        basic: { type: "basic" },
        key: { type: "apiKey", in: "header", name: "X-Api-Key" },
        oauth: {
          type: "oauth2",
          flow: "application",
          tokenUrl: "https://auth.example.com/token",
          scopes: {},
        },
      },
    };
    expect(await choose(swagger, [basic, key])).toEqual({ credentials: [key] });
    expect(await choose(swagger, [basic, key, bearer])).toEqual({ credentials: [bearer] });
  });

  it("refuses with the operation, every alternative and what the connector has", async () => {
    const choice = await choose(
      openApi3(undefined, [{ key: [], queryKey: [] }, { digest: [] }, { missing: [] }]),
      [bearer],
    );
    expect(choice.refusal).toBe(
      'api.getThing was not sent: it needs "key" (an API key in the header "X-Api-Key") and "queryKey" (an API key in the query parameter "api_key"); or "digest" (HTTP "digest" authentication, which is not supported); or "missing" (a scheme the document does not declare), and the connector has no credentials for any of these (it has a bearer token). The application must configure them.',
    );
    expect(choice.refusal).not.toContain('"t"');
  });

  it("lists at most ten alternatives", () => {
    const security: DocumentSecurity = { schemes: new Map(), defaults: undefined, declared: true };
    const many: SecurityRequirement[] = Array.from({ length: 25 }, (_, index) => [`s${index}`]);
    const choice = chooseCredentials("api.op", many, security, []);
    expect(choice.refusal).toContain('"s9" (a scheme the document does not declare); or 15 more,');
    expect(choice.refusal).not.toContain('"s10"');
    expect(choice.refusal).toContain("(it has none)");
  });
});

describe("checkCredentialSchemes", () => {
  const check = async (credential: Credential) => {
    const { security } = await read(openApi3(undefined, [{ bearer: [] }]));
    try {
      checkCredentialSchemes("api", [credential], security);
      return undefined;
    } catch (error) {
      expect(CodemodeError.isInstance(error) && error.code).toBe("INVALID_CONFIG");
      return (error as Error).message;
    }
  };

  it("accepts a credential that names a scheme it fits", async () => {
    expect(await check({ ...key, scheme: "key" })).toBeUndefined();
    expect(await check({ ...bearer, scheme: "oidc" })).toBeUndefined();
  });

  it("refuses a scheme the document does not declare, or one the credential does not fit", async () => {
    expect(await check({ ...bearer, scheme: "bearerAuth" })).toBe(
      'openApiConnector "api": a bearer token for "bearerAuth" names a security scheme the document does not declare (it declares "bearer", "basic", "digest", "key", "queryKey", "oauth", "oidc").',
    );
    expect(await check({ ...queryKey, scheme: "key" })).toBe(
      'openApiConnector "api": an API key in the query parameter "api_key" for "key" does not fit that scheme, which takes an API key in the header "X-Api-Key".',
    );
    expect(await check({ ...basic, scheme: "digest" })).toContain("which is not supported");
  });
});
