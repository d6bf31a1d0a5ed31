// A small task tracker kept in a Durable Object's SQLite, as a function connector. Every invocation
// is written to a ledger with the id of the connector instance that ran it, so a test can count side
// effects and tell instances created before and after an eviction apart. Faults armed in the
// object's memory (so an eviction disarms them) make a method end the object at a chosen point.
import { functionConnector } from "../../src/index.ts";

export interface LedgerRow {
  method: string;
  instance: string;
  key: string;
}

/**
 * How an armed fault point acts: end the object at once (what it wrote since its last commit is
 * lost), end it once its writes have committed, or hold the call until the object is evicted (the
 * call then fails in the evicted instance).
 */
export type FaultMode = "abort" | "abort-after-commit" | "stall";

/** Fault points: `before:` / `after:` `create_task` and `revert_add_comment`, `stall:wait`. */
export interface TrackerFaults {
  /** acts as the point is armed (see `FaultMode`); resolves at once when it is not */
  trip(point: string): Promise<void>;
}

export function trackerConnector(sql: SqlStorage, faults?: TrackerFaults) {
  sql.exec(`CREATE TABLE IF NOT EXISTS tracker_tasks (
    id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0)`);
  sql.exec(`CREATE TABLE IF NOT EXISTS tracker_ledger (
    n INTEGER PRIMARY KEY AUTOINCREMENT, method TEXT NOT NULL, instance TEXT NOT NULL, key TEXT NOT NULL)`);
  sql.exec(`CREATE TABLE IF NOT EXISTS tracker_comments (
    id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL)`);
  const trip = async (point: string) => faults?.trip(point);
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
          await trip("before:create_task");
          note("create_task", idempotencyKey);
          const row = sql
            .exec("INSERT INTO tracker_tasks (title) VALUES (?) RETURNING id", input.title)
            .one();
          await trip("after:create_task");
          return { id: Number(row.id), title: input.title };
        },
        revert: async (_input, result: { id: number }) => {
          note("revert_create_task", String(result.id));
          sql.exec("DELETE FROM tracker_tasks WHERE id = ?", result.id);
        },
      },
      add_comment: {
        description: "Add a comment (no approval needed).",
        inputSchema: {
          type: "object",
          properties: { text: { type: "string" } },
          required: ["text"],
        },
        execute: async (input: { text: string }, { idempotencyKey }) => {
          note("add_comment", idempotencyKey);
          const row = sql
            .exec("INSERT INTO tracker_comments (text) VALUES (?) RETURNING id", input.text)
            .one();
          return { id: Number(row.id) };
        },
        revert: async (_input, result: { id: number }, { idempotencyKey }) => {
          await trip("before:revert_add_comment");
          note("revert_add_comment", idempotencyKey);
          sql.exec("DELETE FROM tracker_comments WHERE id = ?", result.id);
          await trip("after:revert_add_comment");
        },
      },
      wait: {
        description: "Wait a while, then answer.",
        inputSchema: {
          type: "object",
          properties: { ms: { type: "number" } },
          required: ["ms"],
        },
        execute: async (input: { ms: number }, { idempotencyKey }) => {
          note("wait", idempotencyKey);
          await trip("stall:wait");
          await new Promise((resolve) => setTimeout(resolve, input.ms));
          return "waited";
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
