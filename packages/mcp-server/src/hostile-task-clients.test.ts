// The MCP Tasks extension of Code Mode's server attacked by its clients, through `createMcpHandler`
// over one journal, with a ledger of effects: `tasks/update` sent to servers that take no answers
// from their clients, answers keyed for a call of the same number with another input, and floods of
// updates, reads and cancellations of one task at once.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { mailRuntime, sendTo } from "../test/mail-runtime.ts";
import { codemodeCall, resultOf } from "../test/mcp-clients.ts";
import { questionKey } from "./approval-round.ts";
import { TASKS_EXTENSION } from "./client-capabilities.ts";
import { type CodemodeToolsOptions, codeMcpServer } from "./index.ts";

const KEY = "a key of at least thirty-two bytes, shared";
const DECLARED = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
const YES = { action: "accept", content: { approve: true } };
const Task = z.looseObject({ taskId: z.string(), status: z.string() });
const Empty = z.looseObject({});

const handlers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

/** a stateless endpoint over `options.runtime` serving tasks, and a task-declaring client of it */
async function served(options: Omit<CodemodeToolsOptions, "tasks">) {
  const handler = createMcpHandler(
    () => codeMcpServer({ approvalStateKey: KEY, ...options, tasks: true }),
    { legacy: "reject" },
  );
  handlers.push(handler);
  const client = new Client(
    { name: "tasks-client", version: "1.0.0" },
    { capabilities: DECLARED, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://codemode.test/mcp"), {
      fetch: (url, init) => handler.fetch(new Request(url, init)),
    }),
  );
  handlers.push(client);
  return {
    /** a codemode call answered with a task, and the task's id once its run waits */
    async start(code: string) {
      const waits = async () => (await options.runtime.pending()).length;
      const before = await waits();
      const created = await resultOf(await handler.fetch(codemodeCall(code, DECLARED)));
      const taskId = created.taskId as string;
      await expect.poll(waits).toBe(before + 1);
      return taskId;
    },
    get: (taskId: string) => client.request({ method: "tasks/get", params: { taskId } }, Task),
    update: (taskId: string, inputResponses: Record<string, unknown>) =>
      client.request({ method: "tasks/update", params: { taskId, inputResponses } }, Empty),
    cancel: (taskId: string) =>
      client.request({ method: "tasks/cancel", params: { taskId } }, Empty),
  };
}

describe("tasks/update from clients the host did not let decide", () => {
  it.each(["host", "client-tools"] as const)(
    'approvals: "%s": an update with the right key approves nothing; the task waits for the host',
    async (approvals) => {
      const { runtime, sent } = mailRuntime();
      const tasks = await served({ runtime, approvals });
      const taskId = await tasks.start(sendTo("oncall"));
      const [waiting] = await runtime.pending();
      await tasks.update(taskId, { [questionKey(waiting as never)]: YES });
      const task = await tasks.get(taskId);
      expect(task.status).toBe("working");
      expect(task).not.toHaveProperty("inputRequests");
      expect(sent).toEqual([]);
      expect((await runtime.execution(waiting?.executionId as string))?.status).toBe("paused");
    },
  );
});

describe("a task taken to a server of another mode", () => {
  it("a task a host server made is not asked about, nor decided, by a server of the same runtime that asks", async () => {
    // Found: a task id named the run only, so a client of a server with approvals "host" took its
    // task to a server of the same runtime with approvals "elicitation" (the same key, or the same
    // process): tasks/get there asked the questions and tasks/update approved the run. A task now
    // takes answers only if the server that made it asks, and only where the server asks.
    const { runtime, sent } = mailRuntime();
    const hostServer = await served({ runtime, approvals: "host" });
    const asking = await served({ runtime });
    const taskId = await hostServer.start(sendTo("oncall"));
    const [waiting] = await runtime.pending();
    const task = await asking.get(taskId);
    expect(task.status).toBe("working");
    expect(task).not.toHaveProperty("inputRequests");
    await asking.update(taskId, { [questionKey(waiting as never)]: YES });
    expect(sent).toEqual([]);
    expect((await runtime.execution(waiting?.executionId as string))?.status).toBe("paused");
  });
});

describe("tasks/update with answers for what does not wait", () => {
  it("an answer keyed for the same call number with another input decides nothing", async () => {
    const { runtime, sent } = mailRuntime();
    const tasks = await served({ runtime });
    const alice = await tasks.start(sendTo("alice"));
    const mallory = await tasks.start(sendTo("mallory"));
    const to = (name: string) => async () =>
      (await runtime.pending()).find((call) => (call.args as { to: string }).to === name);
    const [aliceCall, malloryCall] = [await to("alice")(), await to("mallory")()];
    // both runs wait at the same seq: only the digest in the key tells the calls apart
    expect(malloryCall?.seq).toBe(aliceCall?.seq);
    expect(questionKey(malloryCall as never)).not.toBe(questionKey(aliceCall as never));
    await tasks.update(mallory, { [questionKey(aliceCall as never)]: YES });
    await tasks.update(alice, { [questionKey(malloryCall as never)]: YES });
    expect(sent).toEqual([]);
    expect((await tasks.get(alice)).status).toBe("input_required");
    expect((await tasks.get(mallory)).status).toBe("input_required");
  });
});

describe("floods of one task", () => {
  it("twenty approving updates, reads and a cancellation at once: the call runs at most once", async () => {
    const { runtime, sent } = mailRuntime();
    const tasks = await served({ runtime });
    const taskId = await tasks.start(sendTo("oncall"));
    const [waiting] = await runtime.pending();
    const answer = { [questionKey(waiting as never)]: YES };
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        index % 2 === 0 ? tasks.update(taskId, answer) : tasks.get(taskId),
      ),
    );
    await expect.poll(async () => (await tasks.get(taskId)).status).toBe("completed");
    expect(sent).toEqual(["oncall"]);
    // updates and a cancellation after the run ended change nothing
    await Promise.all([tasks.update(taskId, answer), tasks.cancel(taskId), tasks.get(taskId)]);
    expect((await tasks.get(taskId)).status).toBe("completed");
    expect(sent).toEqual(["oncall"]);
  });
});
