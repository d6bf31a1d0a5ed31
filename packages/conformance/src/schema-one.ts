// A journal as schema 1 (the first release of @codemode/core) wrote it, for the migration tests of
// every SQL store: Node's SQLite bindings and a Durable Object's storage.
import type { JournalStore } from "@codemode/core";
import { expect } from "vitest";

/** Schema 1's tables with two runtimes' rows, one statement each (a Durable Object runs them singly). */
export const SCHEMA_ONE_JOURNAL: readonly string[] = [
  "CREATE TABLE codemode_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  "INSERT INTO codemode_meta VALUES ('schema_version', '1')",
  `CREATE TABLE codemode_executions (runtime TEXT NOT NULL, id TEXT NOT NULL, code TEXT NOT NULL,
    status TEXT NOT NULL, result TEXT, error TEXT, logs TEXT, connectors TEXT NOT NULL,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (runtime, id))`,
  "CREATE INDEX codemode_executions_by_status ON codemode_executions (runtime, status, created_at)",
  `CREATE TABLE codemode_entries (runtime TEXT NOT NULL, execution_id TEXT NOT NULL, seq INTEGER NOT NULL,
    kind TEXT NOT NULL, connector TEXT NOT NULL, method TEXT NOT NULL, args TEXT, result TEXT,
    state TEXT NOT NULL, requires_approval INTEGER NOT NULL, deferred INTEGER NOT NULL,
    replay TEXT NOT NULL, error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    PRIMARY KEY (runtime, execution_id, seq))`,
  `CREATE TABLE codemode_snippets (runtime TEXT NOT NULL, name TEXT NOT NULL, description TEXT,
    code TEXT NOT NULL, input_schema TEXT, connectors TEXT NOT NULL, saved_at INTEGER NOT NULL,
    PRIMARY KEY (runtime, name))`,
  `INSERT INTO codemode_executions VALUES
    ('default', 'older', 'async () => 1', 'completed', '1', NULL, '["hi"]', '["store"]', 10, 11),
    ('default', 'paused', 'async () => 2', 'paused', NULL, NULL, NULL, '["store"]', 20, 21),
    ('other', 'paused', 'async () => 3', 'running', NULL, NULL, NULL, '[]', 30, 31)`,
  `INSERT INTO codemode_entries VALUES
    ('default', 'paused', 1, 'call', 'store', 'write', '{"n":1}', NULL, 'pending', 1, 0, 'record', NULL, 22, 22),
    ('default', 'paused', 0, 'call', 'store', 'read', '{"n":0}', '0', 'applied', 0, 0, 'record', NULL, 21, 21),
    ('other', 'paused', 0, 'step', 'codemode.step', 'now', NULL, '5', 'applied', 0, 0, 'record', NULL, 31, 31)`,
  "INSERT INTO codemode_snippets VALUES ('default', 'kept', 'a saved run', 'async () => 1', NULL, '[]', 12)",
];

/**
 * What a store opened on `SCHEMA_ONE_JOURNAL` reads back (every run, entry and snippet, in order, per
 * runtime), and that the migrated journal goes on working: a new run's entries, an approval of the
 * old one.
 */
export async function expectSchemaOneMigrated(store: JournalStore): Promise<void> {
  const main = store.journal("default");
  const other = store.journal("other");
  expect((await main.listExecutions()).map((run) => run.id)).toEqual(["paused", "older"]);
  expect(await main.getExecution("older")).toMatchObject({ result: "1", logs: ["hi"] });
  expect(await main.listEntries("paused")).toMatchObject([
    { seq: 0, method: "read", state: "applied", result: "0" },
    { seq: 1, method: "write", state: "pending", requiresApproval: true },
  ]);
  expect(await main.listEntries("paused", { states: ["pending"] })).toHaveLength(1);
  expect(await other.listEntries("paused")).toMatchObject([{ kind: "step", result: "5" }]);
  expect(await main.getSnippet("kept")).toMatchObject({ description: "a saved run" });
  // a run left running by a version without leases gets one of no pass, lapsing 30 s after its
  // last renewal; no other run has one
  expect((await other.getExecution("paused"))?.lease).toEqual({ owner: "", expiresAt: 30_031 });
  expect((await other.listLapsed(30_031)).map((run) => run.id)).toEqual([]);
  expect((await other.listLapsed(30_032)).map((run) => run.id)).toEqual(["paused"]);
  expect((await main.getExecution("older"))?.lease).toBeUndefined();
  await main.createExecution({
    id: "new",
    code: "async () => 4",
    status: "running",
    connectors: [],
    createdAt: 40,
    updatedAt: 40,
  });
  await main.putEntry({
    executionId: "new",
    seq: 0,
    kind: "call",
    connector: "store",
    method: "read",
    args: "{}",
    state: "executing",
    requiresApproval: false,
    deferred: false,
    replay: "record",
    createdAt: 41,
    updatedAt: 41,
  });
  expect(await main.applyEntry("new", 0, { result: "4", updatedAt: 42 })).toBe(true);
  expect(await main.updateEntry("paused", 1, ["pending"], { state: "executing" })).toBe(true);
  expect(await main.getEntry("new", 0)).toMatchObject({ state: "applied", result: "4" });
}
