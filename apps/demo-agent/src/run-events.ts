import type { RuntimeEvent } from "codemode";
import type { SqlLike } from "./sql-like.ts";

/** Events kept per run: a run that makes more calls keeps its first ones. */
export const MAX_EVENTS_PER_RUN = 2_000;
/** Runs whose events are kept: the newest ones (the journal keeps fewer; a missing run has no timeline). */
export const MAX_RUNS = 100;

/** Who decided, where the agent knows it: added to the runtime's decision events. */
export type DecidedBy = "chat" | "queue" | "api";

/**
 * A runtime event as the timeline reads it: a decision says who made it (`DecidedBy` where the
 * agent knows it, in place of the runtime's own `by`).
 */
export type TimelineEvent = RuntimeEvent & { by?: DecidedBy | string };

/**
 * The runtime's events (`onEvent`) in the Durable Object's SQLite, per run, for the page's timeline.
 * When a new run's first event comes, the events of all but the newest `MAX_RUNS` runs go.
 */
export class RunEvents {
  constructor(private readonly sql: SqlLike) {
    sql.exec(`CREATE TABLE IF NOT EXISTS demo_run_events (
      id INTEGER PRIMARY KEY AUTOINCREMENT, execution_id TEXT NOT NULL, event TEXT NOT NULL)`);
    sql.exec(
      "CREATE INDEX IF NOT EXISTS demo_run_events_run ON demo_run_events (execution_id, id)",
    );
  }

  append(event: TimelineEvent): void {
    const [row] = this.sql
      .exec<{ n: number }>(
        "SELECT COUNT(*) AS n FROM demo_run_events WHERE execution_id = ?",
        event.executionId,
      )
      .toArray();
    const count = row?.n ?? 0;
    if (count >= MAX_EVENTS_PER_RUN) return;
    if (count === 0) {
      this.sql.exec(
        `DELETE FROM demo_run_events WHERE execution_id NOT IN (
          SELECT execution_id FROM demo_run_events GROUP BY execution_id ORDER BY MAX(id) DESC LIMIT ?)`,
        MAX_RUNS - 1,
      );
    }
    this.sql.exec(
      "INSERT INTO demo_run_events (execution_id, event) VALUES (?, ?)",
      event.executionId,
      JSON.stringify(event),
    );
  }

  list(executionId: string): TimelineEvent[] {
    return this.sql
      .exec<{ event: string }>(
        "SELECT event FROM demo_run_events WHERE execution_id = ? ORDER BY id",
        executionId,
      )
      .toArray()
      .map((row) => JSON.parse(row.event) as TimelineEvent);
  }
}
