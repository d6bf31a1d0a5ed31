// The MCP Tasks extension on Code Mode's server, driven through `createMcpHandler` over one journal:
// a codemode call answered with a task, polled, approved with `tasks/update` as the person answered
// the questions `tasks/get` showed, and cancelled with `tasks/cancel`, by the MCP SDK v2's own Client
// for the tasks methods. The SDK's client refuses a `tools/call` answered with `resultType: "task"`
// (it has no Tasks support yet), so that request is sent as the JSON-RPC the specification gives.

import type { PendingAction } from "@codemode/core";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod/v4";
import { FORWARD, mailRuntime } from "../test/mail-runtime.ts";
import { codemodeCall, resultOf, tampered, unusedBitsSet } from "../test/mcp-clients.ts";
import { questionKey } from "./approval-round.ts";
import { TASKS_EXTENSION } from "./client-capabilities.ts";
import { codeMcpServer } from "./index.ts";

const KEY = "a key of at least thirty-two bytes, shared";
const handlers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

const Task = z.looseObject({
  taskId: z.string(),
  status: z.enum(["working", "input_required", "completed", "failed", "cancelled"]),
  inputRequests: z
    .record(z.string(), z.looseObject({ method: z.string(), params: z.any() }))
    .optional(),
  result: z
    .looseObject({ structuredContent: z.any().optional(), isError: z.boolean().optional() })
    .optional(),
});
const Empty = z.looseObject({});

function serve(
  runtime: ReturnType<typeof mailRuntime>["runtime"],
  key = KEY,
  options: { maxReplyLength?: number; background?: (work: Promise<unknown>) => void } = {},
) {
  const { maxReplyLength, background } = options;
  const handler = createMcpHandler(
    () =>
      codeMcpServer({
        runtime,
        approvalStateKey: key,
        tasks: background ? { background } : true,
        ...(maxReplyLength ? { maxReplyLength } : {}),
      }),
    { legacy: "reject" },
  );
  handlers.push(handler);
  return handler;
}

type Fetcher = { fetch(request: Request, options?: { authInfo?: unknown }): Promise<Response> };

/** the 2026-07-28 `tools/call` of `codemode`, from a client that declared the Tasks extension */
async function callAsTask(handler: Fetcher, code: string, tasks = true, clientId?: string) {
  const capabilities = {
    elicitation: { form: {} },
    ...(tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
  };
  const authInfo = clientId ? { authInfo: { token: "t", clientId, scopes: [] } } : undefined;
  return resultOf(await handler.fetch(codemodeCall(code, capabilities), authInfo));
}

/** the SDK's own client, on the 2026-07-28 protocol, declaring the Tasks extension */
async function tasksClient(
  handler: Fetcher,
  options: { tasks?: boolean; clientId?: string; form?: boolean } = {},
) {
  const client = new Client(
    { name: "tasks-client", version: "1.0.0" },
    {
      capabilities: {
        ...(options.form === false ? {} : { elicitation: { form: {} } }),
        ...(options.tasks === false ? {} : { extensions: { [TASKS_EXTENSION]: {} } }),
      },
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    },
  );
  const authInfo = options.clientId
    ? { token: "t", clientId: options.clientId, scopes: [] as string[] }
    : undefined;
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://codemode.test/mcp"), {
      fetch: (url, init) =>
        handler.fetch(new Request(url, init), authInfo ? { authInfo } : undefined),
    }),
  );
  const get = (taskId: string) => client.request({ method: "tasks/get", params: { taskId } }, Task);
  return {
    client,
    get,
    update: (taskId: string, inputResponses: Record<string, unknown>) =>
      client.request({ method: "tasks/update", params: { taskId, inputResponses } }, Empty),
    cancel: (taskId: string) =>
      client.request({ method: "tasks/cancel", params: { taskId } }, Empty),
    /** polls until the task's status is `status` */
    async until(taskId: string, status: z.infer<typeof Task>["status"]) {
      let task = await get(taskId);
      await expect
        .poll(async () => {
          task = await get(taskId);
          return task.status;
        })
        .toBe(status);
      return task;
    },
  };
}

describe("MCP tasks (io.modelcontextprotocol/tasks)", () => {
  it("a codemode call becomes a task: polled, approved with tasks/update as the person answered, completed once", async () => {
    const { runtime, sent } = mailRuntime();
    const handler = serve(runtime);
    const created = await callAsTask(handler, FORWARD);
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 86_400_000 });
    const taskId = created.taskId as string;
    const tasks = await tasksClient(handler);

    const waiting = await tasks.until(taskId, "input_required");
    const [key, question] = Object.entries(waiting.inputRequests ?? {})[0] ?? [];
    expect(question).toMatchObject({
      method: "elicitation/create",
      params: {
        message: 'The code wants to run mail.send({"to":"oncall","text":"Disk full"}). Approve it?',
      },
    });
    expect(sent).toEqual([]);

    await tasks.update(taskId, {
      [key as string]: { action: "accept", content: { approve: true } },
    });
    const done = await tasks.until(taskId, "completed");
    expect(done).toMatchObject({
      status: "completed",
      result: { structuredContent: { status: "completed", result: "forwarded" } },
    });
    expect(sent).toEqual(["oncall"]);
    // the same answer again decides nothing more
    await tasks.update(taskId, {
      [key as string]: { action: "accept", content: { approve: true } },
    });
    expect((await tasks.get(taskId)).status).toBe("completed");
    expect(sent).toEqual(["oncall"]);
    await tasks.client.close();
  });

  it("tasks/cancel cancels the run: its waiting call never runs, and the task reads cancelled", async () => {
    const { runtime, sent } = mailRuntime();
    const handler = serve(runtime);
    const taskId = (await callAsTask(handler, FORWARD)).taskId as string;
    const tasks = await tasksClient(handler);
    const waiting = await tasks.until(taskId, "input_required");
    await tasks.cancel(taskId);
    expect((await tasks.get(taskId)).status).toBe("cancelled");
    const [key] = Object.keys(waiting.inputRequests ?? {});
    await tasks.update(taskId, {
      [key as string]: { action: "accept", content: { approve: true } },
    });
    expect((await tasks.get(taskId)).status).toBe("cancelled");
    expect(sent).toEqual([]);
    expect((await runtime.executions())[0]?.status).toBe("cancelled");
    await tasks.client.close();
  });

  it("a declined question rejects the run; the task completes with the tool error", async () => {
    const { runtime, sent } = mailRuntime();
    const handler = serve(runtime);
    const taskId = (await callAsTask(handler, FORWARD)).taskId as string;
    const tasks = await tasksClient(handler);
    const [key] = Object.keys((await tasks.until(taskId, "input_required")).inputRequests ?? {});
    await tasks.update(taskId, { [key as string]: { action: "decline" } });
    expect(await tasks.until(taskId, "completed")).toMatchObject({
      status: "completed",
      result: { isError: true },
    });
    expect(sent).toEqual([]);
    await tasks.client.close();
  });

  it("answers to questions tasks/get did not show decide nothing: too large for the reply, or a client without forms", async () => {
    const { runtime, sent } = mailRuntime();
    // what a tasks/update starts in the background (an approved run's pass) is awaited below
    const started: Promise<unknown>[] = [];
    const background = (work: Promise<unknown>) => void started.push(work);
    const handler = serve(runtime, KEY, { maxReplyLength: 1_000, background });
    const big = `async () => { await mail.send({ to: "attacker", text: "${"x".repeat(5_000)}" }); }`;
    const taskOfBig = (await callAsTask(handler, big)).taskId as string;
    await expect.poll(async () => (await runtime.pending()).length).toBe(1);
    const [waiting] = await runtime.pending();
    const tasks = await tasksClient(handler);
    expect(await tasks.get(taskOfBig)).toMatchObject({ status: "working" });
    expect((await tasks.get(taskOfBig)).inputRequests).toBeUndefined();
    // the key is no secret (seq and digest are what codemode_pending lists), yet it decides nothing
    const yes = { action: "accept", content: { approve: true } };
    let runs = started.length;
    await tasks.update(taskOfBig, { [questionKey(waiting as PendingAction)]: yes });
    // no pass started (an approval's pass would be handed to `background`)
    expect(started.length).toBe(runs);

    // a question small enough to show, answered by a client that declared no form to show it in
    const small = serve(runtime, KEY, { background });
    const taskOfSmall = (await callAsTask(small, FORWARD)).taskId as string;
    await expect.poll(async () => (await runtime.pending()).length).toBe(2);
    const formless = await tasksClient(small, { form: false });
    expect(await formless.get(taskOfSmall)).toMatchObject({ status: "working" });
    const shown = await tasks.until(taskOfSmall, "input_required");
    runs = started.length;
    await formless.update(taskOfSmall, {
      [Object.keys(shown.inputRequests ?? {})[0] as string]: yes,
    });

    expect(started.length).toBe(runs);
    await Promise.all(started);
    expect(sent).toEqual([]);
    expect((await runtime.executions()).map((run) => run.status)).toEqual(["paused", "paused"]);
    // the host decides what the client was not asked
    expect(await runtime.approve({ executionId: waiting?.executionId as string })).toMatchObject({
      status: "completed",
    });
    expect(sent).toEqual(["attacker"]);
    await tasks.client.close();
    await formless.client.close();
  });

  it("another instance with the same key serves the task; another key, another caller or a forged id find nothing", async () => {
    const { runtime, sent } = mailRuntime();
    const first = serve(runtime);
    const taskId = (await callAsTask(first, FORWARD, true, "alice")).taskId as string;
    const second = await tasksClient(serve(runtime), { clientId: "alice" });
    const waiting = await second.until(taskId, "input_required");
    for (const stranger of [
      await tasksClient(serve(runtime, "another key, also of thirty-two bytes"), {
        clientId: "alice",
      }),
      await tasksClient(serve(runtime), { clientId: "mallory" }),
      await tasksClient(serve(runtime)),
    ]) {
      await expect(stranger.get(taskId)).rejects.toThrow(/not found/);
      const [key] = Object.keys(waiting.inputRequests ?? {});
      await expect(
        stranger.update(taskId, {
          [key as string]: { action: "accept", content: { approve: true } },
        }),
      ).rejects.toThrow(/not found/);
      await expect(stranger.cancel(taskId)).rejects.toThrow(/not found/);
      await stranger.client.close();
    }
    await expect(second.get(tampered(taskId))).rejects.toThrow(/not found/);
    await expect(second.get(unusedBitsSet(taskId))).rejects.toThrow(/not found/);
    expect(sent).toEqual([]);
    expect((await second.get(taskId)).status).toBe("input_required");
    await second.client.close();
  });

  it("a client that did not declare the extension gets no task, and its tasks/get is refused", async () => {
    const { runtime } = mailRuntime();
    const handler = serve(runtime);
    const result = await callAsTask(handler, "async () => 42", false);
    expect(result).toMatchObject({ structuredContent: { status: "completed", result: 42 } });
    const tasks = await tasksClient(handler, { tasks: false });
    await expect(tasks.get("codemode-task.1.x.y")).rejects.toThrow(/capability/i);
    await tasks.client.close();
  });
});
