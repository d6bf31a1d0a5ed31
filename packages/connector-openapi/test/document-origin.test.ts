// A document read from a URL does not decide where the host's credentials go: with no `baseUrl`,
// its server must be on the origin the document was read from, or the connector refuses when it
// lists its methods. The task API serves its own document on loopback; a second loopback server
// stands for the site a hostile document names (both are in internalUrls, so only the origin rule
// stands between the bearer token and that site).
import { CodemodeError } from "@codemode/core";
import type { OpenAPIV2 } from "openapi-types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type OpenApiConnectorOptions, openApiConnector } from "../src/index.ts";
import { contexts, failure } from "./call-helpers.ts";
import {
  type RecordedRequest,
  type RecordingServer,
  startRecordingServer,
} from "./recording-server.ts";
import { taskApiDocument } from "./task-api-document.ts";
import { BEARER_TOKEN, startTaskServer, type TaskServer } from "./task-server.ts";

let api: TaskServer;
let elsewhere: RecordingServer;
let elsewherePort: number;
beforeAll(async () => {
  [api, elsewhere] = await Promise.all([startTaskServer(), startRecordingServer()]);
  elsewherePort = Number(new URL(elsewhere.origin).port);
});
afterAll(() => Promise.all([api.close(), elsewhere.close()]));
beforeEach(() => {
  api.requests.length = 0;
  elsewhere.requests.length = 0;
});

const context = contexts("exec_origin");

/** The task API's connector over the document `api` serves at /openapi.json. */
function tasks(document: unknown, options: Partial<OpenApiConnectorOptions> = {}) {
  api.document = document;
  return openApiConnector({
    name: "tasks",
    document: `${api.origin}/openapi.json`,
    credentials: { type: "bearer", token: BEARER_TOKEN },
    internalUrls: [api.origin, elsewhere.origin],
    ...options,
  });
}

/** A Swagger 2.0 description of the task API's /whoami at `host` (no security: every credential goes). */
function swaggerDocument(host: string): OpenAPIV2.Document {
  return {
    swagger: "2.0",
    info: { title: "Task API (Swagger 2)", version: "1.0.0" },
    host,
    basePath: "/v1",
    schemes: ["http"],
    paths: {
      "/whoami": { get: { operationId: "whoami", responses: { "200": { description: "Who." } } } },
    },
  };
}

const tokenIn = (requests: readonly RecordedRequest[]) =>
  JSON.stringify(requests).includes(BEARER_TOKEN);

describe("a document read from a URL", () => {
  it("whose server variables name another origin is refused when it lists its methods", async () => {
    // the task API's own document, its port variable defaulting to the other server's port
    const connector = tasks(taskApiDocument(elsewherePort));
    const error = await failure<CodemodeError>(connector.methods());
    expect(CodemodeError.isInstance(error) && error.code).toBe("INVALID_CONFIG");
    expect(error.message).toBe(
      `openApiConnector "tasks": the document read from ${api.origin} names its server at ${elsewhere.origin}, another origin; a document read from a URL may only send requests (and the host's credentials) to its own origin. Pass baseUrl to say where requests go.`,
    );
    const call = await failure<CodemodeError>(connector.invoke("whoami", {}, context()));
    expect(call.code).toBe("INVALID_CONFIG");
    expect(elsewhere.requests).toEqual([]);
    expect(api.requests.map((request) => request.url)).toEqual(["/openapi.json", "/openapi.json"]);
  });

  it("whose Swagger 2 host is another origin is refused the same way", async () => {
    const error = await failure<CodemodeError>(
      tasks(swaggerDocument(`127.0.0.1:${elsewherePort}`)).methods(),
    );
    expect(error.code).toBe("INVALID_CONFIG");
    expect(error.message).toContain(`names its server at ${elsewhere.origin}, another origin`);
    expect(error.message).toContain("Pass baseUrl");
    expect(elsewhere.requests).toEqual([]);
  });

  it("sends requests with the credentials to a server on its own origin", async () => {
    expect(await tasks(taskApiDocument(api.port)).invoke("whoami", {}, context())).toEqual({
      scheme: "bearer",
    });
    expect(
      await tasks(swaggerDocument(`127.0.0.1:${api.port}`)).invoke("whoami", {}, context()),
    ).toEqual({ scheme: "bearer" });
    expect(api.requests.filter((request) => request.url === "/v1/whoami")).toHaveLength(2);
  });

  it("sends them where the host's baseUrl says, whatever the document names", async () => {
    await tasks(taskApiDocument(api.port), { baseUrl: `${elsewhere.origin}/v1` }).invoke(
      "whoami",
      {},
      context(),
    );
    expect(elsewhere.requests.map((request) => request.path)).toEqual(["/v1/whoami"]);
    expect(elsewhere.requests[0]?.headers.authorization).toBe(`Bearer ${BEARER_TOKEN}`);
  });
});

describe("a document object the host passes", () => {
  it("is the host's own: its servers are used on any origin, as before", async () => {
    const connector = openApiConnector({
      name: "tasks",
      document: taskApiDocument(elsewherePort),
      credentials: { type: "bearer", token: BEARER_TOKEN },
    });
    await connector.invoke("whoami", {}, context());
    expect(elsewhere.requests.map((request) => request.path)).toEqual(["/v1/whoami"]);
    expect(tokenIn(elsewhere.requests)).toBe(true);
  });
});
