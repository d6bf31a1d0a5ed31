import { checkBindingShown, checkToolCallBinding } from "./check-tool-call-binding.ts";
import { CodemodeError } from "./codemode-error.ts";
import {
  type EntryState,
  type ExecutionRecord,
  type ExecutionStatus,
  type Journal,
  type JournalEntry,
  type JournalStore,
  type LeaseClaim,
  type LeaseCondition,
  noSuchRun,
  type SnippetRecord,
  TERMINAL_STATUSES,
  type ToolCallBinding,
} from "./journal-store.ts";
import { createSqlDriver, type SqlDriver, type SqlRow, type SyncSqlite } from "./sql-driver.ts";

const EXECUTION_FIELDS =
  "code TEXT NOT NULL, status TEXT NOT NULL, result TEXT, error TEXT, logs TEXT, connectors TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL";
const ENTRY_FIELDS = `runtime TEXT NOT NULL, execution_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
    connector TEXT NOT NULL, method TEXT NOT NULL, args TEXT, result TEXT, state TEXT NOT NULL,
    requires_approval INTEGER NOT NULL, deferred INTEGER NOT NULL, replay TEXT NOT NULL, error TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL`;
const ENTRY_NAMES =
  "runtime, execution_id, seq, kind, connector, method, args, result, state, requires_approval, deferred, replay, error, created_at, updated_at";

/** An entry's key is its run's number times this, plus its seq: room for 16,777,216 entries a run. */
const SEQ_SPAN = 2 ** 24;
/** Run numbers stay below this, so every key is an exact JavaScript number. */
const MAX_RUN_NUMBER = Number.MAX_SAFE_INTEGER / SEQ_SPAN;

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
 * (`codemode_tool_calls`); version 5 a run's seed (`seed`).
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
].join(";\n");

/** The schema version this package writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

const EXECUTION_COLUMNS: Record<string, string> = {
  code: "code",
  status: "status",
  result: "result",
  error: "error",
  logs: "logs",
  connectors: "connectors",
  updatedAt: "updated_at",
};

const ENTRY_COLUMNS: Record<string, string> = {
  kind: "kind",
  connector: "connector",
  method: "method",
  args: "args",
  result: "result",
  state: "state",
  requiresApproval: "requires_approval",
  deferred: "deferred",
  replay: "replay",
  error: "error",
  updatedAt: "updated_at",
};

const schemaVersion = (driver: SqlDriver) => {
  const row = driver.all("SELECT value FROM codemode_meta WHERE key = 'schema_version'", [])[0];
  return row ? Number(row.value) : 0;
};

function migrate(driver: SqlDriver): void {
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

const optional = (value: unknown): string | undefined =>
  value === null || value === undefined ? undefined : String(value);

function toExecution(row: SqlRow): ExecutionRecord {
  return {
    id: String(row.id),
    code: String(row.code),
    status: String(row.status) as ExecutionStatus,
    ...(optional(row.result) === undefined ? {} : { result: String(row.result) }),
    ...(optional(row.error) === undefined ? {} : { error: String(row.error) }),
    ...(optional(row.logs) === undefined ? {} : { logs: JSON.parse(String(row.logs)) as string[] }),
    connectors: JSON.parse(String(row.connectors)) as string[],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    ...(optional(row.lease_owner) === undefined
      ? {}
      : { lease: { owner: String(row.lease_owner), expiresAt: Number(row.lease_expires_at) } }),
    ...(optional(row.seed) === undefined ? {} : { seed: String(row.seed) }),
  };
}

function toEntry(row: SqlRow): JournalEntry {
  return {
    executionId: String(row.execution_id),
    seq: Number(row.seq),
    kind: String(row.kind) as JournalEntry["kind"],
    connector: String(row.connector),
    method: String(row.method),
    ...(optional(row.args) === undefined ? {} : { args: String(row.args) }),
    ...(optional(row.result) === undefined ? {} : { result: String(row.result) }),
    state: String(row.state) as EntryState,
    requiresApproval: Number(row.requires_approval) === 1,
    deferred: Number(row.deferred) === 1,
    replay: String(row.replay) as JournalEntry["replay"],
    ...(optional(row.error) === undefined ? {} : { error: String(row.error) }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toSnippet(row: SqlRow): SnippetRecord {
  return {
    name: String(row.name),
    ...(optional(row.description) === undefined ? {} : { description: String(row.description) }),
    code: String(row.code),
    ...(optional(row.input_schema) === undefined ? {} : { inputSchema: String(row.input_schema) }),
    connectors: JSON.parse(String(row.connectors)) as string[],
    savedAt: Number(row.saved_at),
  };
}

function toBinding(row: SqlRow): ToolCallBinding {
  return {
    key: String(row.key),
    executionId: String(row.execution_id),
    ...(optional(row.shown) === undefined ? {} : { shown: String(row.shown) }),
    createdAt: Number(row.created_at),
  };
}

const BINDING_OF_KEY =
  "SELECT key, execution_id, shown, created_at FROM codemode_tool_calls WHERE runtime = ? AND key = ?";

/** A column value as SQLite stores it. */
function toColumn(key: string, value: unknown): unknown {
  if (value === undefined) return null;
  if (key === "logs" || key === "connectors") return JSON.stringify(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/** `SET a = ?, b = ?` and its values for the keys of `patch` the table has (a run's `lease` is two columns). */
function assignments(
  patch: Record<string, unknown>,
  columns: Record<string, string>,
): [string, unknown[]] {
  const keys = Object.keys(patch).filter((key) => key in columns);
  const set = keys.map((key) => `${columns[key]} = ?`);
  const values = keys.map((key) => toColumn(key, patch[key]));
  if (columns === EXECUTION_COLUMNS && "lease" in patch) {
    const lease = patch.lease as ExecutionRecord["lease"];
    set.push("lease_owner = ?", "lease_expires_at = ?");
    values.push(lease?.owner ?? null, lease?.expiresAt ?? null);
  }
  return [set.join(", "), values];
}

/** The `AND …` of an update under a lease condition, and its values. */
function leaseFilter(lease: LeaseCondition | undefined): [string, unknown[]] {
  if (!lease) return ["", []];
  if ("owner" in lease) return [" AND lease_owner = ?", [lease.owner]];
  return [" AND (lease_expires_at IS NULL OR lease_expires_at < ?)", [lease.lapsedBefore]];
}

const placeholders = (count: number) => Array.from({ length: count }, () => "?").join(", ");

const APPLY_ENTRY = `UPDATE codemode_entries SET state = 'applied', result = ?, error = ?, updated_at = ?
  WHERE key = ? AND state = 'executing'`;

/** Run numbers this process has looked up, at most this many (a number never changes or returns). */
const MAX_CACHED_NUMBERS = 1024;

class SqlJournal implements Journal {
  /** execution id → its run number, the high part of its entries' keys */
  private readonly numbers = new Map<string, number>();

  constructor(
    private readonly driver: SqlDriver,
    private readonly runtime: string,
  ) {}

  private remember(id: string, num: number): number {
    if (this.numbers.size >= MAX_CACHED_NUMBERS) this.numbers.clear();
    this.numbers.set(id, num);
    return num;
  }

  /** The run number of an execution, or undefined when this runtime has no such execution. */
  private number(id: string): number | undefined {
    const known = this.numbers.get(id);
    if (known !== undefined) return known;
    const row = this.driver.all(
      "SELECT num FROM codemode_executions WHERE runtime = ? AND id = ?",
      [this.runtime, id],
    )[0];
    return row ? this.remember(id, Number(row.num)) : undefined;
  }

  /**
   * After an operation found nothing: whether the run's number was remembered here and the run now
   * has another (another store on the same database deleted it and made one of the same id), so the
   * operation is worth running once more. Forgets the remembered number either way.
   */
  private renumbered(id: string): boolean {
    const remembered = this.numbers.get(id);
    if (remembered === undefined) return false;
    this.numbers.delete(id);
    const current = this.number(id);
    return current !== undefined && current !== remembered;
  }

  /** The key of an entry, or undefined when its execution does not exist. */
  private key(executionId: string, seq: number): number | undefined {
    if (!Number.isInteger(seq) || seq < 0 || seq >= SEQ_SPAN) {
      throw new CodemodeError(
        "STORE_FAILED",
        `An entry's seq must be an integer from 0 to ${SEQ_SPAN - 1}; got ${seq}.`,
      );
    }
    const num = this.number(executionId);
    return num === undefined ? undefined : num * SEQ_SPAN + seq;
  }

  async createExecution(record: ExecutionRecord): Promise<void> {
    const row = this.driver.all(
      `INSERT INTO codemode_executions (runtime, id, code, status, result, error, logs, connectors, created_at, updated_at, lease_owner, lease_expires_at, seed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING num`,
      [
        this.runtime,
        record.id,
        record.code,
        record.status,
        toColumn("result", record.result),
        toColumn("error", record.error),
        toColumn("logs", record.logs),
        toColumn("connectors", record.connectors),
        record.createdAt,
        record.updatedAt,
        record.lease?.owner ?? null,
        record.lease?.expiresAt ?? null,
        record.seed ?? null,
      ],
    )[0];
    const num = Number(row?.num);
    if (!(num < MAX_RUN_NUMBER)) {
      throw new CodemodeError(
        "STORE_FAILED",
        `This journal has numbered ${num} runs, more than its keys can hold; start a new database.`,
      );
    }
    this.remember(record.id, num);
  }

  async getExecution(id: string): Promise<ExecutionRecord | undefined> {
    const row = this.driver.all("SELECT * FROM codemode_executions WHERE runtime = ? AND id = ?", [
      this.runtime,
      id,
    ])[0];
    return row ? toExecution(row) : undefined;
  }

  async listExecutions(
    options: { limit?: number; statuses?: readonly ExecutionStatus[] } = {},
  ): Promise<ExecutionRecord[]> {
    const statuses = options.statuses ?? [];
    const filter = statuses.length ? ` AND status IN (${placeholders(statuses.length)})` : "";
    const rows = this.driver.all(
      `SELECT * FROM codemode_executions WHERE runtime = ?${filter} ORDER BY created_at DESC, id DESC LIMIT ?`,
      [this.runtime, ...statuses, options.limit ?? -1],
    );
    return rows.map(toExecution);
  }

  async updateExecution(
    id: string,
    expected: readonly ExecutionStatus[],
    patch: Partial<Omit<ExecutionRecord, "id" | "createdAt">>,
    lease?: LeaseCondition,
  ): Promise<boolean> {
    const [set, values] = assignments(patch, EXECUTION_COLUMNS);
    if (!set || expected.length === 0) return false;
    const [filter, filterValues] = leaseFilter(lease);
    return (
      this.driver.run(
        `UPDATE codemode_executions SET ${set} WHERE runtime = ? AND id = ? AND status IN (${placeholders(expected.length)})${filter}`,
        [...values, this.runtime, id, ...expected, ...filterValues],
      ) > 0
    );
  }

  async deleteExecution(id: string): Promise<boolean> {
    const deleted = this.deleteRun(id) || (this.renumbered(id) && this.deleteRun(id));
    this.numbers.delete(id);
    return deleted;
  }

  private deleteRun(id: string): boolean {
    const num = this.number(id);
    if (num === undefined) return false;
    let deleted = false;
    this.driver.transaction(() => {
      this.driver.run("DELETE FROM codemode_entries WHERE key BETWEEN ? AND ?", [
        num * SEQ_SPAN,
        num * SEQ_SPAN + SEQ_SPAN - 1,
      ]);
      deleted = this.driver.run("DELETE FROM codemode_executions WHERE num = ?", [num]) > 0;
    });
    return deleted;
  }

  async pruneExecutions(keep: number, except?: string): Promise<string[]> {
    const rows = this.driver.all(
      `SELECT id FROM codemode_executions WHERE runtime = ? AND status IN (${placeholders(TERMINAL_STATUSES.length)})
       AND id != ? ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ?`,
      [this.runtime, ...TERMINAL_STATUSES, except ?? "", Math.max(0, keep)],
    );
    const ids = rows.map((row) => String(row.id));
    for (const id of ids) await this.deleteExecution(id);
    return ids;
  }

  async listStale(
    statuses: readonly ExecutionStatus[],
    before: number,
  ): Promise<ExecutionRecord[]> {
    if (statuses.length === 0) return [];
    const rows = this.driver.all(
      `SELECT * FROM codemode_executions WHERE runtime = ? AND status IN (${placeholders(statuses.length)})
       AND updated_at < ? ORDER BY created_at, id`,
      [this.runtime, ...statuses, before],
    );
    return rows.map(toExecution);
  }

  async listLapsed(now: number): Promise<ExecutionRecord[]> {
    const rows = this.driver.all(
      `SELECT * FROM codemode_executions WHERE runtime = ? AND status = 'running'
       AND (lease_expires_at IS NULL OR lease_expires_at < ?) ORDER BY created_at, id`,
      [this.runtime, now],
    );
    return rows.map(toExecution);
  }

  async getEntry(executionId: string, seq: number): Promise<JournalEntry | undefined> {
    const row =
      this.entryRow(executionId, seq) ??
      (this.renumbered(executionId) ? this.entryRow(executionId, seq) : undefined);
    return row ? toEntry(row) : undefined;
  }

  private entryRow(executionId: string, seq: number): SqlRow | undefined {
    const key = this.key(executionId, seq);
    if (key === undefined) return undefined;
    return this.driver.all("SELECT * FROM codemode_entries WHERE key = ?", [key])[0];
  }

  async listEntries(
    executionId: string,
    options: { states?: readonly EntryState[] } = {},
  ): Promise<JournalEntry[]> {
    const states = options.states ?? [];
    let rows = this.entryRows(executionId, states);
    if (rows.length === 0 && this.renumbered(executionId))
      rows = this.entryRows(executionId, states);
    return rows.map(toEntry);
  }

  private entryRows(executionId: string, states: readonly EntryState[]): SqlRow[] {
    const num = this.number(executionId);
    if (num === undefined) return [];
    const filter = states.length ? ` AND state IN (${placeholders(states.length)})` : "";
    return this.driver.all(
      `SELECT * FROM codemode_entries WHERE key BETWEEN ? AND ?${filter} ORDER BY key`,
      [num * SEQ_SPAN, num * SEQ_SPAN + SEQ_SPAN - 1, ...states],
    );
  }

  async putEntry(entry: JournalEntry, lease?: LeaseClaim): Promise<boolean> {
    // the run must still exist: a number remembered here may be of a run another store deleted
    if (this.insertEntry(entry, lease)) return true;
    if (this.renumbered(entry.executionId) && this.insertEntry(entry, lease)) return true;
    if (lease && this.number(entry.executionId) !== undefined) return false;
    throw noSuchRun(entry);
  }

  /**
   * Writes the entry if its run exists (with a claim: is running under the claim's owner, the
   * lease renewed first in the same transaction when the claim says until when).
   */
  private insertEntry(entry: JournalEntry, lease: LeaseClaim | undefined): boolean {
    const key = this.key(entry.executionId, entry.seq);
    if (key === undefined) return false;
    const num = Math.floor(key / SEQ_SPAN);
    if (lease?.renewUntil === undefined) return this.insertRow(entry, key, num, lease?.owner);
    const { renewUntil, owner } = lease;
    let written = false;
    this.driver.transaction(() => {
      written =
        this.driver.run(
          `UPDATE codemode_executions SET lease_expires_at = ?
           WHERE num = ? AND status = 'running' AND lease_owner = ?`,
          [renewUntil, num, owner],
        ) > 0 && this.insertRow(entry, key, num, undefined);
    });
    return written;
  }

  /** The entry's row, if the run `num` exists (and, with `owner`, is running under its lease). */
  private insertRow(entry: JournalEntry, key: number, num: number, owner: string | undefined) {
    const held = owner === undefined ? "" : " AND status = 'running' AND lease_owner = ?";
    return (
      this.driver.run(
        `INSERT OR REPLACE INTO codemode_entries (key, ${ENTRY_NAMES})
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
         WHERE EXISTS (SELECT 1 FROM codemode_executions WHERE num = ?${held})`,
        [
          key,
          this.runtime,
          entry.executionId,
          entry.seq,
          entry.kind,
          entry.connector,
          entry.method,
          entry.args ?? null,
          entry.result ?? null,
          entry.state,
          entry.requiresApproval ? 1 : 0,
          entry.deferred ? 1 : 0,
          entry.replay,
          entry.error ?? null,
          entry.createdAt,
          entry.updatedAt,
          num,
          ...(owner === undefined ? [] : [owner]),
        ],
      ) > 0
    );
  }

  async updateEntry(
    executionId: string,
    seq: number,
    expected: readonly EntryState[],
    patch: Partial<Omit<JournalEntry, "executionId" | "seq" | "createdAt">>,
  ): Promise<boolean> {
    const [set, values] = assignments(patch, ENTRY_COLUMNS);
    if (!set || expected.length === 0) return false;
    const sql = `UPDATE codemode_entries SET ${set} WHERE key = ? AND state IN (${placeholders(expected.length)})`;
    return (
      this.changeEntry(executionId, seq, sql, values, expected) ||
      (this.renumbered(executionId) && this.changeEntry(executionId, seq, sql, values, expected))
    );
  }

  async applyEntry(
    executionId: string,
    seq: number,
    outcome: { result?: string; error?: string; updatedAt: number },
  ): Promise<boolean> {
    const values = [outcome.result ?? null, outcome.error ?? null, outcome.updatedAt];
    return (
      this.changeEntry(executionId, seq, APPLY_ENTRY, values, []) ||
      (this.renumbered(executionId) && this.changeEntry(executionId, seq, APPLY_ENTRY, values, []))
    );
  }

  /** Runs `sql` (an UPDATE whose values, then the key, then `after`) on one entry: whether it changed it. */
  private changeEntry(
    executionId: string,
    seq: number,
    sql: string,
    values: readonly unknown[],
    after: readonly unknown[],
  ): boolean {
    const key = this.key(executionId, seq);
    return key !== undefined && this.driver.run(sql, [...values, key, ...after]) > 0;
  }

  async bindToolCall(binding: ToolCallBinding): Promise<ToolCallBinding> {
    checkToolCallBinding(binding);
    // in one transaction, so the binding read is the one kept when the insert found one
    let kept: SqlRow | undefined;
    this.driver.transaction(() => {
      this.driver.run(
        `INSERT INTO codemode_tool_calls (runtime, key, execution_id, shown, created_at)
         VALUES (?, ?, ?, ?, ?) ON CONFLICT (runtime, key) DO NOTHING`,
        [this.runtime, binding.key, binding.executionId, binding.shown ?? null, binding.createdAt],
      );
      kept = this.driver.all(BINDING_OF_KEY, [this.runtime, binding.key])[0];
    });
    if (!kept) {
      throw new CodemodeError("STORE_FAILED", `The binding of "${binding.key}" was not kept.`);
    }
    return toBinding(kept);
  }

  async getToolCallBinding(key: string): Promise<ToolCallBinding | undefined> {
    const row = this.driver.all(BINDING_OF_KEY, [this.runtime, key])[0];
    return row ? toBinding(row) : undefined;
  }

  async showToolCall(key: string, shown: string): Promise<ToolCallBinding | undefined> {
    this.driver.run(
      "UPDATE codemode_tool_calls SET shown = ? WHERE runtime = ? AND key = ? AND shown IS NULL",
      [checkBindingShown(shown), this.runtime, key],
    );
    return this.getToolCallBinding(key);
  }

  async pruneToolCallBindings(keep: number): Promise<number> {
    if (!(keep < Number.POSITIVE_INFINITY)) return 0;
    // counted from RETURNING: a Durable Object's count of rows written takes in its indexes' rows
    return this.driver.all(
      `DELETE FROM codemode_tool_calls WHERE num IN (SELECT num FROM codemode_tool_calls
         WHERE runtime = ? ORDER BY created_at DESC, num DESC LIMIT -1 OFFSET ?) RETURNING num`,
      [this.runtime, Math.max(0, Math.floor(keep))],
    ).length;
  }

  async putSnippet(snippet: SnippetRecord): Promise<void> {
    this.driver.run(
      `INSERT OR REPLACE INTO codemode_snippets (runtime, name, description, code, input_schema, connectors, saved_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [
        this.runtime,
        snippet.name,
        toColumn("description", snippet.description),
        snippet.code,
        toColumn("inputSchema", snippet.inputSchema),
        toColumn("connectors", snippet.connectors),
        snippet.savedAt,
      ],
    );
  }

  async getSnippet(name: string): Promise<SnippetRecord | undefined> {
    const row = this.driver.all("SELECT * FROM codemode_snippets WHERE runtime = ? AND name = ?", [
      this.runtime,
      name,
    ])[0];
    return row ? toSnippet(row) : undefined;
  }

  async listSnippets(): Promise<SnippetRecord[]> {
    return this.driver
      .all("SELECT * FROM codemode_snippets WHERE runtime = ? ORDER BY name", [this.runtime])
      .map(toSnippet);
  }

  async deleteSnippet(name: string): Promise<boolean> {
    return (
      this.driver.run("DELETE FROM codemode_snippets WHERE runtime = ? AND name = ?", [
        this.runtime,
        name,
      ]) > 0
    );
  }
}

/**
 * A journal store in any synchronous SQLite: better-sqlite3, `node:sqlite` or a Durable Object's
 * `ctx.storage` (or its `.sql`). The schema is versioned and migrated in one transaction when the
 * store is created; runtimes of different names share the tables and never see each other's rows.
 */
export function sqliteStore(db: SyncSqlite): JournalStore {
  const driver = createSqlDriver(db);
  migrate(driver);
  return { journal: (name) => new SqlJournal(driver, name), scope: db };
}
