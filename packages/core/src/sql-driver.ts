import { CodemodeError } from "./codemode-error.ts";

/** A row as SQLite returns it. */
export type SqlRow = Record<string, unknown>;

/** The little the SQL store needs of a synchronous SQLite binding. */
export interface SqlDriver {
  /** runs statements that return nothing (schema) */
  exec(sql: string): void;
  /** runs one statement and returns its rows */
  all(sql: string, params: readonly unknown[]): SqlRow[];
  /** runs one statement and returns how many rows it changed */
  run(sql: string, params: readonly unknown[]): number;
}

/** better-sqlite3's `Database` and `node:sqlite`'s `DatabaseSync`: statements through `prepare`. */
interface PreparedDatabase {
  prepare(sql: string): {
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number | bigint };
  };
  exec(sql: string): unknown;
}

/** A Durable Object's `ctx.storage.sql`: statements through `exec`, which returns a cursor. */
interface DurableObjectSql {
  exec(sql: string, ...params: unknown[]): { toArray(): unknown[]; readonly rowsWritten: number };
}

/** Any synchronous SQLite this package knows: better-sqlite3, `node:sqlite`, Durable Object storage. */
export type SyncSqlite = PreparedDatabase | DurableObjectSql;

function isPrepared(db: SyncSqlite): db is PreparedDatabase {
  return typeof (db as PreparedDatabase).prepare === "function";
}

/** Wraps a synchronous SQLite binding; prepared statements are cached per SQL text. */
export function createSqlDriver(db: SyncSqlite): SqlDriver {
  if (isPrepared(db)) {
    const statements = new Map<string, ReturnType<PreparedDatabase["prepare"]>>();
    const prepare = (sql: string) => {
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    };
    return {
      exec: (sql) => {
        db.exec(sql);
      },
      all: (sql, params) => prepare(sql).all(...params) as SqlRow[],
      run: (sql, params) => Number(prepare(sql).run(...params).changes),
    };
  }
  if (typeof (db as DurableObjectSql).exec === "function") {
    return {
      // Durable Object SQL runs one statement per call
      exec: (sql) => {
        for (const statement of sql
          .split(";")
          .map((part) => part.trim())
          .filter(Boolean))
          db.exec(statement);
      },
      all: (sql, params) => db.exec(sql, ...params).toArray() as SqlRow[],
      run: (sql, params) => {
        const cursor = db.exec(sql, ...params);
        cursor.toArray();
        return cursor.rowsWritten;
      },
    };
  }
  throw new CodemodeError(
    "INVALID_CONFIG",
    "sqliteStore(db) needs a synchronous SQLite: a better-sqlite3 Database, a node:sqlite DatabaseSync or a Durable Object's ctx.storage.sql.",
  );
}
