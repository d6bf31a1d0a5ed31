// The outside world of the many-process tests: a connector whose every effect is a row in
// PostgreSQL, keyed by the call's idempotency key, written by whichever process made the call.
// Nothing is deduplicated: a key seen twice is an effect that ran twice.
import type { CallContext, Connector, ConnectorMethod } from "@codemode/core";
import type pg from "pg";

/** One effect, as the ledger saw it. */
export interface LedgerRow {
  op: "write" | "send" | "hold" | "revert";
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

const itemSchema: ConnectorMethod["inputSchema"] = {
  type: "object",
  properties: { item: { type: "string" }, ms: { type: "number" } },
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
 * before they answer; `revert` appends one. `onEffect` runs after each effect is in the table.
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
      const { item, ms } = input as { item: string; ms?: number };
      if (!(method in METHODS)) throw new Error(`ledger has no method ${method}`);
      await append(method as LedgerRow["op"], item, context);
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
