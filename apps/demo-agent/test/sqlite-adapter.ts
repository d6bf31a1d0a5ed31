import type Database from "better-sqlite3";
import type { SqlLike, SqlValue } from "../src/sql-like.ts";

/** better-sqlite3 behind the `exec` shape of a Durable Object's `ctx.storage.sql`. */
export function sqlOver(db: Database.Database): SqlLike {
  return {
    exec<Row extends Record<string, SqlValue>>(query: string, ...bindings: SqlValue[]) {
      const statement = db.prepare(query);
      const rows = statement.reader ? (statement.all(...bindings) as Row[]) : [];
      if (!statement.reader) statement.run(...bindings);
      return {
        toArray: () => rows,
        one: () => {
          if (rows.length !== 1) throw new Error(`Expected one row, got ${rows.length}.`);
          return rows[0] as Row;
        },
      };
    },
  };
}
