// Where the SQLite store was before it became the folder `sql-store/`: kept only for the imports of
// `runtime/` that still name this file; remove it once they import `sql-store/sqlite-store.ts`.
export { SCHEMA_VERSION } from "./sql-store/migrate.ts";
export { sqliteStore } from "./sql-store/sqlite-store.ts";
