import { CodemodeError } from "./codemode-error.ts";
import {
  type EntryState,
  type ExecutionRecord,
  type ExecutionStatus,
  type Journal,
  type JournalEntry,
  type JournalStore,
  type SnippetRecord,
  TERMINAL_STATUSES,
} from "./journal-store.ts";
import { createSqlDriver, type SqlDriver, type SqlRow, type SyncSqlite } from "./sql-driver.ts";

/** The schema, one migration per version; a database is brought from its version to the last. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS codemode_executions (
    runtime TEXT NOT NULL, id TEXT NOT NULL, code TEXT NOT NULL, status TEXT NOT NULL,
    result TEXT, error TEXT, logs TEXT, connectors TEXT NOT NULL,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    PRIMARY KEY (runtime, id));
  CREATE INDEX IF NOT EXISTS codemode_executions_by_status ON codemode_executions (runtime, status, created_at);
  CREATE TABLE IF NOT EXISTS codemode_entries (
    runtime TEXT NOT NULL, execution_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
    connector TEXT NOT NULL, method TEXT NOT NULL, args TEXT, result TEXT, state TEXT NOT NULL,
    requires_approval INTEGER NOT NULL, deferred INTEGER NOT NULL, replay TEXT NOT NULL, error TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    PRIMARY KEY (runtime, execution_id, seq));
  CREATE TABLE IF NOT EXISTS codemode_snippets (
    runtime TEXT NOT NULL, name TEXT NOT NULL, description TEXT, code TEXT NOT NULL,
    input_schema TEXT, connectors TEXT NOT NULL, saved_at INTEGER NOT NULL,
    PRIMARY KEY (runtime, name))`,
];

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

function migrate(driver: SqlDriver): void {
  driver.exec(
    "CREATE TABLE IF NOT EXISTS codemode_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
  );
  const row = driver.all("SELECT value FROM codemode_meta WHERE key = 'schema_version'", [])[0];
  const current = row ? Number(row.value) : 0;
  if (current > SCHEMA_VERSION) {
    throw new CodemodeError(
      "STORE_FAILED",
      `The journal was written by a newer version of Code Mode (schema ${current}, this one knows ${SCHEMA_VERSION}).`,
    );
  }
  for (let version = current; version < SCHEMA_VERSION; version++) {
    driver.exec(MIGRATIONS[version] as string);
    driver.run("INSERT OR REPLACE INTO codemode_meta (key, value) VALUES ('schema_version', ?)", [
      String(version + 1),
    ]);
  }
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

/** A column value as SQLite stores it. */
function toColumn(key: string, value: unknown): unknown {
  if (value === undefined) return null;
  if (key === "logs" || key === "connectors") return JSON.stringify(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/** `SET a = ?, b = ?` and its values for the keys of `patch` the table has. */
function assignments(
  patch: Record<string, unknown>,
  columns: Record<string, string>,
): [string, unknown[]] {
  const keys = Object.keys(patch).filter((key) => key in columns);
  return [
    keys.map((key) => `${columns[key]} = ?`).join(", "),
    keys.map((key) => toColumn(key, patch[key])),
  ];
}

const placeholders = (count: number) => Array.from({ length: count }, () => "?").join(", ");

class SqlJournal implements Journal {
  constructor(
    private readonly driver: SqlDriver,
    private readonly runtime: string,
  ) {}

  async createExecution(record: ExecutionRecord): Promise<void> {
    this.driver.run(
      `INSERT INTO codemode_executions (runtime, id, code, status, result, error, logs, connectors, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      ],
    );
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
  ): Promise<boolean> {
    const [set, values] = assignments(patch, EXECUTION_COLUMNS);
    if (!set || expected.length === 0) return false;
    return (
      this.driver.run(
        `UPDATE codemode_executions SET ${set} WHERE runtime = ? AND id = ? AND status IN (${placeholders(expected.length)})`,
        [...values, this.runtime, id, ...expected],
      ) > 0
    );
  }

  async deleteExecution(id: string): Promise<boolean> {
    this.driver.run("DELETE FROM codemode_entries WHERE runtime = ? AND execution_id = ?", [
      this.runtime,
      id,
    ]);
    return (
      this.driver.run("DELETE FROM codemode_executions WHERE runtime = ? AND id = ?", [
        this.runtime,
        id,
      ]) > 0
    );
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

  async getEntry(executionId: string, seq: number): Promise<JournalEntry | undefined> {
    const row = this.driver.all(
      "SELECT * FROM codemode_entries WHERE runtime = ? AND execution_id = ? AND seq = ?",
      [this.runtime, executionId, seq],
    )[0];
    return row ? toEntry(row) : undefined;
  }

  async listEntries(
    executionId: string,
    options: { states?: readonly EntryState[] } = {},
  ): Promise<JournalEntry[]> {
    const states = options.states ?? [];
    const filter = states.length ? ` AND state IN (${placeholders(states.length)})` : "";
    return this.driver
      .all(
        `SELECT * FROM codemode_entries WHERE runtime = ? AND execution_id = ?${filter} ORDER BY seq`,
        [this.runtime, executionId, ...states],
      )
      .map(toEntry);
  }

  async putEntry(entry: JournalEntry): Promise<void> {
    this.driver.run(
      `INSERT OR REPLACE INTO codemode_entries (runtime, execution_id, seq, kind, connector, method, args, result, state,
       requires_approval, deferred, replay, error, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
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
      ],
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
    return (
      this.driver.run(
        `UPDATE codemode_entries SET ${set} WHERE runtime = ? AND execution_id = ? AND seq = ? AND state IN (${placeholders(expected.length)})`,
        [...values, this.runtime, executionId, seq, ...expected],
      ) > 0
    );
  }

  async applyEntry(
    executionId: string,
    seq: number,
    outcome: { result?: string; error?: string; updatedAt: number },
  ): Promise<boolean> {
    return (
      this.driver.run(
        `UPDATE codemode_entries SET state = 'applied', result = ?, error = ?, updated_at = ?
         WHERE runtime = ? AND execution_id = ? AND seq = ? AND state = 'executing'`,
        [
          outcome.result ?? null,
          outcome.error ?? null,
          outcome.updatedAt,
          this.runtime,
          executionId,
          seq,
        ],
      ) > 0
    );
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
 * `ctx.storage.sql`. The schema is versioned and migrated when the store is created; runtimes of
 * different names share the tables and never see each other's rows.
 */
export function sqliteStore(db: SyncSqlite): JournalStore {
  const driver = createSqlDriver(db);
  migrate(driver);
  return { journal: (name) => new SqlJournal(driver, name) };
}
