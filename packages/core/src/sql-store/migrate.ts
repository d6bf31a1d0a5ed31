import { CodemodeError } from "../codemode-error.ts";
import type { SqlDriver } from "../sql-driver.ts";

const EXECUTION_FIELDS =
  "code TEXT NOT NULL, status TEXT NOT NULL, result TEXT, error TEXT, logs TEXT, connectors TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL";
const ENTRY_FIELDS = `runtime TEXT NOT NULL, execution_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
    connector TEXT NOT NULL, method TEXT NOT NULL, args TEXT, result TEXT, state TEXT NOT NULL,
    requires_approval INTEGER NOT NULL, deferred INTEGER NOT NULL, replay TEXT NOT NULL, error TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL`;
const ENTRY_NAMES =
  "runtime, execution_id, seq, kind, connector, method, args, result, state, requires_approval, deferred, replay, error, created_at, updated_at";

/** An entry's key is its run's number times this, plus its seq: room for 16,777,216 entries a run. */
export const SEQ_SPAN = 2 ** 24;
/** Run numbers stay below this, so every key is an exact JavaScript number. */
export const MAX_RUN_NUMBER = Number.MAX_SAFE_INTEGER / SEQ_SPAN;

/** The tables and index of schema 2, as migration 2 makes them (migration 3 adds the lease columns). */
const EXECUTIONS_TABLE = `CREATE TABLE codemode_executions (num INTEGER PRIMARY KEY AUTOINCREMENT,
    runtime TEXT NOT NULL, id TEXT NOT NULL, ${EXECUTION_FIELDS}, UNIQUE (runtime, id))`;
const EXECUTIONS_INDEX =
  "CREATE INDEX codemode_executions_by_status ON codemode_executions (runtime, status, created_at)";
const ENTRIES_TABLE = `CREATE TABLE codemode_entries (key INTEGER PRIMARY KEY, ${ENTRY_FIELDS})`;
const SNIPPETS_COLUMNS = `runtime TEXT NOT NULL, name TEXT NOT NULL, description TEXT, code TEXT NOT NULL,
    input_schema TEXT, connectors TEXT NOT NULL, saved_at INTEGER NOT NULL, PRIMARY KEY (runtime, name)`;

/**
 * The tool calls' bindings (schema 4): one row per runtime and key, numbered as inserted (the
 * order after `created_at`), with no tie to a run's row, so deleting or pruning runs leaves them.
 * The index orders a runtime's bindings by age and then number (SQLite ends every index entry
 * with the row's `num`), as pruning reads them.
 */
const TOOL_CALLS_TABLE = `CREATE TABLE codemode_tool_calls (num INTEGER PRIMARY KEY AUTOINCREMENT,
    runtime TEXT NOT NULL, key TEXT NOT NULL, execution_id TEXT NOT NULL, shown TEXT,
    created_at INTEGER NOT NULL, UNIQUE (runtime, key))`;
const TOOL_CALLS_INDEX =
  "CREATE INDEX codemode_tool_calls_by_age ON codemode_tool_calls (runtime, created_at)";

/** Schema 5: a run's seed (`ExecutionRecord.seed`); runs from before have none. */
const SEED_MIGRATION = "ALTER TABLE codemode_executions ADD COLUMN seed TEXT";

/** Version 6: a statement that changes nothing; the version alone says entries may be `approved`. */
const APPROVED_STATE = "SELECT 1";

/** Version 7: the operation a call was recorded for (`JournalEntry.operation`); older calls have none. */
const OPERATION_MIGRATION = "ALTER TABLE codemode_entries ADD COLUMN operation TEXT";

/** How long a run left `running` by a version without leases stays live after its last renewal. */
const LEGACY_LEASE_MS = 30_000;

const LEASE_MIGRATION = `ALTER TABLE codemode_executions ADD COLUMN lease_owner TEXT;
  ALTER TABLE codemode_executions ADD COLUMN lease_expires_at INTEGER;
  UPDATE codemode_executions SET lease_owner = '', lease_expires_at = updated_at + ${LEGACY_LEASE_MS}
    WHERE status = 'running'`;

/**
 * The schema, one migration per version; a database is brought from its version to the last, in one
 * transaction (a new one gets the last at once, `CURRENT_SCHEMA`). Version 2 keys a run's entries by
 * one integer, its run's number times `SEQ_SPAN` plus the seq, so an entry lives in the table's own
 * b-tree and no second index: a recorded call writes one b-tree instead of two (in a file, fewer
 * pages per commit). Version 3 gives a run its lease (`lease_owner`, `lease_expires_at`); a run left
 * `running` by an older version gets a lease of no pass that lapses `LEGACY_LEASE_MS` after its last
 * renewal, as its liveness was judged before. Version 4 adds the tool calls' bindings
 * (`codemode_tool_calls`); version 5 a run's seed (`seed`). Version 6 changes no table: entries may
 * be `approved` from then on, which a version before it would read as a divergence (and leave in an
 * ended run), so it refuses the journal instead. Version 7 adds the operation a call was recorded
 * for (`operation`), which a version before it would drop.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS codemode_executions (
    runtime TEXT NOT NULL, id TEXT NOT NULL, ${EXECUTION_FIELDS}, PRIMARY KEY (runtime, id));
  CREATE INDEX IF NOT EXISTS codemode_executions_by_status ON codemode_executions (runtime, status, created_at);
  CREATE TABLE IF NOT EXISTS codemode_entries (${ENTRY_FIELDS}, PRIMARY KEY (runtime, execution_id, seq));
  CREATE TABLE IF NOT EXISTS codemode_snippets (${SNIPPETS_COLUMNS})`,
  `ALTER TABLE codemode_executions RENAME TO codemode_executions_v1;
  ALTER TABLE codemode_entries RENAME TO codemode_entries_v1;
  DROP INDEX codemode_executions_by_status;
  ${EXECUTIONS_TABLE};
  ${EXECUTIONS_INDEX};
  ${ENTRIES_TABLE};
  INSERT INTO codemode_executions (runtime, id, code, status, result, error, logs, connectors, created_at, updated_at)
    SELECT runtime, id, code, status, result, error, logs, connectors, created_at, updated_at
    FROM codemode_executions_v1 ORDER BY created_at, id;
  INSERT INTO codemode_entries (key, ${ENTRY_NAMES})
    SELECT run.num * ${SEQ_SPAN} + entry.seq, ${ENTRY_NAMES.split(", ")
      .map((name) => `entry.${name}`)
      .join(", ")}
    FROM codemode_entries_v1 AS entry JOIN codemode_executions AS run
    ON run.runtime = entry.runtime AND run.id = entry.execution_id;
  DROP TABLE codemode_entries_v1;
  DROP TABLE codemode_executions_v1`,
  LEASE_MIGRATION,
  `${TOOL_CALLS_TABLE};
  ${TOOL_CALLS_INDEX}`,
  SEED_MIGRATION,
  APPROVED_STATE,
  OPERATION_MIGRATION,
];

/** What a database without Code Mode's tables gets: the last schema, without the steps to it. */
const CURRENT_SCHEMA = [
  EXECUTIONS_TABLE,
  EXECUTIONS_INDEX,
  ENTRIES_TABLE,
  `CREATE TABLE codemode_snippets (${SNIPPETS_COLUMNS})`,
  LEASE_MIGRATION,
  TOOL_CALLS_TABLE,
  TOOL_CALLS_INDEX,
  SEED_MIGRATION,
  OPERATION_MIGRATION,
].join(";\n");

/** The schema version this package writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

const schemaVersion = (driver: SqlDriver) => {
  const row = driver.all("SELECT value FROM codemode_meta WHERE key = 'schema_version'", [])[0];
  return row ? Number(row.value) : 0;
};

/**
 * Brings the database to `SCHEMA_VERSION` in one transaction (a new one gets the last schema at
 * once); refuses a journal written by a newer version.
 */
export function migrate(driver: SqlDriver): void {
  driver.exec(
    "CREATE TABLE IF NOT EXISTS codemode_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  );
  const check = (current: number) => {
    if (current > SCHEMA_VERSION) {
      throw new CodemodeError(
        "STORE_FAILED",
        `The journal was written by a newer version of Code Mode (schema ${current}, this one knows ${SCHEMA_VERSION}).`,
      );
    }
    return current;
  };
  if (check(schemaVersion(driver)) === SCHEMA_VERSION) return;
  driver.transaction(() => {
    // read again inside the transaction: another process may have migrated in the meantime
    let version = check(schemaVersion(driver));
    const tables = driver.all("SELECT 1 FROM sqlite_master WHERE name = 'codemode_executions'", []);
    if (version === 0 && tables.length === 0) {
      driver.exec(CURRENT_SCHEMA);
      version = SCHEMA_VERSION;
    }
    for (; version < SCHEMA_VERSION; version++) driver.exec(MIGRATIONS[version] as string);
    driver.run("INSERT OR REPLACE INTO codemode_meta (key, value) VALUES ('schema_version', ?)", [
      String(SCHEMA_VERSION),
    ]);
  });
}
