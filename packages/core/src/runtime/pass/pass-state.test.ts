import { describe, expect, it, vi } from "vitest";
import { HEARTBEAT_MS } from "../../invariants.ts";
import { runningRun, TEST_OWNER, testContext } from "../../test/run-context.ts";
import { leaseOwner, PassState } from "./pass-state.ts";

describe("PassState", () => {
  it("has an owner for its lease, new for every pass", () => {
    expect(leaseOwner()).toMatch(/^pass_[0-9a-f]{16,}$/);
    expect(leaseOwner()).not.toBe(leaseOwner());
  });

  it("numbers calls, stops for good, and refuses past its budget", async () => {
    const context = testContext([], { maxCalls: 2 });
    const pass = new PassState(context, await runningRun(context), new Map(), {
      owner: TEST_OWNER,
    });
    expect([pass.nextSeq(), pass.nextSeq()]).toEqual([0, 1]);
    expect(() => pass.nextSeq()).toThrow(expect.objectContaining({ code: "BUDGET_EXCEEDED" }));
    pass.stop("because");
    expect(() => pass.nextSeq()).toThrow(expect.objectContaining({ code: "ABORTED" }));
    expect(pass.controller.signal.aborted).toBe(true);
    // a stop ends the sandbox, not the connector calls already running
    expect(pass.callSignal.aborted).toBe(false);
    await pass.end();
  });

  it("hands out one token per step, spent once, and refuses any other", async () => {
    const context = testContext([]);
    const pass = new PassState(context, await runningRun(context), new Map(), {
      owner: TEST_OWNER,
    });
    const token = pass.stepToken(3);
    expect(pass.takeStepToken(3, "guess")).toBe(false);
    expect(pass.takeStepToken(0, token)).toBe(false);
    expect(pass.takeStepToken(3, token)).toBe(true);
    expect(pass.takeStepToken(3, token)).toBe(false);
    await pass.end();
  });

  it("ends only once every call it tracks has settled, and is live until it is released", async () => {
    const context = testContext([]);
    const id = await runningRun(context, "exec_released");
    const pass = new PassState(context, id, new Map(), { owner: TEST_OWNER });
    let finish = () => {};
    pass.track(new Promise<void>((resolve) => (finish = resolve)));
    expect(context.live.has(id)).toBe(true);
    let ended = false;
    const ending = pass.end().then(() => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ended).toBe(false);
    finish();
    await ending;
    // live until it has reported
    expect(context.live.has(id)).toBe(true);
    pass.release();
    expect(context.live.has(id)).toBe(false);
  });

  it("accepts a replay count only within what was offered and before any live call", async () => {
    const context = testContext([]);
    const id = await runningRun(context);
    const good = new PassState(context, id, new Map(), { owner: TEST_OWNER });
    good.offerReplay(3);
    good.advance(2);
    good.advance(1);
    expect(good.nextSeq()).toBe(3);
    await good.end();
    for (const lie of [4, -1, 1.5, "2", Number.NaN]) {
      const liar = new PassState(
        context,
        await runningRun(context, `exec_${String(lie)}`),
        new Map(),
        { owner: TEST_OWNER },
      );
      liar.offerReplay(3);
      liar.advance(lie);
      expect(liar.stopped).toMatch(/replayed calls/);
      await liar.end();
    }
    const late = new PassState(context, await runningRun(context, "exec_late"), new Map(), {
      owner: TEST_OWNER,
    });
    late.offerReplay(3);
    late.nextSeq();
    late.advance(1);
    expect(late.stopped).toMatch(/replayed calls/);
    await late.end();
  });

  it("renews its run when due and until its calls have settled, and not after it ended", async () => {
    let time = 1_000;
    const context = testContext([], { now: () => time });
    const id = await runningRun(context);
    const pass = new PassState(context, id, new Map(), { owner: TEST_OWNER });
    expect(pass.renewDue()).toBe(false);
    time += HEARTBEAT_MS;
    expect(pass.renewDue()).toBe(true);
    await pass.renew();
    expect((await context.journal.getExecution(id))?.updatedAt).toBe(time);
    // a stopped pass whose calls are still settling keeps its run renewed
    pass.stop("paused");
    time += HEARTBEAT_MS;
    await pass.renew();
    expect((await context.journal.getExecution(id))?.updatedAt).toBe(time);
    await context.journal.updateExecution(id, ["running"], { status: "error" });
    time += HEARTBEAT_MS;
    await pass.renew();
    expect((await context.journal.getExecution(id))?.status).toBe("error");
    await pass.end();
    const ended = (await context.journal.getExecution(id))?.updatedAt;
    time += HEARTBEAT_MS;
    await pass.renew();
    expect((await context.journal.getExecution(id))?.updatedAt).toBe(ended);
  });

  it("counts its lease from when it was taken: one taken long before the pass starts is renewed at once", async () => {
    let time = 1_000;
    const context = testContext([], { now: () => time });
    const id = await runningRun(context);
    const taken = (await context.journal.getExecution(id))?.lease?.expiresAt as number;
    // a busy process starts the pass two thirds of a lease after the run was created
    time += 2 * HEARTBEAT_MS;
    const pass = new PassState(context, id, new Map(), {
      owner: TEST_OWNER,
      leaseExpiresAt: taken,
    });
    expect(pass.renewDue()).toBe(true);
    await vi.waitFor(
      async () =>
        expect((await context.journal.getExecution(id))?.lease?.expiresAt).toBe(
          time + context.leaseMs,
        ),
      { timeout: 20_000 }, // vi.waitFor gives up after 1 s by default: a bound for a loaded machine
    );
    await pass.end();
  });

  it("stops at its next renewal once someone else ended its run", async () => {
    const context = testContext([]);
    const id = await runningRun(context);
    const pass = new PassState(context, id, new Map(), { owner: TEST_OWNER });
    await context.journal.updateExecution(id, ["running"], { status: "error" });
    await pass.renew();
    expect(pass.stopped).toMatch(/ended from outside/);
    expect(() => pass.nextSeq()).toThrow(expect.objectContaining({ code: "ABORTED" }));
    await pass.end();
  });

  it("renews its lease only while it holds it, and claims a renewal in an entry write when due", async () => {
    let time = 1_000;
    const context = testContext([], { now: () => time });
    const id = await runningRun(context);
    const pass = new PassState(context, id, new Map(), { owner: TEST_OWNER });
    expect(pass.claim()).toEqual({ owner: TEST_OWNER });
    time += HEARTBEAT_MS;
    const claim = pass.claim();
    expect(claim).toEqual({ owner: TEST_OWNER, renewUntil: time + context.leaseMs });
    // the renewal counts once the write that carried it succeeded
    expect(pass.renewDue()).toBe(true);
    pass.held(claim);
    expect(pass.renewDue()).toBe(false);
    time += HEARTBEAT_MS;
    expect(await pass.renew()).toBe(true);
    expect((await context.journal.getExecution(id))?.lease).toEqual({
      owner: TEST_OWNER,
      expiresAt: time + context.leaseMs,
    });
    // another pass holds the run now: this one's renewal is refused and it stops
    await context.journal.updateExecution(id, ["running"], {
      lease: { owner: "pass_other", expiresAt: time + context.leaseMs },
    });
    expect(await pass.renew()).toBe(false);
    expect(pass.stopped).toMatch(/ended from outside/);
    expect((await context.journal.getExecution(id))?.lease?.owner).toBe("pass_other");
    await pass.end();
  });

  it("counts a renewal the store failed as none: the next call renews before it runs (found by the PostgreSQL fault suite)", async () => {
    let time = 1_000;
    let failing = false;
    const base = testContext([], { now: () => time });
    const journal = Object.assign(Object.create(base.journal), {
      updateExecution: (...args: Parameters<typeof base.journal.updateExecution>) =>
        failing
          ? Promise.reject(new Error("connection terminated"))
          : base.journal.updateExecution(...args),
    });
    const context = { ...base, journal };
    const id = await runningRun(context);
    const pass = new PassState(context, id, new Map(), { owner: TEST_OWNER });
    time += HEARTBEAT_MS;
    failing = true;
    await expect(pass.renew()).rejects.toThrow(/connection terminated/);
    expect(pass.renewDue()).toBe(true);
    // meanwhile another process expired the run: the next call's renewal finds it gone
    failing = false;
    await base.journal.updateExecution(id, ["running"], { status: "error" });
    expect(await pass.renew()).toBe(false);
    expect(pass.stopped).toMatch(/ended from outside/);
    await pass.end();
  });
});
