import { describe, expect, it } from "vitest";
import { memoryStore } from "../../src/index.ts";
import { dupes, type Ev, makeRuntime } from "./helpers.ts";

describe("host schedules", () => {
  it("A1 resolve of a deferred call runs a gated sibling without approval", async () => {
    const ledger: Ev[] = [];
    const rt = makeRuntime(ledger);
    const out = await rt.execute({
      code: `async () => { const [a, s] = await Promise.all([bank.ask({q: 1}), bank.send({to: "evil"})]); return {a, s}; }`,
    });
    expect(out.status).toBe("paused");
    const pend = await rt.pending(out.executionId);
    console.log("A1 pending", JSON.stringify(pend));
    const askSeq = pend.find((p) => p.method === "ask")!.seq;
    const res = await rt.resolve({ executionId: out.executionId, seq: askSeq, result: "yes" });
    console.log("A1 resolve ->", JSON.stringify(res));
    console.log("A1 ledger", JSON.stringify(ledger));
    // nobody approved send
    expect(ledger.filter((e) => e.method === "send")).toEqual([]);
  });

  it("A2 two deferred calls: resolving one invokes the other's connector", async () => {
    const ledger: Ev[] = [];
    const rt = makeRuntime(ledger);
    const out = await rt.execute({
      code: `async () => await Promise.all([bank.ask({q: 1}), bank.ask({q: 2})])`,
    });
    expect(out.status).toBe("paused");
    const res = await rt.resolve({ executionId: out.executionId, seq: 0, result: "one" });
    console.log("A2 resolve ->", JSON.stringify(res));
    const ex = await rt.execution(out.executionId);
    console.log("A2 calls", JSON.stringify(ex?.calls));
    expect(res.status).toBe("paused");
  });

  it("A3 concurrent rollbacks of a completed run revert the same call twice", async () => {
    const ledger: Ev[] = [];
    const rt = makeRuntime(ledger);
    const out = await rt.execute({ code: `async () => await bank.write({x: 1})` });
    expect(out.status).toBe("completed");
    const [r1, r2] = await Promise.all([
      rt.rollback({ executionId: out.executionId }),
      rt.rollback({ executionId: out.executionId }),
    ]);
    console.log("A3", JSON.stringify(r1), JSON.stringify(r2), JSON.stringify(ledger));
    expect(dupes(ledger, "revert")).toEqual([]);
  });

  it("A4 concurrent rollbacks of a paused run revert twice", async () => {
    const ledger: Ev[] = [];
    const rt = makeRuntime(ledger);
    const out = await rt.execute({
      code: `async () => { await bank.write({x: 1}); return await bank.send({y: 2}); }`,
    });
    expect(out.status).toBe("paused");
    const [r1, r2] = await Promise.all([
      rt.rollback({ executionId: out.executionId }),
      rt.rollback({ executionId: out.executionId }),
    ]);
    console.log("A4", JSON.stringify(r1), JSON.stringify(r2), JSON.stringify(ledger));
    expect(dupes(ledger, "revert")).toEqual([]);
  });

  it("A5 approve twice concurrently", async () => {
    const ledger: Ev[] = [];
    const rt = makeRuntime(ledger);
    const out = await rt.execute({ code: `async () => await bank.send({y: 2})` });
    const rs = await Promise.all([
      rt.approve({ executionId: out.executionId }),
      rt.approve({ executionId: out.executionId }),
      rt.rollback({ executionId: out.executionId }).catch((e) => String(e)),
      rt.reject({ executionId: out.executionId, seq: 0 }),
      rt.expirePaused({ maxAgeMs: 0 }),
    ]);
    console.log("A5", JSON.stringify(rs), JSON.stringify(ledger));
    expect(dupes(ledger)).toEqual([]);
  });

  it("A6 deleteExecution of a running run: later calls still reach connectors", async () => {
    const ledger: Ev[] = [];
    let rt: any;
    let id = "";
    rt = makeRuntime(ledger, {
      hook: {
        impl: async (_i: any, ctx: any) => {
          id = ctx.executionId;
          await rt.deleteExecution(ctx.executionId);
          return 1;
        },
      },
    });
    const out = await rt.execute({
      code: `async () => { await bank.hook({}); for (let i = 0; i < 5; i++) await bank.write({i}); return 1; }`,
    });
    console.log("A6", JSON.stringify(out), JSON.stringify(ledger.map((e) => e.method + e.seq)));
    console.log("A6 exec", JSON.stringify(await rt.execution(id)));
    expect(ledger.filter((e) => e.method === "write")).toEqual([]);
  });

  it("A7 clearHistory while running", async () => {
    const ledger: Ev[] = [];
    let rt: any;
    rt = makeRuntime(ledger, {
      hook: { impl: async () => ({ cleared: await rt.clearHistory(), pruned: await rt.pruneExecutions(0) }) },
    });
    const out = await rt.execute({
      code: `async () => { const r = await bank.hook({}); await bank.write({}); return r; }`,
    });
    console.log("A7", JSON.stringify(out), JSON.stringify(ledger.map((e) => e.method + e.seq)));
    console.log("A7 exec", JSON.stringify(await rt.execution(out.executionId)));
  });
});
