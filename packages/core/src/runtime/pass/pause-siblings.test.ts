import { describe, expect, it } from "vitest";
import type { CallContext } from "../../connector.ts";
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
});
