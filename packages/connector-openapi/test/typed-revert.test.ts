// Typed reverts: with an operations map, `revert` gets the operation's input and result types and
// `client.call` checks method names and inputs. The `@ts-expect-error` lines fail the typecheck
// (`tsc -p tsconfig.test.json`) if they ever compile; the run itself undoes a POST on loopback.
import type { CallContext } from "@codemode/core";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { type OpenApiClient, openApiConnector } from "../src/index.ts";
import { taskApiDocument } from "./task-api-document.ts";
import { BEARER_TOKEN, startTaskServer, type TaskServer } from "./task-server.ts";

interface Task {
  id: string;
  title: string;
  done: boolean;
  tags: string[];
}

/** The operations the application reverts or calls, as their declarations in the sandbox say. */
interface TaskOperations {
  createTask: { input: { body: { title: string; tags?: string[] } }; output: Task };
  deleteTask: { input: { taskId: string }; output: null };
  get_health: { input: undefined; output: { ok: boolean } };
}

let server: TaskServer;
beforeAll(async () => {
  server = await startTaskServer();
});
afterAll(() => server.close());

const context = (idempotencyKey: string): CallContext => ({
  executionId: "exec_typed",
  seq: 1,
  idempotencyKey,
  signal: new AbortController().signal,
});

describe("a revert typed by an operations map", () => {
  it("gets the operation's input and result, and calls the API with checked inputs", async () => {
    const reverted: string[] = [];
    const tasks = openApiConnector<TaskOperations>({
      name: "tasks",
      document: taskApiDocument(server.port),
      credentials: { type: "bearer", token: BEARER_TOKEN },
      operations: {
        createTask: {
          revert: async (input, result, client) => {
            expectTypeOf(input).toEqualTypeOf<{ body: { title: string; tags?: string[] } }>();
            expectTypeOf(result).toEqualTypeOf<Task>();
            expectTypeOf(client).toEqualTypeOf<OpenApiClient<TaskOperations>>();
            const health = await client.call("get_health");
            expectTypeOf(health).toEqualTypeOf<{ ok: boolean }>();
            const deleted = await client.call("deleteTask", { taskId: result.id });
            expectTypeOf(deleted).toEqualTypeOf<null>();
            reverted.push(`${input.body.title}: ${String(deleted)}`);
          },
        },
      },
    });
    const input = { body: { title: "typed" } };
    const created = await tasks.invoke("createTask", input, context("exec_typed:1"));
    expect(server.tasks.has((created as Task).id)).toBe(true);
    await tasks.revert?.("createTask", input, created, context("exec_typed:1:revert"));
    expect(server.tasks.size).toBe(0);
    expect(reverted).toEqual(["typed: null"]);
  });

  it("refuses wrong properties, unknown methods and unknown operations at compile time", () => {
    expectTypeOf(() =>
      openApiConnector<TaskOperations>({
        name: "tasks",
        document: taskApiDocument(server.port),
        operations: {
          createTask: {
            revert: async (input, result, client) => {
              // @ts-expect-error: the input has no `title` outside its body
              void input.title;
              // @ts-expect-error: a Task has no `number`
              void result.number;
              // @ts-expect-error: deleteTask takes `taskId`, not `id`
              await client.call("deleteTask", { id: result.id });
              // @ts-expect-error: no operation is named deleteTasks
              await client.call("deleteTasks", { taskId: result.id });
              // @ts-expect-error: deleteTask needs its input
              await client.call("deleteTask");
              // the escape hatch is always there
              await client.call("request", { method: "DELETE", path: `/tasks/${result.id}` });
            },
          },
          // @ts-expect-error: the map has no operation createTsk
          createTsk: { requiresApproval: false },
        },
      }),
    ).toBeFunction();
    expectTypeOf(() =>
      openApiConnector<TaskOperations>({
        name: "tasks",
        document: taskApiDocument(server.port),
        operations: {
          // @ts-expect-error: the revert's input annotation contradicts the map
          createTask: { revert: (input: { body: { title: number } }) => input },
        },
      }),
    ).toBeFunction();
  });

  it("leaves untyped connectors as they were: any input, any result, any method", () => {
    expectTypeOf(() =>
      openApiConnector({
        name: "tasks",
        document: taskApiDocument(server.port),
        operations: {
          createTask: {
            revert: (_input, result: { id: string }, client) =>
              client.call("deleteTask", { taskId: result.id }),
          },
          anything: { requiresApproval: true },
        },
      }),
    ).toBeFunction();
  });
});
