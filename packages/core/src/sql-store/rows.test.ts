import { describe, expect, it } from "vitest";
import type {
  ExecutionRecord,
  JournalEntry,
  SnippetRecord,
  ToolCallBinding,
} from "../journal-store.ts";
import type { SqlRow } from "../sql-driver.ts";
import {
  BINDING_ROW,
  type ColumnDialect,
  ENTRY_COLUMNS,
  ENTRY_ROW,
  EXECUTION_COLUMNS,
  EXECUTION_ROW,
  flatLease,
  SNIPPET_ROW,
  sqlRows,
} from "./rows.ts";

/** The two ways the SQL stores keep a boolean and an error message (SQLite's, PostgreSQL's). */
const DIALECTS: Array<[name: string, dialect: ColumnDialect]> = [
  [
    "0 and 1, the message as it is",
    {
      toBoolean: (value) => (value ? 1 : 0),
      fromBoolean: (value) => Number(value) === 1,
      toError: (message) => message,
      fromError: (value) => String(value),
    },
  ],
  [
    "booleans, the message as JSON",
    {
      toBoolean: (value) => value,
      fromBoolean: (value) => value === true,
      toError: (message) => JSON.stringify(message),
      fromError: (value) => JSON.parse(String(value)) as string,
    },
  ],
];

/** The row a statement that lists `columns` with `values` writes. */
const rowOf = (columns: string, values: unknown[]): SqlRow =>
  Object.fromEntries(columns.split(", ").map((column, index) => [column, values[index]]));

const run: ExecutionRecord = {
  id: "run-1",
  code: "async () => 1",
  status: "running",
  error: "it failed\u0000 here",
  logs: ["one", "two"],
  connectors: ["svc"],
  createdAt: 1,
  updatedAt: 2,
  lease: { owner: "pass-1", expiresAt: 3 },
  seed: "seed",
};
const entry: JournalEntry = {
  executionId: "run-1",
  seq: 4,
  kind: "call",
  connector: "svc",
  method: "write",
  args: '{"a":1}',
  state: "pending",
  requiresApproval: true,
  deferred: false,
  replay: "record",
  error: "no",
  createdAt: 5,
  updatedAt: 6,
};
const snippet: SnippetRecord = {
  name: "report",
  code: "async () => 2",
  inputSchema: '{"type":"object"}',
  connectors: [],
  savedAt: 7,
};
const binding: ToolCallBinding = { key: "k", executionId: "run-1", createdAt: 8 };

describe.each(DIALECTS)("sqlRows (%s)", (_name, dialect) => {
  const rows = sqlRows(dialect);

  it("reads back every record as written, its values in the order its columns are listed", () => {
    expect(rows.toExecution(rowOf(EXECUTION_ROW, rows.executionValues(run)))).toEqual(run);
    expect(rows.toEntry("run-1", rowOf(ENTRY_ROW, rows.entryValues(entry)))).toEqual(entry);
    expect(rows.toSnippet(rowOf(SNIPPET_ROW, rows.snippetValues(snippet)))).toEqual(snippet);
    expect(rows.toBinding(rowOf(BINDING_ROW, rows.bindingValues(binding)))).toEqual(binding);
  });

  it("writes what a record lacks as NULL, and reads a NULL as a field the record lacks", () => {
    const bare: ExecutionRecord = { ...run, status: "completed" };
    delete bare.error;
    delete bare.logs;
    delete bare.lease;
    delete bare.seed;
    const values = rows.executionValues(bare);
    expect(values.filter((value) => value === null)).toHaveLength(6);
    expect(rows.toExecution(rowOf(EXECUTION_ROW, values))).toEqual(bare);
  });

  it("sets the columns of a patch in the order of the table's columns, its lease as two", () => {
    const patch = flatLease({ lease: undefined, updatedAt: 9, status: "paused", unknown: 1 });
    const [set, values] = rows.assignments(patch, EXECUTION_COLUMNS, (index) => `$${index + 3}`);
    expect(set).toBe("status = $3, updated_at = $4, lease_owner = $5, lease_expires_at = $6");
    expect(values).toEqual(["paused", 9, null, null]);
    const [entrySet, entryValues] = rows.assignments(
      { deferred: true, error: "e" },
      ENTRY_COLUMNS,
      () => "?",
    );
    expect(entrySet).toBe("deferred = ?, error = ?");
    expect(entryValues).toEqual([dialect.toBoolean(true), dialect.toError("e")]);
  });
});
