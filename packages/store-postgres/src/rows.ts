import type {
  EntryState,
  ExecutionRecord,
  ExecutionStatus,
  JournalEntry,
  SnippetRecord,
  ToolCallBinding,
} from "@codemode/core";
import type { PgRow } from "./pg-client.ts";

/** The columns a run is read from, in every statement that reads one. */
export const EXECUTION_SELECT =
  "id, code, status, result, error, logs, connectors, created_at, updated_at, lease_owner, lease_expires_at, seed";
/** The columns an entry is read from (of `codemode_entries AS e`). */
export const ENTRY_SELECT =
  "e.seq, e.kind, e.connector, e.method, e.args, e.result, e.state, e.requires_approval, e.deferred, e.replay, e.error, e.created_at, e.updated_at";
export const SNIPPET_SELECT = "name, description, code, input_schema, connectors, saved_at";
/** The columns a tool call's binding is read from. */
export const BINDING_SELECT = "key, execution_id, shown, created_at";

/** An error message as its column keeps it: a JSON string, which PostgreSQL text can hold whatever the message. */
export const errorColumn = (message: string | undefined): string | null =>
  message === undefined ? null : JSON.stringify(message);

const present = (value: unknown): value is string | number | boolean =>
  value !== null && value !== undefined;

function fromErrorColumn(value: unknown): string {
  const text = String(value);
  try {
    const message = JSON.parse(text) as unknown;
    if (typeof message === "string") return message;
  } catch {
    // written by hand, not by this store: the text itself
  }
  return text;
}

export function toExecution(row: PgRow): ExecutionRecord {
  return {
    id: String(row.id),
    code: String(row.code),
    status: String(row.status) as ExecutionStatus,
    ...(present(row.result) ? { result: String(row.result) } : {}),
    ...(present(row.error) ? { error: fromErrorColumn(row.error) } : {}),
    ...(present(row.logs) ? { logs: JSON.parse(String(row.logs)) as string[] } : {}),
    connectors: JSON.parse(String(row.connectors)) as string[],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    ...(present(row.lease_owner)
      ? { lease: { owner: String(row.lease_owner), expiresAt: Number(row.lease_expires_at) } }
      : {}),
    ...(present(row.seed) ? { seed: String(row.seed) } : {}),
  };
}

export function toEntry(executionId: string, row: PgRow): JournalEntry {
  return {
    executionId,
    seq: Number(row.seq),
    kind: String(row.kind) as JournalEntry["kind"],
    connector: String(row.connector),
    method: String(row.method),
    ...(present(row.args) ? { args: String(row.args) } : {}),
    ...(present(row.result) ? { result: String(row.result) } : {}),
    state: String(row.state) as EntryState,
    requiresApproval: row.requires_approval === true,
    deferred: row.deferred === true,
    replay: String(row.replay) as JournalEntry["replay"],
    ...(present(row.error) ? { error: fromErrorColumn(row.error) } : {}),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function toSnippet(row: PgRow): SnippetRecord {
  return {
    name: String(row.name),
    ...(present(row.description) ? { description: String(row.description) } : {}),
    code: String(row.code),
    ...(present(row.input_schema) ? { inputSchema: String(row.input_schema) } : {}),
    connectors: JSON.parse(String(row.connectors)) as string[],
    savedAt: Number(row.saved_at),
  };
}

export function toBinding(row: PgRow): ToolCallBinding {
  return {
    key: String(row.key),
    executionId: String(row.execution_id),
    ...(present(row.shown) ? { shown: String(row.shown) } : {}),
    createdAt: Number(row.created_at),
  };
}

/** The columns of a run that an update may set, by record key. */
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

/** A run's patch with its `lease` as the two columns that keep it (absent: both cleared). */
export function flatLease(patch: Record<string, unknown>): Record<string, unknown> {
  if (!("lease" in patch)) return patch;
  const lease = patch.lease as { owner: string; expiresAt: number } | undefined;
  return { ...patch, leaseOwner: lease?.owner, leaseExpiresAt: lease?.expiresAt };
}

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
};

/** A record's value as its column keeps it. */
export function toColumn(key: string, value: unknown): unknown {
  if (value === undefined) return null;
  if (key === "logs" || key === "connectors") return JSON.stringify(value);
  if (key === "error") return errorColumn(value as string);
  return value;
}

/**
 * `a = $n, b = $n+1` and its values for the keys of `patch` the table has, numbered from `first`;
 * the keys in a fixed order, so one set of keys always gives one statement text.
 */
export function assignments(
  patch: Record<string, unknown>,
  columns: Readonly<Record<string, string>>,
  first: number,
): [string, unknown[]] {
  const keys = Object.keys(columns).filter((key) => key in patch);
  return [
    keys.map((key, index) => `${columns[key]} = $${first + index}`).join(", "),
    keys.map((key) => toColumn(key, patch[key])),
  ];
}
