// The outside world of the many-process tests: a connector whose every effect is a row in
// PostgreSQL, keyed by the call's idempotency key, written by whichever process made the call.
// Nothing is deduplicated: a key seen twice is an effect that ran twice. A person's approval is a
// row too (`approve`, written before the approval is sent), so a gated effect can be held to it.
import type { CallContext, Connector, ConnectorMethod } from "@codemode/core";
import type pg from "pg";
import { passGate } from "./workers.ts";

/** One effect, as the ledger saw it. */
export interface LedgerRow {
  op: "write" | "send" | "hold" | "revert" | "approve";
  execution: string;
  key: string;
  item: string;
  pid: number;
}

/** Makes the ledger's table in the database (once; every process may call it). */
export async function createLedger(pool: pg.Pool): Promise<void> {
  await pool.query(`CREATE TABLE IF NOT EXISTS ledger (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    op text NOT NULL, execution text NOT NULL, key text NOT NULL, item text NOT NULL,
    pid integer NOT NULL)`);
}

/** The run's effects in the order they happened (every run, without `execution`). */
export async function ledgerRows(pool: pg.Pool, execution?: string): Promise<LedgerRow[]> {
  const { rows } = await pool.query(
    "SELECT op, execution, key, item, pid FROM ledger WHERE $1::text IS NULL OR execution = $1 ORDER BY id",
    [execution ?? null],
  );
  return rows as LedgerRow[];
}

/** The ledger's rows with their order (`id`), those after `afterId` only. */
export async function ledgerSince(
  pool: pg.Pool,
  afterId: number,
): Promise<(LedgerRow & { id: number })[]> {
  const { rows } = await pool.query(
    "SELECT id::int AS id, op, execution, key, item, pid FROM ledger WHERE id > $1 ORDER BY id",
    [afterId],
  );
  return rows as (LedgerRow & { id: number })[];
}

/** The newest row's `id` (0 when there is none): where a test's own rows begin. */
export async function ledgerMark(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query("SELECT coalesce(max(id), 0)::int AS id FROM ledger");
  return (rows[0] as { id: number }).id;
}

/** A person approves the call at `seq` of `execution`, shown with `item`: the row comes first. */
export async function recordApproval(
  pool: pg.Pool,
  execution: string,
  seq: number,
  item: string,
): Promise<void> {
  await pool.query(
    "INSERT INTO ledger (op, execution, key, item, pid) VALUES ('approve', $1, $2, $3, $4)",
    [execution, `${execution}:${seq}`, item, process.pid],
  );
}

const itemSchema: ConnectorMethod["inputSchema"] = {
  type: "object",
  properties: { item: { type: "string" }, ms: { type: "number" }, gate: { type: "number" } },
  required: ["item"],
};

const METHODS: Record<string, ConnectorMethod> = {
  write: { description: "Applies one item.", inputSchema: itemSchema, revertible: true },
  send: {
    description: "Sends one item, after a person approved it.",
    inputSchema: itemSchema,
    requiresApproval: true,
    revertible: true,
  },
  hold: {
    description: "Applies one item, then takes `ms` (default: until the process ends) to answer.",
    inputSchema: itemSchema,
    revertible: true,
  },
};

/**
 * `ledger.write`, `ledger.send` (gated) and `ledger.hold` append their effect with the call's key
 * before they answer; `revert` appends one. `onEffect` runs after each effect is in the table. With
 * `gate` in its input, a call answers only once the test opens that gate (see `gate` in workers.ts).
 */
export function ledgerConnector(pool: pg.Pool, onEffect?: (row: LedgerRow) => void): Connector {
  const append = async (op: LedgerRow["op"], item: string, context: CallContext) => {
    const row: LedgerRow = {
      op,
      execution: context.executionId,
      key: context.idempotencyKey,
      item,
      pid: process.pid,
    };
    await pool.query(
      "INSERT INTO ledger (op, execution, key, item, pid) VALUES ($1, $2, $3, $4, $5)",
      [row.op, row.execution, row.key, row.item, row.pid],
    );
    onEffect?.(row);
  };
  return {
    specificationVersion: "v1",
    name: "ledger",
    methods: () => METHODS,
    async invoke(method, input, context) {
      const { item, ms, gate } = input as { item: string; ms?: number; gate?: number };
      if (!(method in METHODS)) throw new Error(`ledger has no method ${method}`);
      await append(method as LedgerRow["op"], item, context);
      if (gate !== undefined) await passGate(pool, gate);
      if (method === "hold") {
        await new Promise((resolve) => (ms === undefined ? undefined : setTimeout(resolve, ms)));
      }
      return { item, key: context.idempotencyKey };
    },
    async revert(_method, input, _result, context) {
      await append("revert", (input as { item: string }).item, context);
    },
  };
}
