import type { CatalogStore, NewCatalogItem } from "./catalog-store.ts";

/** Where the catalog API answers; `/openapi.json` describes it. */
export const CATALOG_PATH = "/api/catalog";

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });

const problem = (status: number, error: string) => json({ error }, status);

/** The body of a POST as a new item, or the reason it is not one. */
function newItem(value: unknown): NewCatalogItem | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "The body must be a JSON object.";
  }
  const fields = value as Record<string, unknown>;
  const extra = Object.keys(fields).filter(
    (key) => !["name", "price", "sku", "stock"].includes(key),
  );
  if (extra.length > 0) return `Unknown fields: ${extra.join(", ")}.`;
  const { name, price, sku, stock } = fields;
  if (typeof name !== "string" || name.trim() === "" || name.length > 120) {
    return '"name" must be a text of 1 to 120 characters.';
  }
  if (typeof price !== "number" || !Number.isFinite(price) || price < 0) {
    return '"price" must be a number of US dollars, 0 or more.';
  }
  if (sku !== undefined && (typeof sku !== "string" || !/^[A-Z0-9-]{3,20}$/.test(sku))) {
    return '"sku" must be 3 to 20 capital letters, digits or dashes.';
  }
  if (stock !== undefined && !(Number.isInteger(stock) && (stock as number) >= 0)) {
    return '"stock" must be a whole number, 0 or more.';
  }
  return {
    name: name.trim(),
    price,
    ...(sku !== undefined ? { sku: sku as string } : {}),
    ...(stock !== undefined ? { stock: stock as number } : {}),
  };
}

/**
 * The catalog API, a plain REST API over the catalog store: `GET /items` (`q`, `maxPrice`),
 * `POST /items` (honours `Idempotency-Key`), `GET /items/{itemId}`, `DELETE /items/{itemId}`.
 */
export async function handleCatalogApi(request: Request, store: CatalogStore): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.slice(CATALOG_PATH.length);
  if (path === "/items") {
    if (request.method === "GET") {
      const q = url.searchParams.get("q") ?? undefined;
      const max = url.searchParams.get("maxPrice");
      const maxPrice = max === null || max === "" ? undefined : Number(max);
      if (maxPrice !== undefined && !Number.isFinite(maxPrice)) {
        return problem(400, '"maxPrice" must be a number.');
      }
      return json(
        store.list({ ...(q ? { q } : {}), ...(maxPrice !== undefined ? { maxPrice } : {}) }),
      );
    }
    if (request.method === "POST") {
      let body: unknown;
      try {
        body = await request.json();
      } catch {
        return problem(400, "The body must be JSON.");
      }
      const item = newItem(body);
      if (typeof item === "string") return problem(400, item);
      try {
        const key = request.headers.get("idempotency-key") ?? undefined;
        return json(store.create(item, key), 201);
      } catch (error) {
        if (error instanceof RangeError) return problem(409, error.message);
        throw error;
      }
    }
    return problem(405, "Use GET or POST.");
  }
  const one = /^\/items\/(\d+)$/.exec(path);
  if (one) {
    const id = Number(one[1]);
    if (request.method === "GET") {
      const item = store.get(id);
      return item ? json(item) : problem(404, `No catalog item has the id ${id}.`);
    }
    if (request.method === "DELETE") {
      return store.delete(id)
        ? new Response(null, { status: 204 })
        : problem(404, `No catalog item has the id ${id}.`);
    }
    return problem(405, "Use GET or DELETE.");
  }
  return problem(404, `The catalog API has no ${url.pathname}; see /openapi.json.`);
}
