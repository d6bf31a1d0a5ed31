// A small task tracker kept in a Durable Object's SQLite, as a function connector. Every invocation
// is written to a ledger with the id of the connector instance that ran it, so a test can count side
// effects and tell instances created before and after an eviction apart.
import { functionConnector } from "../../src/index.ts";

export interface LedgerRow {
  method: string;
  instance: string;
  key: string;
}

export function trackerConnector(sql: SqlStorage) {
  sql.exec(`CREATE TABLE IF NOT EXISTS tracker_tasks (
    id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0)`);
  sql.exec(`CREATE TABLE IF NOT EXISTS tracker_ledger (
    n INTEGER PRIMARY KEY AUTOINCREMENT, method TEXT NOT NULL, instance TEXT NOT NULL, key TEXT NOT NULL)`);
  const instance = crypto.randomUUID();
  const note = (method: string, key: string) =>
    sql.exec(
      "INSERT INTO tracker_ledger (method, instance, key) VALUES (?, ?, ?)",
      method,
      instance,
      key,
    );
  return functionConnector({
    name: "tracker",
    instructions: "A task tracker.",
    methods: {
      list_tasks: {
        description: "List every task.",
        inputSchema: { type: "object", properties: {} },
        execute: async (_input, { idempotencyKey }) => {
          note("list_tasks", idempotencyKey);
          return sql.exec("SELECT id, title, done FROM tracker_tasks ORDER BY id").toArray();
        },
      },
      create_task: {
        description: "Create a task.",
        inputSchema: {
          type: "object",
          properties: { title: { type: "string" } },
          required: ["title"],
        },
        requiresApproval: true,
        execute: async (input: { title: string }, { idempotencyKey }) => {
          note("create_task", idempotencyKey);
          const row = sql
            .exec("INSERT INTO tracker_tasks (title) VALUES (?) RETURNING id", input.title)
            .one();
          return { id: Number(row.id), title: input.title };
        },
        revert: async (_input, result: { id: number }) => {
          note("revert_create_task", String(result.id));
          sql.exec("DELETE FROM tracker_tasks WHERE id = ?", result.id);
        },
      },
    },
  });
}

export function readLedger(sql: SqlStorage): LedgerRow[] {
  sql.exec(`CREATE TABLE IF NOT EXISTS tracker_ledger (
    n INTEGER PRIMARY KEY AUTOINCREMENT, method TEXT NOT NULL, instance TEXT NOT NULL, key TEXT NOT NULL)`);
  return sql
    .exec("SELECT method, instance, key FROM tracker_ledger ORDER BY n")
    .toArray() as unknown as LedgerRow[];
}
