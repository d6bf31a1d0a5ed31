// A small but realistic OpenAPI 3.1 description of a task API, written for these tests; the server in
// task-server.ts implements it. Parameters are shared through `$ref` (as GitHub's document does), a
// task's subtasks make the Task schema recursive; tasks need a bearer token (the document's default),
// /health needs nothing and /whoami takes any of five schemes.
import type { OpenAPIV3_1 } from "openapi-types";

export function taskApiDocument(port = 8080): OpenAPIV3_1.Document {
  return {
    openapi: "3.1.0",
    info: {
      title: "Task API",
      version: "1.0.0",
      description: "Tasks with tags, comments and attachments.",
    },
    servers: [
      {
        url: "http://127.0.0.1:{port}/v1",
        variables: { port: { default: String(port) } },
      },
    ],
    security: [{ bearerAuth: [] }],
    paths: {
      "/health": {
        get: {
          summary: "Whether the service is up.",
          security: [],
          responses: {
            "200": {
              description: "Up.",
              content: {
                "application/json": {
                  schema: { type: "object", properties: { ok: { type: "boolean" } } },
                },
              },
            },
          },
        },
      },
      "/tasks": {
        get: {
          operationId: "listTasks",
          summary: "List tasks.",
          description: "Tasks of the workspace, newest first, filtered by tag and state.",
          tags: ["tasks"],
          parameters: [
            { $ref: "#/components/parameters/Limit" },
            {
              name: "tag",
              in: "query",
              description: "Only tasks with all these tags.",
              schema: { type: "array", items: { type: "string" } },
            },
            { name: "done", in: "query", schema: { type: "boolean" } },
            {
              name: "X-Request-Id",
              in: "header",
              description: "Echoed back for tracing.",
              schema: { type: "string" },
            },
            {
              name: "workspace",
              in: "cookie",
              required: true,
              description: "The workspace the tasks belong to.",
              schema: { type: "string" },
            },
          ],
          responses: {
            "200": {
              description: "The tasks.",
              content: {
                "application/json": {
                  schema: { type: "array", items: { $ref: "#/components/schemas/Task" } },
                },
              },
            },
          },
        },
        post: {
          operationId: "createTask",
          summary: "Create a task.",
          tags: ["tasks"],
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/NewTask" } },
            },
          },
          responses: {
            "201": {
              description: "Created.",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Task" } } },
            },
            "400": { $ref: "#/components/responses/Problem" },
          },
        },
      },
      "/tasks/{taskId}": {
        parameters: [{ $ref: "#/components/parameters/TaskId" }],
        get: {
          operationId: "getTask",
          summary: "Get a task.",
          tags: ["tasks"],
          responses: {
            "200": {
              description: "The task.",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Task" } } },
            },
            "404": { $ref: "#/components/responses/Problem" },
          },
        },
        delete: {
          operationId: "deleteTask",
          summary: "Delete a task.",
          tags: ["tasks"],
          responses: {
            "204": { description: "Deleted." },
            "404": { $ref: "#/components/responses/Problem" },
          },
        },
      },
      "/tasks/{taskId}/comments": {
        parameters: [{ $ref: "#/components/parameters/TaskId" }],
        post: {
          operationId: "addComment",
          summary: "Comment on a task.",
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  type: "object",
                  properties: {
                    text: { type: "string" },
                    mentions: { type: "array", items: { type: "string" } },
                  },
                  required: ["text"],
                },
              },
            },
          },
          responses: {
            "201": {
              description: "The comment.",
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/Comment" } },
              },
            },
          },
        },
      },
      "/tasks/{taskId}/attachments": {
        parameters: [{ $ref: "#/components/parameters/TaskId" }],
        post: {
          operationId: "uploadAttachment",
          summary: "Attach a file to a task.",
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  properties: {
                    file: { type: "string", contentMediaType: "application/octet-stream" },
                    caption: { type: "string" },
                  },
                  required: ["file"],
                },
              },
            },
          },
          responses: {
            "201": {
              description: "What was stored.",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      size: { type: "integer" },
                      caption: { type: "string" },
                    },
                    required: ["size"],
                  },
                },
              },
            },
          },
        },
      },
      "/whoami": {
        get: {
          operationId: "whoami",
          summary: "Which credential the request carried.",
          security: [
            { bearerAuth: [] },
            { apiKeyHeader: [] },
            { apiKeyQuery: [] },
            { apiKeyCookie: [] },
            { basic: [] },
          ],
          responses: {
            "200": {
              description: "The scheme.",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: { scheme: { type: "string" } },
                    required: ["scheme"],
                  },
                },
              },
            },
          },
        },
      },
    },
    components: {
      parameters: {
        TaskId: {
          name: "taskId",
          in: "path",
          required: true,
          description: "The task's id.",
          schema: { type: "string" },
        },
        Limit: {
          name: "limit",
          in: "query",
          description: "At most this many.",
          schema: { type: "integer", minimum: 1, maximum: 100, default: 20 },
        },
      },
      responses: {
        Problem: {
          description: "What went wrong.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Problem" } } },
        },
      },
      schemas: {
        Task: {
          type: "object",
          properties: {
            id: { type: "string" },
            title: { type: "string" },
            done: { type: "boolean" },
            tags: { type: "array", items: { type: "string" } },
            priority: { type: "string", enum: ["low", "normal", "high"] },
            subtasks: {
              type: "array",
              description: "Tasks inside this one.",
              items: { $ref: "#/components/schemas/Task" },
            },
          },
          required: ["id", "title", "done", "tags"],
        },
        NewTask: {
          type: "object",
          properties: {
            title: { type: "string", minLength: 1 },
            tags: { type: "array", items: { type: "string" } },
            priority: { type: "string", enum: ["low", "normal", "high"] },
          },
          required: ["title"],
        },
        Comment: {
          type: "object",
          properties: {
            taskId: { type: "string" },
            text: { type: "string" },
            mentions: { type: "array", items: { type: "string" } },
          },
          required: ["taskId", "text"],
        },
        Problem: {
          type: "object",
          properties: { error: { type: "string" }, detail: { type: "string" } },
          required: ["error"],
        },
      },
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer" },
        basic: { type: "http", scheme: "basic" },
        apiKeyHeader: { type: "apiKey", in: "header", name: "X-Api-Key" },
        apiKeyQuery: { type: "apiKey", in: "query", name: "api_key" },
        apiKeyCookie: { type: "apiKey", in: "cookie", name: "session" },
      },
    },
  };
}
