// End to end through the durable runtime: QuickJS runs the model's code, a memory store journals it,
// and the connector calls the task API on loopback. A read runs at once; a write pauses for approval,
// runs exactly once after it, and a rollback calls its revert (a DELETE built from the POST's result).
// An HTTP failure reaches the sandbox's catch with its status and body, and replays the same.
import { createCodemodeRuntime, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_EXCERPT_LENGTH, openApiConnector } from "../src/index.ts";
import { taskApiDocument } from "./task-api-document.ts";
import { BEARER_TOKEN, startTaskServer, type TaskServer } from "./task-server.ts";

let server: TaskServer;
let document: ReturnType<typeof taskApiDocument>;

beforeAll(async () => {
  server = await startTaskServer();
  document = taskApiDocument(server.port);
});
afterAll(() => server.close());

describe("openApiConnector in the durable runtime", () => {
  const store = memoryStore();
  const executor = new QuickJSExecutor();
  // the application makes its connectors and runtime again for every request
  const runtime = () =>
    createCodemodeRuntime({
      store,
      executor,
      connectors: [
        openApiConnector({
          name: "tasks",
          document,
          credentials: { type: "bearer", token: BEARER_TOKEN },
          operations: {
            createTask: {
              revert: async (_input, result: { id: string }, client) => {
                await client.call("deleteTask", { taskId: result.id });
              },
            },
          },
        }),
      ],
    });
  const posts = () =>
    server.requests.filter((request) => request.method === "POST" && request.url === "/v1/tasks");

  it("describes outputs with the document's named types, not unknown", async () => {
    const described = await runtime().describe("tasks.getTask");
    const text = JSON.stringify(described);
    expect(text).toContain("type GetTaskOutput = Task;");
    expect(text).toMatch(/type Task = \{/);
  });

  it("runs a read, pauses a write for approval, runs it once, and rolls it back", async () => {
    server.tasks.set("1", { id: "1", title: "existing", done: false, tags: [] });

    const read = await runtime().execute({
      code: `async () => {
        const task = await tasks.getTask({ taskId: "1" });
        const same = await tasks.request({ path: "/tasks/1" });
        if (same.title !== task.title) throw new Error("request and getTask disagree");
        try {
          await tasks.getTask({ taskId: "nope" });
        } catch (error) {
          return { title: task.title, error: error.name + " " + error.code + ": " + error.message.slice(0, 40) };
        }
      }`,
    });
    expect(read).toMatchObject({
      status: "completed",
      result: {
        title: "existing",
        error: "HttpError HTTP_ERROR: GET /tasks/nope failed with HTTP 404 Not",
      },
    });

    const code = `async () => {
      const before = await tasks.listTasks({ workspace: "acme" });
      const created = await tasks.createTask({ body: { title: "from the sandbox", tags: ["e2e"] } });
      return { before: before.length, id: created.id };
    }`;
    const paused = await runtime().execute({ code });
    expect(paused).toMatchObject({
      status: "paused",
      pending: [
        {
          connector: "tasks",
          method: "createTask",
          args: { body: { title: "from the sandbox", tags: ["e2e"] } },
        },
      ],
    });
    expect(posts()).toHaveLength(0);

    const approved = await runtime().approve({ executionId: paused.executionId });
    expect(approved).toEqual({
      status: "completed",
      executionId: paused.executionId,
      result: { before: 1, id: "2" },
    });
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.headers["idempotency-key"]).toBe(`${paused.executionId}:1`);
    expect(server.tasks.has("2")).toBe(true);
    // the listTasks read was replayed from the journal, not sent again
    expect(server.requests.filter((request) => request.url === "/v1/tasks")).toHaveLength(2);

    const report = await runtime().rollback({ executionId: paused.executionId });
    expect(report.reverted).toEqual([1]);
    expect(server.tasks.has("2")).toBe(false);
    expect(server.requests.at(-1)).toMatchObject({ method: "DELETE", url: "/v1/tasks/2" });
    expect(posts()).toHaveLength(1);
  });

  it("lets the sandbox's catch read an HTTP failure's status and bounded body, live and replayed", async () => {
    const described = JSON.stringify(await runtime().describe("tasks"));
    expect(described).toContain("if (error.status === 404)");
    const gets = () => server.requests.filter((request) => request.url === "/v1/tasks/gone");
    const code = `async () => {
      let seen;
      try {
        await tasks.getTask({ taskId: "gone" });
      } catch (error) {
        if (error.status !== 404) throw error;
        seen = {
          status: error.status,
          statusText: error.statusText,
          name: error.name,
          code: error.code,
          method: error.method,
          path: error.path,
          bodyLength: error.body.length,
          problem: JSON.parse(error.body.slice(0, error.body.indexOf(',"detail"')) + "}").error,
        };
      }
      const created = await tasks.createTask({ body: { title: "after the 404" } });
      return { seen, id: created.id };
    }`;
    const paused = await runtime().execute({ code });
    expect(paused.status).toBe("paused");
    expect(gets()).toHaveLength(1);
    // the next pass replays the recorded failure: the same fields, without a second request
    const done = await runtime().approve({ executionId: paused.executionId });
    expect(done).toMatchObject({
      status: "completed",
      result: {
        seen: {
          status: 404,
          statusText: "Not Found",
          name: "HttpError",
          code: "HTTP_ERROR",
          method: "GET",
          path: "/tasks/gone",
          bodyLength: BODY_EXCERPT_LENGTH + 1,
          problem: "no task gone",
        },
      },
    });
    expect(gets()).toHaveLength(1);
  });
});
