// What postgresStore does beyond the store suite, on a real PostgreSQL server: one journal shared by
// several processes (here, separate pools: separate sessions), text PostgreSQL cannot hold, and the
// round trips a journaled call costs.
import {
  createCodemodeRuntime,
  type ExecutionRecord,
  type JournalEntry,
  type JournalStore,
} from "@codemode/core";
import { mockConnector } from "@codemode/core/test";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";
import { testDatabase } from "../test/database.ts";
import { type PgQuery, postgresStore } from "./index.ts";

const database = await testDatabase();
let schemas = 0;
/** Two stores over one new schema, each on a pool of its own, as two processes have. */
async function twoProcesses(): Promise<[JournalStore, JournalStore]> {
  const schema = `shared_${++schemas}`;
  return [
    await postgresStore(database.newPool(), { schema }),
    await postgresStore(database.newPool(), { schema }),
  ];
}

const run = (id: string, overrides: Partial<ExecutionRecord> = {}): ExecutionRecord => ({
  id,
  code: "async () => 1",
  status: "running",
  connectors: ["svc"],
  createdAt: 1,
  updatedAt: 1,
  ...overrides,
});

const entry = (executionId: string, seq: number, overrides: Partial<JournalEntry> = {}) => ({
  executionId,
  seq,
  kind: "call" as const,
  connector: "svc",
  method: "write",
  args: "{}",
  state: "executing" as const,
  requiresApproval: false,
  deferred: false,
  replay: "record" as const,
  createdAt: 2,
  updatedAt: 2,
  ...overrides,
});

describe("postgresStore across processes", () => {
  it("lets exactly one of many racing takers on two processes take a pending call", async () => {
    const [first, second] = await twoProcesses();
    const a = first.journal("default");
    const b = second.journal("default");
    for (let round = 0; round < 10; round++) {
      const id = `race-${round}`;
      await a.createExecution(run(id, { status: "paused" }));
      await a.putEntry(entry(id, 0, { state: "pending", requiresApproval: true }));
      const takes = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          (index % 2 ? a : b).updateEntry(id, 0, ["pending"], { state: "executing" }),
        ),
      );
      expect(takes.filter(Boolean)).toHaveLength(1);
      const decisions = await Promise.all([
        a.updateExecution(id, ["paused"], { status: "running" }),
        b.updateExecution(id, ["paused"], { status: "rejected" }),
      ]);
      expect(decisions.filter(Boolean)).toHaveLength(1);
    }
  });

  it("shows one process's new run under an id another process deleted, without the old entries", async () => {
    const [first, second] = await twoProcesses();
    const a = first.journal("default");
    const b = second.journal("default");
    await a.createExecution(run("again"));
    await a.putEntry(entry("again", 0, { method: "old" }));
    expect(await b.deleteExecution("again")).toBe(true);
    await b.createExecution(run("again"));
    await b.putEntry(entry("again", 1, { method: "new" }));
    expect(await a.listEntries("again")).toMatchObject([{ seq: 1, method: "new" }]);
    expect(await a.getEntry("again", 0)).toBeUndefined();
    expect(await a.applyEntry("again", 1, { result: '"done"', updatedAt: 3 })).toBe(true);
    expect(await b.getEntry("again", 1)).toMatchObject({ state: "applied", result: '"done"' });
  });

  it("never leaves an entry without its run when a put races the run's deletion", async () => {
    const [first, second] = await twoProcesses();
    const a = first.journal("default");
    const b = second.journal("default");
    const outcomes: string[] = [];
    for (let round = 0; round < 20; round++) {
      const id = `gone-${round}`;
      await a.createExecution(run(id));
      const [put] = await Promise.allSettled([a.putEntry(entry(id, 0)), b.deleteExecution(id)]);
      outcomes.push(put.status === "fulfilled" ? "put" : String(put.reason.message));
    }
    for (const outcome of outcomes) expect(outcome).toMatch(/^put$|^No execution "gone-\d+"/);
    const orphans = await database.pool.query(
      `SELECT count(*)::int AS n FROM "shared_${schemas}".codemode_entries`,
    );
    expect(orphans.rows[0].n).toBe(0);
  });

  it("runs an approval given in another process once, replaying what the first one recorded", async () => {
    const [first, second] = await twoProcesses();
    const svc = () =>
      mockConnector({
        name: "svc",
        methods: {
          read: { description: "Read.", execute: () => ({ value: 41 }) },
          write: { description: "Write.", requiresApproval: true, execute: (input) => input },
        },
      });
    const here = svc();
    const there = svc();
    const runtime = (store: JournalStore, connector: ReturnType<typeof svc>) =>
      createCodemodeRuntime({ store, executor: new QuickJSExecutor(), connectors: [connector] });
    const code =
      "async () => { const { value } = await svc.read({}); return svc.write({ n: value + 1 }); }";
    const paused = await runtime(first, here).execute({ code });
    expect(paused).toMatchObject({ status: "paused", pending: [{ seq: 1, method: "write" }] });
    const done = await runtime(second, there).approve({ executionId: paused.executionId });
    expect(done).toMatchObject({ status: "completed", result: { n: 42 } });
    expect(here.calls.map((call) => call.method)).toEqual(["read"]);
    expect(there.calls.map((call) => [call.method, call.seq, call.input])).toEqual([
      ["write", 1, { n: 42 }],
    ]);
    expect(await runtime(first, here).approve({ executionId: paused.executionId })).toMatchObject({
      status: "error",
    });
    expect(there.calls).toHaveLength(1);
  });

  it("gives a bind or a show that waits on another process's uncommitted one what that process commits", async () => {
    const [, second] = await twoProcesses();
    const table = `"shared_${schemas}".codemode_tool_calls`;
    const journal = second.journal("default");
    await journal.bindToolCall({ key: "call_shown", executionId: "exec_shown", createdAt: 1 });
    const holder = new pg.Client(database.config);
    await holder.connect();
    onTestFinished(() => holder.end());
    // statements waiting for a lock in this database, seen from a third session
    const waiting = async () =>
      (
        await database.pool.query(
          `SELECT count(*)::int AS n FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid
           WHERE NOT l.granted AND a.datname = current_database()`,
        )
      ).rows[0].n as number;
    // the other process has written the binding and not committed: the bind waits for it, and
    // then returns it (a statement that read the table before the commit would find no row)
    await holder.query("BEGIN");
    await holder.query(
      `INSERT INTO ${table} (runtime, key, execution_id, created_at) VALUES ('default', 'call_raced', 'exec_first', 1)`,
    );
    const bound = journal.bindToolCall({
      key: "call_raced",
      executionId: "exec_late",
      createdAt: 2,
    });
    await expect.poll(waiting).toBe(1);
    await holder.query("COMMIT");
    expect(await bound).toEqual({ key: "call_raced", executionId: "exec_first", createdAt: 1 });
    // the same for what a binding showed
    await holder.query("BEGIN");
    await holder.query(`UPDATE ${table} SET shown = '"first"' WHERE key = 'call_shown'`);
    const shown = journal.showToolCall("call_shown", '"late"');
    await expect.poll(waiting).toBe(1);
    await holder.query("COMMIT");
    expect(await shown).toMatchObject({ executionId: "exec_shown", shown: '"first"' });
    expect(await journal.getToolCallBinding("call_shown")).toMatchObject({ shown: '"first"' });
  });

  it("has one local per pool and schema, whatever store is made over them", async () => {
    const pool = database.newPool();
    const one = await postgresStore(pool, { schema: "scoped" });
    const two = await postgresStore(pool, { schema: "scoped" });
    const other = await postgresStore(pool, { schema: "scoped_other" });
    const elsewhere = await postgresStore(database.newPool(), { schema: "scoped" });
    expect(one.local).toBeDefined();
    expect(two.local).toBe(one.local);
    expect(other.local).not.toBe(one.local);
    expect(elsewhere.local).not.toBe(one.local);
  });
});

describe("postgresStore text", () => {
  it("keeps an error message with a NUL and a lone surrogate whole", async () => {
    const journal = (await twoProcesses())[0].journal("default");
    const message = 'a\u0000b \ud800 "quoted" \\ \udc00x';
    await journal.createExecution(run("odd", { error: message }));
    expect((await journal.getExecution("odd"))?.error).toBe(message);
    await journal.updateExecution("odd", ["running"], { error: `${message}!` });
    expect((await journal.getExecution("odd"))?.error).toBe(`${message}!`);
    await journal.putEntry(entry("odd", 0));
    expect(await journal.applyEntry("odd", 0, { error: message, updatedAt: 3 })).toBe(true);
    expect((await journal.getEntry("odd", 0))?.error).toBe(message);
    await journal.putEntry(entry("odd", 1, { state: "error", error: message }));
    expect((await journal.listEntries("odd", { states: ["error"] }))[0]?.error).toBe(message);
  });

  it("refuses other text PostgreSQL cannot keep as it is, with a clear error", async () => {
    const journal = (await twoProcesses())[0].journal("default");
    for (const id of ["nul\u0000", "lone\ud800"]) {
      await expect(journal.createExecution(run(id))).rejects.toMatchObject({
        code: "STORE_FAILED",
        message: expect.stringMatching(/NUL character or a lone surrogate/),
      });
    }
    await expect(
      journal.putSnippet({
        name: "s",
        description: "\udc00",
        code: "1",
        connectors: [],
        savedAt: 1,
      }),
    ).rejects.toThrow(/lone surrogate/);
    expect(await journal.listExecutions()).toEqual([]);
  });

  it("refuses a seq PostgreSQL's integer cannot hold and a second run of one id", async () => {
    const journal = (await twoProcesses())[0].journal("default");
    await journal.createExecution(run("one"));
    await expect(journal.putEntry(entry("one", 2 ** 31))).rejects.toThrow(/seq must be an integer/);
    await expect(journal.getEntry("one", -1)).rejects.toThrow(/seq must be an integer/);
    await expect(journal.createExecution(run("one"))).rejects.toMatchObject({
      code: "STORE_FAILED",
      message: expect.stringMatching(/duplicate key/),
    });
  });
});

describe("postgresStore round trips", () => {
  it("costs two statements per journaled call: the entry written executing, then applied", async () => {
    const client = new pg.Client(database.config);
    await client.connect();
    onTestFinished(() => client.end());
    const statements: string[] = [];
    // one connection that counts what it is asked to run (each query is one round trip)
    const counting = {
      query: (query: PgQuery) => {
        statements.push(query.text.trim().split(/\s+/)[0] as string);
        return client.query(query);
      },
    };
    const store = await postgresStore(counting, { schema: "counted" });
    const connector = mockConnector({
      name: "svc",
      methods: { read: { description: "Read.", execute: (input) => input } },
    });
    const runtime = createCodemodeRuntime({
      store,
      executor: new QuickJSExecutor(),
      connectors: [connector],
    });
    const count = async (calls: number) => {
      statements.length = 0;
      const code = `async () => { let n = 0; for (let i = 0; i < ${calls}; i++) n += (await svc.read({ i })).i; return n; }`;
      expect(await runtime.execute({ code })).toMatchObject({ status: "completed" });
      return [...statements];
    };
    const one = await count(1);
    const eleven = await count(11);
    expect(eleven.length - one.length).toBe(20);
    expect(eleven.filter((verb) => verb === "INSERT").length).toBe(
      one.filter((verb) => verb === "INSERT").length + 10,
    );
    expect(connector.calls).toHaveLength(12);
  });
});
