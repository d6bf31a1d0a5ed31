// openApiConnector against the connector suite, over the task API on loopback: the sample reads a
// task; the failing call asks for one that does not exist (a 404); the waiting call asks for a
// route the server never answers.
import { runConnectorConformance } from "@codemode/conformance";
import { afterAll, beforeAll } from "vitest";
import { openApiConnector } from "../src/index.ts";
import { taskApiDocument } from "./task-api-document.ts";
import { BEARER_TOKEN, startTaskServer, type TaskServer } from "./task-server.ts";

let server: TaskServer;
let document: ReturnType<typeof taskApiDocument>;
const task = { id: "1", title: "pass the suite", done: false, tags: ["conformance"] };
let markHeld: () => void = () => {};
const held = new Promise<void>((resolve) => {
  markHeld = resolve;
});

beforeAll(async () => {
  server = await startTaskServer();
  server.tasks.set(task.id, task);
  server.onHold = markHeld;
  const base = taskApiDocument(server.port);
  document = {
    ...base,
    paths: {
      ...base.paths,
      "/hold": {
        get: {
          operationId: "hold",
          summary: "Never answers.",
          responses: { "200": { description: "Never sent." } },
        },
      },
    },
  };
});
afterAll(() => server.close());

runConnectorConformance({
  name: "openApiConnector",
  createConnector: () =>
    openApiConnector({
      name: "tasks",
      document,
      credentials: { type: "bearer", token: BEARER_TOKEN },
      operations: {
        createTask: {
          revert: (_input, result: { id: string }, client) =>
            client.call("deleteTask", { taskId: result.id }),
        },
      },
    }),
  sample: {
    method: "getTask",
    input: { taskId: "1" },
    expected: task,
    failing: { method: "getTask", input: { taskId: "missing" } },
    waiting: { method: "hold", input: {}, started: () => held },
  },
});
