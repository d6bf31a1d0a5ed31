import { CodemodeError } from "@codemode/core";
import { lendConnection } from "./lend-connection.ts";
import { isPool, type PgClientLike, type PgQueryable, storeFailed } from "./pg-client.ts";

/**
 * The schema, one migration per version, each a function of the quoted PostgreSQL schema name.
 *
 * Version 1 keeps the ideas of the SQLite store's schema 2: a run has a number (`num`), its
 * entries are keyed by that number and their seq, so a run deleted and made again under the same
 * id never sees the old entries (they go with the old row, `ON DELETE CASCADE`). Ids and names
 * sort in code point order (`COLLATE "C"`), as SQLite and the memory store sort them. Times are
 * milliseconds (`bigint`). `logs` and `connectors` are JSON text, and an `error` column holds its
 * message as a JSON string: PostgreSQL text (and `jsonb`) cannot hold a NUL, which an error's
 * message may carry.
 *
 * Version 2 gives a run its lease: `lease_owner` (the pass that holds it) and `lease_expires_at`.
 * A run left `running` by version 1 gets a lease of no pass that lapses 30 s after its last
 * renewal, as its liveness was judged before.
 *
 * Version 3 adds the tool calls' bindings (`codemode_tool_calls`): one row per runtime and key,
 * numbered as inserted (`num`, the order after `created_at`), with no tie to a run's row, so
 * deleting or pruning runs leaves them. Its checks hold the limits the other stores check before
 * they write (`check-tool-call-binding.ts` of `@codemode/core`).
 *
 * Version 4 adds a run's `seed` (`ExecutionRecord.seed`); runs from before have none.
 *
 * Version 5 changes no table: entries may be `approved` from then on, which a version before it
 * would read as a divergence (and leave in an ended run), so it refuses the journal instead.
 *
 * Version 6 adds the operation a call was recorded for (`JournalEntry.operation`); calls from
 * before have none.
 */
const MIGRATIONS: readonly ((schema: string) => string)[] = [
  (schema) => `
    CREATE TABLE ${schema}.codemode_executions (
      num bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      runtime text COLLATE "C" NOT NULL,
      id text COLLATE "C" NOT NULL,
      code text NOT NULL,
      status text NOT NULL,
      result text,
      error text,
      logs text,
      connectors text NOT NULL,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      UNIQUE (runtime, id)
    );
    CREATE INDEX codemode_executions_by_status
      ON ${schema}.codemode_executions (runtime, status, created_at);
    CREATE INDEX codemode_executions_by_age
      ON ${schema}.codemode_executions (runtime, created_at, id);
    CREATE TABLE ${schema}.codemode_entries (
      run bigint NOT NULL REFERENCES ${schema}.codemode_executions (num) ON DELETE CASCADE,
      seq integer NOT NULL CHECK (seq >= 0),
      kind text NOT NULL,
      connector text NOT NULL,
      method text NOT NULL,
      args text,
      result text,
      state text NOT NULL,
      requires_approval boolean NOT NULL,
      deferred boolean NOT NULL,
      replay text NOT NULL,
      error text,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      PRIMARY KEY (run, seq)
    );
    CREATE TABLE ${schema}.codemode_snippets (
      runtime text COLLATE "C" NOT NULL,
      name text COLLATE "C" NOT NULL,
      description text,
      code text NOT NULL,
      input_schema text,
      connectors text NOT NULL,
      saved_at bigint NOT NULL,
      PRIMARY KEY (runtime, name)
    )`,
  (schema) => `
    ALTER TABLE ${schema}.codemode_executions
      ADD COLUMN lease_owner text COLLATE "C",
      ADD COLUMN lease_expires_at bigint;
    UPDATE ${schema}.codemode_executions
      SET lease_owner = '', lease_expires_at = updated_at + 30000
      WHERE status = 'running'`,
  (schema) => `
    CREATE TABLE ${schema}.codemode_tool_calls (
      runtime text COLLATE "C" NOT NULL,
      key text COLLATE "C" NOT NULL CHECK (length(key) BETWEEN 1 AND 256),
      num bigint GENERATED ALWAYS AS IDENTITY,
      execution_id text COLLATE "C" NOT NULL CHECK (length(execution_id) BETWEEN 1 AND 1000),
      shown text CHECK (length(shown) BETWEEN 1 AND 200000),
      created_at bigint NOT NULL,
      PRIMARY KEY (runtime, key)
    );
    CREATE INDEX codemode_tool_calls_by_age
      ON ${schema}.codemode_tool_calls (runtime, created_at, num)`,
  (schema) => `
    ALTER TABLE ${schema}.codemode_executions ADD COLUMN seed text`,
  () => "SELECT 1",
  (schema) => `
    ALTER TABLE ${schema}.codemode_entries ADD COLUMN operation text`,
];

/** The schema version this package writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** A PostgreSQL schema name the store accepts: a lowercase identifier, quoted in every statement. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The schema name, checked and double-quoted; a bad one is a configuration error. */
export function quoteSchema(name: string): string {
  if (typeof name !== "string" || !SCHEMA_NAME.test(name)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `postgresStore's schema must be a lowercase PostgreSQL identifier (letters, digits and "_", at most 63, not starting with a digit); got "${String(name).slice(0, 100)}".`,
    );
  }
  return `"${name}"`;
}

/**
 * Brings the schema `name` to `SCHEMA_VERSION` in one transaction. The transaction first takes an
 * advisory lock of the schema, so processes starting at once migrate one after another: the first
 * creates the tables, the others find them current. A migration that fails rolls back whole. A
 * schema already current is left without a DDL statement, so a role that may only read and write
 * rows can open it.
 */
export async function migrate(client: PgClientLike, name: string): Promise<void> {
  const schema = quoteSchema(name);
  const lent = isPool(client) ? await lendConnection(client) : undefined;
  const connection: PgQueryable = lent ? lent.client : client;
  // a connection whose transaction could not be rolled back is not handed back to the pool
  let unsettled = false;
  try {
    const run = (text: string, values: unknown[] = []) => connection.query({ text, values });
    await run("BEGIN");
    try {
      await run("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`codemode:${name}`]);
      const found = await run(
        "SELECT to_regnamespace($1) IS NOT NULL AS schema, to_regclass($2) IS NOT NULL AS meta",
        [schema, `${schema}.codemode_meta`],
      );
      const present = found.rows[0] as { schema: boolean; meta: boolean };
      if (!present.schema) await run(`CREATE SCHEMA ${schema}`);
      if (!present.meta) {
        await run(
          `CREATE TABLE ${schema}.codemode_meta (key text PRIMARY KEY, value text NOT NULL)`,
        );
      }
      const row = (
        await run(`SELECT value FROM ${schema}.codemode_meta WHERE key = 'schema_version'`)
      ).rows[0];
      const current = row ? Number(row.value) : 0;
      if (!(Number.isInteger(current) && current >= 0 && current <= SCHEMA_VERSION)) {
        throw new CodemodeError(
          "STORE_FAILED",
          `The journal in schema ${schema} was written by a newer version of Code Mode (schema ${String(row?.value)}, this one knows ${SCHEMA_VERSION}).`,
        );
      }
      if (current < SCHEMA_VERSION) {
        for (let version = current; version < SCHEMA_VERSION; version++) {
          await run((MIGRATIONS[version] as (schema: string) => string)(schema));
        }
        await run(
          `INSERT INTO ${schema}.codemode_meta (key, value) VALUES ('schema_version', $1)
           ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
          [String(SCHEMA_VERSION)],
        );
      }
      await run("COMMIT");
    } catch (error) {
      await run("ROLLBACK").catch(() => {
        unsettled = true;
      });
      throw error;
    }
  } catch (error) {
    throw storeFailed(error);
  } finally {
    lent?.release(unsettled);
  }
}
