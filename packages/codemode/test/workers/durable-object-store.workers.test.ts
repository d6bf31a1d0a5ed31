// sqliteStore over a Durable Object's own SQLite against the store suite, given `ctx.storage` (what
// createCodemodeRuntime({ ctx }) passes: migrations in transactionSync) or only `ctx.storage.sql`.
// SQL storage may only be touched inside its object, so every store call runs there.

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { runJournalStoreConformance } from "@codemode/conformance";
import type { JournalStore, SyncSqlite } from "@codemode/core";
import { sqliteStore } from "../../src/index.ts";

type Method = (...args: unknown[]) => unknown;

/** A store whose every journal call runs inside the object `stub`, on what `pick` takes of its storage. */
function storeInside(
  stub: DurableObjectStub,
  pick: (storage: DurableObjectStorage) => SyncSqlite,
): JournalStore {
  return {
    journal: (name) =>
      new Proxy({} as ReturnType<JournalStore["journal"]>, {
        get: (_target, method) =>
          // not a thenable: awaiting the journal must not call into the object
          method === "then"
            ? undefined
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
