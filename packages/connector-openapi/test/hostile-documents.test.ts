// Documents that try to read the host: a remote document's `$ref` to a local file or to the host's
// network, a document URL whose name resolves to loopback, a redirect there, an endless document,
// one that never answers, and YAML whose aliases stand for millions of values. Each is served by a
// real HTTP server on loopback; `lookup` maps test names to addresses.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { CodemodeError } from "@codemode/core";
import { createCatalog } from "@codemode/typegen";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type OpenApiConnectorOptions, openApiConnector } from "../src/index.ts";
import { connectorDefinition } from "./connector-definition.ts";
import { hostileApiDocument } from "./hostile-api-document.ts";
import { type HostileServer, json, startHostileServer } from "./hostile-server.ts";

const MARKER = "root:x:0:0:host-file-marker";
let api: HostileServer;
let other: HostileServer;
let directory: string;
let secretFile: string;
beforeAll(async () => {
  [api, other] = await Promise.all([startHostileServer(), startHostileServer()]);
  directory = mkdtempSync(join(tmpdir(), "openapi-hostile-"));
  secretFile = join(directory, "secret.json");
  writeFileSync(secretFile, JSON.stringify({ type: "string", description: MARKER }));
});
afterAll(async () => {
  await Promise.all([api.close(), other.close()]);
  rmSync(directory, { recursive: true, force: true });
});
beforeEach(() => {
  for (const server of [api, other]) {
    server.requests.length = 0;
    server.answer = (_request, response) => json(response, 200, { ok: true });
  }
});

/** A document whose Item schema is `ref`. */
function withRef(ref: string) {
  const document = hostileApiDocument(`${api.origin}/v1`) as ReturnType<
    typeof hostileApiDocument
  > & { components: { schemas?: Record<string, unknown> } };
  document.components.schemas = { Item: { $ref: ref } };
  const list = document.paths["/items"]?.get;
  if (list)
    list.responses = {
      "200": {
        description: "OK.",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } },
      },
    };
  return document;
}

/** YAML lines whose last alias stands for 10^7 values: 7 levels of 10 aliases to the level below. */
/**
 * Twelve levels of ten aliases: a few hundred bytes that stand for 10^12 values, more than any
 * walk of the expanded tree could finish, so only a refusal in time linear in the bytes passes.
 */
function aliasBomb(indent: string): string[] {
  const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
  for (let level = 1; level < 12; level++) {
    const previous = String.fromCharCode(96 + level);
    const name = String.fromCharCode(97 + level);
    levels.push(`${name}: &${name} [${new Array(10).fill(`*${previous}`).join(", ")}]`);
  }
  return levels.map((line) => `${indent}${line}`);
}

function yaml(response: ServerResponse, text: string): void {
  response.writeHead(200, { "content-type": "application/yaml" }).end(text);
}

function serve(document: unknown) {
  api.answer = (request, response) =>
    request.url === "/openapi.json"
      ? json(response, 200, document)
      : json(response, 200, { ok: true });
}

function connector(options: Partial<OpenApiConnectorOptions> = {}) {
  return openApiConnector({
    name: "items",
    document: `${api.origin}/openapi.json`,
    internalUrls: true,
    ...options,
  });
}

/** The declarations the model would read, or the error that kept the document from loading. */
async function outcome(options: Partial<OpenApiConnectorOptions> = {}) {
  const made = connector(options);
  try {
    const methods = await made.methods();
    return (
      createCatalog({ connectors: [connectorDefinition(made, methods)] }).connectors[0]?.all() ?? ""
    );
  } catch (error) {
    return error as CodemodeError;
  }
}

describe("a remote document's $refs", () => {
  it("never read local files, and nothing of the file reaches the declarations", async () => {
    for (const ref of [pathToFileURL(secretFile).href, "file:///etc/passwd"]) {
      serve(withRef(ref));
      const result = await outcome();
      expect(typeof result, ref).toBe("object");
      const error = result as CodemodeError;
      expect(error.code, ref).toBe("INVALID_CONFIG");
      expect(error.message, ref).toContain("reads only http and https URLs, never local files");
      expect(error.message).not.toContain(MARKER);
    }
    // a path in a remote document is a URL on its server, not a file here
    serve(withRef(secretFile));
    const result = await outcome();
    expect(typeof result === "string" ? result : result.message).not.toContain(MARKER);
    expect(api.requests.map((request) => request.url)).toContain(secretFile);
  });

  it("are read from the network through the same guard", async () => {
    other.answer = (_request, response) =>
      json(response, 200, { type: "string", description: "fetched" });
    serve(withRef(`${other.origin}/item.json`));
    // listed: read; not listed: refused
    expect(await outcome({ internalUrls: [api.origin, other.origin] })).toContain("fetched");
    const refused = (await outcome({ internalUrls: [api.origin] })) as CodemodeError;
    expect(refused.message).toContain(
      `GET ${other.origin}/item.json was not sent: 127.0.0.1 is an internal address`,
    );
    serve(withRef("http://169.254.169.254/latest/meta-data/iam.json"));
    const metadata = (await outcome({ internalUrls: [api.origin] })) as CodemodeError;
    expect(metadata.message).toContain("169.254.169.254 is an internal address");
  });

  it("in a document object never read local files either", async () => {
    const error = await openApiConnector({
      name: "items",
      document: withRef(pathToFileURL(secretFile).href),
    })
      .methods()
      .then(
        () => undefined,
        (failure: unknown) => failure as CodemodeError,
      );
    expect(error?.message).toContain("never local files");
    expect(error?.message).not.toContain(MARKER);
  });
});

describe("where a document comes from", () => {
  it("a name that resolves to the host's network is refused", async () => {
    serve(hostileApiDocument(`${api.origin}/v1`));
    const lookup = async (name: string) =>
      name === "docs.test" ? ["127.0.0.1"] : ["93.184.216.34"];
    const error = (await outcome({
      document: `http://docs.test:${api.port}/openapi.json`,
      internalUrls: false,
      lookup,
    })) as CodemodeError;
    expect(error.code).toBe("INVALID_CONFIG");
    expect(error.message).toContain("docs.test resolves to 127.0.0.1, an internal address");
    expect(api.requests).toHaveLength(0);
  });

  it("a redirect to the host's network is refused", async () => {
    api.answer = (_request, response) =>
      response.writeHead(302, { location: `${other.origin}/openapi.json` }).end();
    const error = (await outcome({ internalUrls: [api.origin] })) as CodemodeError;
    expect(error.message).toContain(
      `was redirected to ${other.origin}, where the connector does not go`,
    );
    expect(other.requests).toHaveLength(0);
  });
});

describe("a document is read through limits", () => {
  it("an endless document stops at limits.documentBytes", async () => {
    api.answer = (_request, response) =>
      api.stream(response, {
        status: 200,
        type: "application/json",
        head: '{"openapi":"3.0.3","info":{"title":"',
        chunk: "a".repeat(65_536),
        total: 128 * 1024 * 1024,
      });
    const error = (await outcome({ limits: { documentBytes: 1024 * 1024 } })) as CodemodeError;
    expect(error.code).toBe("INVALID_CONFIG");
    expect(error.message).toContain(
      "larger than 1048576 bytes together, so the rest was not read; the host can allow more with limits.documentBytes",
    );
    await api.streamed.done;
    expect(api.streamed.cut).toBe(true);
    expect(api.streamed.bytes).toBeLessThan(32 * 1024 * 1024);
  });

  it("a document that never finishes stops at limits.documentTimeoutMs", async () => {
    api.answer = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write('{"openapi":');
    };
    const error = (await outcome({ limits: { documentTimeoutMs: 300 } })) as CodemodeError;
    expect(error.message).toContain(
      "took longer than 300 ms; the host can allow more with limits.documentTimeoutMs",
    );
  });

  // Refused as soon as each file is parsed, in time that grows with its bytes (the parser's crawl
  // of 10^7 values took 15 s of CPU and more on a busy machine)
  it("YAML aliases that stand for millions of values are refused", async () => {
    const text = [
      "openapi: 3.0.3",
      "info: { title: Bomb, version: '1' }",
      `servers: [{ url: '${api.origin}/v1' }]`,
      "paths: {}",
      "x-bomb:",
      ...aliasBomb("  "),
    ].join("\n");
    api.answer = (_request, response) => yaml(response, text);
    const error = (await outcome({ document: `${api.origin}/openapi.yaml` })) as CodemodeError;
    expect(error.code).toBe("INVALID_CONFIG");
    expect(error.message).toContain("the document stands for more values than it has bytes");
  });

  it("so are they in a file a $ref reads", async () => {
    const document = withRef(`${api.origin}/item.yaml`);
    const bomb = ["type: object", "x-bomb:", ...aliasBomb("  ")].join("\n");
    api.answer = (request, response) =>
      request.url === "/item.yaml" ? yaml(response, bomb) : json(response, 200, document);
    for (const source of [`${api.origin}/openapi.json`, document]) {
      const error = (await outcome({ document: source })) as CodemodeError;
      expect(error.code).toBe("INVALID_CONFIG");
      expect(error.message).toContain(
        `${api.origin}/item.yaml stands for more values than it has bytes`,
      );
    }
  });

  it("a YAML alias inside the node it names is refused", async () => {
    const text = [
      "openapi: 3.0.3",
      "info: { title: Loop, version: '1' }",
      `servers: [{ url: '${api.origin}/v1' }]`,
      "paths: {}",
      "x-loop: &loop { again: *loop }",
    ].join("\n");
    api.answer = (_request, response) => yaml(response, text);
    const error = (await outcome({ document: `${api.origin}/openapi.yaml` })) as CodemodeError;
    expect(error.code).toBe("INVALID_CONFIG");
    expect(error.message).toContain("the document stands for more values than it has bytes");
  });

  it("YAML aliases that share a response, a parameter and a schema are read", async () => {
    const text = [
      "openapi: 3.0.3",
      "info: { title: Items, version: '1' }",
      `servers: [{ url: '${api.origin}/v1' }]`,
      "x-shared:",
      "  ok: &ok",
      "    description: OK.",
      "    content:",
      "      application/json:",
      "        schema: { $ref: '#/components/schemas/Item' }",
      "paths:",
      "  /items:",
      "    get: { operationId: listItems, responses: { '200': *ok } }",
      "  /items/{itemId}:",
      "    parameters: [&id { name: itemId, in: path, required: true, schema: { type: string } }]",
      "    get: { operationId: getItem, responses: { '200': *ok } }",
      "  /items/{itemId}/copy:",
      "    parameters: [*id]",
      "    post: { operationId: copyItem, responses: { '200': *ok } }",
      "components:",
      "  schemas:",
      "    Item:",
      "      type: object",
      "      properties:",
      "        label: &label { type: string, description: the label the item is shown with }",
      "        previous: *label",
    ].join("\n");
    api.answer = (request, response) =>
      request.url === "/openapi.yaml" ? yaml(response, text) : json(response, 200, { ok: true });
    const declarations = await outcome({ document: `${api.origin}/openapi.yaml` });
    expect(typeof declarations, String(declarations)).toBe("string");
    for (const name of ["listItems", "getItem", "copyItem", "the label the item is shown with"]) {
      expect(declarations).toContain(name);
    }
  });
});
