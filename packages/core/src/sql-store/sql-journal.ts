import { checkBindingShown, checkToolCallBinding } from "../check-tool-call-binding.ts";
import { CodemodeError } from "../codemode-error.ts";
import {
  type EntryCondition,
  type EntryState,
  type ExecutionRecord,
  type ExecutionStatus,
  type Journal,
  type JournalEntry,
  type LeaseClaim,
  type LeaseCondition,
  noSuchRun,
  type SnippetRecord,
  TERMINAL_STATUSES,
  type ToolCallBinding,
} from "../journal-store.ts";
import type { SqlDriver, SqlRow } from "../sql-driver.ts";
import { MAX_RUN_NUMBER, SEQ_SPAN } from "./migrate.ts";
import {
  BINDING_ROW,
  ENTRY_COLUMNS,
  ENTRY_ROW,
  EXECUTION_COLUMNS,
  EXECUTION_ROW,
  flatLease,
  SNIPPET_ROW,
  sqlRows,
} from "./rows.ts";

/** What SQLite keeps its own way: a boolean as 0 or 1, an error message as it is. */
const SQLITE_ROWS = sqlRows({
  toBoolean: (value) => (value ? 1 : 0),
  fromBoolean: (value) => Number(value) === 1,
  toError: (message) => message,
  fromError: (value) => String(value),
});
const { toBinding, toEntry, toExecution, toSnippet } = SQLITE_ROWS;

/** `SET a = ?, b = ?` and its values for the keys of `patch` the table has. */
const assignments = (patch: Record<string, unknown>, columns: Readonly<Record<string, string>>) =>
  SQLITE_ROWS.assignments(patch, columns, () => "?");

const BINDING_OF_KEY = `SELECT ${BINDING_ROW} FROM codemode_tool_calls WHERE runtime = ? AND key = ?`;

/** The `AND …` of an update under a lease condition, and its values. */
function leaseFilter(lease: LeaseCondition | undefined): [string, unknown[]] {
  if (!lease) return ["", []];
  if ("owner" in lease) return [" AND lease_owner = ?", [lease.owner]];
  if ("updatedBefore" in lease) return [" AND updated_at < ?", [lease.updatedBefore]];
  return [" AND (lease_expires_at IS NULL OR lease_expires_at < ?)", [lease.lapsedBefore]];
}

const placeholders = (count: number) => Array.from({ length: count }, () => "?").join(", ");

const APPLY_ENTRY = `UPDATE codemode_entries SET state = 'applied', result = ?, error = ?, updated_at = ?
  WHERE key = ? AND state = 'executing'`;

/** Run numbers this process has looked up, at most this many (a number never changes or returns). */
const MAX_CACHED_NUMBERS = 1024;

/**
 * The journal of one runtime name in a synchronous SQLite. A run's entries are keyed by its number
 * times `SEQ_SPAN` plus their seq (schema 2, `migrate.ts`); the numbers this process has looked up
 * are remembered, and an operation that found nothing looks again once, in case another store over
 * the database deleted the run and made one of the same id.
 */
export class SqlJournal implements Journal {
  readonly specificationVersion = "v1";
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
      `INSERT INTO codemode_executions (runtime, ${EXECUTION_ROW})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING num`,
      [this.runtime, ...SQLITE_ROWS.executionValues(record)],
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
    const row = this.driver.all(
      `SELECT ${EXECUTION_ROW} FROM codemode_executions WHERE runtime = ? AND id = ?`,
      [this.runtime, id],
    )[0];
    return row ? toExecution(row) : undefined;
  }

  async listExecutions(
    options: { limit?: number; statuses?: readonly ExecutionStatus[] } = {},
  ): Promise<ExecutionRecord[]> {
    const statuses = options.statuses ?? [];
    const filter = statuses.length ? ` AND status IN (${placeholders(statuses.length)})` : "";
    const rows = this.driver.all(
      `SELECT ${EXECUTION_ROW} FROM codemode_executions WHERE runtime = ?${filter} ORDER BY created_at DESC, id DESC LIMIT ?`,
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
    const [set, values] = assignments(flatLease(patch), EXECUTION_COLUMNS);
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
      `SELECT ${EXECUTION_ROW} FROM codemode_executions WHERE runtime = ? AND status IN (${placeholders(statuses.length)})
       AND updated_at < ? ORDER BY created_at, id`,
      [this.runtime, ...statuses, before],
    );
    return rows.map(toExecution);
  }

  async listLapsed(now: number): Promise<ExecutionRecord[]> {
    const rows = this.driver.all(
      `SELECT ${EXECUTION_ROW} FROM codemode_executions WHERE runtime = ? AND status = 'running'
       AND (lease_expires_at IS NULL OR lease_expires_at < ?) ORDER BY created_at, id`,
      [this.runtime, now],
    );
    return rows.map(toExecution);
  }

  async getEntry(executionId: string, seq: number): Promise<JournalEntry | undefined> {
    const row =
      this.entryRow(executionId, seq) ??
      (this.renumbered(executionId) ? this.entryRow(executionId, seq) : undefined);
    return row ? toEntry(executionId, row) : undefined;
  }

  private entryRow(executionId: string, seq: number): SqlRow | undefined {
    const key = this.key(executionId, seq);
    if (key === undefined) return undefined;
    return this.driver.all(`SELECT ${ENTRY_ROW} FROM codemode_entries WHERE key = ?`, [key])[0];
  }

  async listEntries(
    executionId: string,
    options: { states?: readonly EntryState[] } = {},
  ): Promise<JournalEntry[]> {
    const states = options.states ?? [];
    let rows = this.entryRows(executionId, states);
    if (rows.length === 0 && this.renumbered(executionId))
      rows = this.entryRows(executionId, states);
    return rows.map((row) => toEntry(executionId, row));
  }

  private entryRows(executionId: string, states: readonly EntryState[]): SqlRow[] {
    const num = this.number(executionId);
    if (num === undefined) return [];
    const filter = states.length ? ` AND state IN (${placeholders(states.length)})` : "";
    return this.driver.all(
      `SELECT ${ENTRY_ROW} FROM codemode_entries WHERE key BETWEEN ? AND ?${filter} ORDER BY key`,
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
        `INSERT OR REPLACE INTO codemode_entries (key, runtime, execution_id, ${ENTRY_ROW})
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
         WHERE EXISTS (SELECT 1 FROM codemode_executions WHERE num = ?${held})`,
        [
          key,
          this.runtime,
          entry.executionId,
          ...SQLITE_ROWS.entryValues(entry),
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
    condition?: EntryCondition,
  ): Promise<boolean> {
    const [set, values] = assignments(patch, ENTRY_COLUMNS);
    if (!set || expected.length === 0) return false;
    const sql = `UPDATE codemode_entries SET ${set} WHERE key = ? AND state IN (${placeholders(expected.length)})`;
    const change =
      condition === undefined
        ? () => this.changeEntry(executionId, seq, sql, values, expected)
        : "unchangedSince" in condition
          ? () =>
              this.changeEntry(executionId, seq, `${sql} AND updated_at = ?`, values, [
                ...expected,
                condition.unchangedSince,
              ])
          : () => this.changeClaimed(executionId, seq, sql, values, expected, condition);
    return change() || (this.renumbered(executionId) && change());
  }

  /**
   * `updateEntry` under a claim: the entry changes only while its run is `running` under the
   * claim's owner (checked by the same statement), and the lease is renewed only when it did, in
   * the same transaction.
   */
  private changeClaimed(
    executionId: string,
    seq: number,
    sql: string,
    values: readonly unknown[],
    expected: readonly EntryState[],
    lease: LeaseClaim,
  ): boolean {
    const key = this.key(executionId, seq);
    if (key === undefined) return false;
    const num = Math.floor(key / SEQ_SPAN);
    const held = `${sql} AND EXISTS (SELECT 1 FROM codemode_executions
      WHERE num = ? AND status = 'running' AND lease_owner = ?)`;
    const params = [...values, key, ...expected, num, lease.owner];
    const { renewUntil } = lease;
    if (renewUntil === undefined) return this.driver.run(held, params) > 0;
    let changed = false;
    this.driver.transaction(() => {
      changed = this.driver.run(held, params) > 0;
      if (changed) {
        this.driver.run("UPDATE codemode_executions SET lease_expires_at = ? WHERE num = ?", [
          renewUntil,
          num,
        ]);
      }
    });
    return changed;
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
        `INSERT INTO codemode_tool_calls (runtime, ${BINDING_ROW})
         VALUES (?, ?, ?, ?, ?) ON CONFLICT (runtime, key) DO NOTHING`,
        [this.runtime, ...SQLITE_ROWS.bindingValues(binding)],
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
      `INSERT OR REPLACE INTO codemode_snippets (runtime, ${SNIPPET_ROW}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [this.runtime, ...SQLITE_ROWS.snippetValues(snippet)],
    );
  }

  async getSnippet(name: string): Promise<SnippetRecord | undefined> {
    const row = this.driver.all(
      `SELECT ${SNIPPET_ROW} FROM codemode_snippets WHERE runtime = ? AND name = ?`,
      [this.runtime, name],
    )[0];
    return row ? toSnippet(row) : undefined;
  }

  async listSnippets(): Promise<SnippetRecord[]> {
    return this.driver
      .all(`SELECT ${SNIPPET_ROW} FROM codemode_snippets WHERE runtime = ? ORDER BY name`, [
        this.runtime,
      ])
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
