import { describe, expect, it } from "vitest";
import type { CallContext } from "../../connector.ts";
import { decisionHandleOf } from "../../decision-handle.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";

/** A read that answers only once the run has paused, and fails as soon as its signal is aborted. */
function readUntilPaused() {
  let paused!: () => void;
  const pause = new Promise<void>((resolve) => {
    paused = resolve;
  });
  const read = (_input: unknown, { signal }: CallContext) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      void pause.then(() => resolve({ title: "the issue" }));
    });
  return { read, paused: () => paused() };
}

describe("a pause beside calls in flight", () => {
  it("lets a call already running settle and records what it gave: after approval the run goes on as it would have", async () => {
    const slow = readUntilPaused();
    const github = mockConnector({ name: "github", methods: { issue: { execute: slow.read } } });
    const slack = mockConnector({ name: "slack", methods: { post: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ github, slack }) => {
      const [issue] = (await Promise.all([
        github.issue?.({ n: 42 }),
        slack.post?.({ text: "hi" }),
      ])) as [{ title: string }, unknown];
      return issue.title;
    });
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor,
      connectors: [github, slack],
      onEvent: (event) => {
        if (event.type === "waiting") slow.paused();
      },
    });
    const first = await runtime.execute({ code: "async () => 0" });
    expect(first.status).toBe("paused");
    const run = await runtime.execution(first.executionId);
    expect(run?.calls).toMatchObject([
      { seq: 0, state: "applied", result: { title: "the issue" } },
      { seq: 1, state: "pending" },
    ]);
    const approved = await runtime.approve({ executionId: first.executionId });
    expect(approved).toMatchObject({ status: "completed", result: "the issue" });
    expect(github.calls.map((call) => call.method)).toEqual(["issue"]);
    expect(slack.calls.map((call) => call.method)).toEqual(["post"]);
  });

  it("runs an approved later call of a turn while an earlier one still waits, once (the surface property's seed 546822198)", async () => {
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ mail }) => {
      await Promise.all([mail.send?.({ to: "a" }), mail.send?.({ to: "b" })]);
      return "sent";
    });
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [mail] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const shown = decisionHandleOf(await runtime.pending(executionId));
    const later = { ...shown, calls: shown.calls.filter((call) => call.seq === 1) };
    // the person approves only the second call: it runs; the run waits for the first
    expect(await runtime.approve({ executionId, handle: later })).toMatchObject({
      status: "paused",
      pending: [{ seq: 0 }],
    });
    expect(mail.calls.map((call) => call.input)).toEqual([{ to: "b" }]);
    const rest = decisionHandleOf(await runtime.pending(executionId));
    expect(await runtime.approve({ executionId, handle: rest })).toMatchObject({
      status: "completed",
      result: "sent",
    });
    // the second call replayed: each ran once
    expect(mail.calls.map((call) => call.input)).toEqual([{ to: "b" }, { to: "a" }]);
  });
});

describe("an approval of a call the pass does not reach", () => {
  it("is kept when the pass pauses first at an earlier call that waits: the call runs once that one is decided, and is not asked about again", async () => {
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    // the second call comes a turn after the first: the approval pass stops before it is made
    const executor = new MockExecutor(async ({ mail }) => {
      const first = mail.send?.({ to: "a" });
      await null;
      const second = mail.send?.({ to: "b" });
      await Promise.all([first, second]);
      return "sent";
    });
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [mail] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const shown = decisionHandleOf(await runtime.pending(executionId));
    expect(shown.calls.map((call) => call.seq)).toEqual([0, 1]);
    const later = { ...shown, calls: shown.calls.filter((call) => call.seq === 1) };
    expect(await runtime.approve({ executionId, handle: later })).toMatchObject({
      status: "paused",
      pending: [{ seq: 0 }],
    });
    expect((await runtime.execution(executionId))?.calls).toMatchObject([
      { seq: 0, state: "pending" },
      { seq: 1, state: "approved" },
    ]);
    // the same answer again decides nothing: the call is no longer waiting
    expect(await runtime.approve({ executionId, handle: later })).toMatchObject({
      status: "error",
      code: "DECISION_STALE",
    });
    const rest = decisionHandleOf(await runtime.pending(executionId));
    expect(rest.calls.map((call) => call.seq)).toEqual([0]);
    expect(await runtime.approve({ executionId, handle: rest })).toMatchObject({
      status: "completed",
      result: "sent",
    });
    expect(mail.calls.map((call) => call.input)).toEqual([{ to: "a" }, { to: "b" }]);
  });

  it("is withdrawn with the run when the earlier call is rejected: it never runs", async () => {
    const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ mail }) => {
      const first = mail.send?.({ to: "a" });
      await null;
      await Promise.all([first, mail.send?.({ to: "b" })]);
    });
    const runtime = createCodemodeRuntime({ store: memoryStore(), executor, connectors: [mail] });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    const shown = decisionHandleOf(await runtime.pending(executionId));
    await runtime.approve({ executionId, seqs: [1], handle: shown });
    expect(await runtime.reject({ executionId, seq: 0 })).toBe(true);
    expect(await runtime.execution(executionId)).toMatchObject({
      status: "rejected",
      calls: [
        { seq: 0, state: "withdrawn" },
        { seq: 1, state: "withdrawn" },
      ],
    });
    expect(mail.calls).toEqual([]);
  });
});

describe("a call still running when a paused pass gives up on it", () => {
  it("is left in doubt, not recorded as the failure its abort caused: after approval a person decides it, and the run goes on", async () => {
    let first = true;
    const github = mockConnector({
      name: "github",
      methods: {
        issue: {
          // the first call answers only when its signal is aborted, with the abort's error
          execute: (_input, { signal }) =>
            first
              ? new Promise((_, reject) => {
                  first = false;
                  signal.addEventListener("abort", () => reject(signal.reason), { once: true });
                })
              : { title: "the issue" },
        },
      },
    });
    const slack = mockConnector({ name: "slack", methods: { post: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ github, slack }, { signal }) => {
      const both = Promise.all([github.issue?.({ n: 42 }), slack.post?.({ text: "hi" })]);
      // a sandbox ends when its pass stops: the results of one turn reach it in order, so the
      // post's pause would wait behind the read
      const stopped = new Promise<never>((_, reject) => {
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
      const [issue] = (await Promise.race([both, stopped])) as [{ title: string }, unknown];
      return issue.title;
    });
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor,
      connectors: [github, slack],
      leaseMs: 300,
    });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    // the pause waited for the read, then aborted it: its failure was not the program's to see
    expect((await runtime.execution(executionId))?.calls).toMatchObject([
      { seq: 0, state: "executing" },
      { seq: 1, state: "pending" },
    ]);
    // approving the post runs it; the read, which may have run, now waits for a person
    expect(await runtime.approve({ executionId })).toMatchObject({
      status: "paused",
      pending: [{ seq: 0, inDoubt: expect.any(String) }],
    });
    expect(slack.calls.map((call) => call.input)).toEqual([{ text: "hi" }]);
    expect(await runtime.approve({ executionId })).toMatchObject({
      status: "completed",
      result: "the issue",
    });
    // the read ran again under its key once a person said so; the post ran once
    expect(github.calls.map((call) => call.idempotencyKey)).toEqual([
      github.calls[0]?.idempotencyKey,
      github.calls[0]?.idempotencyKey,
    ]);
    expect(slack.calls).toHaveLength(1);
  }, 180_000);

  it("is recorded failed when it fails with an error of its own, or when the run does not pause", async () => {
    const github = mockConnector({
      name: "github",
      methods: {
        // a definite answer of the connector's own, which comes as the abort does
        issue: {
          execute: (_input, { signal }) =>
            new Promise((_, reject) => {
              signal.addEventListener("abort", () => reject(new Error("404 not found")), {
                once: true,
              });
            }),
        },
        // fails with the abort, left running by a program that returns
        hang: {
          execute: (_input, { signal }) =>
            new Promise((_, reject) => {
              signal.addEventListener("abort", () => reject(signal.reason), { once: true });
            }),
        },
      },
    });
    const slack = mockConnector({ name: "slack", methods: { post: { requiresApproval: true } } });
    const executor = new MockExecutor(async ({ github, slack }, { signal }) => {
      if (executor.requests.length === 3) {
        github.hang?.({}).catch(() => {});
        return "returned";
      }
      const both = Promise.allSettled([github.issue?.({ n: 42 }), slack.post?.({ text: "hi" })]);
      const stopped = new Promise<never>((_, reject) => {
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
      const settled = (await Promise.race([both, stopped])) as PromiseSettledResult<unknown>[];
      return settled.map((outcome) => outcome.status);
    });
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor,
      connectors: [github, slack],
      leaseMs: 300,
    });
    const { executionId } = await runtime.execute({ code: "async () => 0" });
    expect((await runtime.execution(executionId))?.calls).toMatchObject([
      { seq: 0, error: "404 not found" },
      { seq: 1, state: "pending" },
    ]);
    // after the approval the program reads the 404, as it would have
    expect(await runtime.approve({ executionId })).toMatchObject({
      status: "completed",
      result: ["rejected", "fulfilled"],
    });
    expect(github.calls).toHaveLength(1);
    // a run that completes with a call still running: nothing would look at it again in doubt
    const returned = await runtime.execute({ code: "async () => 1" });
    expect(returned).toMatchObject({ status: "completed", result: "returned" });
    expect((await runtime.execution(returned.executionId))?.calls).toMatchObject([
      { seq: 0, method: "hang", state: "applied", error: expect.stringContaining("ended") },
    ]);
  }, 180_000);
});
