// Credentials per operation, end to end: the document is served by a loopback HTTP server and read
// from its URL (swagger-parser parses and validates it), every request goes through the platform's
// fetch to that server, and each test checks exactly which credentials a request carried.
import { type CallContext, CodemodeError } from "@codemode/core";
import { createCatalog } from "@codemode/typegen";
import type { OpenAPIV2 } from "openapi-types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Credential, type OpenApiConnectorOptions, openApiConnector } from "../src/index.ts";
import { connectorDefinition } from "./connector-definition.ts";
import {
  type RecordedRequest,
  type RecordingServer,
  startRecordingServer,
} from "./recording-server.ts";
import { BASIC_USER, SECRETS, securityDocument } from "./security-document.ts";

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
  server.document = securityDocument();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const BASIC = `Basic ${Buffer.from(`${BASIC_USER}:${SECRETS.basicPassword}`).toString("base64")}`;

/** Every credential the document has a scheme for; the OAuth token names its scheme. */
const ALL: Credential[] = [
  { type: "bearer", token: SECRETS.bearer },
  { type: "bearer", token: SECRETS.oauth, scheme: "oauth" },
  { type: "basic", username: BASIC_USER, password: SECRETS.basicPassword },
  { type: "apiKey", in: "header", name: "X-Api-Key", value: SECRETS.apiKey },
  { type: "apiKey", in: "header", name: "X-Tenant", value: SECRETS.tenant },
  { type: "apiKey", in: "query", name: "api_key", value: SECRETS.queryKey },
  { type: "apiKey", in: "cookie", name: "session", value: SECRETS.session },
];

let seq = 0;
function context(): CallContext {
  seq++;
  return {
    executionId: "exec_security",
    seq,
    idempotencyKey: `exec_security:${seq}`,
    signal: new AbortController().signal,
  };
}

function vault(options: Partial<OpenApiConnectorOptions> = {}) {
  return openApiConnector({
    name: "vault",
    document: `${server.origin}/openapi.json`,
    internalUrls: true,
    credentials: ALL,
    ...options,
  });
}

/** Where a credential can travel, as one request carried it; absent places are left out. */
function carried(request: RecordedRequest | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ["authorization", "x-api-key", "x-tenant", "cookie"]) {
    const value = request?.headers[name];
    if (typeof value === "string") out[name] = value;
  }
  if (request?.query) out.query = request.query;
  return out;
}

/** The names of the secrets found anywhere in a request (path, query, any header). */
function secretsIn(request: RecordedRequest | undefined): string[] {
  const text = JSON.stringify(request);
  const found = Object.entries(SECRETS)
    .filter(([, secret]) => text.includes(secret))
    .map(([name]) => name);
  return text.includes(BASIC.slice("Basic ".length)) ? [...found, "basic"] : found;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("credentials per operation (OpenAPI 3)", () => {
  const cases: Array<[string, string, Record<string, unknown>, Record<string, string>, string[]]> =
    [
      ["security: [] gets no credential", "status", {}, {}, []],
      [
        "no security of its own inherits the document's bearer",
        "listNotes",
        {},
        { authorization: `Bearer ${SECRETS.bearer}` },
        ["bearer"],
      ],
      [
        "a path parameter does not change what is inherited",
        "getNote",
        { noteId: "7" },
        { authorization: `Bearer ${SECRETS.bearer}` },
        ["bearer"],
      ],
      [
        "an override needing two schemes together gets both",
        "createNote",
        { body: { text: "hi" } },
        { authorization: `Bearer ${SECRETS.bearer}`, "x-tenant": SECRETS.tenant },
        ["bearer", "tenant"],
      ],
      [
        "a query key AND a cookie go together",
        "getReport",
        {},
        { query: `api_key=${SECRETS.queryKey}`, cookie: `session=${SECRETS.session}` },
        ["queryKey", "session"],
      ],
      [
        "of alternatives, the first satisfiable wins (digest is not supported, basic is next)",
        "search",
        {},
        { authorization: BASIC },
        ["basic"],
      ],
      [
        "optional security still sends the key it has",
        "feed",
        {},
        { "x-api-key": SECRETS.apiKey },
        ["apiKey"],
      ],
      [
        "OAuth 2 takes the bearer token that names its scheme",
        "listExports",
        {},
        { authorization: `Bearer ${SECRETS.oauth}` },
        ["oauth"],
      ],
      [
        "OpenID Connect takes a bearer token that names no scheme",
        "profile",
        {},
        { authorization: `Bearer ${SECRETS.bearer}` },
        ["bearer"],
      ],
      [
        "one API key scheme gets that key alone",
        "listKeys",
        {},
        { "x-api-key": SECRETS.apiKey },
        ["apiKey"],
      ],
    ];

  it.each(cases)("%s (%s)", async (_title, method, input, expected, secrets) => {
    await vault().invoke(method, input, context());
    expect(server.requests).toHaveLength(1);
    expect(carried(server.requests[0])).toEqual(expected);
    expect(secretsIn(server.requests[0])).toEqual(secrets);
  });

  it("sends nothing where security is optional and the connector has no fitting credential", async () => {
    await vault({ credentials: [{ type: "bearer", token: SECRETS.bearer }] }).invoke(
      "feed",
      {},
      context(),
    );
    expect(carried(server.requests[0])).toEqual({});
  });

  it("refuses an operation whose security it cannot satisfy, before sending anything", async () => {
    const connector = vault({
      credentials: { type: "apiKey", in: "header", name: "X-Api-Key", value: SECRETS.apiKey },
    });
    const error = await failure(connector.invoke("createNote", { body: {} }, context()));
    expect(CodemodeError.isInstance(error) && error.code).toBe("INVALID_CONFIG");
    expect(error.message).toBe(
      'vault.createNote was not sent: it needs "tenantKey" (an API key in the header "X-Tenant") and "bearerAuth" (an HTTP bearer token), and the connector has no credentials for that (it has an API key in the header "X-Api-Key"). The application must configure them.',
    );
    const search = await failure(connector.invoke("listNotes", {}, context()));
    expect(search.message).toContain('vault.listNotes was not sent: it needs "bearerAuth"');
    expect(server.requests).toHaveLength(0);
    // what it can satisfy still goes
    await connector.invoke("listKeys", {}, context());
    expect(carried(server.requests[0])).toEqual({ "x-api-key": SECRETS.apiKey });
  });

  it("asks a token provider only for requests that carry its token", async () => {
    let asked = 0;
    const connector = vault({
      credentials: [
        {
          type: "bearer",
          token: () => {
            asked++;
            return SECRETS.bearer;
          },
        },
        { type: "apiKey", in: "header", name: "X-Api-Key", value: SECRETS.apiKey },
      ],
    });
    await connector.invoke("status", {}, context());
    await connector.invoke("listKeys", {}, context());
    expect(asked).toBe(0);
    await connector.invoke("listNotes", {}, context());
    expect(asked).toBe(1);
    expect(server.requests.map(secretsIn)).toEqual([[], ["apiKey"], ["bearer"]]);
  });

  it("gives the escape hatch what the operation it reaches would get, else the document's default", async () => {
    const connector = vault();
    const requests: Array<[Record<string, unknown>, string[]]> = [
      [{ path: "/status" }, []],
      [{ path: "/keys?limit=5" }, ["apiKey"]],
      [{ path: "/notes/42" }, ["bearer"]],
      [{ method: "POST", path: "/notes", body: { text: "raw" } }, ["bearer", "tenant"]],
      [{ path: "/undeclared/path" }, ["bearer"]],
    ];
    for (const [input] of requests) await connector.invoke("request", input, context());
    expect(server.requests.map(secretsIn)).toEqual(requests.map(([, secrets]) => secrets));
    expect(server.requests[1]?.query).toBe("limit=5");
  });

  it("puts no credential in methods, declarations or the connector itself", async () => {
    const connector = vault();
    const methods = await connector.methods();
    const declarations = createCatalog({
      connectors: [connectorDefinition(connector, methods)],
    }).connectors[0]?.all();
    const everything = `${declarations}${JSON.stringify(methods)}${JSON.stringify(connector)}${connector.instructions}`;
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
    expect(everything).not.toContain(BASIC.slice("Basic ".length));
  });

  it("refuses a malformed credential when the connector is made", () => {
    const made = (credentials: unknown) => () =>
      vault({ credentials: credentials as Credential[] });
    expect(made([ALL[0], { type: "oauth2", token: "x" }])).toThrow(
      'openApiConnector "vault": credentials[1] has no known type ("bearer", "basic" or "apiKey").',
    );
    expect(made({ type: "apiKey", in: "body", name: "k", value: "v" })).toThrow(
      'credentials[0] needs in: "header", "query" or "cookie".',
    );
    expect(made({ type: "bearer", token: 42 })).toThrow(
      "credentials[0] needs token: a string or a function that returns one.",
    );
    expect(made({ type: "basic", password: "p" })).toThrow("credentials[0] needs a username.");
  });

  it("refuses, when the document is read, a credential for a scheme it does not declare", async () => {
    const error = await failure(
      vault({ credentials: { type: "bearer", token: SECRETS.bearer, scheme: "bearer" } }).methods(),
    );
    expect(CodemodeError.isInstance(error) && error.code).toBe("INVALID_CONFIG");
    expect(error.message).toContain(
      'a bearer token for "bearer" names a security scheme the document does not declare',
    );
  });
});

describe("documents that declare less", () => {
  it("sends every credential when the document declares no security at all", async () => {
    const document = securityDocument();
    delete document.security;
    for (const item of Object.values(document.paths)) {
      for (const operation of [item?.get, item?.post]) if (operation) delete operation.security;
    }
    const connector = openApiConnector({
      name: "vault",
      document,
      baseUrl: `${server.origin}/api`,
      credentials: [
        { type: "bearer", token: SECRETS.bearer },
        { type: "apiKey", in: "query", name: "api_key", value: SECRETS.queryKey },
      ],
    });
    await connector.invoke("status", {}, context());
    expect(carried(server.requests[0])).toEqual({
      authorization: `Bearer ${SECRETS.bearer}`,
      query: `api_key=${SECRETS.queryKey}`,
    });
  });

  it("sends none to an operation without security when there is no default", async () => {
    const document = securityDocument();
    delete document.security;
    const connector = openApiConnector({
      name: "vault",
      document,
      baseUrl: `${server.origin}/api`,
      credentials: ALL,
    });
    await connector.invoke("listNotes", {}, context());
    await connector.invoke("listKeys", {}, context());
    expect(server.requests.map(secretsIn)).toEqual([[], ["apiKey"]]);
  });

  it("reads Swagger 2 securityDefinitions: basic, API keys and OAuth 2", async () => {
    const swagger: OpenAPIV2.Document = {
      swagger: "2.0",
      info: { title: "Vault API (Swagger 2)", version: "1.0.0" },
      host: new URL(server.origin).host,
      basePath: "/api",
      schemes: ["http"],
      security: [{ basic: [] }],
      paths: {
        "/notes": {
          get: { operationId: "listNotes", responses: { "200": { description: "OK." } } },
        },
        "/status": {
          get: {
            operationId: "status",
            security: [],
            responses: { "200": { description: "OK." } },
          },
        },
        "/reports": {
          get: {
            operationId: "getReport",
            security: [{ oauth: [] }, { key: [], queryKey: [] }],
            responses: { "200": { description: "OK." } },
          },
        },
      },
      securityDefinitions: {
        basic: { type: "basic" },
        key: { type: "apiKey", in: "header", name: "X-Api-Key" },
        queryKey: { type: "apiKey", in: "query", name: "api_key" },
        oauth: {
          type: "oauth2",
          flow: "application",
          tokenUrl: "https://auth.example.com/token",
          scopes: {},
        },
      },
    };
    server.document = swagger;
    try {
      const connector = vault({
        credentials: ALL.filter((credential) => credential.type !== "bearer"),
      });
      await connector.invoke("listNotes", {}, context());
      await connector.invoke("status", {}, context());
      await connector.invoke("getReport", {}, context());
      await vault().invoke("getReport", {}, context());
      expect(server.requests.map(carried)).toEqual([
        { authorization: BASIC },
        {},
        { "x-api-key": SECRETS.apiKey, query: `api_key=${SECRETS.queryKey}` },
        { authorization: `Bearer ${SECRETS.oauth}` },
      ]);
    } finally {
      server.document = securityDocument();
    }
  });
});
