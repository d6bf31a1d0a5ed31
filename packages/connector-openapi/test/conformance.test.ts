// openApiConnector against the connector suite, over the task API on loopback: the sample reads a
// task; the failing call asks for one that does not exist (a 404).
import { runConnectorConformance } from "@codemode/conformance";
import { afterAll, beforeAll } from "vitest";
import { openApiConnector } from "../src/index.ts";
import { taskApiDocument } from "./task-api-document.ts";
import { BEARER_TOKEN, startTaskServer, type TaskServer } from "./task-server.ts";

let server: TaskServer;
let document: ReturnType<typeof taskApiDocument>;
const task = { id: "1", title: "pass the suite", done: false, tags: ["conformance"] };

beforeAll(async () => {
  server = await startTaskServer();
  server.tasks.set(task.id, task);
  document = taskApiDocument(server.port);
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
  },
});
