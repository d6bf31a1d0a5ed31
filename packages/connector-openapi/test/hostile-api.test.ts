// openApiConnector against APIs that try to hurt the host, on loopback: redirects that would carry
// credentials or a body to another origin or aim at the host's own network (also through a name
// that resolves there), a remote document whose servers name another origin than its own, echoes
// of the credentials in success and error bodies, dot segments that leave the operation's path,
// and 64 MB bodies. The "other origin" is a second server on another port; `lookup` maps test
// names to addresses.
import { CodemodeError } from "@codemode/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpError, type OpenApiConnectorOptions, openApiConnector } from "../src/index.ts";
import { contexts, failure } from "./call-helpers.ts";
import { ADMIN_KEY, API_KEY, BEARER, hostileApiDocument } from "./hostile-api-document.ts";
import { type HostileServer, json, startHostileServer } from "./hostile-server.ts";

let api: HostileServer;
let other: HostileServer;
beforeAll(async () => {
  [api, other] = await Promise.all([startHostileServer(), startHostileServer()]);
});
afterAll(() => Promise.all([api.close(), other.close()]));
beforeEach(() => {
  for (const server of [api, other]) {
    server.requests.length = 0;
    server.answer = (_request, response) => json(response, 200, { ok: true });
  }
});

const context = contexts("exec_hostile");

function items(options: Partial<OpenApiConnectorOptions> = {}) {
  return openApiConnector({
    name: "items",
    document: hostileApiDocument(`${api.origin}/v1`),
    credentials: [
      { type: "apiKey", in: "header", name: "X-Api-Key", value: API_KEY },
      { type: "apiKey", in: "header", name: "X-Admin-Key", value: ADMIN_KEY },
      { type: "bearer", token: () => BEARER },
    ],
    ...options,
  });
}

const code = (error: Error) => (CodemodeError.isInstance(error) ? error.code : error.name);
const SECRETS = [API_KEY, ADMIN_KEY, BEARER];

describe("redirects", () => {
  it("follow to another origin without the credentials, the host's headers or cookies", async () => {
    api.answer = (_request, response) =>
      response.writeHead(302, { location: `${other.origin}/landing` }).end();
    const result = await items({
      internalUrls: [other.origin],
      headers: { "X-Host-Secret": "host-only" },
    }).invoke("listItems", {}, context());
    expect(result).toEqual({ ok: true });
    expect(api.requests[0]?.headers["x-api-key"]).toBe(API_KEY);
    const landed = other.requests[0];
    expect(landed?.url).toBe("/landing");
    for (const name of ["x-api-key", "x-admin-key", "authorization", "cookie", "x-host-secret"]) {
      expect(landed?.headers[name], name).toBeUndefined();
    }
  });

  it("keep the credentials and the body on the API's own origin (307 after an approved POST)", async () => {
    api.answer = (request, response) => {
      if (request.url === "/v1/items") {
        response.writeHead(307, { location: "/v1/items/new" }).end();
      } else json(response, 200, { body: request.body });
    };
    const result = await items().invoke("createItem", { body: { name: "x" } }, context());
    expect(result).toEqual({ body: '{"name":"x"}' });
    const [first, second] = api.requests;
    expect(second?.method).toBe("POST");
    expect(second?.headers["x-api-key"]).toBe(API_KEY);
    expect(second?.headers["idempotency-key"]).toBe(first?.headers["idempotency-key"]);
  });

  it("never send an approved request's body to another origin: a 307 there ends the call", async () => {
    for (const status of [307, 308]) {
      api.answer = (_request, response) =>
        response.writeHead(status, { location: `${other.origin}/steal` }).end();
      const error = await failure(
        items({ internalUrls: [other.origin] }).invoke(
          "createItem",
          { body: { card: "4242" } },
          context(),
        ),
      );
      expect(code(error)).toBe("CONNECTOR_FAILED");
      expect(error.message).toContain(
        `HTTP ${status}, which asks to send the request and its body again to ${other.origin}`,
      );
    }
    expect(other.requests).toHaveLength(0);
  });

  it("go on as a GET without the body after 303, and stop after the limit", async () => {
    api.answer = (request, response) => {
      if (request.method === "POST")
        response.writeHead(303, { location: `${other.origin}/done` }).end();
      else json(response, 200, { method: request.method });
    };
    other.answer = (request, response) =>
      json(response, 200, { method: request.method, body: request.body });
    const after303 = await items({ internalUrls: [other.origin] }).invoke(
      "createItem",
      { body: { name: "x" } },
      context(),
    );
    expect(after303).toEqual({ method: "GET", body: "" });
    expect(other.requests[0]?.headers["idempotency-key"]).toBeUndefined();

    api.answer = (request, response) =>
      response.writeHead(302, { location: `${request.url}x` }).end();
    api.requests.length = 0;
    const loop = await failure(items().invoke("listItems", {}, context()));
    expect(code(loop)).toBe("CONNECTOR_FAILED");
    expect(loop.message).toContain(
      "was redirected more than 5 times; the host can allow more with limits.redirects",
    );
    expect(api.requests).toHaveLength(6);
    const once = await failure(
      items({ limits: { redirects: 1 } }).invoke("listItems", {}, context()),
    );
    expect(once.message).toContain("more than 1 times");
  });

  it("are refused toward the host's own network, also through a name that resolves there", async () => {
    const targets = [
      other.origin,
      `http://localhost:${other.port}`,
      `http://[::ffff:127.0.0.1]:${other.port}`,
      `http://0.0.0.0:${other.port}`,
      "http://169.254.169.254/latest/meta-data/",
      `http://rebind.test:${other.port}`,
    ];
    const lookup = async (name: string) =>
      name === "rebind.test" ? ["127.0.0.1"] : ["93.184.216.34"];
    for (const target of targets) {
      api.answer = (_request, response) => response.writeHead(302, { location: target }).end();
      const error = await failure(items({ lookup }).invoke("listItems", {}, context()));
      expect(code(error), target).toBe("CONNECTOR_FAILED");
      expect(error.message, target).toMatch(
        /where the connector does not go: .*(internal address|names this machine)/,
      );
    }
    expect(other.requests).toHaveLength(0);
  });

  it("to a public name pass once resolved, without the credentials", async () => {
    const lookup = async () => ["93.184.216.34"];
    // the platform cannot reach api.test: the injected fetch takes it to the loopback server
    const fetch: OpenApiConnectorOptions["fetch"] = (url, init) =>
      globalThis.fetch(url.replace("http://api.test", "http://127.0.0.1"), init as RequestInit);
    api.answer = (_request, response) =>
      response.writeHead(302, { location: `http://api.test:${other.port}/landing` }).end();
    expect(await items({ lookup, fetch }).invoke("listItems", {}, context())).toEqual({
      ok: true,
    });
    expect(other.requests.map((request) => [request.url, request.headers["x-api-key"]])).toEqual([
      ["/landing", undefined],
    ]);
  });
});

describe("the guard's options", () => {
  it("are checked when the connector is made", () => {
    const made = (options: Partial<OpenApiConnectorOptions>) => () => items(options);
    expect(made({ limits: { responseBytes: 0 } })).toThrow("limits.responseBytes is not a limit");
    expect(made({ limits: { redirects: 1.5 } })).toThrow("limits.redirects is not a limit");
    expect(made({ limits: { bytes: 1 } as never })).toThrow("limits.bytes is not a limit");
    expect(made({ internalUrls: ["http://a b"] })).toThrow(
      "each entry of internalUrls is an origin",
    );
    expect(made({ lookup: "8.8.8.8" as never })).toThrow("lookup must be a function");
    expect(made({ limits: { redirects: 0, responseBytes: undefined } })).not.toThrow();
  });
});

describe("where requests go", () => {
  /** A document served by `api` whose servers name `server`, read from its URL. */
  function served(server: string, options: Partial<OpenApiConnectorOptions> = {}) {
    const document = hostileApiDocument(server);
    api.answer = (request, response) =>
      request.url === "/openapi.json"
        ? json(response, 200, document)
        : json(response, 200, { ok: true });
    return items({
      document: `${api.origin}/openapi.json`,
      internalUrls: [api.origin],
      ...options,
    });
  }

  it("a remote document's servers cannot send credentialed requests to another origin", async () => {
    const lookup = async (name: string) => (name === "evil.test" ? ["127.0.0.1"] : ["::1"]);
    for (const server of [
      `${other.origin}/v1`,
      `http://[::1]:${api.port}/v1`,
      `http://localhost:${api.port}/v1`,
      `https://127.0.0.1:${api.port}/v1`,
      `http://evil.test:${other.port}/v1`,
      "https://attacker.example/v1",
    ]) {
      const error = await failure(served(server, { lookup }).methods());
      expect(code(error), server).toBe("INVALID_CONFIG");
      expect(error.message, server).toBe(
        `openApiConnector "items": the document read from ${api.origin} names its server at ${new URL(server).origin}, another origin; a document read from a URL may only send requests (and the host's credentials) to its own origin. Pass baseUrl to say where requests go.`,
      );
    }
    expect(other.requests).toHaveLength(0);
    expect(api.requests.every((request) => request.url === "/openapi.json")).toBe(true);
  });

  it("go to the document's own origin, or where the host's baseUrl says", async () => {
    for (const server of [`${api.origin}/v1`, "/v1", `http://127.1:${api.port}/v1`]) {
      expect(await served(server).invoke("listItems", {}, context()), server).toEqual({
        ok: true,
      });
    }
    expect(api.requests.filter((request) => request.url === "/v1/items")).toHaveLength(3);
    // the host's word: no address check, no origin rule
    expect(
      await served("https://attacker.example/v1", { baseUrl: `${other.origin}/v1` }).invoke(
        "listItems",
        {},
        context(),
      ),
    ).toEqual({ ok: true });
    expect(other.requests.map((request) => request.headers["x-api-key"])).toEqual([API_KEY]);
  });
});

describe("dot segments", () => {
  it("in a path parameter never leave the operation's path", async () => {
    const connector = items();
    for (const itemId of ["..", ".", "..;", "../admin"]) {
      const error = await failure(connector.invoke("getItem", { itemId }, context()));
      expect(code(error), itemId).toBe("INVALID_INPUT");
    }
    // a value that spells a sibling operation's path is that operation, not this one
    const sibling = await failure(connector.invoke("getItem", { itemId: "export" }, context()));
    expect(sibling.message).toContain("is the operation GET /items/export; call its own method");
    const empty = await failure(connector.invoke("getItem", { itemId: "" }, context()));
    expect(code(empty)).toBe("INVALID_INPUT");
    expect(api.requests).toHaveLength(0);
  });

  it("in a request path are refused, however they are spelled", async () => {
    const connector = items();
    for (const path of [
      "/items/../admin/keys",
      "/items/%2e%2e/admin/keys",
      "/items/%2E./admin/keys",
      "/items/.%2e/admin/keys",
      "/items/..%2fadmin/keys",
      "/items\\..\\admin/keys",
      "/../../escape",
      "/items/./7",
    ]) {
      const error = await failure(connector.invoke("request", { path }, context()));
      expect(code(error), path).toBe("INVALID_INPUT");
      expect(error.message).toContain('has a "." or ".." segment');
    }
    expect(api.requests).toHaveLength(0);
  });
});

describe("credentials the server echoes", () => {
  const forms = (secret: string) => [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1).replace(/\//g, "\\/"),
  ];

  it("are cleared from success bodies: JSON (escaped too), text and bytes", async () => {
    const escaped = [...API_KEY]
      .map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)
      .join("");
    api.answer = (request, response) => {
      const echoed = {
        header: request.headers["x-api-key"],
        bearer: request.headers.authorization,
        [String(request.headers["x-api-key"])]: "as a key",
        nested: [{ url: `https://x.example/?key=${encodeURIComponent(BEARER)}` }],
      };
      const text = JSON.stringify(echoed).replace(`"${API_KEY}"`, `"${escaped}"`);
      if (request.url.includes("text")) {
        response
          .writeHead(200, { "content-type": "text/plain" })
          .end(`got ${BEARER} and ${encodeURIComponent(BEARER)}`);
      } else if (request.url.includes("bytes")) {
        response
          .writeHead(200, { "content-type": "application/octet-stream" })
          .end(`\u0000${API_KEY}\u0001`);
      } else response.writeHead(200, { "content-type": "application/json" }).end(text);
    };
    const connector = items();
    const value = await connector.invoke("echo", {}, context());
    const text = await connector.invoke("request", { path: "/echo/text" }, context());
    const bytes = await connector.invoke("request", { path: "/echo/bytes" }, context());
    expect(value).toMatchObject({
      header: "[redacted]",
      bearer: "Bearer [redacted]",
      "[redacted]": "as a key",
    });
    expect(text).toBe("got [redacted] and [redacted]");
    const seen = `${JSON.stringify(value)}${text}${Buffer.from(bytes as Uint8Array).toString("latin1")}`;
    for (const secret of SECRETS)
      for (const form of forms(secret)) expect(seen).not.toContain(form);
  });

  it("are cleared from error bodies, also when JSON-escaped", async () => {
    api.answer = (request, response) =>
      response
        .writeHead(401, { "content-type": "application/json" })
        .end(
          `{"detail":"bad key ${[...String(request.headers["x-api-key"])].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}"}`,
        );
    const error = (await failure(items().invoke("listItems", {}, context()))) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(JSON.parse(error.body)).toEqual({ detail: "bad key [redacted]" });
    expect(error.message).not.toContain("\\u006b");
  });
});

describe("bodies are read through a limit", () => {
  const MB = 1024 * 1024;

  it("a 64 MB success body fails with TOO_LARGE, and the rest is never received", async () => {
    api.answer = (_request, response) =>
      api.stream(response, {
        status: 200,
        type: "application/json",
        head: '{"a":"',
        chunk: "x".repeat(65_536),
        total: 64 * MB,
      });
    const error = await failure(items().invoke("listItems", {}, context()));
    expect(code(error)).toBe("TOO_LARGE");
    expect(error.message).toContain("is larger than 4194304 bytes, so it was not read");
    expect(error.message).toContain("limits.responseBytes");
    await api.streamed.done;
    expect(api.streamed.cut).toBe(true);
    expect(api.streamed.bytes).toBeLessThan(24 * MB);
    // and the host can widen it
    api.answer = (_request, response) => json(response, 200, { big: "y".repeat(5 * MB) });
    const wide = await items({ limits: { responseBytes: 8 * MB } }).invoke(
      "listItems",
      {},
      context(),
    );
    expect((wide as { big: string }).big).toHaveLength(5 * MB);
  });

  it("a declared Content-Length past the limit fails before the body is read", async () => {
    api.answer = (_request, response) => {
      response.writeHead(200, {
        "content-type": "application/json",
        "content-length": String(64 * MB),
      });
      response.write("[");
    };
    const error = await failure(
      items({ limits: { responseBytes: MB } }).invoke("listItems", {}, context()),
    );
    expect(code(error)).toBe("TOO_LARGE");
  });

  it("a 64 MB error body gives its excerpt, and the rest is never received", async () => {
    api.answer = (_request, response) =>
      api.stream(response, {
        status: 500,
        type: "text/plain",
        chunk: "e".repeat(65_536),
        total: 64 * MB,
      });
    const error = (await failure(items().invoke("listItems", {}, context()))) as HttpError;
    expect(error.status).toBe(500);
    expect(error.body).toBe(`${"e".repeat(500)}…`);
    await api.streamed.done;
    expect(api.streamed.cut).toBe(true);
    expect(api.streamed.bytes).toBeLessThan(24 * MB);
  });
});
