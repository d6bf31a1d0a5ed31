// The data behind the catalog API (`/api/catalog`, described by `/openapi.json`): the shop's items in
// the Durable Object's SQLite, under the `demo_` prefix like the tracker and the notes.
import type { SqlLike } from "./sql-like.ts";

export interface CatalogItem {
  id: number;
  sku: string;
  name: string;
  /** in US dollars */
  price: number;
  stock: number;
  createdAt: string;
}

export interface NewCatalogItem {
  name: string;
  price: number;
  sku?: string;
  stock?: number;
}

type ItemRow = {
  id: number;
  sku: string;
  name: string;
  price_cents: number;
  stock: number;
  created_at: number;
};

const SEED_ITEMS: Array<[sku: string, name: string, cents: number, stock: number]> = [
  ["MUG-001", "Code Mode mug", 1200, 40],
  ["TEE-002", "Sandbox T-shirt", 2500, 18],
  ["STK-003", "Sticker pack", 500, 200],
  ["HOOD-004", "Journal hoodie", 5500, 7],
];

const toItem = (row: ItemRow): CatalogItem => ({
  id: row.id,
  sku: row.sku,
  name: row.name,
  price: row.price_cents / 100,
  stock: row.stock,
  createdAt: new Date(row.created_at).toISOString(),
});

/** Catalog items over `ctx.storage.sql`; creates its table and seeds it on first use. */
export class CatalogStore {
  constructor(
    private readonly sql: SqlLike,
    private readonly now: () => number = Date.now,
  ) {
    sql.exec(`CREATE TABLE IF NOT EXISTS demo_catalog_items (
      id INTEGER PRIMARY KEY AUTOINCREMENT, sku TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
      price_cents INTEGER NOT NULL, stock INTEGER NOT NULL, created_at INTEGER NOT NULL,
      idempotency_key TEXT UNIQUE)`);
    const count = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM demo_catalog_items").one().n;
    if (count === 0) {
      const time = this.now() - 30 * 86_400_000;
      for (const [sku, name, cents, stock] of SEED_ITEMS) {
        sql.exec(
          "INSERT INTO demo_catalog_items (sku, name, price_cents, stock, created_at) VALUES (?, ?, ?, ?, ?)",
          sku,
          name,
          cents,
          stock,
          time,
        );
      }
    }
  }

  /** Items whose name or SKU contains `q` (any case), cheapest first when `maxPrice` is given. */
  list(filter: { q?: string; maxPrice?: number } = {}): CatalogItem[] {
    const q = filter.q?.trim().toLowerCase() ?? "";
    return this.sql
      .exec<ItemRow>("SELECT * FROM demo_catalog_items ORDER BY id")
      .toArray()
      .map(toItem)
      .filter((item) => !q || `${item.name} ${item.sku}`.toLowerCase().includes(q))
      .filter((item) => filter.maxPrice === undefined || item.price <= filter.maxPrice);
  }

  get(id: number): CatalogItem | undefined {
    const row = this.sql
      .exec<ItemRow>("SELECT * FROM demo_catalog_items WHERE id = ?", id)
      .toArray()[0];
    return row && toItem(row);
  }

  /**
   * Adds an item. A request that repeats an idempotency key gets the item the first one added, so a
   * retried POST never adds it twice. Throws a RangeError when the SKU is taken.
   */
  create(item: NewCatalogItem, idempotencyKey?: string): CatalogItem {
    if (idempotencyKey) {
      const row = this.sql
        .exec<ItemRow>("SELECT * FROM demo_catalog_items WHERE idempotency_key = ?", idempotencyKey)
        .toArray()[0];
      if (row) return toItem(row);
    }
    const next = this.sql
      .exec<{ n: number }>("SELECT COALESCE(MAX(id), 0) + 1 AS n FROM demo_catalog_items")
      .one().n;
    const prefix =
      item.name
        .replace(/[^a-z]/gi, "")
        .slice(0, 4)
        .toUpperCase() || "ITEM";
    const sku = item.sku ?? `${prefix}-${String(next).padStart(3, "0")}`;
    const taken = this.sql
      .exec<{ n: number }>("SELECT COUNT(*) AS n FROM demo_catalog_items WHERE sku = ?", sku)
      .one().n;
    if (taken > 0) throw new RangeError(`The SKU "${sku}" is taken.`);
    const row = this.sql
      .exec<ItemRow>(
        "INSERT INTO demo_catalog_items (sku, name, price_cents, stock, created_at, idempotency_key) VALUES (?, ?, ?, ?, ?, ?) RETURNING *",
        sku,
        item.name,
        Math.round(item.price * 100),
        item.stock ?? 0,
        this.now(),
        idempotencyKey ?? null,
      )
      .one();
    return toItem(row);
  }

  /** Deletes an item; false when there was none. */
  delete(id: number): boolean {
    if (!this.get(id)) return false;
    this.sql.exec("DELETE FROM demo_catalog_items WHERE id = ?", id);
    return true;
  }
}
