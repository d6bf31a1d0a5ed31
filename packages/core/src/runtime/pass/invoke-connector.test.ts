import { describe, expect, it } from "vitest";
import type { CallContext } from "../../connector.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { runningRun, testContext, testPass } from "../../test/run-context.ts";
import type { ResolvedConnector } from "../context/configuration.ts";
import { callContext, invokeConnector } from "./invoke-connector.ts";

/** A connector whose `slow` method answers only once its signal aborts, and its call contexts. */
async function setup(timeoutMs?: number) {
  const seen: CallContext[] = [];
  const api = mockConnector({
    name: "api",
    methods: {
      "get-item": { execute: (input) => input },
      slow: {
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        execute: (_input, call) => {
          seen.push(call);
          return new Promise((resolve) => {
            call.signal.addEventListener("abort", () => resolve("aborted"), { once: true });
          });
        },
      },
    },
  });
  const context = testContext([api]);
  const id = await runningRun(context);
  const pass = await testPass(context, id);
  const config = await context.configurator.configure();
  const resolved = config.connectors.get("api") as ResolvedConnector;
  return { api, id, pass, resolved, seen };
}

describe("invokeConnector", () => {
  it("calls the method by its own name with the run, the seq, its key and the signal of the pass's calls", async () => {
    const { api, id, pass, resolved } = await setup();
    expect([...resolved.methods.keys()]).toEqual(["get_item", "slow"]);
    expect(callContext(pass, 4)).toEqual({
      executionId: id,
      seq: 4,
      idempotencyKey: `${id}:4`,
      signal: pass.callSignal,
    });
    expect(await invokeConnector(pass, resolved, "get_item", { sku: 1 }, 4)).toEqual({ sku: 1 });
    expect(api.calls).toEqual([
      {
        kind: "invoke",
        method: "get-item",
        input: { sku: 1 },
        executionId: id,
        seq: 4,
        idempotencyKey: `${id}:4`,
      },
    ]);
    await pass.end();
    pass.release();
  });

  it("abandons a call past its method's time limit with TIMEOUT, and aborts that call only", async () => {
    const { pass, resolved, seen } = await setup(20);
    await expect(invokeConnector(pass, resolved, "slow", {}, 0)).rejects.toMatchObject({
      code: "TIMEOUT",
      message: "api.slow took longer than 20 ms and was abandoned.",
    });
    expect(seen[0]?.signal.aborted).toBe(true);
    expect(pass.callSignal.aborted).toBe(false);
    await pass.end();
    pass.release();
  });

  it("aborts a call with a time limit when its pass is cancelled", async () => {
    const { pass, resolved, seen } = await setup(60_000);
    const call = invokeConnector(pass, resolved, "slow", {}, 0);
    pass.cancel({ at: 0, source: "api", text: "The run was cancelled." });
    expect(await call).toBe("aborted");
    expect(seen[0]?.signal.reason).toMatchObject({ code: "ABORTED" });
    await pass.end();
    pass.release();
  });
});
