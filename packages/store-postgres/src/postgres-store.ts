import {
  CodemodeError,
  createStoreLocal,
  type JournalStore,
  type StoreLocal,
} from "@codemode/core";
import { migrate, quoteSchema } from "./migrate.ts";
import { createRunner, type PgClientLike } from "./pg-client.ts";
import { PostgresJournal } from "./postgres-journal.ts";

export interface PostgresStoreOptions {
  /** the PostgreSQL schema that holds the tables, created when absent (default `"public"`) */
  schema?: string;
}

/** client → schema name → the store's `local`: one per storage, whatever store is made over it */
const locals = new WeakMap<object, Map<string, StoreLocal>>();

function localOfStorage(client: PgClientLike, schema: string): StoreLocal {
  let bySchema = locals.get(client);
  if (!bySchema) {
    bySchema = new Map();
    locals.set(client, bySchema);
  }
  let local = bySchema.get(schema);
  if (!local) {
    local = createStoreLocal();
    bySchema.set(schema, local);
  }
  return local;
}

/**
 * A journal store in PostgreSQL through node-postgres: give it a `Pool` (or a connected `Client`).
 * The schema is versioned and migrated in one transaction under an advisory lock before the store
 * is returned, so processes that start at once over one database are safe; runtimes of different
 * names share the tables and never see each other's rows. The store never ends the pool.
 */
export async function postgresStore(
  client: PgClientLike,
  options: PostgresStoreOptions = {},
): Promise<JournalStore> {
  if (typeof (client as { query?: unknown } | null)?.query !== "function") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "postgresStore(client) needs a node-postgres Pool (or a connected Client).",
    );
  }
  const name = options.schema ?? "public";
  const schema = quoteSchema(name);
  await migrate(client, name);
  const run = createRunner(client);
  return {
    specificationVersion: "v1",
    journal: (runtime) => new PostgresJournal(run, schema, runtime),
    local: localOfStorage(client, name),
  };
}
