// What PostgreSQL keeps its own way. The columns and the rest of the mapping between records and
// rows are the SQL stores' own, shared with the SQLite store (`sqlRows` of @codemode/core/internal).
import { ENTRY_ROW, sqlRows } from "@codemode/core/internal";

/** The columns an entry is read from, of `codemode_entries AS e` (its run's row has some of the names). */
export const JOINED_ENTRY_ROW = ENTRY_ROW.split(", ")
  .map((column) => `e.${column}`)
  .join(", ");

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

/**
 * PostgreSQL's rows: a `boolean` column as it is; an error message as a JSON string, which
 * PostgreSQL text can hold whatever the message (text cannot hold a NUL, which a message may carry).
 */
const POSTGRES_ROWS = sqlRows({
  toBoolean: (value) => value,
  fromBoolean: (value) => value === true,
  toError: (message) => JSON.stringify(message),
  fromError: fromErrorColumn,
});

export const {
  bindingValues,
  entryValues,
  executionValues,
  snippetValues,
  toBinding,
  toColumn,
  toEntry,
  toExecution,
  toSnippet,
} = POSTGRES_ROWS;

/** `a = $n, b = $n+1` and its values for the keys of `patch` the table has, numbered from `first`. */
export const assignments = (
  patch: Record<string, unknown>,
  columns: Readonly<Record<string, string>>,
  first: number,
): [string, unknown[]] => POSTGRES_ROWS.assignments(patch, columns, (index) => `$${first + index}`);
