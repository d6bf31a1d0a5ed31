export type SqlValue = string | number | null | ArrayBuffer;

/** The little the demo's tables need of `ctx.storage.sql`, so tests can pass another SQLite. */
export interface SqlLike {
  exec<Row extends Record<string, SqlValue>>(
    query: string,
    ...bindings: SqlValue[]
  ): { toArray(): Row[]; one(): Row };
}
