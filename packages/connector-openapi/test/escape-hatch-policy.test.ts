// The `request` escape hatch reaches a declared operation only on that operation's terms: its
// approval (a flag or a rule), `include`, and its credentials; method overrides are refused; an
// undeclared request waits for a person unless the host lets undeclared reads run. Real HTTP on
// loopback, and one case end to end through the durable runtime with QuickJS.
import {
  type ApprovalRule,
  CodemodeError,
  createCodemodeRuntime,
  memoryStore,
} from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type OpenApiConnectorOptions, openApiConnector } from "../src/index.ts";
import { contexts, failure } from "./call-helpers.ts";
import { ADMIN_KEY, API_KEY, hostileApiDocument } from "./hostile-api-document.ts";
import { type HostileServer, startHostileServer } from "./hostile-server.ts";

let server: HostileServer;
let document: ReturnType<typeof hostileApiDocument>;
beforeAll(async () => {
  server = await startHostileServer();
  document = hostileApiDocument(server.origin);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const context = contexts("exec_hatch");

function items(options: Partial<OpenApiConnectorOptions> = {}) {
  return openApiConnector({
    name: "items",
    document,
    credentials: [
      { type: "apiKey", in: "header", name: "X-Api-Key", value: API_KEY },
      { type: "apiKey", in: "header", name: "X-Admin-Key", value: ADMIN_KEY },
    ],
    ...options,
  });
}

/** Whether the escape hatch asks a person before sending `input`. */
async function asks(options: Partial<OpenApiConnectorOptions>, input: unknown): Promise<boolean> {
  const rule = (await items(options).methods()).request?.requiresApproval as ApprovalRule;
  return (await rule(input, { executionId: "exec_hatch", seq: 1 })) !== false;
}

describe("the escape hatch follows the declared operation's approval", () => {
  it("asks where the application gated a GET, by flag or by rule, in any spelling of its path", async () => {
    const gated: Partial<OpenApiConnectorOptions> = {
      operations: {
        listItems: { requiresApproval: true },
        getItem: { requiresApproval: (input) => (input as { itemId: string }).itemId !== "7" },
      },
    };
    for (const path of ["/items", "/items?page=2", "/ITEMS", "/items/", "/items;x=1", "/%69tems"]) {
      expect(await asks(gated, { path }), path).toBe(true);
    }
    // a rule written for the typed input is not handed a raw request to misread: a person decides
    expect(await asks(gated, { path: "/items/7" })).toBe(true);
    expect(await asks(gated, { method: "HEAD", path: "/items" })).toBe(true);
    // the same connector without those options: the reads run at once
    expect(await asks({}, { path: "/items" })).toBe(false);
    expect(await asks({}, { path: "/items/7" })).toBe(false);
    // and a connector-wide policy counts as well
    expect(await asks({ requiresApproval: () => true }, { path: "/items/7" })).toBe(true);
  });

  it("pauses a run whose code reaches a gated GET through request, and sends nothing", async () => {
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new QuickJSExecutor(),
      connectors: [items({ operations: { listItems: { requiresApproval: true } } })],
    });
    const run = await runtime.execute({
      code: `async () => items.request({ path: "/items" })`,
    });
    expect(run).toMatchObject({
      status: "paused",
      pending: [{ connector: "items", method: "request", args: { path: "/items" } }],
    });
    expect(server.requests).toHaveLength(0);
  });

  it("refuses an operation include leaves out, and never sends its credentials", async () => {
    const connector = items({ include: (operation) => operation.name !== "adminKeys" });
    expect(Object.keys(await connector.methods())).not.toContain("adminKeys");
    for (const path of ["/admin/keys", "/Admin/Keys/", "/admin//keys"]) {
      const error = await failure(connector.invoke("request", { path }, context()));
      expect(CodemodeError.isInstance(error) && error.code, path).toBe("INVALID_INPUT");
      expect(error.message).toContain(
        "is the operation GET /admin/keys, which this connector does not offer",
      );
    }
    expect(server.requests).toHaveLength(0);
  });

  it("sends a declared operation's credentials, and only those", async () => {
    await items().invoke("request", { path: "/admin/keys" }, context());
    await items().invoke("request", { path: "/items" }, context());
    const [admin, list] = server.requests;
    expect(admin?.headers["x-admin-key"]).toBe(ADMIN_KEY);
    expect(admin?.headers["x-api-key"]).toBeUndefined();
    expect(list?.headers["x-api-key"]).toBe(API_KEY);
    expect(list?.headers["x-admin-key"]).toBeUndefined();
  });
});

describe("an undeclared request", () => {
  it("waits for a person whatever its method, unless the host lets undeclared reads run", async () => {
    for (const method of ["GET", "HEAD", "OPTIONS", "POST", "DELETE"]) {
      expect(await asks({}, { method, path: "/undeclared" }), method).toBe(true);
      // a declared path with an undeclared method is undeclared too (HEAD is the GET's)
      expect(await asks({}, { method, path: "/items/export" }), method).toBe(
        method !== "GET" && method !== "HEAD",
      );
    }
    const reads = { request: { undeclaredReadsWithoutApproval: true } };
    expect(await asks(reads, { path: "/undeclared" })).toBe(false);
    expect(await asks(reads, { method: "OPTIONS", path: "/undeclared" })).toBe(false);
    expect(await asks(reads, { method: "DELETE", path: "/undeclared" })).toBe(true);
    const described = (await items(reads).methods()).request?.description ?? "";
    expect(described).toContain("runs at once for GET, HEAD, OPTIONS");
    expect((await items().methods()).request?.description).toContain(
      "any other path waits for approval",
    );
  });
});

describe("method overrides", () => {
  const overrides = [
    { path: "/items", headers: { "X-HTTP-Method-Override": "DELETE" } },
    { path: "/items", headers: { "x-http-method": "DELETE" } },
    { path: "/items", headers: { "X-Method-Override": "PUT" } },
    { path: "/items", query: { _method: "DELETE" } },
    { path: "/items?_method=DELETE" },
    { path: "/items?%5Fmethod=DELETE" },
    { method: "POST", path: "/items", body: { _method: "DELETE" } },
    { method: "POST", path: "/items", body: { _Method: "DELETE" } },
    {
      method: "POST",
      path: "/items",
      contentType: "application/x-www-form-urlencoded",
      body: { _method: "DELETE" },
    },
    {
      method: "POST",
      path: "/items",
      contentType: "application/x-www-form-urlencoded",
      body: "name=x&_method=delete",
    },
  ];

  it("are refused before anything is sent, and need no approval to be refused", async () => {
    const connector = items();
    const rule = (await connector.methods()).request?.requiresApproval as ApprovalRule;
    for (const input of overrides) {
      const error = await failure(connector.invoke("request", input, context()));
      expect(CodemodeError.isInstance(error) && error.code, JSON.stringify(input)).toBe(
        "INVALID_INPUT",
      );
      expect(error.message).toContain("would make the server run another method");
      expect(await rule(input, { executionId: "exec_hatch", seq: 1 })).toBe(false);
    }
    expect(server.requests).toHaveLength(0);
  });

  it("are refused on typed methods too (a document may declare such a parameter)", async () => {
    const declared = hostileApiDocument(server.origin);
    (declared.paths["/items"]?.get as { parameters?: unknown[] }).parameters = [
      { name: "X-HTTP-Method-Override", in: "header", schema: { type: "string" } },
    ];
    const error = await failure(
      items({ document: declared }).invoke(
        "listItems",
        { "X-HTTP-Method-Override": "DELETE" },
        context(),
      ),
    );
    expect(error.message).toContain("the header x-http-method-override would make the server run");
    expect(server.requests).toHaveLength(0);
  });

  it("are refused at the top level of typed bodies: JSON, form and multipart", async () => {
    for (const type of [
      "application/json",
      "application/merge-patch+json",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
    ]) {
      const declared = hostileApiDocument(server.origin);
      const create = declared.paths["/items"]?.post as { requestBody: unknown };
      create.requestBody = {
        required: true,
        content: { [type]: { schema: { type: "object", additionalProperties: true } } },
      };
      const connector = items({ document: declared });
      const error = await failure(
        connector.invoke("createItem", { body: { name: "x", _method: "DELETE" } }, context()),
      );
      expect(CodemodeError.isInstance(error) && error.code, type).toBe("INVALID_INPUT");
      expect(error.message, type).toContain("the body field _method would make the server run");
      // a nested field is the body's own data, not an override
      await connector.invoke("createItem", { body: { meta: { _method: "x" } } }, context());
    }
    expect(server.requests).toHaveLength(4);
  });
});
