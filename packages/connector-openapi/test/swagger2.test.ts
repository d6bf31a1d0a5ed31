// A Swagger 2.0 description of part of the same task API (written for this test): `in: body` and
// `in: formData` parameters, `collectionFormat`, `host` + `basePath`, and `definitions`.
import type { CallContext } from "@codemode/core";
import { createCatalog } from "@codemode/typegen";
import type { OpenAPIV2 } from "openapi-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiConnector } from "../src/index.ts";
import { connectorDefinition } from "./connector-definition.ts";
import { BEARER_TOKEN, startTaskServer, type TaskServer } from "./task-server.ts";

function swaggerDocument(port: number): OpenAPIV2.Document {
  return {
    swagger: "2.0",
    info: { title: "Task API (Swagger 2)", version: "1.0.0" },
    host: `127.0.0.1:${port}`,
    basePath: "/v1",
    schemes: ["http"],
    consumes: ["application/json"],
    produces: ["application/json"],
    paths: {
      "/tasks": {
        get: {
          operationId: "listTasks",
          parameters: [
            {
              name: "tag",
              in: "query",
              type: "array",
              items: { type: "string" },
              collectionFormat: "multi",
            },
            { name: "limit", in: "query", type: "integer", description: "At most this many." },
          ],
          responses: {
            "200": {
              description: "Tasks.",
              schema: { type: "array", items: { $ref: "#/definitions/Task" } },
            },
          },
        },
        post: {
          operationId: "createTask",
          parameters: [
            { name: "task", in: "body", required: true, schema: { $ref: "#/definitions/NewTask" } },
          ],
          responses: { "201": { description: "Created.", schema: { $ref: "#/definitions/Task" } } },
        },
      },
      "/tasks/{taskId}/comments": {
        parameters: [{ name: "taskId", in: "path", required: true, type: "string" }],
        post: {
          operationId: "addComment",
          consumes: ["application/x-www-form-urlencoded"],
          parameters: [
            { name: "text", in: "formData", required: true, type: "string" },
            {
              name: "mentions",
              in: "formData",
              type: "array",
              items: { type: "string" },
              collectionFormat: "multi",
            },
          ],
          responses: { "201": { description: "The comment." } },
        },
      },
    },
    definitions: {
      Task: {
        type: "object",
        required: ["id", "title"],
        properties: {
          id: { type: "string" },
          title: { type: "string" },
          subtasks: { type: "array", items: { $ref: "#/definitions/Task" } },
        },
      },
      NewTask: {
        type: "object",
        required: ["title"],
        properties: {
          title: { type: "string" },
          tags: { type: "array", items: { type: "string" } },
        },
      },
    },
  };
}

let server: TaskServer;
beforeAll(async () => {
  server = await startTaskServer();
});
afterAll(() => server.close());

const context = (seq: number): CallContext => ({
  executionId: "exec_swagger2",
  seq,
  idempotencyKey: `exec_swagger2:${seq}`,
  signal: new AbortController().signal,
});

describe("a Swagger 2.0 document", () => {
  const connector = () =>
    openApiConnector({
      name: "tasks",
      document: swaggerDocument(server.port),
      credentials: { type: "bearer", token: BEARER_TOKEN },
      headers: { cookie: "workspace=acme" },
    });

  it("reads body and formData parameters and keeps definitions as named types", async () => {
    const tasks = connector();
    const methods = await tasks.methods();
    expect(methods.createTask?.inputSchema).toEqual({
      type: "object",
      properties: { body: { $ref: "#/definitions/NewTask" } },
      required: ["body"],
    });
    expect(methods.addComment?.inputSchema).toMatchObject({
      properties: {
        taskId: { type: "string" },
        body: { type: "object", required: ["text"] },
      },
      required: ["taskId", "body"],
    });
    const all = createCatalog({
      connectors: [connectorDefinition(tasks, methods)],
    }).connectors[0]?.all();
    expect(all).toContain("type Task = { id: string; title: string; subtasks?: Task[] };");
    expect(all).toContain("type CreateTaskOutput = Task;");
    expect(all).toContain("type AddCommentOutput = unknown;");
  });

  it("calls the API at host + basePath with bodies, forms and collection formats", async () => {
    const tasks = connector();
    const created = await tasks.invoke(
      "createTask",
      { body: { title: "two point oh", tags: ["x"] } },
      context(1),
    );
    expect(created).toMatchObject({ title: "two point oh", tags: ["x"] });
    const listed = await tasks.invoke("listTasks", { tag: ["x"], limit: 1 }, context(2));
    expect(listed).toEqual([created]);
    expect(server.requests.at(-1)?.url).toBe("/v1/tasks?tag=x&limit=1");
    const comment = await tasks.invoke(
      "addComment",
      { taskId: (created as { id: string }).id, body: { text: "hi", mentions: ["a", "b"] } },
      context(3),
    );
    expect(comment).toMatchObject({ text: "hi", mentions: ["a", "b"] });
    expect(server.requests.at(-1)?.headers["content-type"]).toBe(
      "application/x-www-form-urlencoded",
    );
  });
});
