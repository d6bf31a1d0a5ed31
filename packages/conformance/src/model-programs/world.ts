// The world the model programs' connectors answer from: fixed data (customers, invoices, stock,
// quotes, people, orders, search results, documents), a ledger of the calls that reached a
// connector, and the state of the flaky service.

/** A day, in milliseconds. */
export const DAY = 86_400_000;

export type Rec = Record<string, unknown>;

/** One call that reached a connector. */
export interface Call {
  connector: string;
  method: string;
  input: unknown;
  seq: number;
  idempotencyKey: string;
}

export interface World {
  ledger: Call[];
  /** attempts per report id, as the flaky service counts them */
  attempts: Map<number, number>;
  /** status polls per job */
  polls: Map<string, number>;
  /** calls the reversing connector holds, answered in reverse */
  held: Array<() => void>;
  flushing: boolean;
}

/** FNV-1a over a text: a small number that depends on all of it. */
export function hash(text: string): number {
  let value = 0x811c9dc5;
  for (const character of text) {
    value ^= character.codePointAt(0) as number;
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** Text equal for equal inputs, whatever the order of their keys. */
export function stable(value: unknown): string {
  if (value instanceof Date) return `Date(${value.getTime()})`;
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value && typeof value === "object") {
    const record = value as Rec;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${key}:${stable(record[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

export function failure(name: string, status: number, message: string): Error {
  const error = new Error(message);
  error.name = name;
  Object.assign(error, { status });
  return error;
}

const PEOPLE = [
  "Ada Lovelace",
  "Grace Hopper",
  "Alan Turing",
  "Barbara Liskov",
  "Donald Knuth",
  "Margaret Hamilton",
  "Ken Thompson",
  "Frances Allen",
  "John Backus",
  "Radia Perlman",
  "Edsger Dijkstra",
];
const TIERS = ["free", "pro", "enterprise"];

/** A customer; ids ending in 7 do not exist. */
export function customerOf(id: number) {
  if (!Number.isInteger(id) || id < 1 || id % 10 === 7) {
    throw failure("NotFoundError", 404, `Customer ${id} not found`);
  }
  const tier = TIERS[id % 3] as string;
  return {
    id,
    name: PEOPLE[id % PEOPLE.length] as string,
    email: `customer${id}@example.com`,
    tier,
    balance: (id * 37) % 500,
    account: `ACC-${1000 + id}`,
    tags: [tier, id % 2 === 0 ? "even" : "odd", ...(id % 5 === 0 ? ["vip"] : [])],
    signedUpAt: new Date(Date.UTC(2023, id % 12, 1 + (id % 28), 9, 30)),
  };
}
export type Customer = ReturnType<typeof customerOf>;

/** The customers `crm.listCustomers` pages through: 1 to 23 but those that do not exist. */
export const LISTED = Array.from({ length: 23 }, (_, index) => index + 1).filter(
  (id) => id % 10 !== 7,
);

export function listCustomers(input: Rec) {
  const limit = typeof input.limit === "number" ? input.limit : 10;
  const start = input.cursor ? Number(input.cursor) : 0;
  const items = LISTED.slice(start, start + limit).map(customerOf);
  return { items, nextCursor: start + limit < LISTED.length ? String(start + limit) : null };
}

/** A customer's invoices; billing is down for customer ids ending in 3. */
export function invoicesOf(customerId: number) {
  if (customerId % 10 === 3) {
    throw failure(
      "ServiceUnavailableError",
      503,
      `Billing is unavailable for customer ${customerId}`,
    );
  }
  return Array.from({ length: (customerId % 3) + 1 }, (_, k) => ({
    number: `INV-${customerId}-${k + 1}`,
    amount: ((customerId * 53 + k * 17) % 300) + 0.5,
    dueDate: new Date(Date.UTC(2024, (customerId + k) % 12, 10 + k)).toISOString(),
    paid: (customerId + k) % 4 === 0,
  }));
}
export type Invoice = ReturnType<typeof invoicesOf>[number];

export function stockOf(sku: string) {
  if (sku.startsWith("DISCONTINUED")) throw failure("NotFoundError", 404, `Unknown SKU ${sku}`);
  const h = hash(sku);
  return { sku, onHand: h % 40, warehouse: h % 2 ? "east" : "west" };
}

/** How long each pricing provider takes: the first asked answers last. */
export const PROVIDER_DELAY: Record<string, number> = { acme: 9, globex: 4, initech: 0, down: 1 };

export function quoteOf(provider: string, sku: string) {
  if (provider === "down") {
    throw failure("ServiceUnavailableError", 503, `Provider ${provider} is down`);
  }
  return { provider, sku, price: (1000 + (hash(provider + sku) % 9000)) / 100 };
}

export const MEMBERS: Record<string, string[]> = {
  platform: ["ana", "bo", "cy", "dee", "eli"],
  web: ["fay", "gus", "hal"],
};
export const ONCALL = ["ana", "fay", "cy"];
const ZONES = ["UTC", "Europe/Berlin", "America/New_York"];

export function userOf(handle: string) {
  const h = hash(handle);
  return {
    handle,
    name: handle.charAt(0).toUpperCase() + handle.slice(1),
    openReviews: h % 7,
    timezone: ZONES[h % 3] as string,
  };
}

const ORDER_CUSTOMERS: Record<string, number[]> = {
  open: [1, 2, 1, 3, 2, 4],
  late: [5, 8, 11, 6],
};

export function ordersOf(status: string) {
  return (ORDER_CUSTOMERS[status] ?? []).map((customerId, i) => ({
    id: 5000 + i + (status === "late" ? 100 : 0),
    customerId,
    total: ((customerId * 19 + i * 7) % 200) + 0.99,
    createdAt: new Date(Date.UTC(2024, 0, 5 + i * 3)).toISOString(),
    status,
  }));
}

export function searchOf(query: string, page: number) {
  return {
    hits: Array.from({ length: 4 }, (_, k) => ({
      id: `${query.replace(/\s+/g, "-")}-${page}-${k}`,
      title: `${query} #${(page - 1) * 4 + k + 1}`,
      score: (hash(`${query}|${page}|${k}`) % 100) / 100,
    })),
    nextPage: page < 3 ? page + 1 : null,
  };
}

/** Documents by slug, with how long fetching each takes: the policy answers at once, the guides later. */
export const DOCUMENTS: Record<string, { kind: string; delay: number }> = {
  "refund-policy": { kind: "policy", delay: 0 },
  shipping: { kind: "guide", delay: 9 },
  faq: { kind: "guide", delay: 6 },
};

export function documentOf(slug: string) {
  const known = DOCUMENTS[slug];
  if (!known) throw failure("NotFoundError", 404, `No document ${slug}`);
  return { slug, kind: known.kind, body: `${slug} v${hash(slug) % 9}: the text of ${slug}` };
}

export function fetchReport(world: World, id: number) {
  const attempt = (world.attempts.get(id) ?? 0) + 1;
  world.attempts.set(id, attempt);
  if (id >= 90) throw failure("InternalError", 500, "upstream exploded");
  if (attempt <= 2) throw failure("RateLimitError", 429, "Too many requests, retry later");
  return { id, rows: id * 3, status: "ready" };
}
