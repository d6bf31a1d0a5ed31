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
  /** runs `work` in one transaction: all of its writes land, or none */
  transaction(work: () => void): void;
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

/** A Durable Object's `ctx.storage`: its SQL, and transactions that roll back when they throw. */
interface DurableObjectStorageLike {
  readonly sql: DurableObjectSql;
  transactionSync(work: () => unknown): unknown;
}

/**
 * Any synchronous SQLite this package knows: better-sqlite3, `node:sqlite`, a Durable Object's
 * `ctx.storage` or its `ctx.storage.sql`.
 */
export type SyncSqlite = PreparedDatabase | DurableObjectSql | DurableObjectStorageLike;

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
      transaction: (work) => {
        db.exec("BEGIN IMMEDIATE");
        try {
          work();
        } catch (error) {
          db.exec("ROLLBACK");
          throw error;
        }
        db.exec("COMMIT");
      },
    };
  }
  const storage = db as Partial<DurableObjectStorageLike>;
  const sql =
    typeof storage.transactionSync === "function" ? storage.sql : (db as DurableObjectSql);
  if (typeof sql?.exec === "function") {
    return {
      // Durable Object SQL runs one statement per call
      exec: (text) => {
        for (const statement of text
          .split(";")
          .map((part) => part.trim())
          .filter(Boolean))
          sql.exec(statement);
      },
      all: (text, params) => sql.exec(text, ...params).toArray() as SqlRow[],
      run: (text, params) => {
        const cursor = sql.exec(text, ...params);
        cursor.toArray();
        return cursor.rowsWritten;
      },
      // A Durable Object refuses BEGIN. Given `ctx.storage`, its transactionSync rolls the work back
      // when it throws; given only `ctx.storage.sql`, the writes of one synchronous stretch of code
      // are committed together, but those made before a throw are kept.
      transaction: (work) => {
        if (typeof storage.transactionSync === "function") storage.transactionSync(work);
        else work();
      },
    };
  }
  throw new CodemodeError(
    "INVALID_CONFIG",
    "sqliteStore(db) needs a synchronous SQLite: a better-sqlite3 Database, a node:sqlite DatabaseSync or a Durable Object's ctx.storage.",
  );
}
