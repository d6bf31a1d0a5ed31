// sqliteStore over a Durable Object's own SQLite against the store suite, given `ctx.storage` (what
// createCodemodeRuntime({ ctx }) passes: migrations in transactionSync) or only `ctx.storage.sql`.
// SQL storage may only be touched inside its object, so every store call runs there.

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import {
  expectSchemaOneMigrated,
  runJournalStoreConformance,
  SCHEMA_ONE_JOURNAL,
} from "@codemode/conformance";
import type { JournalStore, SyncSqlite } from "@codemode/core";
import { expect, it } from "vitest";
import { sqliteStore } from "../../src/index.ts";

type Method = (...args: unknown[]) => unknown;

/** A store whose every journal call runs inside the object `stub`, on what `pick` takes of its storage. */
function storeInside(
  stub: DurableObjectStub,
  pick: (storage: DurableObjectStorage) => SyncSqlite,
): JournalStore {
  return {
    specificationVersion: "v1",
    journal: (name) =>
      new Proxy({} as ReturnType<JournalStore["journal"]>, {
        get: (_target, method) =>
          // not a thenable: awaiting the journal must not call into the object; nor does reading
          // its version
          method === "then"
            ? undefined
            : method === "specificationVersion"
              ? "v1"
              : (...args: unknown[]) =>
                  runInDurableObject(stub, (_instance, state) => {
                    const journal = sqliteStore(pick(state.storage)).journal(name);
                    return (journal[method as keyof typeof journal] as Method).apply(journal, args);
                  }),
      }),
  };
}

runJournalStoreConformance({
  name: "sqliteStore (Durable Object ctx.storage)",
  createStore: () =>
    storeInside(env.STORE_HOST.get(env.STORE_HOST.newUniqueId()), (storage) => storage),
});

runJournalStoreConformance({
  name: "sqliteStore (Durable Object ctx.storage.sql)",
  createStore: () =>
    storeInside(env.STORE_HOST.get(env.STORE_HOST.newUniqueId()), (storage) => storage.sql),
});

it("brings a schema-1 journal in a Durable Object to the current schema (7), and rolls a failed migration back", async () => {
  await runInDurableObject(env.STORE_HOST.get(env.STORE_HOST.newUniqueId()), async (_, state) => {
    const { sql } = state.storage;
    for (const statement of SCHEMA_ONE_JOURNAL) sql.exec(statement);
    await expectSchemaOneMigrated(sqliteStore(state.storage));
    const version = sql.exec("SELECT value FROM codemode_meta WHERE key = 'schema_version'").one();
    expect(version.value).toBe("7");
  });
  await runInDurableObject(env.STORE_HOST.get(env.STORE_HOST.newUniqueId()), (_, state) => {
    const { sql } = state.storage;
    for (const statement of SCHEMA_ONE_JOURNAL) sql.exec(statement);
    // a table under the name the migration renames to: it fails after its first statement
    sql.exec("CREATE TABLE codemode_entries_v1 (x INTEGER)");
    expect(() => sqliteStore(state.storage)).toThrow();
    const tables = sql
      .exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .toArray()
      .map((row) => row.name);
    expect(tables).toContain("codemode_executions");
    expect(tables).not.toContain("codemode_executions_v1");
    const version = sql.exec("SELECT value FROM codemode_meta WHERE key = 'schema_version'").one();
    expect(version.value).toBe("1");
  });
});
