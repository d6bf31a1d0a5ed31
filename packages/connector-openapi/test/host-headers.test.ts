// The host's fixed `headers` are the host's word: a header of the same name (in any case) that a
// request carries, from request() or from a header parameter the document declares, does not
// replace it. The body's media type stays the body's. Real HTTP on loopback.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type OpenApiConnectorOptions, openApiConnector } from "../src/index.ts";
import { contexts } from "./call-helpers.ts";
import { API_KEY, hostileApiDocument } from "./hostile-api-document.ts";
import { type HostileServer, startHostileServer } from "./hostile-server.ts";

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const context = contexts("exec_headers");

const HOST_HEADERS = { "X-Tenant": "tenant-1", Accept: "application/vnd.items+json" };

function items(options: Partial<OpenApiConnectorOptions> = {}) {
  const document = hostileApiDocument(server.origin);
  // a document may declare a header parameter the host also fixes
  (document.paths["/items"]?.get as { parameters?: unknown[] }).parameters = [
    { name: "x-tenant", in: "header", schema: { type: "string" } },
  ];
  return openApiConnector({
    name: "items",
    document,
    credentials: { type: "apiKey", in: "header", name: "X-Api-Key", value: API_KEY },
    headers: HOST_HEADERS,
    ...options,
  });
}

/** The tenant and accept headers each request arrived with. */
const arrived = () =>
  server.requests.map((request) => [request.headers["x-tenant"], request.headers.accept]);

describe("the host's headers", () => {
  it("win over the same header from request(), in any case", async () => {
    const connector = items();
    for (const name of ["X-Tenant", "x-tenant", "X-TENANT"]) {
      await connector.invoke(
        "request",
        { path: "/items", headers: { [name]: "tenant-2", accept: "text/html", "X-Trace": "t-1" } },
        context(),
      );
    }
    expect(arrived()).toEqual(Array(3).fill(["tenant-1", "application/vnd.items+json"]));
    // a header the host does not fix goes as the request says
    expect(server.requests.map((request) => request.headers["x-trace"])).toEqual(
      Array(3).fill("t-1"),
    );
  });

  it("win over a header parameter of the same name that the document declares", async () => {
    await items().invoke("listItems", { "x-tenant": "tenant-2" }, context());
    expect(arrived()).toEqual([["tenant-1", "application/vnd.items+json"]]);
  });

  it("leave a body's media type to the body", async () => {
    await items({ headers: { ...HOST_HEADERS, "Content-Type": "text/plain" } }).invoke(
      "createItem",
      { body: { name: "x" } },
      context(),
    );
    const [request] = server.requests;
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.body).toBe('{"name":"x"}');
  });
});
