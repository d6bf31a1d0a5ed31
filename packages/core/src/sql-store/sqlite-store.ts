import type { JournalStore, StoreLocal } from "../journal-store.ts";
import { createStoreLocal } from "../runtime/context/store-local.ts";
import { createSqlDriver, type SyncSqlite } from "../sql-driver.ts";
import { migrate } from "./migrate.ts";
import { SqlJournal } from "./sql-journal.ts";

const locals = new WeakMap<object, StoreLocal>();

/** One `StoreLocal` per database handle (or Durable Object storage), whatever store is made over it. */
function localOfStorage(db: SyncSqlite): StoreLocal {
  let local = locals.get(db);
  if (!local) {
    local = createStoreLocal();
    locals.set(db, local);
  }
  return local;
}

/**
 * A journal store in any synchronous SQLite: better-sqlite3, `node:sqlite` or a Durable Object's
 * `ctx.storage` (or its `.sql`). The schema is versioned and migrated in one transaction when the
 * store is created; runtimes of different names share the tables and never see each other's rows.
 */
export function sqliteStore(db: SyncSqlite): JournalStore {
  const driver = createSqlDriver(db);
  migrate(driver);
  return {
    specificationVersion: "v1",
    journal: (name) => new SqlJournal(driver, name),
    local: localOfStorage(db),
  };
}
