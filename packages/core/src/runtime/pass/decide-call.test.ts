import { describe, expect, it } from "vitest";
import type { ConnectorMethod } from "../../connector.ts";
import { decisionHandleOf } from "../../decision-handle.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor, type MockSandbox } from "../../test/mock-executor.ts";
import { callEntry, runningRun, testContext, testPass } from "../../test/run-context.ts";
import { withJournal } from "../../test/with-journal.ts";
import type { ResolvedConnector } from "../context/configuration.ts";
import { codec } from "../context/values.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";
import { approvalNeeded, decideCall, PAUSE } from "./decide-call.ts";

const runtimeWith = (program: (sandbox: MockSandbox) => unknown) => {
  const shop = mockConnector({
    name: "shop",
    methods: {
      read: { execute: (input) => ({ read: input }) },
      buy: { requiresApproval: true, execute: (input) => ({ bought: input }) },
      fail: {
        execute: () => {
          throw Object.assign(new Error("out of stock"), { code: "OUT_OF_STOCK", sku: 7 });
        },
      },
      roll: { replay: "reexecute", execute: () => Math.random() },
    },
  });
  const executor = new MockExecutor(program);
  const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [shop] });
  return { runtime, shop, executor };
};

describe("decideCall", () => {
  // a journal write that fails (before it applied, or after: its answer lost) ends the run there;
  // a program that caught the store's error would do the work another way, and a later pass would
  // run the call as a new one
  for (const applied of [false, true]) {
    it(`ends the run when the journal fails the decision on a call${applied ? " after applying it" : ""}: a program that catches it goes no further`, async () => {
      const svc = mockConnector({
        name: "svc",
        methods: { write: {}, send: { requiresApproval: true } },
      });
      const store = withJournal(memoryStore(), (journal) => ({
        putEntry: async (...args: Parameters<typeof journal.putEntry>) => {
          if (args[0].seq !== 0) return journal.putEntry(...args);
          if (applied) await journal.putEntry(...args);
          throw new Error("connection terminated");
        },
      }));
      const executor = new MockExecutor(async ({ svc }) => {
        let id: unknown;
        try {
          id = await svc.write?.({ amount: 5 });
        } catch {
          id = await svc.write?.({ amount: 5 });
        }
        return svc.send?.({ id });
      });
      const runtime = createCodemodeRuntime({ store, executor, connectors: [svc] });
      const output = await runtime.execute({ code: "async () => 0" });
      expect(output).toMatchObject({
        status: "error",
        error: expect.stringMatching(
          /^The decision on svc\.write \(#0\) failed in the journal \(connection terminated\), so the run stops here/,
        ),
      });
      const run = await runtime.execution(output.executionId);
      expect(run?.status).toBe("error");
      expect(run?.calls).toMatchObject(applied ? [{ seq: 0, state: "executing" }] : []);
      expect(await runtime.approve({ executionId: output.executionId })).toMatchObject({
        status: "error",
      });
      expect(svc.calls).toEqual([]);
    });
  }

  it("ends the run when the journal fails to put a call in doubt to a person", async () => {
    const svc = mockConnector({ name: "svc", methods: { write: {}, after: {} } });
    const base = memoryStore();
    const store = withJournal(base, (journal) => ({
      updateEntry: (...args: Parameters<typeof journal.updateEntry>) =>
        args[3].state === "pending"
          ? Promise.reject(new Error("connection terminated"))
          : journal.updateEntry(...args),
    }));
    const executor = new MockExecutor(async ({ svc }) => {
      try {
        await svc.write?.({ amount: 5 });
      } catch {
        await svc.after?.({});
      }
      return "done";
    });
    const runtime = createCodemodeRuntime({ store, executor, connectors: [svc] });
    // an earlier pass started the call and never recorded it: the run is paused on it, in doubt
    const journal = base.journal("default");
    const paused = await createCodemodeRuntime({
      store: base,
      executor: new MockExecutor(async ({ svc }) => svc.after?.({})),
      connectors: [
        mockConnector({ name: "svc", methods: { write: {}, after: { requiresApproval: true } } }),
      ],
    }).execute({ code: "async () => 0" });
    await journal.updateEntry(paused.executionId, 0, ["pending"], {
      method: "write",
      args: codec.encode({ amount: 5 }),
      state: "executing",
      requiresApproval: false,
    });
    const output = await runtime.approve({ executionId: paused.executionId });
    expect(output).toMatchObject({
      status: "error",
      error: expect.stringMatching(/^The decision on svc\.write \(#0\) failed in the journal/),
    });
    expect(svc.calls).toEqual([]);
  });

  it("replays a recorded call without calling the connector again", async () => {
    const { runtime, shop } = runtimeWith(async ({ shop }) => {
      const first = await shop.read?.({ n: 1 });
      await shop.buy?.({ n: 2 });
      return first;
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(paused.status).toBe("paused");
    const done = await runtime.approve({ executionId: paused.executionId });
    expect(done).toMatchObject({ status: "completed", result: { read: { n: 1 } } });
    expect(shop.calls.map((call) => `${call.method} ${call.seq}`)).toEqual(["read 0", "buy 1"]);
  });

  it("runs an approved call with the input recorded when it paused, not the live object", async () => {
    let pass = 0;
    const { runtime, shop } = runtimeWith(async ({ shop }) => {
      pass++;
      return shop.buy?.(pass === 1 ? { a: 1, b: [1, 2] } : { b: [1, 2], a: 1 });
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    await runtime.approve({ executionId: paused.executionId });
    expect(Object.keys(shop.calls[0]?.input as object)).toEqual(["a", "b"]);
  });

  it("fails the run as a divergence when the pass calls something else at a recorded seq", async () => {
    let pass = 0;
    const { runtime } = runtimeWith(async ({ shop }) => {
      pass++;
      await shop.read?.({ n: pass });
      await shop.buy?.({});
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    const output = await runtime.approve({ executionId: paused.executionId });
    expect(output).toMatchObject({
      status: "error",
      error: expect.stringMatching(/divergence at call #0/),
    });
  });

  describe("a call bound to its method's operation", () => {
    /** A runtime over `store` whose `shop` names the operations given (another request's connector). */
    const shopNaming = (
      store: ReturnType<typeof memoryStore>,
      operations: { read?: string; buy?: string },
      program: (sandbox: MockSandbox) => unknown,
    ) => {
      const shop = mockConnector({
        name: "shop",
        methods: {
          read: { ...(operations.read ? { operation: operations.read } : {}) },
          buy: { requiresApproval: true, ...(operations.buy ? { operation: operations.buy } : {}) },
        },
      });
      const executor = new MockExecutor(program);
      return { shop, runtime: createCodemodeRuntime({ store, executor, connectors: [shop] }) };
    };
    const program = async ({ shop }: MockSandbox) => {
      await shop.read?.({ id: 1 });
      return shop.buy?.({ id: 1 });
    };
    const SHOWN = {
      read: "GET https://shop.example/items/{id}",
      buy: "POST https://shop.example/buy",
    };

    it("records the operation, shows it with the waiting call, and runs the approved call while it is the same", async () => {
      const store = memoryStore();
      const first = shopNaming(store, SHOWN, program);
      const paused = await first.runtime.execute({ code: "async () => 0" });
      expect(paused).toMatchObject({
        status: "paused",
        pending: [{ seq: 1, method: "buy", operation: SHOWN.buy }],
      });
      const second = shopNaming(store, SHOWN, program);
      expect(await second.runtime.approve({ executionId: paused.executionId })).toMatchObject({
        status: "completed",
      });
      expect(second.shop.calls.map((call) => call.method)).toEqual(["buy"]);
    });

    for (const [name, now] of [
      ["another operation", "POST https://elsewhere.example/buy"],
      ["no operation", undefined],
    ] as const) {
      it(`ends the run, running nothing, when the approved call's method now names ${name}`, async () => {
        const store = memoryStore();
        const first = shopNaming(store, SHOWN, program);
        const paused = await first.runtime.execute({ code: "async () => 0" });
        // the next request's connector (a document fetched again) sends buy elsewhere; read, whose
        // outcome is recorded, moved too and replays as before
        const moved = shopNaming(store, { ...(now ? { buy: now, read: now } : {}) }, program);
        const output = await moved.runtime.approve({ executionId: paused.executionId });
        expect(output).toMatchObject({
          status: "error",
          error: expect.stringMatching(/^Replay divergence at call #1: shop\.buy was recorded for/),
        });
        const error = output.status === "error" ? output.error : "";
        expect(error).toContain(`was recorded for operation "${SHOWN.buy}"`);
        expect(error).toContain(now ? `now names operation "${now}"` : "now names operation none");
        expect(moved.shop.calls).toEqual([]);
        expect(first.shop.calls.map((call) => call.method)).toEqual(["read"]);
        expect((await moved.runtime.execution(paused.executionId))?.status).toBe("error");
      });
    }

    it("ends the run when a call recorded without an operation is approved after its method named one", async () => {
      const store = memoryStore();
      const before = shopNaming(store, {}, program);
      const paused = await before.runtime.execute({ code: "async () => 0" });
      expect(paused.status === "paused" && paused.pending[0]).not.toHaveProperty("operation");
      const after = shopNaming(store, SHOWN, program);
      expect(await after.runtime.approve({ executionId: paused.executionId })).toMatchObject({
        status: "error",
        error: expect.stringContaining("was recorded for operation none"),
      });
      expect(after.shop.calls).toEqual([]);
    });

    it("a decision handle covers the operation: the digest of a call differs by where it goes", async () => {
      const digests = [];
      for (const operations of [SHOWN, { ...SHOWN, buy: "POST https://elsewhere.example/buy" }]) {
        const { runtime } = shopNaming(memoryStore(), operations, program);
        const paused = await runtime.execute({ code: "async () => 0" });
        digests.push(paused.status === "paused" ? paused.pending[0]?.digest : undefined);
      }
      expect(digests[0]).toMatch(/^[0-9a-f]{64}$/);
      expect(digests[1]).toMatch(/^[0-9a-f]{64}$/);
      expect(digests[0]).not.toBe(digests[1]);
    });
  });

  it("records a failure and throws the same error live and on replay", async () => {
    const seen: unknown[] = [];
    const { runtime, shop } = runtimeWith(async ({ shop }) => {
      try {
        await shop.fail?.({});
      } catch (error) {
        const { name, message, code, sku } = error as Error & { code: string; sku: number };
        seen.push({ name, message, code, sku });
      }
      await shop.buy?.({});
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    await runtime.approve({ executionId: paused.executionId });
    expect(seen).toEqual([
      { name: "Error", message: "out of stock", code: "OUT_OF_STOCK", sku: 7 },
      { name: "Error", message: "out of stock", code: "OUT_OF_STOCK", sku: 7 },
    ]);
    expect(shop.calls.filter((call) => call.method === "fail")).toHaveLength(1);
  });

  it("re-executes a reexecute call on every pass and records no result", async () => {
    const { runtime, shop } = runtimeWith(async ({ shop }) => {
      await shop.roll?.({});
      await shop.buy?.({});
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    await runtime.approve({ executionId: paused.executionId });
    expect(shop.calls.filter((call) => call.method === "roll")).toHaveLength(2);
    const run = await runtime.execution(paused.executionId);
    expect(run?.calls[0]).toMatchObject({ state: "applied" });
    expect(run?.calls[0]?.result).toBeUndefined();
  });

  it("a reexecute call whose method needs a person now waits once, then is replayed: never run again unshown", async () => {
    // the same connector deployed twice over one journal: v1 lets `transfer` run again on replay,
    // v2 gates it (and so records it); the run started under v1 and goes on under v2
    let transfers = 0;
    const connector = (gated: boolean) =>
      mockConnector({
        name: "acct",
        methods: {
          transfer: gated
            ? { requiresApproval: true, execute: () => ++transfers }
            : { replay: "reexecute", execute: () => ++transfers },
          ask: { requiresApproval: true },
        },
      });
    const executor = new MockExecutor(async ({ acct }) => {
      await acct.transfer?.({ amount: 100 });
      await acct.ask?.({ n: 1 });
      await acct.ask?.({ n: 2 });
      return "done";
    });
    const store = memoryStore();
    const v1 = createCodemodeRuntime({ store, executor, connectors: [connector(false)] });
    const v2 = createCodemodeRuntime({ store, executor, connectors: [connector(true)] });
    const { executionId } = await v1.execute({ code: "async () => 0" });
    expect(transfers).toBe(1);
    const shown: string[][] = [];
    let outcome = await v2.approve({ executionId });
    for (let round = 0; outcome.status === "paused" && round < 5; round++) {
      const pending = await v2.pending(executionId);
      shown.push(pending.map((action) => `${action.seq} ${action.method}`));
      const before = transfers;
      outcome = await v2.approve({ executionId, handle: decisionHandleOf(pending) });
      // a transfer runs only in a pass whose approval showed it
      if (transfers > before) expect(shown.at(-1)).toContain("0 transfer");
    }
    expect(outcome).toMatchObject({ status: "completed", result: "done" });
    // the first approval covered #1, kept while the pass paused at the transfer before it
    expect(shown).toEqual([["0 transfer"], ["2 ask"]]);
    expect(transfers).toBe(2);
  });

  it("reads a requiresApproval flag closed: any value but false, undefined or null asks", async () => {
    const call = { executionId: "exec_1", seq: 0 };
    for (const flag of [true, 1, "yes", {}, []]) {
      const definition = { requiresApproval: flag } as unknown as ConnectorMethod;
      expect(approvalNeeded(definition, {}, call.executionId, call.seq), String(flag)).toBe(true);
    }
    for (const flag of [false, undefined, null]) {
      const definition = { requiresApproval: flag } as unknown as ConnectorMethod;
      expect(approvalNeeded(definition, {}, call.executionId, call.seq), String(flag)).toBe(false);
    }
    // in a run: a method flagged `1` from plain JavaScript pauses, its connector not called
    const shop = mockConnector({
      name: "shop",
      methods: { wipe: { requiresApproval: 1 as unknown as boolean } },
    });
    const executor = new MockExecutor(async ({ shop }) => shop.wipe?.({}));
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [shop] });
    expect(await runtime.execute({ code: "async () => 0" })).toMatchObject({ status: "paused" });
    expect(shop.calls).toEqual([]);
    // and the model reads that it asks
    expect((await runtime.describe("shop.wipe")).types).toContain("@approval");
  });

  it("stops a pass whose lease was taken at its next call: no later call reaches a connector", async () => {
    const store = memoryStore();
    let resume = () => {};
    const wait = new Promise<void>((resolve) => (resume = resolve));
    const shop = mockConnector({ name: "shop", methods: { read: {}, write: {} } });
    const executor = new MockExecutor(async ({ shop }) => {
      await shop.read?.({ n: 1 });
      await wait;
      await shop.write?.({ n: 2 });
      return "finished";
    });
    const runtime = createCodemodeRuntime({ store, executor, connectors: [shop] });
    const running = runtime.execute({ code: "async () => 0" });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const journal = store.journal("default");
    const [run] = await journal.listExecutions({ statuses: ["running"] });
    const owner = run?.lease?.owner as string;
    expect(owner).toMatch(/^pass_[0-9a-f]+$/);
    // another process took the run: its lease now names another pass
    expect(
      await journal.updateExecution(
        run?.id as string,
        ["running"],
        { lease: { owner: "pass_other", expiresAt: Date.now() + 60_000 } },
        { owner },
      ),
    ).toBe(true);
    resume();
    const output = await running;
    expect(output.status).toBe("error");
    expect(output).toMatchObject({ error: expect.stringMatching(/lost its lease/) });
    expect(shop.calls.map((call) => call.method)).toEqual(["read"]);
    expect((await journal.listEntries(run?.id as string)).map((entry) => entry.seq)).toEqual([0]);
    // the pass that lost its lease wrote no outcome over the run
    expect(await journal.getExecution(run?.id as string)).toMatchObject({
      status: "running",
      lease: { owner: "pass_other" },
    });
  });

  it("takes a lease with the run, renews it on calls when due and clears it when the pass ends", async () => {
    let time = 1_000_000;
    const store = memoryStore();
    const seen: Array<{ expiresAt: number; owner: string } | undefined> = [];
    const journal = store.journal("default");
    const shop = mockConnector({
      name: "shop",
      methods: {
        read: {
          execute: async (_input, { executionId }) => {
            seen.push((await journal.getExecution(executionId))?.lease);
            time += 300;
          },
        },
        buy: { requiresApproval: true },
      },
    });
    const executor = new MockExecutor(async ({ shop }) => {
      for (let n = 0; n < 4; n++) await shop.read?.({ n });
      await shop.buy?.({});
    });
    const runtime = createCodemodeRuntime({
      store,
      executor,
      connectors: [shop],
      now: () => time,
      leaseMs: 1_200,
    });
    const paused = await runtime.execute({ code: "async () => 0" });
    expect(paused.status).toBe("paused");
    // taken at 1_000_000 for 1_200 ms; renewed by the entry write of the first call a third of
    // the lease (400 ms) after, at 1_000_600
    expect(seen.map((lease) => lease?.expiresAt)).toEqual([
      1_001_200, 1_001_200, 1_001_800, 1_001_800,
    ]);
    expect(new Set(seen.map((lease) => lease?.owner)).size).toBe(1);
    expect((await journal.getExecution(paused.executionId))?.lease).toBeUndefined();
    const done = await runtime.approve({ executionId: paused.executionId });
    expect(done.status).toBe("completed");
    expect((await journal.getExecution(paused.executionId))?.lease).toBeUndefined();
  });

  it("refuses a lease shorter than 100 ms or longer than a day", () => {
    const executor = new MockExecutor(() => undefined);
    for (const leaseMs of [99, 86_400_001, Number.NaN, "1000"]) {
      expect(() =>
        createCodemodeRuntime({
          store: memoryStore(),
          executor,
          connectors: [],
          leaseMs: leaseMs as number,
        }),
      ).toThrow(expect.objectContaining({ code: "INVALID_CONFIG" }));
    }
  });
});

describe("decideCall, one step", () => {
  it("writes a new call executing and a gated one pending, replays a recorded one, runs an approved one with its recorded input, and fails a divergence", async () => {
    const shop = mockConnector({
      name: "shop",
      methods: { read: {}, buy: { requiresApproval: true } },
    });
    const context = testContext([shop]);
    const id = await runningRun(context);
    const resolved = (await context.configurator.configure()).connectors.get(
      "shop",
    ) as ResolvedConnector;
    const input = { sku: 1, at: new Date(0) };
    const args = codec.encode(input);

    const first = await testPass(context, id);
    expect(await decideCall(context, first, resolved, "read", input, args, 0)).toEqual({
      kind: "execute",
      input,
    });
    expect(await context.journal.getEntry(id, 0)).toMatchObject({ state: "executing", args });
    await context.journal.applyEntry(id, 0, { result: codec.encode("stock"), updatedAt: 1 });
    expect(await decideCall(context, first, resolved, "buy", input, args, 1)).toEqual({
      kind: "pause",
    });
    expect([first.paused, first.stopped]).toEqual([true, PAUSE]);
    expect(await context.journal.getEntry(id, 1)).toMatchObject({
      state: "pending",
      requiresApproval: true,
    });
    await first.end();
    first.release();

    // an approval pass: the recorded call replays, the approved one is taken and runs with the
    // input the journal recorded (keys in another order match it)
    const approved = await testPass(context, id, { approved: [1] });
    expect(await decideCall(context, approved, resolved, "read", input, args, 0)).toMatchObject({
      kind: "replay",
      entry: { seq: 0, result: codec.encode("stock") },
    });
    const reordered = { at: new Date(0), sku: 1 };
    const decision = await decideCall(
      context,
      approved,
      resolved,
      "buy",
      reordered,
      codec.encode(reordered),
      1,
    );
    expect(decision).toEqual({ kind: "execute", input });
    expect((decision as { input: unknown }).input).not.toBe(reordered);
    expect((await context.journal.getEntry(id, 1))?.state).toBe("executing");
    await expect(
      decideCall(context, approved, resolved, "read", { sku: 2 }, codec.encode({ sku: 2 }), 0),
    ).rejects.toMatchObject({ code: "DIVERGENCE" });
    expect((await context.journal.getExecution(id))?.error).toMatch(
      /^Replay divergence at call #0/,
    );
    await approved.end();
    approved.release();
    // nothing here calls a connector: decideCall only decides
    expect(shop.calls).toEqual([]);
  });

  it.each([
    ["waiting", { state: "pending" }],
    ["in doubt", { state: "executing" }],
    ["run again (reexecute)", { state: "applied", replay: "reexecute" }],
  ] as const)(
    "fails a recorded call that may still run (%s) whose method now names another operation, and runs nothing",
    async (_name, recorded) => {
      const shop = mockConnector({
        name: "shop",
        methods: { send: { operation: "POST https://b.example/send" } },
      });
      const context = testContext([shop]);
      const id = await runningRun(context);
      const resolved = (await context.configurator.configure()).connectors.get(
        "shop",
      ) as ResolvedConnector;
      const args = codec.encode({ n: 1 });
      await context.journal.putEntry(
        callEntry(
          id,
          0,
          { connector: "shop", method: "send", input: { n: 1 } },
          {
            ...recorded,
            operation: "POST https://a.example/send",
          },
        ),
      );
      const pass = await testPass(context, id);
      await expect(
        decideCall(context, pass, resolved, "send", { n: 1 }, args, 0),
      ).rejects.toMatchObject({ code: "DIVERGENCE" });
      expect((await context.journal.getExecution(id))?.error).toMatch(
        /^Replay divergence at call #0: shop\.send was recorded for operation "POST https:\/\/a\.example\/send" but now names operation "POST https:\/\/b\.example\/send"/,
      );
      expect((await context.journal.getEntry(id, 0))?.state).toBe(recorded.state);
      await pass.end();
      pass.release();
      expect(shop.calls).toEqual([]);
    },
  );

  it("replays a recorded outcome whatever operation its method names now", async () => {
    const shop = mockConnector({ name: "shop", methods: { read: { operation: "GET /v2" } } });
    const context = testContext([shop]);
    const id = await runningRun(context);
    const resolved = (await context.configurator.configure()).connectors.get(
      "shop",
    ) as ResolvedConnector;
    const args = codec.encode({});
    await context.journal.putEntry(
      callEntry(
        id,
        0,
        { connector: "shop", method: "read", input: {}, result: 1 },
        {
          operation: "GET /v1",
        },
      ),
    );
    const pass = await testPass(context, id);
    expect(await decideCall(context, pass, resolved, "read", {}, args, 0)).toMatchObject({
      kind: "replay",
    });
    await pass.end();
    pass.release();
  });
});
