// The surface-integrity property over the memory store (two runtimes over one store) and over one
// SQLite file that two runtimes open with connections of their own, as two processes do
// (better-sqlite3 and node:sqlite).
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStore, type SyncSqlite, sqliteStore } from "@codemode/core";
import Database from "better-sqlite3";
import { afterAll, describe } from "vitest";
import { InProcessExecutor } from "./in-process-executor.ts";
import { runSurfaceIntegrity } from "./surface-integrity.ts";

runSurfaceIntegrity({
  name: "memoryStore, two runtimes",
  createExecutor: () => new InProcessExecutor(),
  createStores: () => {
    const store = memoryStore();
    return [store, store];
  },
});

const folder = mkdtempSync(join(tmpdir(), "codemode-surface-"));
let files = 0;
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A new database file, opened twice: one connection per process. */
function twoConnections<T>(open: (path: string) => T): [T, T] {
  const path = join(folder, `journal-${files++}.db`);
  return [open(path), open(path)];
}

runSurfaceIntegrity({
  name: "sqliteStore (better-sqlite3), one file, two processes",
  createExecutor: () => new InProcessExecutor(),
  createStores: () => {
    const [one, two] = twoConnections((path) => {
      const db = new Database(path);
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      return db;
    });
    return [sqliteStore(one), sqliteStore(two)];
  },
});

const nodeSqlite = (() => {
  try {
    return createRequire(import.meta.url)("node:sqlite") as {
      DatabaseSync: new (path: string) => SyncSqlite & { exec(sql: string): void };
    };
  } catch {
    return undefined;
  }
})();
describe.runIf(nodeSqlite)("node:sqlite", () => {
  const { DatabaseSync } = nodeSqlite as NonNullable<typeof nodeSqlite>;
  runSurfaceIntegrity({
    name: "sqliteStore (node:sqlite), one file, two processes",
    createExecutor: () => new InProcessExecutor(),
    createStores: () => {
      const [one, two] = twoConnections((path) => {
        const db = new DatabaseSync(path);
        db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
        return db;
      });
      return [sqliteStore(one), sqliteStore(two)];
    },
  });
});
