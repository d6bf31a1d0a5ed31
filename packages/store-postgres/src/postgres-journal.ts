import {
  CodemodeError,
  type EntryCondition,
  type EntryState,
  type ExecutionRecord,
  type ExecutionStatus,
  type Journal,
  type JournalEntry,
  type LeaseClaim,
  type LeaseCondition,
  type SnippetRecord,
  TERMINAL_STATUSES,
  type ToolCallBinding,
} from "@codemode/core";
import {
  BINDING_ROW,
  ENTRY_COLUMNS,
  ENTRY_ROW,
  EXECUTION_COLUMNS,
  EXECUTION_ROW,
  flatLease,
  noSuchRun,
  SNIPPET_ROW,
} from "@codemode/core/internal";
import { type createRunner, sqlState } from "./pg-client.ts";
import {
  assignments,
  bindingValues,
  entryValues,
  executionValues,
  JOINED_ENTRY_ROW,
  snippetValues,
  toBinding,
  toColumn,
  toEntry,
  toExecution,
  toSnippet,
} from "./rows.ts";

type Runner = ReturnType<typeof createRunner>;

/** The largest seq an entry may have: PostgreSQL's `integer`. */
const MAX_SEQ = 2 ** 31 - 1;

function checkSeq(seq: number): number {
  if (!Number.isInteger(seq) || seq < 0 || seq > MAX_SEQ) {
    throw new CodemodeError(
      "STORE_FAILED",
      `An entry's seq must be an integer from 0 to ${MAX_SEQ}; got ${seq}.`,
    );
  }
  return seq;
}

/** The `AND …` of an update under a lease condition, its value numbered `$n`. */
function leaseFilter(lease: LeaseCondition | undefined, n: number): [string, unknown[]] {
  if (!lease) return ["", []];
  if ("owner" in lease) return [` AND lease_owner = $${n}`, [lease.owner]];
  if ("updatedBefore" in lease) return [` AND updated_at < $${n}::float8`, [lease.updatedBefore]];
  return [
    ` AND (lease_expires_at IS NULL OR lease_expires_at < $${n}::float8)`,
    [lease.lapsedBefore],
  ];
}

/** The values of an entry row after its run's number: `$3` to `$16`. */
const ENTRY_VALUES = `$3::integer, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text,
  $10::boolean, $11::boolean, $12::text, $13::text, $14::bigint, $15::bigint, $16::text`;
const ENTRY_UPSERT = `ON CONFLICT (run, seq) DO UPDATE SET kind = EXCLUDED.kind, connector = EXCLUDED.connector,
  method = EXCLUDED.method, args = EXCLUDED.args, result = EXCLUDED.result,
  state = EXCLUDED.state, requires_approval = EXCLUDED.requires_approval,
  deferred = EXCLUDED.deferred, replay = EXCLUDED.replay, error = EXCLUDED.error,
  created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, operation = EXCLUDED.operation`;

/** A row limit as `LIMIT` takes it: none (`null`) for no limit. */
function rowLimit(limit: number | undefined): number | null {
  if (limit === undefined || !Number.isFinite(limit)) return null;
  return Math.max(0, Math.floor(limit));
}

/**
 * The journal of one runtime name in one PostgreSQL schema. Every method is one statement, so one
 * round trip; a conditional change is one `UPDATE … WHERE state = ANY(expected)`, which PostgreSQL
 * re-checks on the newest row version when two writers meet (the later one then changes nothing).
 */
export class PostgresJournal implements Journal {
  readonly specificationVersion = "v1";
  private readonly executions: string;
  private readonly entries: string;
  private readonly snippets: string;
  private readonly toolCalls: string;
  /** `FROM` and `WHERE` of the statements that reach one run's entries: runtime $1, id $2 */
  private readonly ofRun: string;

  constructor(
    private readonly run: Runner,
    schema: string,
    private readonly runtime: string,
  ) {
    this.executions = `${schema}.codemode_executions`;
    this.entries = `${schema}.codemode_entries`;
    this.snippets = `${schema}.codemode_snippets`;
    this.toolCalls = `${schema}.codemode_tool_calls`;
    this.ofRun = `${this.entries} AS e JOIN ${this.executions} AS x ON x.num = e.run WHERE x.runtime = $1 AND x.id = $2`;
  }

  async createExecution(record: ExecutionRecord): Promise<void> {
    await this.run(
      `INSERT INTO ${this.executions} (runtime, ${EXECUTION_ROW})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [this.runtime, ...executionValues(record)],
    );
  }

  async getExecution(id: string): Promise<ExecutionRecord | undefined> {
    const { rows } = await this.run(
      `SELECT ${EXECUTION_ROW} FROM ${this.executions} WHERE runtime = $1 AND id = $2`,
      [this.runtime, id],
    );
    return rows[0] ? toExecution(rows[0]) : undefined;
  }

  async listExecutions(
    options: { limit?: number; statuses?: readonly ExecutionStatus[] } = {},
  ): Promise<ExecutionRecord[]> {
    const statuses = options.statuses ?? [];
    const filter = statuses.length ? " AND status = ANY($3::text[])" : "";
    const { rows } = await this.run(
      `SELECT ${EXECUTION_ROW} FROM ${this.executions} WHERE runtime = $1${filter}
       ORDER BY created_at DESC, id DESC LIMIT $2`,
      [this.runtime, rowLimit(options.limit), ...(statuses.length ? [statuses] : [])],
    );
    return rows.map(toExecution);
  }

  async updateExecution(
    id: string,
    expected: readonly ExecutionStatus[],
    patch: Partial<Omit<ExecutionRecord, "id" | "createdAt">>,
    lease?: LeaseCondition,
  ): Promise<boolean> {
    const [set, values] = assignments(flatLease(patch), EXECUTION_COLUMNS, 4);
    if (!set || expected.length === 0) return false;
    const [filter, filterValues] = leaseFilter(lease, 4 + values.length);
    const { rowCount } = await this.run(
      `UPDATE ${this.executions} SET ${set} WHERE runtime = $1 AND id = $2 AND status = ANY($3::text[])${filter}`,
      [this.runtime, id, expected, ...values, ...filterValues],
    );
    return rowCount > 0;
  }

  async deleteExecution(id: string): Promise<boolean> {
    // its entries go with it (ON DELETE CASCADE)
    const { rowCount } = await this.run(
      `DELETE FROM ${this.executions} WHERE runtime = $1 AND id = $2`,
      [this.runtime, id],
    );
    return rowCount > 0;
  }

  async pruneExecutions(keep: number, except?: string): Promise<string[]> {
    const offset = rowLimit(keep);
    if (offset === null) return [];
    const { rows } = await this.run(
      `DELETE FROM ${this.executions} WHERE num IN (
         SELECT num FROM ${this.executions}
         WHERE runtime = $1 AND status = ANY($2::text[]) AND id IS DISTINCT FROM $3
         ORDER BY created_at DESC, id DESC OFFSET $4)
       RETURNING id`,
      [this.runtime, TERMINAL_STATUSES, except ?? null, offset],
    );
    return rows.map((row) => String(row.id));
  }

  async listStale(
    statuses: readonly ExecutionStatus[],
    before: number,
  ): Promise<ExecutionRecord[]> {
    if (statuses.length === 0) return [];
    const { rows } = await this.run(
      `SELECT ${EXECUTION_ROW} FROM ${this.executions}
       WHERE runtime = $1 AND status = ANY($2::text[]) AND updated_at < $3::float8
       ORDER BY created_at, id`,
      [this.runtime, statuses, before],
    );
    return rows.map(toExecution);
  }

  async listLapsed(now: number): Promise<ExecutionRecord[]> {
    const { rows } = await this.run(
      `SELECT ${EXECUTION_ROW} FROM ${this.executions}
       WHERE runtime = $1 AND status = 'running'
         AND (lease_expires_at IS NULL OR lease_expires_at < $2::float8)
       ORDER BY created_at, id`,
      [this.runtime, now],
    );
    return rows.map(toExecution);
  }

  async getEntry(executionId: string, seq: number): Promise<JournalEntry | undefined> {
    const { rows } = await this.run(
      `SELECT ${JOINED_ENTRY_ROW} FROM ${this.ofRun} AND e.seq = $3`,
      [this.runtime, executionId, checkSeq(seq)],
    );
    return rows[0] ? toEntry(executionId, rows[0]) : undefined;
  }

  async listEntries(
    executionId: string,
    options: { states?: readonly EntryState[] } = {},
  ): Promise<JournalEntry[]> {
    const states = options.states ?? [];
    const filter = states.length ? " AND e.state = ANY($3::text[])" : "";
    const { rows } = await this.run(
      `SELECT ${JOINED_ENTRY_ROW} FROM ${this.ofRun}${filter} ORDER BY e.seq`,
      [this.runtime, executionId, ...(states.length ? [states] : [])],
    );
    return rows.map((row) => toEntry(executionId, row));
  }

  /**
   * One statement. Without a claim the run's number comes from its row: no row, nothing inserted (a
   * run deleted meanwhile fails the foreign key instead). With a claim the row is read `FOR SHARE`
   * where the run is running under the claim's owner, so an expiry committing at the same time
   * either comes first (nothing is written) or waits for this write; renewing, the row is updated
   * instead, which locks it the same way.
   */
  async putEntry(entry: JournalEntry, lease?: LeaseClaim): Promise<boolean> {
    checkSeq(entry.seq);
    const values: unknown[] = [this.runtime, entry.executionId, ...entryValues(entry)];
    const columns = `INSERT INTO ${this.entries} (run, ${ENTRY_ROW})`;
    let text: string;
    if (!lease) {
      text = `${columns} SELECT num, ${ENTRY_VALUES} FROM ${this.executions} WHERE runtime = $1 AND id = $2 ${ENTRY_UPSERT}`;
    } else if (lease.renewUntil === undefined) {
      values.push(lease.owner);
      text = `${columns} SELECT num, ${ENTRY_VALUES} FROM ${this.executions}
        WHERE runtime = $1 AND id = $2 AND status = 'running' AND lease_owner = $17 FOR SHARE ${ENTRY_UPSERT}`;
    } else {
      values.push(lease.owner, lease.renewUntil);
      text = `WITH held AS (UPDATE ${this.executions} SET lease_expires_at = $18::bigint
          WHERE runtime = $1 AND id = $2 AND status = 'running' AND lease_owner = $17 RETURNING num)
        ${columns} SELECT num, ${ENTRY_VALUES} FROM held ${ENTRY_UPSERT}`;
    }
    let rowCount: number;
    try {
      ({ rowCount } = await this.run(text, values));
    } catch (error) {
      if (sqlState(error) === "23503") throw noSuchRun(entry);
      throw error;
    }
    if (rowCount > 0) return true;
    if (lease && (await this.getExecution(entry.executionId))) return false;
    throw noSuchRun(entry);
  }

  /**
   * One statement. With a claim the run's row is read `FOR SHARE` where it is running under the
   * claim's owner (as `putEntry` reads it), so a cancellation or expiry committing at the same time
   * either comes first (nothing changes) or waits for this write. Renewing, the row is read
   * `FOR UPDATE` and its lease set by the same statement, from the entry the update returned: the
   * lease is renewed only with the patch.
   */
  async updateEntry(
    executionId: string,
    seq: number,
    expected: readonly EntryState[],
    patch: Partial<Omit<JournalEntry, "executionId" | "seq" | "createdAt">>,
    condition?: EntryCondition,
  ): Promise<boolean> {
    const [set, values] = assignments(patch, ENTRY_COLUMNS, 5);
    if (!set || expected.length === 0) return false;
    const params = [this.runtime, executionId, checkSeq(seq), expected, ...values];
    let where = "e.run = x.num AND e.seq = $3 AND e.state = ANY($4::text[])";
    if (condition === undefined || "unchangedSince" in condition) {
      if (condition)
        where += ` AND e.updated_at = $${params.push(condition.unchangedSince)}::bigint`;
      const { rowCount } = await this.run(
        `UPDATE ${this.entries} AS e SET ${set} FROM ${this.executions} AS x
         WHERE x.runtime = $1 AND x.id = $2 AND ${where}`,
        params,
      );
      return rowCount > 0;
    }
    const lease = condition;
    // `push` answers the new length: the value's `$n`
    const owner = params.push(lease.owner);
    const lock = lease.renewUntil === undefined ? "SHARE" : "UPDATE";
    const take = `UPDATE ${this.entries} AS e SET ${set} FROM (SELECT num FROM ${this.executions}
        WHERE runtime = $1 AND id = $2 AND status = 'running' AND lease_owner = $${owner} FOR ${lock}) AS x
      WHERE ${where}`;
    if (lease.renewUntil === undefined) return (await this.run(take, params)).rowCount > 0;
    const until = params.push(lease.renewUntil);
    const { rowCount } = await this.run(
      `WITH taken AS (${take} RETURNING e.run)
       UPDATE ${this.executions} SET lease_expires_at = $${until}::bigint
       WHERE num IN (SELECT run FROM taken)`,
      params,
    );
    return rowCount > 0;
  }

  async applyEntry(
    executionId: string,
    seq: number,
    outcome: { result?: string; error?: string; updatedAt: number },
  ): Promise<boolean> {
    const { rowCount } = await this.run(
      `UPDATE ${this.entries} AS e SET state = 'applied', result = $4, error = $5, updated_at = $6
       FROM ${this.executions} AS x
       WHERE x.runtime = $1 AND x.id = $2 AND e.run = x.num AND e.seq = $3 AND e.state = 'executing'`,
      [
        this.runtime,
        executionId,
        checkSeq(seq),
        outcome.result ?? null,
        toColumn("error", outcome.error),
        outcome.updatedAt,
      ],
    );
    return rowCount > 0;
  }

  /**
   * One statement: a key already bound is "updated" to itself, which locks its row and returns it
   * as committed, so two binds at once both return the first writer's binding (with `DO NOTHING`
   * the second would find no row in its own snapshot and have to read again).
   */
  async bindToolCall(binding: ToolCallBinding): Promise<ToolCallBinding> {
    const { rows } = await this.run(
      `INSERT INTO ${this.toolCalls} AS b (runtime, ${BINDING_ROW})
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (runtime, key) DO UPDATE SET execution_id = b.execution_id
       RETURNING ${BINDING_ROW}`,
      [this.runtime, ...bindingValues(binding)],
    );
    if (!rows[0]) {
      throw new CodemodeError("STORE_FAILED", `The binding of "${binding.key}" was not kept.`);
    }
    return toBinding(rows[0]);
  }

  async getToolCallBinding(key: string): Promise<ToolCallBinding | undefined> {
    const { rows } = await this.run(
      `SELECT ${BINDING_ROW} FROM ${this.toolCalls} WHERE runtime = $1 AND key = $2`,
      [this.runtime, key],
    );
    return rows[0] ? toBinding(rows[0]) : undefined;
  }

  /** A conditional update; when another `shown` came first, a second statement reads it as committed. */
  async showToolCall(key: string, shown: string): Promise<ToolCallBinding | undefined> {
    const { rows } = await this.run(
      `UPDATE ${this.toolCalls} SET shown = $3 WHERE runtime = $1 AND key = $2 AND shown IS NULL
       RETURNING ${BINDING_ROW}`,
      [this.runtime, key, shown],
    );
    return rows[0] ? toBinding(rows[0]) : this.getToolCallBinding(key);
  }

  async pruneToolCallBindings(keep: number): Promise<number> {
    const offset = rowLimit(keep);
    if (offset === null) return 0;
    const { rowCount } = await this.run(
      `DELETE FROM ${this.toolCalls} WHERE runtime = $1 AND key IN (
         SELECT key FROM ${this.toolCalls} WHERE runtime = $1
         ORDER BY created_at DESC, num DESC OFFSET $2)`,
      [this.runtime, offset],
    );
    return rowCount;
  }

  async putSnippet(snippet: SnippetRecord): Promise<void> {
    await this.run(
      `INSERT INTO ${this.snippets} (runtime, ${SNIPPET_ROW})
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (runtime, name) DO UPDATE SET description = EXCLUDED.description,
         code = EXCLUDED.code, input_schema = EXCLUDED.input_schema,
         connectors = EXCLUDED.connectors, saved_at = EXCLUDED.saved_at`,
      [this.runtime, ...snippetValues(snippet)],
    );
  }

  async getSnippet(name: string): Promise<SnippetRecord | undefined> {
    const { rows } = await this.run(
      `SELECT ${SNIPPET_ROW} FROM ${this.snippets} WHERE runtime = $1 AND name = $2`,
      [this.runtime, name],
    );
    return rows[0] ? toSnippet(rows[0]) : undefined;
  }

  async listSnippets(): Promise<SnippetRecord[]> {
    const { rows } = await this.run(
      `SELECT ${SNIPPET_ROW} FROM ${this.snippets} WHERE runtime = $1 ORDER BY name`,
      [this.runtime],
    );
    return rows.map(toSnippet);
  }

  async deleteSnippet(name: string): Promise<boolean> {
    const { rowCount } = await this.run(
      `DELETE FROM ${this.snippets} WHERE runtime = $1 AND name = $2`,
      [this.runtime, name],
    );
    return rowCount > 0;
  }
}
