// Approval by elicitation as multi-round-trip requests, with the MCP SDK v2's own client and server on
// both protocol eras: the 2026-07-28 client retries the `codemode` call with the person's answers and
// the sealed state (auto-fulfilment), the 2025-era session gets the same questions as elicitation
// requests. Any instance over the shared journal decides a retry; a state altered, expired, for
// other code or another caller decides nothing.

import { functionConnector } from "@codemode/connector-function";
import {
  type Connector,
  createCodemodeRuntime,
  decisionHandleOf,
  MAX_OPERATION_LENGTH,
  memoryStore,
  type PendingAction,
} from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { FORWARD, mailRuntime } from "../test/mail-runtime.ts";
import {
  codemodeCall,
  type Era,
  sessionClient,
  statelessClient,
  type TestClient,
  tampered,
  unusedBitsSet,
} from "../test/mcp-clients.ts";
import { questionKey, questionsFor } from "./approval-round.ts";
import { type ApprovalState, approvalStateCodec, sha256Text } from "./approval-state.ts";
import { codeMcpServer } from "./index.ts";

const KEY = "a key of at least thirty-two bytes, shared";

type Output = { status: string; executionId: string; result?: unknown; error?: string };

/** two gated calls in one Promise.all: they pause together */
const TWO_SENDS = `async () => {
  await Promise.all([
    mail.send({ to: "alice", text: "first" }),
    mail.send({ to: "bob", text: "second" }),
  ]);
  return "both sent";
}`;

async function connect(
  era: Era,
  answer: (message: string) => { action: "accept" | "decline" | "cancel"; approve?: boolean },
) {
  const { runtime, sent } = mailRuntime();
  const make = () => codeMcpServer({ runtime, approvalStateKey: KEY });
  const client: TestClient =
    era === "2025"
      ? await sessionClient(make(), { answer })
      : await statelessClient(make, { answer });
  return { client, runtime, sent };
}

const call = (client: TestClient, code: string) =>
  client.client.callTool({ name: "codemode", arguments: { code } });

describe.each(["2025", "2026"] as const)("approval by elicitation (%s era)", (era) => {
  it("asks about the gated call with its exact input, runs it once on yes", async () => {
    const { client, sent } = await connect(era, () => ({ action: "accept", approve: true }));
    const result = await call(client, FORWARD);
    expect(result.structuredContent).toMatchObject({ status: "completed", result: "forwarded" });
    expect(client.asked).toEqual([
      'The code wants to run mail.send({"to":"oncall","text":"Disk full"}). Approve it?',
    ]);
    expect(sent).toEqual(["oncall"]);
    await client.close();
  });

  it("asks about calls made at once together; a no to one rejects the run, nothing runs", async () => {
    const { client, sent, runtime } = await connect(era, (message) => ({
      action: "accept",
      approve: !message.includes("bob"),
    }));
    const result = await call(client, TWO_SENDS);
    expect(client.asked).toHaveLength(2);
    expect(client.asked[0]).toContain("2 calls together");
    expect(result.isError).toBe(true);
    const output = result.structuredContent as Output;
    expect(output.error).toContain("did not approve");
    expect(sent).toEqual([]);
    expect((await runtime.execution(output.executionId))?.status).toBe("rejected");
    await client.close();
  });

  it("a declined question rejects the run", async () => {
    const { client, sent } = await connect(era, () => ({ action: "decline" }));
    const result = await call(client, FORWARD);
    expect(result.isError).toBe(true);
    expect(sent).toEqual([]);
    await client.close();
  });
});

describe("approval rounds on the 2026-07-28 protocol", () => {
  it("a retry decided by another instance over the same journal runs the call once", async () => {
    const { runtime, sent } = mailRuntime();
    const instances = [0, 1].map(() => () => codeMcpServer({ runtime, approvalStateKey: KEY }));
    const served: number[] = [];
    const client = await statelessClient(instances, {
      answer: () => ({ action: "accept", approve: true }),
      route: (request) => {
        served.push(request % 2);
        return request % 2;
      },
    });
    const result = await call(client, FORWARD);
    expect(result.structuredContent).toMatchObject({ status: "completed", result: "forwarded" });
    expect(sent).toEqual(["oncall"]);
    expect(new Set(served)).toEqual(new Set([0, 1]));
    await client.close();
  });

  it("asks only about the calls a person decides: a deferred call waits for the host's resolve", async () => {
    const ran: string[] = [];
    const ops = functionConnector({
      name: "ops",
      methods: {
        deploy: {
          requiresApproval: true,
          execute: async () => {
            ran.push("deploy");
            return "deployed";
          },
        },
        ticket: { deferred: true },
      },
    });
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: new QuickJSExecutor(),
      connectors: [ops],
    });
    const client = await statelessClient(() => codeMcpServer({ runtime, approvalStateKey: KEY }), {
      answer: () => ({ action: "accept", approve: true }),
    });
    const code =
      "async () => Promise.all([ops.deploy({ env: 'prod' }), ops.ticket({ title: 'release' })])";
    const result = await call(client, code);
    expect(client.asked).toEqual(['The code wants to run ops.deploy({"env":"prod"}). Approve it?']);
    expect(ran).toEqual(["deploy"]);
    // the run waits for the ticket's result from outside, which the host records
    const output = result.structuredContent as Output;
    expect(output.status).toBe("paused");
    expect(await runtime.pending(output.executionId)).toMatchObject([
      { method: "ticket", deferred: true },
    ]);
    const ticket = (await runtime.pending(output.executionId))[0]?.seq as number;
    expect(
      await runtime.resolve({ executionId: output.executionId, seq: ticket, result: "T-1" }),
    ).toMatchObject({ status: "completed", result: ["deployed", "T-1"] });
    await client.close();
  });

  it("a client that does not answer gets the run paused for the host", async () => {
    const { runtime, sent } = mailRuntime();
    const client = await statelessClient(() => codeMcpServer({ runtime }));
    const result = await call(client, FORWARD);
    expect(result.structuredContent).toMatchObject({ status: "paused" });
    expect(sent).toEqual([]);
    await client.close();
  });

  it("a retry whose state was altered, sealed with another key, or is for other code decides nothing", async () => {
    const { runtime, sent } = mailRuntime();
    const paused = await runtime.execute({ code: FORWARD });
    if (paused.status !== "paused") throw new Error("expected a pause");
    const handle = decisionHandleOf(paused.pending, paused.executionId);
    const key = questionKey(handle.calls[0] as { seq: number; digest: string });
    const state: ApprovalState = {
      version: 1,
      executionId: paused.executionId,
      handle,
      code: await sha256Text(FORWARD),
      expires: Math.floor(Date.now() / 1000) + 60,
    };
    const forged = [
      await approvalStateCodec("another key, also of thirty-two bytes").seal(state),
      await approvalStateCodec(KEY).seal({ ...state, code: await sha256Text("other code") }),
      await approvalStateCodec(KEY).seal({ ...state, expires: 1 }),
      tampered(await approvalStateCodec(KEY).seal(state)),
      unusedBitsSet(await approvalStateCodec(KEY).seal(state)),
      "not a state",
      // sealed for a caller: a request without that caller decides nothing
      await approvalStateCodec(KEY).seal({ ...state, principal: "alice" }),
    ];
    // each retried as a raw 2026-07-28 tools/call with an approving answer, on a fresh server
    const handler = createMcpHandler(() => codeMcpServer({ runtime, approvalStateKey: KEY }), {
      legacy: "reject",
    });
    for (const requestState of forged) {
      const response = await handler.fetch(retry(FORWARD, requestState, key));
      const text = await response.text();
      expect(text).toContain("nothing was decided");
      expect(text).not.toContain('"completed"');
    }
    expect(sent).toEqual([]);
    expect((await runtime.execution(paused.executionId))?.status).toBe("paused");
    // the same retry with the state the server sealed (the control): the call runs, once
    const valid = await approvalStateCodec(KEY).seal(state);
    const response = await handler.fetch(retry(FORWARD, valid, key));
    expect(await response.text()).toContain('\\"status\\":\\"completed\\"');
    expect(sent).toEqual(["oncall"]);
    const again = await handler.fetch(retry(FORWARD, valid, key));
    expect(await again.text()).not.toContain('\\"status\\":\\"completed\\"');
    expect(sent).toEqual(["oncall"]);
    await handler.close();
  });
});

/** `ops.deploy`, gated, whose method names `operation` as where its calls go; `ran` has their inputs */
function deployRuntime(operation: string) {
  const ran: unknown[] = [];
  const ops: Connector = {
    specificationVersion: "v1",
    name: "ops",
    methods: () => ({ deploy: { requiresApproval: true, operation } }),
    invoke: async (_method, input) => {
      ran.push(input);
      return "deployed";
    },
  };
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new QuickJSExecutor(),
    connectors: [ops],
  });
  return { runtime, ran };
}

/** a waiting call of `ops.deploy` as the runtime lists it, with `operation` when given */
const waiting = (seq: number, operation?: string): PendingAction => ({
  executionId: "exec_1",
  seq,
  connector: "ops",
  method: "deploy",
  args: { env: "prod" },
  digest: String(seq).repeat(64),
  ...(operation === undefined ? {} : { operation }),
});

const messagesOf = (questions: ReturnType<typeof questionsFor>) =>
  Object.values(questions ?? {}).map(
    (question) => (question.params as { message: string }).message,
  );

describe("a question says where its call goes when its method names an operation", () => {
  it.each(["2025", "2026"] as const)("after the call, on the %s era", async (era) => {
    const { runtime, ran } = deployRuntime(
      "POST https://deploy.example/v1/releases/{env} (form 9c1e)",
    );
    const make = () => codeMcpServer({ runtime, approvalStateKey: KEY });
    const answer = () => ({ action: "accept" as const, approve: true });
    const client =
      era === "2025"
        ? await sessionClient(make(), { answer })
        : await statelessClient(make, { answer });
    const result = await call(client, "async () => ops.deploy({ env: 'prod' })");
    expect(client.asked).toEqual([
      'The code wants to run ops.deploy({"env":"prod"}). It sends POST https://deploy.example/v1/releases/{env} (form 9c1e). Approve it?',
    ]);
    expect(result.structuredContent).toMatchObject({ status: "completed", result: "deployed" });
    expect(ran).toEqual([{ env: "prod" }]);
    await client.close();
  });

  it("in each question of a round, escaping what a person cannot see, before a doubt", () => {
    const questions = questionsFor(
      [{ ...waiting(1, "PUT\u00A0https://a.example/x"), inDoubt: "It may have run." }, waiting(2)],
      100_000,
    );
    expect(messagesOf(questions)).toEqual([
      'The code wants to run 2 calls together; none runs unless you approve each. Call 1 of 2: ops.deploy({"env":"prod"}). It sends PUT\\u00a0https://a.example/x. It may have run. Approve it?',
      'The code wants to run 2 calls together; none runs unless you approve each. Call 2 of 2: ops.deploy({"env":"prod"}). Approve it?',
    ]);
  });

  it("a long operation is shown whole within the reply limit, or the person is not asked", () => {
    const long = `GET https://a.example/${"x".repeat(MAX_OPERATION_LENGTH - 22)}`;
    expect(long).toHaveLength(MAX_OPERATION_LENGTH);
    const [shown] = messagesOf(questionsFor([waiting(1, long)], 100_000));
    expect(shown).toBe(
      `The code wants to run ops.deploy({"env":"prod"}). It sends ${long}. Approve it?`,
    );
    // the smallest reply limit fits the call but not its operation: the run waits for the host
    expect(questionsFor([waiting(1)], 1_000)).toBeDefined();
    expect(questionsFor([waiting(1, long)], 1_000)).toBeUndefined();
    // the operations of the calls so far count against the room left for the next one
    const fits = JSON.stringify(questionsFor([waiting(1, long)], 100_000)).length;
    expect(questionsFor([waiting(1, long)], fits)).toBeDefined();
    expect(questionsFor([waiting(1, long), waiting(2, long)], fits)).toBeUndefined();
  });
});

/** a 2026-07-28 `tools/call` of `codemode` retried with `requestState` and an approving answer */
const retry = (code: string, requestState: string, key: string): Request =>
  codemodeCall(
    code,
    { elicitation: { form: {} } },
    { inputResponses: { [key]: { action: "accept", content: { approve: true } } }, requestState },
  );
