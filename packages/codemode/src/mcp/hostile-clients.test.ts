// Code Mode's MCP server attacked by its clients, with the MCP SDK v2's own client and server, a real
// runtime (QuickJS, memory journal) and a ledger of effects: a client that cancels the call that
// carries the person's yes, a state given to a server that takes no answers from its clients, states
// replayed after the run moved on, one round retried many times at once on two instances, answers
// that are not answers. A case whose comment starts "Found" was a hole when it was written.
import { createCodemodeRuntime, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { FORWARD, mailRuntime } from "../../test/mail-runtime.ts";
import {
  codemodeCall,
  type Era,
  resultOf,
  sessionClient,
  statelessClient,
} from "../../test/mcp-clients.ts";
import { functionConnector } from "../index.ts";
import { type CodemodeToolsOptions, codeMcpServer } from "../mcp.ts";

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

/** a gated call held open until released, then an ungated one: what a cancellation stops */
function heldRuntime() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered!: () => void;
  const inCall = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const reached: string[] = [];
  const slow = functionConnector({
    name: "slow",
    methods: {
      first: {
        requiresApproval: true,
        execute: async () => {
          reached.push("first");
          entered();
          await held;
          return "first done";
        },
      },
      second: {
        execute: async () => {
          reached.push("second");
          return "second done";
        },
      },
    },
  });
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new QuickJSExecutor(),
    connectors: [slow],
  });
  return { runtime, reached, release, inCall };
}

const FIRST_THEN_SECOND = "async () => { await slow.first({}); await slow.second({}); return 1 }";

describe.each(["2025", "2026"] as const)("a client that cancels (%s era)", (era: Era) => {
  it("cancelling the call that carries the person's yes cancels the run: nothing starts after", async () => {
    // Found: the approved pass ran on after the client cancelled the codemode call that carried the
    // answers (the retry on 2026-07-28, the shim's re-entry on a 2025-era session): only a call
    // that had not been asked yet was cancellable, so `second` ran for a client that had left
    const { runtime, reached, release, inCall } = heldRuntime();
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
    await expect.poll(async () => (await runtime.executions())[0]?.status).toBe("cancelled");
    const [run] = await runtime.executions();
    expect(run?.calls).toMatchObject([{ method: "first", state: "applied" }]);
    expect(run?.error).toContain("The client cancelled the codemode call.");
    expect(reached).toEqual(["first"]);
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
