// Code Mode's MCP server attacked by its clients, with the MCP SDK v2's own client and server, a real
// runtime (QuickJS, memory journal) and a ledger of effects: a client that cancels the call that
// carries the person's yes, a state given to a server that takes no answers from its clients, states
// replayed after the run moved on, one round retried many times at once on two instances, answers
// that are not answers. A case whose comment starts "Found" was a hole when it was written.
import { createMcpHandler } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { FORWARD, heldRuntime, mailRuntime, sendTo } from "../test/mail-runtime.ts";
import {
  codemodeCall,
  type Era,
  resultOf,
  sessionClient,
  statelessClient,
} from "../test/mcp-clients.ts";
import { TASKS_EXTENSION } from "./client-capabilities.ts";
import { type CodemodeToolsOptions, codeMcpServer } from "./index.ts";

const KEY = "a key of at least thirty-two bytes, shared";
const ELICITS = { elicitation: { form: {} } };

/** a stateless 2026-07-28 endpoint over `runtime` */
const endpoint = (options: CodemodeToolsOptions) =>
  createMcpHandler(() => codeMcpServer(options), { legacy: "reject" });

type Result = Record<string, unknown>;

/** every question of an `input_required` result answered `approve` */
const answerAll = (asked: Result, approve: unknown = true) =>
  Object.fromEntries(
    Object.keys(asked.inputRequests as object).map((key) => [
      key,
      { action: "accept", content: { approve } },
    ]),
  );

const FIRST_THEN_SECOND = "async () => { await slow.first({}); await slow.second({}); return 1 }";

describe.each(["2025", "2026"] as const)("a client that cancels (%s era)", (era: Era) => {
  it("cancelling the call that carries the person's yes cancels the run: nothing starts after", async () => {
    // Found: the approved pass ran on after the client cancelled the codemode call that carried the
    // answers (the retry on 2026-07-28, the shim's re-entry on a 2025-era session): only a call
    // that had not been asked yet was cancellable, so `second` ran for a client that had left
    const { runtime, release, inCall, expectCancelledAfterFirst } = heldRuntime({ gated: true });
    const yes = () => ({ action: "accept" as const, approve: true });
    const make = () => codeMcpServer({ runtime });
    const client =
      era === "2025"
        ? await sessionClient(make(), { answer: yes })
        : await statelessClient(make, { answer: yes });
    // the SDK drops a cancellation of request id 0: the question must not be the server's first
    if (era === "2025") await client.client.ping();
    const cancel = new AbortController();
    const call = client.client.callTool(
      { name: "codemode", arguments: { code: FIRST_THEN_SECOND } },
      { signal: cancel.signal },
    );
    await inCall;
    cancel.abort();
    await expect(call).rejects.toThrow();
    release();
    await expectCancelledAfterFirst();
    await client.close();
  });
});

describe("a state given to a server that takes no answers from its clients", () => {
  it.each(["host", "client-tools"] as const)(
    'approvals: "%s" decides nothing from a retry, even with a state sealed by an elicitation server of the same runtime',
    async (approvals) => {
      // Found: a retry carrying a state was decided by every server, whatever its approvals: one
      // runtime served as "elicitation" to one client and as "host" to others (the same process
      // key, or one approvalStateKey for all), the "host" server approved the run from a client's
      // answers; only "elicitation" takes them now
      const { runtime, sent } = mailRuntime();
      for (const key of [undefined, KEY]) {
        const keyed = key === undefined ? {} : { approvalStateKey: key };
        const asking = endpoint({ runtime, ...keyed });
        const other = endpoint({ runtime, approvals, ...keyed });
        const asked = await resultOf(await asking.fetch(codemodeCall(FORWARD, ELICITS)));
        expect(asked.resultType).toBe("input_required");
        const retried = await resultOf(
          await other.fetch(
            codemodeCall(FORWARD, ELICITS, {
              requestState: asked.requestState,
              inputResponses: answerAll(asked),
            }),
          ),
        );
        expect(retried).toMatchObject({
          isError: true,
          structuredContent: { status: "error", error: expect.stringContaining("decided nothing") },
        });
        expect(sent).toEqual([]);
        const [waiting] = await runtime.pending();
        expect((await runtime.execution(waiting?.executionId as string))?.status).toBe("paused");
        await runtime.reject({
          executionId: waiting?.executionId as string,
          seq: waiting?.seq as number,
        });
        await Promise.all([asking.close(), other.close()]);
      }
    },
  );
});

/** `count` gated calls made at once, each with an input of about `size` characters */
const sendsTogether = (count: number, size: number) => `async () => {
  await Promise.all(Array.from({ length: ${count} }, (_, i) =>
    mail.send({ to: "to" + i, text: "x".repeat(${size}) })));
  return "sent";
}`;

/** a 2026-07-28 request of a tasks method, as the specification's JSON-RPC */
const taskRequest = (method: string, taskId: string) =>
  new Request("http://codemode.test/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      "mcp-name": taskId,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method,
      params: {
        taskId,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "raw-client", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {
            ...ELICITS,
            extensions: { [TASKS_EXTENSION]: {} },
          },
        },
      },
    }),
  });

describe("questions within the reply limit", () => {
  const LIMIT = 2_000;

  it("the questions of a pause, with their state, are at most maxReplyLength characters; more wait for the host", async () => {
    // Found: each question's input was bounded by maxReplyLength, but not all of them together: a
    // pause of 8 calls of 200 characters answered input_required with about 6,000 characters under
    // a limit of 2,000 (and up to 256 calls of 100,000 characters, 25 MB, under the default)
    const { runtime, sent } = mailRuntime();
    const served = endpoint({ runtime, maxReplyLength: LIMIT, approvalStateKey: KEY });
    const one = await resultOf(await served.fetch(codemodeCall(sendsTogether(1, 200), ELICITS)));
    expect(one.resultType).toBe("input_required");
    const questions = { inputRequests: one.inputRequests, requestState: one.requestState };
    expect(JSON.stringify(questions).length).toBeLessThanOrEqual(LIMIT);

    const eight = await resultOf(await served.fetch(codemodeCall(sendsTogether(8, 200), ELICITS)));
    expect(eight.resultType).not.toBe("input_required");
    expect(eight.structuredContent).toMatchObject({ status: "paused" });
    expect((eight.content as { text: string }[])[0]?.text.length).toBeLessThanOrEqual(LIMIT);
    expect(sent).toEqual([]);
    await served.close();
  });

  it("a task's questions too: past the limit, the task waits for the host", async () => {
    const { runtime, sent } = mailRuntime();
    const served = endpoint({ runtime, maxReplyLength: LIMIT, approvalStateKey: KEY, tasks: true });
    const declared = { ...ELICITS, extensions: { [TASKS_EXTENSION]: {} } };
    for (const [count, asks] of [
      [1, true],
      [8, false],
    ] as const) {
      const created = await resultOf(
        await served.fetch(codemodeCall(sendsTogether(count, 200), declared)),
      );
      const taskId = created.taskId as string;
      let task: Result = {};
      await expect
        .poll(async () => {
          task = await resultOf(await served.fetch(taskRequest("tasks/get", taskId)));
          return task.status === "input_required" || task.statusMessage !== "The code is running.";
        })
        .toBe(true);
      expect(task.status).toBe(asks ? "input_required" : "working");
      expect(JSON.stringify(task.inputRequests ?? {}).length).toBeLessThanOrEqual(LIMIT);
    }
    expect(sent).toEqual([]);
    await served.close();
  });
});

describe("answers that are not a person's yes", () => {
  it("only an own answer { action: accept, content: { approve: true } } approves; others leave the run paused or reject it", async () => {
    const { runtime, sent } = mailRuntime();
    const served = endpoint({ runtime, approvalStateKey: KEY });
    const asked = await resultOf(await served.fetch(codemodeCall(FORWARD, ELICITS)));
    const [key] = Object.keys(asked.inputRequests as object) as [string];
    const yes = { action: "accept", content: { approve: true } };
    const retry = async (inputResponses: unknown) =>
      resultOf(
        await served.fetch(
          codemodeCall(FORWARD, ELICITS, { requestState: asked.requestState, inputResponses }),
        ),
      );
    // Found: an approving answer hidden under "__proto__" approved the call. The SDK copies the
    // client's answers into a plain object, where that key sets the object's prototype: the answer
    // was read through it, though the answers the server holds list no such key (a host's log or
    // verify hook saw none). Only an answer that is the responses' own entry counts now.
    const hidden = JSON.parse(`{"__proto__": {"${key}": ${JSON.stringify(yes)}}}`);
    for (const inputResponses of [
      hidden,
      "yes",
      [yes],
      { [key]: "approve" },
      { [key]: { method: "elicitation/create", result: yes } },
      { constructor: yes, toString: yes },
    ]) {
      expect((await retry(inputResponses)).structuredContent).toMatchObject({ status: "paused" });
    }
    expect(sent).toEqual([]);
    expect(Object.hasOwn(Object.prototype, key)).toBe(false);
    // a string "true" is not a yes: the call is refused, and the run rejected
    const refused = await retry({ [key]: { action: "accept", content: { approve: "true" } } });
    expect(refused).toMatchObject({ isError: true });
    expect(sent).toEqual([]);
    expect((await runtime.executions())[0]?.status).toBe("rejected");
    await served.close();
  });
});

/** two gated calls, one after the other: the run pauses at each */
const ONE_THEN_ANOTHER = `async () => {
  await mail.send({ to: "first", text: "1" });
  await mail.send({ to: "second", text: "2" });
  return "both sent";
}`;

describe("states replayed, crossed and raced", () => {
  it("an old state never approves the run's next call, even with answers for it; a state decides only its own run", async () => {
    const { runtime, sent } = mailRuntime();
    const served = endpoint({ runtime, approvalStateKey: KEY });
    const retry = async (code: string, state: Result, inputResponses: unknown) =>
      resultOf(
        await served.fetch(
          codemodeCall(code, ELICITS, { requestState: state.requestState, inputResponses }),
        ),
      );
    const first = await resultOf(await served.fetch(codemodeCall(ONE_THEN_ANOTHER, ELICITS)));
    const second = await retry(ONE_THEN_ANOTHER, first, answerAll(first));
    expect(sent).toEqual(["first"]);
    expect(second.resultType).toBe("input_required");
    // the first round's state again, with yes to the first call and to the call that waits now
    const replayed = await retry(ONE_THEN_ANOTHER, first, {
      ...answerAll(first),
      ...answerAll(second),
    });
    expect(replayed.resultType).toBe("input_required");
    expect(JSON.stringify(replayed.inputRequests)).toContain('\\"to\\":\\"second\\"');
    expect(sent).toEqual(["first"]);

    // another run's state with the answers to this run's question: this run is not decided
    const other = await resultOf(await served.fetch(codemodeCall(sendTo("mallory"), ELICITS)));
    const crossed = await retry(sendTo("mallory"), other, answerAll(second));
    expect(crossed.structuredContent).toMatchObject({ status: "paused" });
    const crossedBack = await retry(ONE_THEN_ANOTHER, other, answerAll(other));
    expect(crossedBack.structuredContent).toMatchObject({
      error: expect.stringContaining("nothing was decided"),
    });
    expect(sent).toEqual(["first"]);
    await served.close();
  });

  it("one round retried four times at once on two instances runs each approved call once", async () => {
    const { runtime, sent } = mailRuntime();
    const instances = [0, 1].map(() => endpoint({ runtime, approvalStateKey: KEY }));
    const [one, two] = instances as [ReturnType<typeof endpoint>, ReturnType<typeof endpoint>];
    const asked = await resultOf(await one.fetch(codemodeCall(ONE_THEN_ANOTHER, ELICITS)));
    const params = { requestState: asked.requestState, inputResponses: answerAll(asked) };
    const retries = await Promise.all(
      [one, two, one, two].map(async (served) =>
        resultOf(await served.fetch(codemodeCall(ONE_THEN_ANOTHER, ELICITS, params))),
      ),
    );
    expect(sent).toEqual(["first"]);
    // whichever retry took the run asks about the next call; none of them approved it
    for (const result of retries) {
      expect(JSON.stringify(result)).not.toContain('"completed"');
    }
    expect((await runtime.executions())[0]?.status).toBe("paused");
    await Promise.all(instances.map((served) => served.close()));
  });

  it.each(["reject", "cancel"] as const)(
    "the host's %s between the questions and the retry: the person's yes runs nothing",
    async (decision) => {
      const { runtime, sent } = mailRuntime();
      const served = endpoint({ runtime, approvalStateKey: KEY });
      const asked = await resultOf(await served.fetch(codemodeCall(FORWARD, ELICITS)));
      const [waiting] = await runtime.pending();
      const executionId = waiting?.executionId as string;
      if (decision === "reject") {
        expect(await runtime.reject({ executionId, seq: waiting?.seq as number })).toBe(true);
      } else {
        expect(await runtime.cancel({ executionId })).toMatchObject({ cancelled: true });
      }
      const retried = await resultOf(
        await served.fetch(
          codemodeCall(FORWARD, ELICITS, {
            requestState: asked.requestState,
            inputResponses: answerAll(asked),
          }),
        ),
      );
      expect(retried).toMatchObject({
        isError: true,
        structuredContent: { error: expect.stringContaining("no longer waits") },
      });
      expect(sent).toEqual([]);
      await served.close();
    },
  );
});

describe("a 2025-era session whose client fails mid-question", () => {
  it("a question the client fails to answer decides nothing: the run waits for the host", async () => {
    const { runtime, sent } = mailRuntime();
    const client = await sessionClient(codeMcpServer({ runtime }), {
      answer: () => {
        throw new Error("the client's form crashed");
      },
    });
    const result = await client.client.callTool({ name: "codemode", arguments: { code: FORWARD } });
    expect(result.isError).toBe(true);
    expect(client.asked).toHaveLength(1);
    expect(sent).toEqual([]);
    const [waiting] = await runtime.pending();
    expect(waiting).toMatchObject({ method: "send", args: { to: "oncall" } });
    await client.close();
  });
});
