// The durable runtime inside a Durable Object, as an application runs it: the journal in the object's
// own SQLite, sandboxes from the Worker Loader, and state that outlives the object between a pause
// and its approval.
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DynamicWorkerExecutor } from "../../src/cloudflare.ts";
import { type CodeModeOutput, createCodemodeRuntime } from "../../src/index.ts";
import { trackerConnector } from "./tracker.ts";

const CREATE_AND_LIST = `async () => {
  const before = await tracker.list_tasks({});
  const made = await tracker.create_task({ title: "Write the docs" });
  const after = await tracker.list_tasks({});
  return { before: before.length, made, after: after.map((task) => task.title) };
}`;

const agent = (name: string) => env.AGENT.get(env.AGENT.idFromName(name));
/** RPC return types lose the union's discriminant on `unknown` results: read them as what they are. */
const output = async (reply: Promise<unknown>) => (await reply) as CodeModeOutput;

describe("the durable runtime in a Durable Object", () => {
  it("pauses, survives eviction, replays the journal on approval and rolls back", async () => {
    const stub = agent("approval-flow");
    const paused = await output(stub.execute(CREATE_AND_LIST));
    expect(paused.status).toBe("paused");
    if (paused.status !== "paused") return;
    expect(paused.pending).toMatchObject([
      { seq: 1, connector: "tracker", method: "create_task", args: { title: "Write the docs" } },
    ]);
    expect(await stub.tables()).toEqual(
      expect.arrayContaining(["codemode_entries", "codemode_executions", "codemode_snippets"]),
    );

    // the object is evicted: memory gone, SQLite kept
    await abortAllDurableObjects();
    const fresh = agent("approval-flow");
    expect(await fresh.pending()).toMatchObject([{ executionId: paused.executionId, seq: 1 }]);
    const approved = await output(fresh.approve(paused.executionId));
    expect(approved).toMatchObject({
      status: "completed",
      result: { before: 0, made: { id: 1, title: "Write the docs" }, after: ["Write the docs"] },
    });

    // the read before the pause came from the journal; the write ran once, in the new instance
    const ledger = await fresh.ledger();
    expect(ledger.map((row) => row.method)).toEqual(["list_tasks", "create_task", "list_tasks"]);
    const [firstRead, write, secondRead] = ledger;
    expect(write?.instance).not.toBe(firstRead?.instance);
    expect(secondRead?.instance).toBe(write?.instance);
    expect(write?.key).toContain(paused.executionId);

    // approving again is an outcome, not a second write
    const again = await output(fresh.approve(paused.executionId));
    expect(again.status).toBe("error");
    expect((await fresh.ledger()).filter((row) => row.method === "create_task")).toHaveLength(1);

    const report = await fresh.rollback(paused.executionId);
    expect(report).toMatchObject({ reverted: [1], skipped: [2, 0] });
    expect(await fresh.status(paused.executionId)).toBe("rolled_back");
    expect((await fresh.ledger()).at(-1)).toMatchObject({ method: "revert_create_task", key: "1" });
  });

  it("rejects a pending call without running it", async () => {
    const stub = agent("reject-flow");
    const paused = await output(stub.execute(CREATE_AND_LIST));
    if (paused.status !== "paused") throw new Error(`expected a pause, got ${paused.status}`);
    expect(await stub.reject(paused.executionId, 1)).toBe(true);
    expect(await stub.status(paused.executionId)).toBe("rejected");
    expect((await stub.ledger()).map((row) => row.method)).toEqual(["list_tasks"]);
  });

  it("saves a snippet and runs it with codemode.run in a sandbox that cannot eval", async () => {
    const stub = agent("snippet-flow");
    const counted = await output(
      stub.execute(`async () => {
      const tasks = await tracker.list_tasks({});
      return tasks.length;
    }`),
    );
    expect(counted).toMatchObject({ status: "completed", result: 0 });
    if (counted.status !== "completed") return;
    await stub.saveSnippet("count-tasks", counted.executionId);
    expect(await stub.snippets()).toMatchObject([{ name: "count-tasks" }]);

    const viaSnippet = await output(
      stub.execute(`async () => {
      const first = await codemode.run("count-tasks");
      const steps = await codemode.step("twice", async () => first * 2);
      return { first, steps };
    }`),
    );
    expect(viaSnippet).toMatchObject({ status: "completed", result: { first: 0, steps: 0 } });
    const missing = await output(stub.execute(`async () => codemode.run("no-such-snippet")`));
    expect(missing).toMatchObject({
      status: "error",
      error: expect.stringContaining('No snippet is named "no-such-snippet"'),
    });
    expect((await stub.ledger()).map((row) => row.method)).toEqual(["list_tasks", "list_tasks"]);
  });

  it("keeps runtimes of different names apart in one object's SQLite", async () => {
    const stub = agent("names");
    const done = await output(stub.execute("async () => (await tracker.list_tasks({})).length"));
    expect(done.status).toBe("completed");
    await runInDurableObject(stub, async (_instance, state) => {
      const other = createCodemodeRuntime({
        ctx: state,
        executor: new DynamicWorkerExecutor({ loader: env.LOADER }),
        connectors: [trackerConnector(state.storage.sql)],
        name: "other",
      });
      expect(await other.executions()).toEqual([]);
      const mine = createCodemodeRuntime({
        ctx: state,
        executor: new DynamicWorkerExecutor({ loader: env.LOADER }),
        connectors: [trackerConnector(state.storage.sql)],
        name: "agent",
      });
      expect(await mine.executions()).toHaveLength(1);
    });
  });
});
