// Each method names its operation (method, URL template, a digest of the request's form), and core
// runs a recorded call only while its method names the same one. The catalog document is served on
// loopback and read again by every connector, as every request of an application reads it: a change
// to how a method's request is formed changes its operation, a reordered document does not, and a
// DELETE approved for one path is not sent when the document served at approval maps the method to
// another path.
import { createCodemodeRuntime, memoryStore, operationProblem } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import type { OpenAPIV3 } from "openapi-types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type OpenApiConnectorOptions, openApiConnector } from "../src/index.ts";
import { contexts, failure } from "./call-helpers.ts";
import { type RecordingServer, startRecordingServer } from "./recording-server.ts";

const TOKEN = "tok_live_catalog_5e2d";
const KEY = "key_live_catalog_91ac";
const FORM = /^[A-Z]+ \S+ \(request form [0-9a-f]{32}\)$/;

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const ok: OpenAPIV3.ResponsesObject = {
  "200": { description: "OK.", content: { "application/json": { schema: {} } } },
};

/** The catalog API, its server on the recording server's origin under /v1. */
function catalogDocument(): OpenAPIV3.Document {
  return {
    openapi: "3.0.3",
    info: { title: "Catalog", version: "1" },
    servers: [{ url: `${server.origin}/v1` }],
    security: [{ bearerAuth: [] }],
    paths: {
      "/items": {
        get: {
          operationId: "listItems",
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer" } },
            { name: "tag", in: "query", schema: { type: "array", items: { type: "string" } } },
            { name: "X-Trace", in: "header", schema: { type: "string" } },
          ],
          responses: ok,
        },
        post: {
          operationId: "createItem",
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  properties: {
                    name: { type: "string" },
                    tags: { type: "array", items: { type: "string" } },
                    sizes: { type: "array", items: { type: "string" } },
                  },
                },
                encoding: {
                  tags: { style: "form", explode: true },
                  sizes: { style: "pipeDelimited", explode: false },
                },
              },
            },
          },
          responses: ok,
        },
      },
      "/items/{id}": {
        delete: {
          operationId: "deleteItem",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          responses: ok,
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer" },
        apiKeyHeader: { type: "apiKey", in: "header", name: "X-Api-Key" },
      },
    },
  };
}

/** The catalog connector over the document the server serves now, as the next request makes it. */
function catalog(options: Partial<OpenApiConnectorOptions> = {}) {
  return openApiConnector({
    name: "catalog",
    document: `${server.origin}/openapi.json`,
    internalUrls: [server.origin],
    credentials: [
      { type: "bearer", token: TOKEN },
      { type: "apiKey", in: "header", name: "X-Api-Key", value: KEY },
    ],
    ...options,
  });
}

/** Each method's operation, with `document` served. */
async function operationsOf(document: unknown): Promise<Record<string, string | undefined>> {
  server.document = document;
  const methods = await catalog().methods();
  return Object.fromEntries(
    Object.entries(methods).map(([name, method]) => [name, method.operation]),
  );
}

/** The catalog document changed by `change`. */
function changed(change: (document: OpenAPIV3.Document) => void): OpenAPIV3.Document {
  const document = catalogDocument();
  change(document);
  return document;
}

function operationAt(
  document: OpenAPIV3.Document,
  path: string,
  method: "get" | "post" | "delete",
): OpenAPIV3.OperationObject {
  const operation = document.paths[path]?.[method];
  if (!operation) throw new Error(`the document has no ${method} ${path}`);
  return operation;
}
const listParameters = (document: OpenAPIV3.Document) =>
  operationAt(document, "/items", "get").parameters as OpenAPIV3.ParameterObject[];
const formContent = (document: OpenAPIV3.Document) =>
  (operationAt(document, "/items", "post").requestBody as OpenAPIV3.RequestBodyObject).content;
const formMedia = (document: OpenAPIV3.Document) =>
  formContent(document)["application/x-www-form-urlencoded"] as OpenAPIV3.MediaTypeObject;
/** Moves the DELETE of /items/{id} to /archive/{id}, under the same operationId. */
function moveDelete(document: OpenAPIV3.Document): void {
  document.paths["/archive/{id}"] = document.paths["/items/{id}"];
  delete document.paths["/items/{id}"];
}

describe("the operation each method names", () => {
  it("is the HTTP method, the server URL with the path template, and the request form's digest", async () => {
    const operations = await operationsOf(catalogDocument());
    const v1 = `${server.origin}/v1`;
    expect(operations.deleteItem).toMatch(
      new RegExp(
        `^DELETE ${v1.replace(/[.]/g, "\\.")}/items/\\{id\\} \\(request form [0-9a-f]{32}\\)$`,
      ),
    );
    expect(operations.listItems).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/items \(request form [0-9a-f]{32}\)$/,
    );
    expect(operations.createItem?.startsWith(`POST ${v1}/items (request form `)).toBe(true);
    expect(operations.request).toMatch(
      /^HTTP http:\/\/127\.0\.0\.1:\d+\/v1 \(request form [0-9a-f]{32}\)$/,
    );
    for (const operation of Object.values(operations)) {
      expect(operation).toMatch(FORM);
      expect(operationProblem(operation)).toBeUndefined();
      expect(operation).not.toContain(TOKEN);
    }
    // the same document read again names the same operations
    expect(await operationsOf(catalogDocument())).toEqual(operations);
  });

  it("changes with the request's form, and only for the method whose form changed", async () => {
    const before = await operationsOf(catalogDocument());
    const cases: Array<[string, string, (document: OpenAPIV3.Document) => void]> = [
      [
        "a query parameter moved to a header",
        "listItems",
        (document) => {
          (listParameters(document)[0] as OpenAPIV3.ParameterObject).in = "header";
        },
      ],
      [
        "a parameter's style",
        "listItems",
        (document) => {
          (listParameters(document)[1] as OpenAPIV3.ParameterObject).style = "pipeDelimited";
        },
      ],
      [
        "a parameter's explode",
        "listItems",
        (document) => {
          (listParameters(document)[1] as OpenAPIV3.ParameterObject).explode = false;
        },
      ],
      [
        "the body's media type",
        "createItem",
        (document) => {
          const content = formContent(document);
          content["application/json"] = { schema: formMedia(document).schema };
          delete content["application/x-www-form-urlencoded"];
        },
      ],
      [
        "a body field's encoding",
        "createItem",
        (document) => {
          const encoding = formMedia(document).encoding as Record<string, OpenAPIV3.EncodingObject>;
          encoding.tags = { style: "form", explode: false };
        },
      ],
      [
        "the operation's security, to another scheme",
        "deleteItem",
        (document) => {
          operationAt(document, "/items/{id}", "delete").security = [{ apiKeyHeader: [] }];
        },
      ],
      ["the path", "deleteItem", moveDelete],
    ];
    for (const [what, method, change] of cases) {
      const after = await operationsOf(changed(change));
      expect(after[method], what).toMatch(FORM);
      expect(after[method], what).not.toBe(before[method]);
      // the escape hatch reaches every operation on its terms: it changes too
      expect(after.request, what).not.toBe(before.request);
      for (const other of ["listItems", "createItem", "deleteItem"].filter(
        (name) => name !== method,
      )) {
        expect(after[other], `${other} after ${what}`).toBe(before[other]);
      }
    }
  });

  it("does not change when the document lists parameters, encodings or paths in another order", async () => {
    const before = await operationsOf(catalogDocument());
    const reordered = changed((document) => {
      listParameters(document).reverse();
      const media = formMedia(document);
      media.encoding = Object.fromEntries(Object.entries(media.encoding ?? {}).reverse());
      document.paths = Object.fromEntries(Object.entries(document.paths).reverse());
    });
    expect(Object.keys(reordered.paths)).toEqual(["/items/{id}", "/items"]);
    expect(await operationsOf(reordered)).toEqual(before);
  });

  it("follows the host's base URL, credentials and include for a document object it reuses", async () => {
    // a document object is read once and its operations named once per configuration: each of
    // these still names its own
    const document = catalogDocument();
    const named = async (options: Partial<OpenApiConnectorOptions>) => {
      const methods = await catalog({ document, ...options }).methods();
      return { deleteItem: methods.deleteItem?.operation, request: methods.request?.operation };
    };
    const first = await named({});
    expect(await named({})).toEqual(first);
    const elsewhere = await named({ baseUrl: "https://catalog.example.com/v2" });
    expect(elsewhere.deleteItem).toMatch(
      /^DELETE https:\/\/catalog\.example\.com\/v2\/items\/\{id\} \(request form [0-9a-f]{32}\)$/,
    );
    // a bearer token for that very scheme, not any bearer token: another credential is sent
    const scoped = await named({
      credentials: [{ type: "bearer", token: TOKEN, scheme: "bearerAuth" }],
    });
    expect(scoped.deleteItem).not.toBe(first.deleteItem);
    // leaving an operation out changes what the escape hatch may reach, not the others
    const without = await named({ include: (operation) => operation.name !== "listItems" });
    expect(without.deleteItem).toBe(first.deleteItem);
    expect(without.request).not.toBe(first.request);
    expect(await named({})).toEqual(first);
  });

  it("names an operation called request like any other when the escape hatch is left out", async () => {
    const document = changed((document) => {
      operationAt(document, "/items/{id}", "delete").operationId = "request";
    });
    const methods = await catalog({ document, request: false }).methods();
    expect(methods.request?.operation).toMatch(
      /^DELETE http:\/\/127\.0\.0\.1:\d+\/v1\/items\/\{id\} \(request form [0-9a-f]{32}\)$/,
    );
  });

  it("stays one visible line for a document whose paths hold line breaks, bidi overrides or thousands of characters", async () => {
    const hostile = changed((document) => {
      const get = (operationId: string) => ({ get: { operationId, responses: ok } });
      document.paths["/line\nbreak"] = get("lineBreak");
      document.paths["/\u202eetirw"] = get("bidi");
      document.paths[`/${"long".repeat(1000)}`] = get("long");
    });
    server.document = hostile;
    const connector = catalog();
    const methods = await connector.methods();
    for (const name of ["lineBreak", "bidi", "long"]) {
      expect(operationProblem(methods[name]?.operation)).toBeUndefined();
    }
    expect(methods.lineBreak?.operation).toContain("/v1/line%0Abreak (request form ");
    expect(methods.bidi?.operation).toContain("/v1/%E2%80%AEetirw (request form ");
    expect(methods.long?.operation).toContain("…");
    // the runtime takes the connector (an invalid operation would make it INVALID_CONFIG)
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new QuickJSExecutor(),
      connectors: [catalog()],
    });
    expect(JSON.stringify(await runtime.describe("catalog"))).toContain("bidi");
    // and the path with a line break is never sent
    const error = await failure(connector.invoke("lineBreak", {}, contexts("exec_hostile")()));
    expect(error).toMatchObject({ code: "INVALID_INPUT" });
    expect(server.requests).toHaveLength(0);
  });
});

describe("an approved call and the document served at approval", () => {
  const store = memoryStore();
  const executor = new QuickJSExecutor();
  // the application makes its connectors and runtime again for every request
  const runtime = () => createCodemodeRuntime({ store, executor, connectors: [catalog()] });
  const deletes = () => server.requests.filter((request) => request.method === "DELETE");
  const moved = () => changed(moveDelete);

  it("sends nothing when the method now maps to another path: the run ends in divergence", async () => {
    server.document = catalogDocument();
    const paused = await runtime().execute({ code: "async () => catalog.deleteItem({ id: 1 })" });
    expect(paused.status).toBe("paused");
    if (paused.status !== "paused") return;
    const shown = paused.pending[0]?.operation;
    expect(shown).toMatch(
      /^DELETE http:\/\/127\.0\.0\.1:\d+\/v1\/items\/\{id\} \(request form [0-9a-f]{32}\)$/,
    );

    server.document = moved();
    const approved = await runtime().approve({ executionId: paused.executionId });
    expect(approved).toMatchObject({ status: "error" });
    expect(approved.status === "error" ? approved.error : "").toContain("Replay divergence");
    expect(approved.status === "error" ? approved.error : "").toContain("/v1/items/{id}");
    expect(deletes()).toEqual([]);
  });

  it("sends an approved raw request nowhere when the document changed under it", async () => {
    server.document = catalogDocument();
    const paused = await runtime().execute({
      code: `async () => catalog.request({ method: "DELETE", path: "/items/1" })`,
    });
    expect(paused.status).toBe("paused");
    if (paused.status !== "paused") return;
    expect(paused.pending[0]?.operation).toMatch(
      /^HTTP http:\/\/127\.0\.0\.1:\d+\/v1 \(request form [0-9a-f]{32}\)$/,
    );

    server.document = moved();
    const approved = await runtime().approve({ executionId: paused.executionId });
    expect(approved.status === "error" ? approved.error : "").toContain("Replay divergence");
    expect(deletes()).toEqual([]);
  });

  it("sends the approved call once when the document is unchanged", async () => {
    server.document = catalogDocument();
    const paused = await runtime().execute({ code: "async () => catalog.deleteItem({ id: 1 })" });
    expect(paused.status).toBe("paused");
    const approved = await runtime().approve({ executionId: paused.executionId });
    expect(approved).toMatchObject({ status: "completed", result: { ok: true } });
    expect(deletes().map((request) => request.path)).toEqual(["/v1/items/1"]);
    expect(deletes()[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});
