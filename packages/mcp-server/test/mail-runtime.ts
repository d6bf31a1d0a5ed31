// A runtime over a small mail connector for the @codemode/mcp-server tests: `mail.inbox` reads, `mail.send`
// needs approval and records whom it reached.

import { functionConnector } from "@codemode/connector-function";
import { createCodemodeRuntime, memoryStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { expect } from "vitest";

export function mailRuntime(options: { transformResult?: (result: unknown) => unknown } = {}) {
  const sent: string[] = [];
  const mail = functionConnector({
    name: "mail",
    methods: {
      inbox: {
        description: "Unread messages.",
        execute: async () => [{ from: "ops", subject: "Disk full" }],
      },
      send: {
        description: "Send a message.",
        inputSchema: {
          type: "object",
          properties: { to: { type: "string" }, text: { type: "string" } },
          required: ["to", "text"],
        },
        requiresApproval: true,
        execute: async ({ to }: { to: string }) => {
          sent.push(to);
          return { sent: true };
        },
      },
    },
  });
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new QuickJSExecutor(),
    connectors: [mail],
    ...(options.transformResult ? { transformResult: options.transformResult } : {}),
  });
  return { runtime, sent };
}

/** reads one mail, forwards it (a gated call) and returns "forwarded" */
export const FORWARD = `async () => {
  const [first] = await mail.inbox({});
  await mail.send({ to: "oncall", text: first.subject });
  return "forwarded";
}`;

/** one gated call to `to` */
export const sendTo = (to: string) =>
  `async () => { await mail.send({ to: ${JSON.stringify(to)}, text: "hi" }); return ${JSON.stringify(`sent to ${to}`)}; }`;

/**
 * `slow.first` held open until `release()` (gated with `gated`), then `slow.second`: what a
 * cancellation stops. `inCall` resolves once `first` has started.
 */
export function heldRuntime({ gated = false }: { gated?: boolean } = {}) {
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
        requiresApproval: gated,
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
  /** the run ended cancelled by its client: `first` recorded as it ran, `second` never started */
  const expectCancelledAfterFirst = async () => {
    await expect.poll(async () => (await runtime.executions())[0]?.status).toBe("cancelled");
    const [run] = await runtime.executions();
    expect(run?.calls).toMatchObject([{ method: "first", state: "applied" }]);
    expect(run?.error).toContain("The client cancelled the codemode call.");
    expect(reached).toEqual(["first"]);
  };
  return { runtime, release, inCall, expectCancelledAfterFirst };
}
