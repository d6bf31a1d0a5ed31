// Both stores of @codemode/core against the store suite: memory, and SQLite through better-sqlite3
// (in memory and on a file reopened between tests), and node:sqlite.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStore, SCHEMA_VERSION, type SyncSqlite, sqliteStore } from "@codemode/core";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { InProcessExecutor } from "./in-process-executor.ts";
import { runJournalIntegrity } from "./journal-integrity.ts";
import { runJournalStoreConformance } from "./journal-store-conformance.ts";
import { expectSchemaOneMigrated, SCHEMA_ONE_JOURNAL } from "./schema-one.ts";

runJournalStoreConformance({ name: "memoryStore", createStore: () => memoryStore() });

runJournalStoreConformance({
  name: "sqliteStore (better-sqlite3, :memory:)",
  createStore: () => sqliteStore(new Database(":memory:")),
});

// the durable runtime's guarantees over both stores (the executor packages run it with theirs)
runJournalIntegrity({
  name: "memoryStore, in-process executor",
  createExecutor: () => new InProcessExecutor(),
  createStore: () => memoryStore(),
});
runJournalIntegrity({
  name: "sqliteStore (better-sqlite3), in-process executor",
  createExecutor: () => new InProcessExecutor(),
  createStore: () => sqliteStore(new Database(":memory:")),
});

const folder = mkdtempSync(join(tmpdir(), "codemode-store-"));
let files = 0;
afterAll(() => rmSync(folder, { recursive: true, force: true }));
runJournalStoreConformance({
  name: "sqliteStore (better-sqlite3, file)",
  createStore: () => sqliteStore(new Database(join(folder, `journal-${files++}.db`))),
});

const nodeSqlite = (() => {
  try {
    return createRequire(import.meta.url)("node:sqlite") as {
      DatabaseSync: new (path: string) => SyncSqlite;
    };
  } catch {
    return undefined;
  }
})();
// the toolchain's Node (22.18 or newer) has node:sqlite: its absence is a failure, not a skip
it("finds node:sqlite in this Node", () => {
  expect(nodeSqlite, `node:sqlite is missing from Node ${process.version}`).toBeDefined();
});
describe.runIf(nodeSqlite)("node:sqlite", () => {
  const open = () =>
    sqliteStore(new (nodeSqlite as NonNullable<typeof nodeSqlite>).DatabaseSync(":memory:"));
  runJournalStoreConformance({ name: "sqliteStore (node:sqlite)", createStore: open });
  runJournalIntegrity({
    name: "sqliteStore (node:sqlite), in-process executor",
    createExecutor: () => new InProcessExecutor(),
    createStore: open,
  });
});

describe("sqliteStore schema", () => {
  it("migrates once, records its version and reopens an existing file", async () => {
    const path = join(folder, "reopen.db");
    const first = new Database(path);
    const journal = sqliteStore(first).journal("default");
    await journal.putSnippet({ name: "kept", code: "1", connectors: [], savedAt: 1 });
    first.close();
    const second = new Database(path);
    expect(
      second.prepare("SELECT value FROM codemode_meta WHERE key = 'schema_version'").get(),
    ).toEqual({ value: String(SCHEMA_VERSION) });
    expect(await sqliteStore(second).journal("default").getSnippet("kept")).toMatchObject({
      name: "kept",
    });
    second.close();
  });

  it("brings a journal of schema 1 to the current schema with every run, entry and snippet kept", async () => {
    const db = new Database(":memory:");
    for (const statement of SCHEMA_ONE_JOURNAL) db.exec(statement);
    const store = sqliteStore(db);
    expect(
      db.prepare("SELECT value FROM codemode_meta WHERE key = 'schema_version'").get(),
    ).toEqual({ value: String(SCHEMA_VERSION) });
    expect(SCHEMA_VERSION).toBe(7);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%_v1'").all()).toEqual([]);
    await expectSchemaOneMigrated(store);
  });

  it("brings a journal of schema 3 to the current schema: its runs kept (without a seed), tool calls bound", async () => {
    const db = new Database(":memory:");
    const before = sqliteStore(db).journal("default");
    const run = {
      id: "kept",
      code: "async () => 1",
      status: "paused" as const,
      connectors: [],
      createdAt: 1,
      updatedAt: 1,
    };
    await before.createExecution(run);
    // schema 3 is the current schema without the tool calls' table (its index goes with it), the
    // seed and the entries' operation
    db.exec(`DROP TABLE codemode_tool_calls;
      ALTER TABLE codemode_executions DROP COLUMN seed;
      ALTER TABLE codemode_entries DROP COLUMN operation;
      UPDATE codemode_meta SET value = '3' WHERE key = 'schema_version'`);
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%tool_calls%'").all(),
    ).toEqual([]);
    const journal = sqliteStore(db).journal("default");
    expect(
      db.prepare("SELECT value FROM codemode_meta WHERE key = 'schema_version'").get(),
    ).toEqual({ value: String(SCHEMA_VERSION) });
    expect(await journal.getExecution("kept")).toEqual(run);
    const binding = { key: "call_1", executionId: "kept", createdAt: 2 };
    expect(await journal.bindToolCall(binding)).toEqual(binding);
    expect(await journal.showToolCall("call_1", '"shown"')).toEqual({
      ...binding,
      shown: '"shown"',
    });
    expect(await journal.deleteExecution("kept")).toBe(true);
    expect(await sqliteStore(db).journal("default").getToolCallBinding("call_1")).toMatchObject({
      executionId: "kept",
    });
  });

  it("gives a new database the same schema as a schema-1 journal migrated to the last", () => {
    type Row = { type: string; name: string; sql: string | null };
    const schema = (db: Database.Database) =>
      (db.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY name").all() as Row[]).map(
        (row) => ({ ...row, sql: row.sql?.replace(/IF NOT EXISTS /g, "").replace(/\s+/g, " ") }),
      );
    const fresh = new Database(":memory:");
    sqliteStore(fresh);
    const migrated = new Database(":memory:");
    for (const statement of SCHEMA_ONE_JOURNAL) migrated.exec(statement);
    sqliteStore(migrated);
    expect(schema(migrated)).toEqual(schema(fresh));
    expect(schema(fresh).map((row) => (row as { name: string }).name)).toContain(
      "codemode_entries",
    );
  });

  it("finds a run made again under the same id by another store on the same database", async () => {
    const db = new Database(":memory:");
    const first = sqliteStore(db).journal("default");
    const second = sqliteStore(db).journal("default");
    const run = {
      id: "again",
      code: "async () => 1",
      status: "running" as const,
      connectors: [],
      createdAt: 1,
      updatedAt: 1,
    };
    const step = (method: string) => ({
      executionId: "again",
      seq: 0,
      kind: "step" as const,
      connector: "codemode.step",
      method,
      state: "executing" as const,
      requiresApproval: false,
      deferred: false,
      replay: "record" as const,
      createdAt: 2,
      updatedAt: 2,
    });
    // `first` remembers the run's number; `second` deletes the run and makes a new one of that id
    await first.createExecution(run);
    await first.putEntry(step("old"));
    await second.deleteExecution("again");
    await second.createExecution(run);
    await second.putEntry(step("new"));
    expect(await first.listEntries("again")).toMatchObject([{ seq: 0, method: "new" }]);
    await second.deleteExecution("again");
    await second.createExecution(run);
    await second.putEntry(step("newer"));
    expect(await first.getEntry("again", 0)).toMatchObject({ method: "newer" });
    await second.deleteExecution("again");
    await second.createExecution(run);
    await second.putEntry(step("newest"));
    expect(await first.applyEntry("again", 0, { result: "1", updatedAt: 3 })).toBe(true);
    await second.deleteExecution("again");
    await second.createExecution(run);
    await first.putEntry(step("last"));
    expect(await second.listEntries("again")).toMatchObject([{ method: "last" }]);
    // a claim on the run made again: the lease of the new run decides, under its new number
    await second.deleteExecution("again");
    await second.createExecution({ ...run, lease: { owner: "pass_new", expiresAt: 10 } });
    expect(await first.putEntry(step("claimed"), { owner: "pass_old" })).toBe(false);
    expect(await first.putEntry(step("claimed"), { owner: "pass_new", renewUntil: 20 })).toBe(true);
    expect(await second.getExecution("again")).toMatchObject({
      lease: { owner: "pass_new", expiresAt: 20 },
    });
    expect(await second.listEntries("again")).toMatchObject([{ method: "claimed" }]);
    expect(await first.deleteExecution("again")).toBe(true);
    expect(await second.getExecution("again")).toBeUndefined();
  });

  it("leaves a journal untouched when a migration fails part way", () => {
    const db = new Database(":memory:");
    sqliteStore(db);
    db.prepare("UPDATE codemode_meta SET value = '1' WHERE key = 'schema_version'").run();
    // schema 2 tables already there under the names the migration renames to: it fails at once
    db.exec("CREATE TABLE codemode_entries_v1 (x INTEGER)");
    expect(() => sqliteStore(db)).toThrow();
    expect(
      db.prepare("SELECT value FROM codemode_meta WHERE key = 'schema_version'").get(),
    ).toEqual({
      value: "1",
    });
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE name = 'codemode_executions_v1'").all(),
    ).toEqual([]);
  });

  it("refuses a journal written by a newer schema", () => {
    const db = new Database(":memory:");
    sqliteStore(db);
    db.prepare("UPDATE codemode_meta SET value = '99' WHERE key = 'schema_version'").run();
    expect(() => sqliteStore(db)).toThrow(/newer version of Code Mode/);
  });

  it("refuses something that is not a synchronous SQLite", () => {
    expect(() => sqliteStore({} as SyncSqlite)).toThrow(/needs a synchronous SQLite/);
  });
});
