// Both stores of @codemode/core against the store suite: memory, and SQLite through better-sqlite3
// (in memory and on a file reopened between tests), and node:sqlite where this Node has it.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStore, type SyncSqlite, sqliteStore } from "@codemode/core";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { runJournalStoreConformance } from "./journal-store-conformance.ts";

runJournalStoreConformance({ name: "memoryStore", createStore: () => memoryStore() });

runJournalStoreConformance({
  name: "sqliteStore (better-sqlite3, :memory:)",
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
describe.runIf(nodeSqlite)("node:sqlite", () => {
  runJournalStoreConformance({
    name: "sqliteStore (node:sqlite)",
    createStore: () =>
      sqliteStore(new (nodeSqlite as NonNullable<typeof nodeSqlite>).DatabaseSync(":memory:")),
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
    ).toEqual({ value: "1" });
    expect(await sqliteStore(second).journal("default").getSnippet("kept")).toMatchObject({
      name: "kept",
    });
    second.close();
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
