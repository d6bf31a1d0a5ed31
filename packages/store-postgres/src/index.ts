export { SCHEMA_VERSION } from "./migrate.ts";
export type { PgClientLike, PgPoolLike, PgQuery, PgQueryable, PgRow } from "./pg-client.ts";
export { type PostgresStoreOptions, postgresStore } from "./postgres-store.ts";
