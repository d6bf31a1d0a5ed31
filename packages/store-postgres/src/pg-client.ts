import { createHash } from "node:crypto";
import { CodemodeError } from "@codemode/core";

/** A row as node-postgres returns it. */
export type PgRow = Record<string, unknown>;

/** One statement: its text and values, and the name it is prepared under on each connection. */
export interface PgQuery {
  name?: string;
  text: string;
  values?: unknown[];
}

/** What the store needs of a node-postgres `Client`, `PoolClient` or `Pool`: `query` with a config. */
export interface PgQueryable {
  query(query: PgQuery): Promise<{ rows: PgRow[]; rowCount: number | null }>;
}

/** A connection a pool lent: node-postgres's `PoolClient`, an event emitter. */
export interface PgLentClient extends PgQueryable {
  release(error?: Error | boolean): void;
  on?(event: "error", listener: (error: Error) => void): unknown;
  off?(event: "error", listener: (error: Error) => void): unknown;
}

/**
 * A node-postgres `Pool`: `connect` lends one connection for the migration's transaction. Given a
 * callback, node-postgres hands the connection over in the same turn it was made ready in (see
 * `lendConnection`); a pool that answers with a promise instead is used as one.
 */
export interface PgPoolLike extends PgQueryable {
  connect(): Promise<PgLentClient>;
  connect(
    callback: (error: Error | undefined, client: PgLentClient | undefined) => void,
  ): undefined | PromiseLike<PgLentClient>;
  readonly idleCount: number;
}

/** A node-postgres `Pool` (recommended: one per process) or a connected `Client`. */
export type PgClientLike = PgPoolLike | PgQueryable;

export function isPool(client: PgClientLike): client is PgPoolLike {
  return typeof (client as PgPoolLike).connect === "function" && "idleCount" in client;
}

/** The error a failed statement becomes: `STORE_FAILED`, PostgreSQL's message, the driver's error as cause. */
export function storeFailed(error: unknown): CodemodeError {
  if (CodemodeError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new CodemodeError("STORE_FAILED", `PostgreSQL: ${message}`, { cause: error });
}

/** PostgreSQL's SQLSTATE of a driver error, if it has one. */
export function sqlState(error: unknown): string | undefined {
  const cause = CodemodeError.isInstance(error) ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** Text PostgreSQL keeps as it is: no NUL (it refuses one) and no lone surrogate (it would become U+FFFD). */
export function storable(text: string): boolean {
  return (
    !text.includes("\u0000") && (text as unknown as { isWellFormed(): boolean }).isWellFormed()
  );
}

/** Named statements are prepared once per connection; more distinct texts than this run unnamed. */
const MAX_NAMED = 512;

/**
 * Runs statements on `client`: each text gets a stable statement name (so every connection of a
 * pool parses and plans it once), string values are checked to be storable, and a failure becomes
 * `STORE_FAILED`.
 */
export function createRunner(client: PgQueryable): (
  text: string,
  values?: unknown[],
) => Promise<{
  rows: PgRow[];
  rowCount: number;
}> {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_NAMED) {
      name = `codemode_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
      names.set(text, name);
    }
    return name;
  };
  return async (text, values = []) => {
    for (const value of values) {
      if (typeof value === "string" && !storable(value)) {
        throw new CodemodeError(
          "STORE_FAILED",
          "A value holds a NUL character or a lone surrogate, which PostgreSQL text cannot keep as it is.",
        );
      }
    }
    const name = nameOf(text);
    try {
      const result = await client.query(
        name === undefined ? { text, values } : { name, text, values },
      );
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    } catch (error) {
      throw storeFailed(error);
    }
  };
}
