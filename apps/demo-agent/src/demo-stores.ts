import { CatalogStore } from "./catalog-store.ts";
import { NotesStore } from "./notes-store.ts";
import type { SqlLike } from "./sql-like.ts";
import { TrackerStore } from "./tracker-store.ts";

/** The agent's own data, each in its `demo_` tables of the Durable Object's SQLite. */
export interface DemoStores {
  /** the tracker, offered to the model as a function connector */
  tracker: TrackerStore;
  /** the notes behind the MCP server at `/mcp` */
  notes: NotesStore;
  /** the catalog behind the REST API at `/api/catalog` */
  catalog: CatalogStore;
}

/** Opens (and on first use creates and seeds) every store over one SQLite. */
export function createDemoStores(sql: SqlLike): DemoStores {
  return {
    tracker: new TrackerStore(sql),
    notes: new NotesStore(sql),
    catalog: new CatalogStore(sql),
  };
}
