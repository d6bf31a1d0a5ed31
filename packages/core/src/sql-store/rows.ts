// The rows of Code Mode's SQL stores (SQLite here, PostgreSQL in @codemode/store-postgres): the
// columns each record is read from, written to and updated through, and the mapping between a
// record and its row. The tables have the same columns in every SQL store; what differs between databases is
// `ColumnDialect`: how a boolean and an error message are kept.
import type {
  EntryState,
  ExecutionRecord,
  ExecutionStatus,
  JournalEntry,
  SnippetRecord,
  ToolCallBinding,
} from "../journal-store.ts";
import type { SqlRow } from "../sql-driver.ts";

/**
 * The columns of a run's row after its `runtime`, in the order every statement reads and writes
 * them (`SqlRows.executionValues`); likewise an entry's after its run (`entryValues`), a snippet's
 * (`snippetValues`) and a tool call's binding's (`bindingValues`).
 */
export const EXECUTION_ROW =
  "id, code, status, result, error, logs, connectors, created_at, updated_at, lease_owner, lease_expires_at, seed";
export const ENTRY_ROW =
  "seq, kind, connector, method, args, result, state, requires_approval, deferred, replay, error, created_at, updated_at, operation";
export const SNIPPET_ROW = "name, description, code, input_schema, connectors, saved_at";
export const BINDING_ROW = "key, execution_id, shown, created_at";

/** The columns of a run that an update may set, by record key (its `lease` through `flatLease`). */
export const EXECUTION_COLUMNS: Readonly<Record<string, string>> = {
  code: "code",
  status: "status",
  result: "result",
  error: "error",
  logs: "logs",
  connectors: "connectors",
  updatedAt: "updated_at",
  leaseOwner: "lease_owner",
  leaseExpiresAt: "lease_expires_at",
};

/** The columns of an entry that an update may set, by record key. */
export const ENTRY_COLUMNS: Readonly<Record<string, string>> = {
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
  operation: "operation",
};

/** A run's patch with its `lease` as the two columns that keep it (absent: both cleared). */
export function flatLease(patch: Record<string, unknown>): Record<string, unknown> {
  if (!("lease" in patch)) return patch;
  const lease = patch.lease as ExecutionRecord["lease"];
  return { ...patch, leaseOwner: lease?.owner, leaseExpiresAt: lease?.expiresAt };
}

/** What one database keeps differently: a boolean column's value and an error message's text. */
export interface ColumnDialect {
  /** a boolean as its column keeps it (SQLite: 0 or 1; PostgreSQL: a `boolean`) */
  toBoolean(value: boolean): unknown;
  fromBoolean(value: unknown): boolean;
  /** an error message as its column keeps it (PostgreSQL: as a JSON string, which can hold a NUL) */
  toError(message: string): string;
  fromError(value: unknown): string;
}

/** The mapping between records and rows, for one database. */
export interface SqlRows {
  toExecution(row: SqlRow): ExecutionRecord;
  toEntry(executionId: string, row: SqlRow): JournalEntry;
  toSnippet(row: SqlRow): SnippetRecord;
  toBinding(row: SqlRow): ToolCallBinding;
  /** the values of a run's row, in the order of `EXECUTION_ROW` */
  executionValues(record: ExecutionRecord): unknown[];
  /** the values of an entry's row, in the order of `ENTRY_ROW` */
  entryValues(entry: JournalEntry): unknown[];
  /** the values of a snippet's row, in the order of `SNIPPET_ROW` */
  snippetValues(snippet: SnippetRecord): unknown[];
  /** the values of a binding's row, in the order of `BINDING_ROW` */
  bindingValues(binding: ToolCallBinding): unknown[];
  /** a record's value as its column keeps it (`undefined` as NULL; `logs` and `connectors` as JSON) */
  toColumn(key: string, value: unknown): unknown;
  /**
   * `a = …, b = …` and its values for the keys of `patch` the table has (`columns`), each value's
   * placeholder from `placeholder(index)`; the keys in the fixed order of `columns`, so one set of
   * keys always gives one statement text.
   */
  assignments(
    patch: Record<string, unknown>,
    columns: Readonly<Record<string, string>>,
    placeholder: (index: number) => string,
  ): [string, unknown[]];
}

const present = (value: unknown): boolean => value !== null && value !== undefined;

/** The row mapping of the database `dialect` describes. */
export function sqlRows(dialect: ColumnDialect): SqlRows {
  const toColumn = (key: string, value: unknown): unknown => {
    if (value === undefined) return null;
    if (key === "logs" || key === "connectors") return JSON.stringify(value);
    if (key === "error") return dialect.toError(value as string);
    if (typeof value === "boolean") return dialect.toBoolean(value);
    return value;
  };
  return {
    toExecution: (row) => ({
      id: String(row.id),
      code: String(row.code),
      status: String(row.status) as ExecutionStatus,
      ...(present(row.result) ? { result: String(row.result) } : {}),
      ...(present(row.error) ? { error: dialect.fromError(row.error) } : {}),
      ...(present(row.logs) ? { logs: JSON.parse(String(row.logs)) as string[] } : {}),
      connectors: JSON.parse(String(row.connectors)) as string[],
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      ...(present(row.lease_owner)
        ? { lease: { owner: String(row.lease_owner), expiresAt: Number(row.lease_expires_at) } }
        : {}),
      ...(present(row.seed) ? { seed: String(row.seed) } : {}),
    }),
    toEntry: (executionId, row) => ({
      executionId,
      seq: Number(row.seq),
      kind: String(row.kind) as JournalEntry["kind"],
      connector: String(row.connector),
      method: String(row.method),
      ...(present(row.args) ? { args: String(row.args) } : {}),
      ...(present(row.result) ? { result: String(row.result) } : {}),
      state: String(row.state) as EntryState,
      requiresApproval: dialect.fromBoolean(row.requires_approval),
      deferred: dialect.fromBoolean(row.deferred),
      replay: String(row.replay) as JournalEntry["replay"],
      ...(present(row.error) ? { error: dialect.fromError(row.error) } : {}),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      ...(present(row.operation) ? { operation: String(row.operation) } : {}),
    }),
    toSnippet: (row) => ({
      name: String(row.name),
      ...(present(row.description) ? { description: String(row.description) } : {}),
      code: String(row.code),
      ...(present(row.input_schema) ? { inputSchema: String(row.input_schema) } : {}),
      connectors: JSON.parse(String(row.connectors)) as string[],
      savedAt: Number(row.saved_at),
    }),
    toBinding: (row) => ({
      key: String(row.key),
      executionId: String(row.execution_id),
      ...(present(row.shown) ? { shown: String(row.shown) } : {}),
      createdAt: Number(row.created_at),
    }),
    executionValues: (record) => [
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
    entryValues: (entry) => [
      entry.seq,
      entry.kind,
      entry.connector,
      entry.method,
      toColumn("args", entry.args),
      toColumn("result", entry.result),
      entry.state,
      dialect.toBoolean(entry.requiresApproval),
      dialect.toBoolean(entry.deferred),
      entry.replay,
      toColumn("error", entry.error),
      entry.createdAt,
      entry.updatedAt,
      toColumn("operation", entry.operation),
    ],
    snippetValues: (snippet) => [
      snippet.name,
      toColumn("description", snippet.description),
      snippet.code,
      toColumn("inputSchema", snippet.inputSchema),
      toColumn("connectors", snippet.connectors),
      snippet.savedAt,
    ],
    bindingValues: (binding) => [
      binding.key,
      binding.executionId,
      toColumn("shown", binding.shown),
      binding.createdAt,
    ],
    toColumn,
    assignments: (patch, columns, placeholder) => {
      const keys = Object.keys(columns).filter((key) => key in patch);
      return [
        keys.map((key, index) => `${columns[key]} = ${placeholder(index)}`).join(", "),
        keys.map((key) => toColumn(key, patch[key])),
      ];
    },
  };
}
