// openApiConnector against a real HTTP server on loopback that implements task-api-document.ts: every
// request goes through the platform's fetch to Node's http server; nothing is mocked.
import { type ApprovalRule, type CallContext, CodemodeError } from "@codemode/core";
import { createCatalog } from "@codemode/typegen";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  HTTP_ERROR_NOTE,
  HttpError,
  MAX_PATH_LENGTH,
  type OpenApiConnectorOptions,
  openApiConnector,
} from "../src/index.ts";
import { connectorDefinition } from "./connector-definition.ts";
import { taskApiDocument } from "./task-api-document.ts";
import {
  API_KEY,
  BASIC_PASSWORD,
  BASIC_USER,
  BEARER_TOKEN,
  startTaskServer,
  type TaskServer,
} from "./task-server.ts";

let server: TaskServer;

beforeAll(async () => {
  server = await startTaskServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.tasks.clear();
  server.requests.length = 0;
});

let seq = 0;
function context(signal: AbortSignal = new AbortController().signal): CallContext {
  seq++;
  return { executionId: "exec_loopback", seq, idempotencyKey: `exec_loopback:${seq}`, signal };
}

function tasks(options: Partial<OpenApiConnectorOptions> = {}) {
  return openApiConnector({
    name: "tasks",
    document: taskApiDocument(server.port),
    credentials: { type: "bearer", token: BEARER_TOKEN },
    ...options,
  });
}

/** The error a promise rejects with. */
function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error as Error,
  );
}

const lastRequest = () => server.requests.at(-1) as TaskServer["requests"][number];

describe("methods", () => {
  it("lists every operation, the escape hatch, and flags writes for approval", async () => {
    const methods = await tasks().methods();
    expect(Object.keys(methods)).toEqual([
      "get_health",
      "listTasks",
      "createTask",
      "getTask",
      "deleteTask",
      "addComment",
      "uploadAttachment",
      "whoami",
      "request",
    ]);
    const approval = Object.entries(methods)
      .filter(([, method]) => method.requiresApproval === true)
      .map(([name]) => name);
    expect(approval).toEqual(["createTask", "deleteTask", "addComment", "uploadAttachment"]);
    // the escape hatch decides per call: reads run, writes wait
    const rule = methods.request?.requiresApproval as ApprovalRule;
    const call = { executionId: "exec_1", seq: 1 };
    expect(await rule({ path: "/tasks" }, call)).toBe(false);
    expect(await rule({ method: "head", path: "/tasks" }, call)).toBe(false);
    expect(await rule({ method: "POST", path: "/tasks" }, call)).toBe(true);
    expect(await rule({ method: "DELETE", path: "/tasks/1" }, call)).toBe(true);
    expect(methods.listTasks).toMatchObject({
      description:
        "List tasks.\n\nTasks of the workspace, newest first, filtered by tag and state.",
      keywords: ["GET", "/tasks", "tasks"],
      replay: "record",
      revertible: false,
      inputSchema: {
        type: "object",
        properties: {
          limit: { type: "integer", description: "At most this many." },
          tag: { type: "array" },
          done: { type: "boolean" },
          "X-Request-Id": { type: "string" },
          workspace: { type: "string" },
        },
        required: ["workspace"],
      },
      outputSchema: { type: "array", items: { $ref: "#/components/schemas/Task" } },
    });
    expect(methods.getTask?.inputSchema).toMatchObject({
      properties: { taskId: { type: "string", description: "The task's id." } },
      required: ["taskId"],
    });
    expect(methods.deleteTask?.outputSchema).toEqual({ type: "null" });
  });

  it("overrides approval per operation, by method name or operationId, and with a policy", async () => {
    const methods = await tasks({
      requiresApproval: (operation) => operation.method === "DELETE",
      operations: { listTasks: { requiresApproval: true }, addComment: { timeoutMs: 5_000 } },
    }).methods();
    expect(methods.listTasks?.requiresApproval).toBe(true);
    expect(methods.createTask?.requiresApproval).toBeUndefined();
    expect(methods.deleteTask?.requiresApproval).toBe(true);
    expect(methods.addComment?.timeoutMs).toBe(5_000);
  });

  it("declares recursive component schemas as named types, and no credential anywhere", async () => {
    const connector = tasks({
      credentials: [
        { type: "bearer", token: BEARER_TOKEN },
        { type: "apiKey", in: "header", name: "X-Api-Key", value: API_KEY },
      ],
    });
    const methods = await connector.methods();
    const catalog = createCatalog({
      connectors: [connectorDefinition(connector, methods)],
    });
    const all = catalog.connectors[0]?.all() ?? "";
    expect(connector.instructions).toBe(`Task API\n${HTTP_ERROR_NOTE}`);
    expect(all).toContain("error.status === 404");
    expect(all).toMatch(/type Task = \{[\s\S]*subtasks\?: Task\[\];/);
    expect(all).toContain("getTask(input: GetTaskInput): Promise<GetTaskOutput>;");
    expect(all).toContain("type GetTaskOutput = Task;");
    expect(all).toContain("type DeleteTaskOutput = null;");
    const everything = `${all}${JSON.stringify(methods)}${JSON.stringify(connector)}`;
    expect(everything).not.toContain(BEARER_TOKEN);
    expect(everything).not.toContain(API_KEY);
  });

  it("names an operation without operationId after its method and path", async () => {
    const result = await tasks().invoke("get_health", {}, context());
    expect(result).toEqual({ ok: true });
    expect(lastRequest().url).toBe("/v1/health");
  });

  it("refuses two operations that would share a name, saying which", async () => {
    const document = taskApiDocument(server.port);
    const paths = document.paths as Record<string, Record<string, { operationId?: string }>>;
    (paths["/tasks"]?.get as { operationId: string }).operationId = "get-task";
    (paths["/tasks/{taskId}"]?.get as { operationId: string }).operationId = "get_task";
    const error = await failure(tasks({ document }).methods());
    expect(CodemodeError.isInstance(error) && error.code).toBe("INVALID_CONFIG");
    expect(error.message).toBe(
      'Two operations would both be the method "get_task": GET /tasks and GET /tasks/{taskId}. Give one of them a distinct operationId in the document.',
    );
  });

  it("refuses options for operations the document does not have", async () => {
    const error = await failure(
      tasks({ operations: { createTsk: { requiresApproval: false } } }).methods(),
    );
    expect(error.message).toContain('operations has options for "createTsk"');
  });

  it("reads the document from a URL, its relative server URL resolved against it", async () => {
    const document = taskApiDocument(server.port);
    document.servers = [{ url: "/v1" }];
    server.document = document;
    const url = `${server.origin}/openapi.json`;
    const refused = await failure(openApiConnector({ name: "tasks", document: url }).methods());
    expect(refused.message).toContain("127.0.0.1 is an internal address; list it in internalUrls");
    const connector = openApiConnector({ name: "tasks", document: url, internalUrls: true });
    expect(Object.keys(await connector.methods())).toContain("listTasks");
    expect(await connector.invoke("get_health", {}, context())).toEqual({ ok: true });
    expect(lastRequest().url).toBe("/v1/health");
  });

  it("refuses a loopback document URL with a message that names the document URL", async () => {
    const requests = server.requests.length;
    for (const { document, why } of [
      { document: `${server.origin}/openapi.json`, why: "127.0.0.1 is an internal address" },
      {
        document: `http://localhost:${server.port}/openapi.json`,
        why: "localhost names this machine",
      },
    ]) {
      const refused = await failure(openApiConnector({ name: "tasks", document }).methods());
      expect(CodemodeError.isInstance(refused) && refused.code).toBe("INVALID_CONFIG");
      expect(refused.message).toBe(
        `openApiConnector could not read its document: the document URL ${document} was refused: ${why}; list it in internalUrls to allow it.`,
      );
      expect(refused.message).not.toMatch(/\$ref|pointer/);
    }
    expect(server.requests.length, "nothing was sent").toBe(requests);
  });

  it("refuses a document that is not OpenAPI", async () => {
    const error = await failure(
      tasks({
        document: { openapi: "3.1.0", info: { title: "x", version: "1" } } as never,
      }).methods(),
    );
    expect(CodemodeError.isInstance(error) && error.code).toBe("INVALID_CONFIG");
    expect(error.message).toContain("openApiConnector could not read its document");
  });
});

describe("calls", () => {
  it("sends query, header and cookie parameters the way the document says", async () => {
    server.tasks.set("1", { id: "1", title: "a", done: false, tags: ["x", "y"] });
    server.tasks.set("2", { id: "2", title: "b", done: true, tags: ["x"] });
    const result = await tasks().invoke(
      "listTasks",
      { limit: 5, tag: ["x", "y"], done: false, "X-Request-Id": "req-7", workspace: "acme" },
      context(),
    );
    expect(result).toEqual([{ id: "1", title: "a", done: false, tags: ["x", "y"] }]);
    const seen = lastRequest();
    expect(seen.url).toBe("/v1/tasks?limit=5&tag=x&tag=y&done=false");
    expect(seen.headers["x-request-id"]).toBe("req-7");
    expect(seen.headers.cookie).toBe("workspace=acme");
    expect(seen.headers["idempotency-key"]).toBeUndefined();
  });

  it("uses the server URL with its variables' defaults when there is no baseUrl", async () => {
    await tasks().invoke("get_health", {}, context());
    expect(server.requests).toHaveLength(1);
  });

  it("posts a JSON body, gets 201 and sends the idempotency key", async () => {
    const call = context();
    const created = await tasks().invoke(
      "createTask",
      { body: { title: "write the README", tags: ["docs"] } },
      call,
    );
    expect(created).toEqual({ id: "1", title: "write the README", done: false, tags: ["docs"] });
    const seen = lastRequest();
    expect(seen.method).toBe("POST");
    expect(seen.headers["content-type"]).toBe("application/json");
    expect(seen.headers["idempotency-key"]).toBe(call.idempotencyKey);
    expect(JSON.parse(seen.body)).toEqual({ title: "write the README", tags: ["docs"] });
  });

  it("posts a form body and a multipart body", async () => {
    server.tasks.set("1", { id: "1", title: "a", done: false, tags: [] });
    const connector = tasks();
    const comment = await connector.invoke(
      "addComment",
      { taskId: "1", body: { text: "looks good & done", mentions: ["ada", "alan"] } },
      context(),
    );
    expect(comment).toEqual({ taskId: "1", text: "looks good & done", mentions: ["ada", "alan"] });
    expect(lastRequest().body).toBe("text=looks%20good%20%26%20done&mentions=ada&mentions=alan");

    const upload = await connector.invoke(
      "uploadAttachment",
      { taskId: "1", body: { file: new Uint8Array([1, 2, 3, 4, 5]), caption: "bytes" } },
      context(),
    );
    expect(upload).toEqual({ size: 5, caption: "bytes" });
    expect(lastRequest().headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
  });

  it("resolves a 204 to null", async () => {
    server.tasks.set("1", { id: "1", title: "a", done: false, tags: [] });
    expect(await tasks().invoke("deleteTask", { taskId: "1" }, context())).toBeNull();
    expect(server.tasks.size).toBe(0);
  });

  it("turns a 404 into a catchable HttpError with the status and a bounded body excerpt", async () => {
    const error = await failure(tasks().invoke("getTask", { taskId: "404 me" }, context()));
    expect(error).toBeInstanceOf(HttpError);
    const http = error as HttpError;
    expect(http.name).toBe("HttpError");
    expect(http.code).toBe("HTTP_ERROR");
    expect(http.status).toBe(404);
    expect(lastRequest().url).toBe("/v1/tasks/404%20me");
    expect(http.message).toMatch(
      /^GET \/tasks\/404%20me failed with HTTP 404 Not Found: \{"error":"no task 404 me","detail":"Task 404 me does not exist\. Check/,
    );
    expect(http.body.length).toBeLessThanOrEqual(501);
    expect(http.message.length).toBeLessThan(600);
    expect(http.message.endsWith("…")).toBe(true);
  });

  it("says which fields are missing or unknown before sending anything", async () => {
    const connector = tasks();
    const missing = await failure(connector.invoke("getTask", {}, context()));
    expect(missing.message).toBe('tasks.getTask needs "taskId".');
    const unknown = await failure(connector.invoke("getTask", { id: "1" }, context()));
    expect(unknown.message).toBe('tasks.getTask has no field "id"; its fields are: taskId.');
    const method = await failure(connector.invoke("getTasks", {}, context()));
    expect(method.message).toBe('Connector "tasks" has no method "getTasks".');
    expect(server.requests).toHaveLength(0);
  });

  it("passes the call's AbortSignal to fetch", async () => {
    const controller = new AbortController();
    controller.abort(new Error("the pass ended"));
    const error = await failure(tasks().invoke("get_health", {}, context(controller.signal)));
    expect(error.message).toBe("the pass ended");
  });

  it("uses an injected fetch", async () => {
    const urls: string[] = [];
    const connector = tasks({
      fetch: (url, init) => {
        urls.push(url);
        return fetch(url, init as RequestInit);
      },
    });
    await connector.invoke("get_health", {}, context());
    expect(urls).toEqual([`${server.origin}/v1/health`]);
  });
});

describe("credentials", () => {
  const whoami = (options: Partial<OpenApiConnectorOptions>) =>
    tasks(options).invoke("whoami", {}, context());

  it("sends a bearer token, also from a token provider", async () => {
    expect(await whoami({})).toEqual({ scheme: "bearer" });
    expect(
      await whoami({ credentials: { type: "bearer", token: async () => BEARER_TOKEN } }),
    ).toEqual({ scheme: "bearer" });
  });

  it("sends an API key in a header, the query or a cookie, and basic credentials", async () => {
    expect(
      await whoami({
        credentials: { type: "apiKey", in: "header", name: "X-Api-Key", value: API_KEY },
      }),
    ).toEqual({ scheme: "apiKeyHeader" });
    expect(
      await whoami({
        credentials: { type: "apiKey", in: "query", name: "api_key", value: API_KEY },
      }),
    ).toEqual({ scheme: "apiKeyQuery" });
    expect(
      await whoami({
        credentials: { type: "apiKey", in: "cookie", name: "session", value: API_KEY },
      }),
    ).toEqual({ scheme: "apiKeyCookie" });
    expect(
      await whoami({
        credentials: { type: "basic", username: BASIC_USER, password: BASIC_PASSWORD },
      }),
    ).toEqual({ scheme: "basic" });
  });

  it("keeps credentials out of error messages, even when the server echoes them", async () => {
    const wrong = `${BEARER_TOKEN}-revoked`;
    const error = await failure(
      tasks({ credentials: { type: "bearer", token: wrong } }).invoke("whoami", {}, context()),
    );
    expect((error as HttpError).status).toBe(401);
    expect(error.message).toContain("got Authorization: Bearer [redacted]");
    expect(error.message).not.toContain(wrong);

    const query = await failure(
      tasks({
        credentials: { type: "apiKey", in: "query", name: "api_key", value: "key_wrong_0000" },
      }).invoke("whoami", {}, context()),
    );
    expect(query.message).toMatch(/^GET \/whoami failed with HTTP 401/);
    expect(query.message).not.toContain("key_wrong_0000");
    expect(lastRequest().url).toBe("/v1/whoami?api_key=key_wrong_0000");

    // basic credentials travel base64-encoded: the encoded pair is cleared as well
    const basic = await failure(
      tasks({
        credentials: { type: "basic", username: BASIC_USER, password: "pw_wrong_1234" },
      }).invoke("whoami", {}, context()),
    );
    const encoded = Buffer.from(`${BASIC_USER}:pw_wrong_1234`).toString("base64");
    expect(basic.message).toContain("got Authorization: Basic [redacted]");
    expect(basic.message).not.toContain(encoded);
  });
});

describe("revert", () => {
  it("undoes a POST with a DELETE built from its result", async () => {
    const connector = tasks({
      operations: {
        createTask: {
          revert: async (_input, result: { id: string }, client) => {
            await client.call("deleteTask", { taskId: result.id });
          },
        },
      },
    });
    expect((await connector.methods()).createTask?.revertible).toBe(true);
    const input = { body: { title: "temporary" } };
    const created = await connector.invoke("createTask", input, context());
    expect(server.tasks.size).toBe(1);
    const revertContext: CallContext = {
      ...context(),
      idempotencyKey: "exec_loopback:1:revert",
    };
    await connector.revert?.("createTask", input, created, revertContext);
    expect(server.tasks.size).toBe(0);
    expect(lastRequest().method).toBe("DELETE");
    expect(lastRequest().headers["idempotency-key"]).toBe("exec_loopback:1:revert");
    // methods without a revert are left alone
    await connector.revert?.("getTask", { taskId: "1" }, null, context());
  });
});

describe("the request escape hatch", () => {
  it("reads and writes any path with request", async () => {
    server.tasks.set("1", { id: "1", title: "a", done: false, tags: ["x"] });
    const connector = tasks();
    const read = await connector.invoke(
      "request",
      { path: "/tasks", query: { tag: ["x"], limit: 1 }, headers: { cookie: "workspace=acme" } },
      context(),
    );
    expect(read).toEqual([{ id: "1", title: "a", done: false, tags: ["x"] }]);
    expect(lastRequest().url).toBe("/v1/tasks?tag=x&limit=1");

    const written = await connector.invoke(
      "request",
      { method: "POST", path: "/tasks", body: { title: "raw" } },
      context(),
    );
    expect(written).toMatchObject({ id: "2", title: "raw" });
    expect(lastRequest().headers.authorization).toBe(`Bearer ${BEARER_TOKEN}`);
    expect(lastRequest().headers["idempotency-key"]).toMatch(/^exec_loopback:\d+$/);
  });

  it("refuses unknown methods, and URLs instead of paths", async () => {
    const connector = tasks();
    const trace = await failure(
      connector.invoke("request", { method: "TRACE", path: "/tasks/1" }, context()),
    );
    expect(trace.message).toBe(
      "tasks.request sends GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE, not TRACE.",
    );
    for (const path of ["https://elsewhere.example/steal", "//elsewhere.example/x", "tasks"]) {
      const error = await failure(connector.invoke("request", { path }, context()));
      expect(error.message).toContain("takes a path that starts with a single /");
    }
    const long = await failure(
      connector.invoke("request", { path: `/${"a".repeat(MAX_PATH_LENGTH)}` }, context()),
    );
    expect(long.message).toBe(
      `tasks.request takes a path of at most ${MAX_PATH_LENGTH} characters, not ${MAX_PATH_LENGTH + 1}.`,
    );
    expect(server.requests).toHaveLength(0);
  });
});
