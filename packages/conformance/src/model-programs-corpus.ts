// Programs written the way language models write them, each run through the executor under test up
// to an approval-gated call, approved (in a new runtime, as the next request makes it; half of the
// programs with a new executor for every request too), and checked: the run completes, every gated
// call reached its connector exactly once, after its approval, with the input the person was shown,
// and no call of the run reached a connector twice. The programs read the clock and chance
// (timestamps, due dates, random references, shuffles, UUIDs, Intl formats of now), run calls at once
// (Promise.all over read-then-write chains, allSettled with failing calls, race and any, worker
// pools, a p-limit, batches in a loop, as-completed loops), retry failing calls, reduce with async
// callbacks, sort, group and JSON-copy results, wrap calls in `codemode.step`, poll with sleeps, and
// format numbers and dates. The connectors answer after delays that depend on the input, or hold
// calls and answer them in reverse, so calls finish in another order than they were made; what each
// program is expected to compute is worked out here from the connectors' data and the run's start,
// never from timing.
//
// A program that fails on some executor for a cause outside the program is a known gap of that
// executor (`knownGaps` of the suite), as any other case.
import {
  type Connector,
  createCodemodeRuntime,
  decisionHandleOf,
  type Executor,
  memoryStore,
  type PendingAction,
} from "@codemode/core";
import { expect } from "vitest";
import type { DeclareTest } from "./known-gaps.ts";

declare function setTimeout(callback: () => void, ms: number): unknown;

export interface ModelProgramsTestOptions {
  /** the suite's `it` inside the group's `describe` (known gaps applied) */
  test: DeclareTest;
  createExecutor: () => Promise<Executor>;
}

const SLOW_TEST_MS = 60_000;
const DAY = 86_400_000;

// ---------------------------------------------------------------------------------------------
// The world the connectors answer from: fixed data, a ledger, and the state of the flaky service

type Rec = Record<string, unknown>;

/** One call that reached a connector. */
interface Call {
  connector: string;
  method: string;
  input: unknown;
  seq: number;
  idempotencyKey: string;
}

interface World {
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
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (const character of text) {
    value ^= character.codePointAt(0) as number;
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

/** Text equal for equal inputs, whatever the order of their keys. */
function stable(value: unknown): string {
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

function failure(name: string, status: number, message: string): Error {
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
function customerOf(id: number) {
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
type Customer = ReturnType<typeof customerOf>;

/** The customers `crm.listCustomers` pages through: 1 to 23 but those that do not exist. */
const LISTED = Array.from({ length: 23 }, (_, index) => index + 1).filter((id) => id % 10 !== 7);

function listCustomers(input: Rec) {
  const limit = typeof input.limit === "number" ? input.limit : 10;
  const start = input.cursor ? Number(input.cursor) : 0;
  const items = LISTED.slice(start, start + limit).map(customerOf);
  return { items, nextCursor: start + limit < LISTED.length ? String(start + limit) : null };
}

/** A customer's invoices; billing is down for customer ids ending in 3. */
function invoicesOf(customerId: number) {
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
type Invoice = ReturnType<typeof invoicesOf>[number];

function stockOf(sku: string) {
  if (sku.startsWith("DISCONTINUED")) throw failure("NotFoundError", 404, `Unknown SKU ${sku}`);
  const h = hash(sku);
  return { sku, onHand: h % 40, warehouse: h % 2 ? "east" : "west" };
}

/** How long each pricing provider takes: the first asked answers last. */
const PROVIDER_DELAY: Record<string, number> = { acme: 9, globex: 4, initech: 0, down: 1 };

function quoteOf(provider: string, sku: string) {
  if (provider === "down") {
    throw failure("ServiceUnavailableError", 503, `Provider ${provider} is down`);
  }
  return { provider, sku, price: (1000 + (hash(provider + sku) % 9000)) / 100 };
}

const MEMBERS: Record<string, string[]> = {
  platform: ["ana", "bo", "cy", "dee", "eli"],
  web: ["fay", "gus", "hal"],
};
const ONCALL = ["ana", "fay", "cy"];
const ZONES = ["UTC", "Europe/Berlin", "America/New_York"];

function userOf(handle: string) {
  const h = hash(handle);
  return {
    handle,
    name: handle.charAt(0).toUpperCase() + handle.slice(1),
    openReviews: h % 7,
    timezone: ZONES[h % 3] as string,
  };
}

const ORDER_CUSTOMERS: Record<string, number[]> = { open: [1, 2, 1, 3, 2, 4], late: [5, 8, 11, 6] };

function ordersOf(status: string) {
  return (ORDER_CUSTOMERS[status] ?? []).map((customerId, i) => ({
    id: 5000 + i + (status === "late" ? 100 : 0),
    customerId,
    total: ((customerId * 19 + i * 7) % 200) + 0.99,
    createdAt: new Date(Date.UTC(2024, 0, 5 + i * 3)).toISOString(),
    status,
  }));
}

function searchOf(query: string, page: number) {
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
const DOCUMENTS: Record<string, { kind: string; delay: number }> = {
  "refund-policy": { kind: "policy", delay: 0 },
  shipping: { kind: "guide", delay: 9 },
  faq: { kind: "guide", delay: 6 },
};

function documentOf(slug: string) {
  const known = DOCUMENTS[slug];
  if (!known) throw failure("NotFoundError", 404, `No document ${slug}`);
  return { slug, kind: known.kind, body: `${slug} v${hash(slug) % 9}: the text of ${slug}` };
}

function fetchReport(world: World, id: number) {
  const attempt = (world.attempts.get(id) ?? 0) + 1;
  world.attempts.set(id, attempt);
  if (id >= 90) throw failure("InternalError", 500, "upstream exploded");
  if (attempt <= 2) throw failure("RateLimitError", 429, "Too many requests, retry later");
  return { id, rows: id * 3, status: "ready" };
}

// ---------------------------------------------------------------------------------------------
// Connectors

interface MethodSpec {
  gated?: boolean;
  /** "reversed": held until three are waiting (or 5 ms passed), then answered newest first */
  answer?: "hashed" | "reversed";
  /** a fixed delay in ms; otherwise one from a hash of the input (0 to 9 ms, some at once) */
  delay?: (input: Rec) => number;
  run: (input: Rec, world: World) => unknown;
}

function settle(
  answer: () => unknown,
  resolve: (value: unknown) => void,
  reject: (e: unknown) => void,
) {
  try {
    resolve(answer());
  } catch (error) {
    reject(error);
  }
}

function later(ms: number, answer: () => unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (ms < 3) Promise.resolve().then(() => settle(answer, resolve, reject));
    else setTimeout(() => settle(answer, resolve, reject), ms);
  });
}

function reversed(world: World, answer: () => unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    world.held.push(() => settle(answer, resolve, reject));
    const flush = () => {
      world.flushing = false;
      for (const release of world.held.splice(0).reverse()) release();
    };
    if (world.held.length >= 3) flush();
    else if (!world.flushing) {
      world.flushing = true;
      setTimeout(flush, 5);
    }
  });
}

function service(world: World, name: string, methods: Record<string, MethodSpec>): Connector {
  return {
    specificationVersion: "v1",
    name,
    methods: () =>
      Object.fromEntries(
        Object.entries(methods).map(([method, spec]) => [
          method,
          { description: `${name}.${method}`, ...(spec.gated ? { requiresApproval: true } : {}) },
        ]),
      ),
    invoke(method, input, context) {
      world.ledger.push({
        connector: name,
        method,
        input,
        seq: context.seq,
        idempotencyKey: context.idempotencyKey,
      });
      const spec = methods[method];
      if (!spec) return Promise.reject(new Error(`${name} has no method ${method}`));
      const args = (input ?? {}) as Rec;
      const answer = () => spec.run(args, world);
      if (spec.answer === "reversed") return reversed(world, answer);
      const ms = spec.delay ? spec.delay(args) : hash(`${name}.${method}:${stable(input)}`) % 10;
      return later(ms, answer);
    },
  };
}

const written = (prefix: string) => (input: Rec) => `${prefix}${hash(stable(input)) % 90_000}`;

function connectorsOf(world: World): Connector[] {
  const num = (value: unknown) => Number(value);
  const str = (value: unknown) => String(value);
  return [
    service(world, "crm", {
      getCustomer: { run: (input) => customerOf(num(input.id)) },
      listCustomers: { run: (input) => listCustomers(input) },
      updateCustomer: { gated: true, run: (input) => ({ id: input.id, updated: true }) },
    }),
    service(world, "billing", {
      getInvoices: { run: (input) => invoicesOf(num(input.customerId)) },
    }),
    service(world, "inventory", {
      getStock: { answer: "reversed", run: (input) => stockOf(str(input.sku)) },
    }),
    service(world, "pricing", {
      quote: {
        delay: (input) => PROVIDER_DELAY[str(input.provider)] ?? 5,
        run: (input) => quoteOf(str(input.provider), str(input.sku)),
      },
    }),
    service(world, "flaky", {
      fetchReport: { run: (input, state) => fetchReport(state, num(input.id)) },
    }),
    service(world, "team", {
      listMembers: {
        run: (input) => {
          const members = MEMBERS[str(input.team)];
          if (!members) throw failure("NotFoundError", 404, `No team ${str(input.team)}`);
          return [...members];
        },
      },
      getUser: { run: (input) => userOf(str(input.handle)) },
      getOncall: { run: () => [...ONCALL] },
    }),
    service(world, "shop", {
      listOrders: { run: (input) => ({ items: ordersOf(str(input.status)) }) },
      // a slow API: 60 ms for every order
      getOrder: {
        delay: () => 60,
        run: (input) => {
          const order = [...ordersOf("open"), ...ordersOf("late")].find((o) => o.id === input.id);
          if (!order) throw failure("NotFoundError", 404, `Order ${str(input.id)} not found`);
          return order;
        },
      },
    }),
    service(world, "docs", {
      search: {
        run: (input) => searchOf(str(input.query), typeof input.page === "number" ? input.page : 1),
      },
      getDocument: {
        delay: (input) => DOCUMENTS[str(input.slug)]?.delay ?? 5,
        run: (input) => documentOf(str(input.slug)),
      },
      indexStatus: {
        run: (input) => ({
          slug: input.slug,
          indexedHash: "0000000000000000",
          stale: input.slug === "faq",
        }),
      },
    }),
    service(world, "reports", {
      // a slow export: 300 ms
      exportCsv: {
        delay: () => 300,
        run: (input) => ({
          kind: input.kind,
          rows: 1200,
          url: `https://reports.example.com/${str(input.kind)}.csv`,
        }),
      },
      start: { run: (input) => ({ jobId: `job-${str(input.kind)}`, state: "queued" }) },
      status: {
        run: (input, state) => {
          const jobId = str(input.jobId);
          const polls = (state.polls.get(jobId) ?? 0) + 1;
          state.polls.set(jobId, polls);
          return polls < 3
            ? { jobId, state: "running", progress: polls * 40 }
            : {
                jobId,
                state: "done",
                progress: 100,
                url: `https://reports.example.com/${jobId}.csv`,
              };
        },
      },
    }),
    service(world, "audit", {
      log: { run: () => ({ logged: true }) },
      lookup: {
        run: (input) =>
          input.kind === "invoices" && input.customerId === 23
            ? { hit: true, value: [{ number: "INV-23-cached", amount: 1, paid: false }] }
            : { hit: false },
      },
    }),
    service(world, "tickets", {
      create: { gated: true, run: (input) => ({ id: written("T-")(input), status: "open" }) },
      update: { gated: true, run: (input) => ({ id: input.id, updated: true }) },
    }),
    service(world, "email", {
      send: { gated: true, run: (input) => ({ messageId: written("msg-")(input) }) },
    }),
    service(world, "slack", {
      postMessage: { gated: true, run: (input) => ({ ok: true, ts: written("17000")(input) }) },
    }),
    service(world, "notes", {
      write: { gated: true, run: (input) => ({ saved: input.key }) },
    }),
  ];
}

const GATED = new Set([
  "crm.updateCustomer",
  "tickets.create",
  "tickets.update",
  "email.send",
  "slack.postMessage",
  "notes.write",
]);
const isGated = (call: { connector: string; method: string }) =>
  GATED.has(`${call.connector}.${call.method}`);

// ---------------------------------------------------------------------------------------------
// Running a program: pause, approve (as often as it pauses), check

interface Outcome {
  started: number;
  result: unknown;
  /** every call a person was shown, in the order of the pauses */
  pending: PendingAction[];
  /** their inputs */
  shown: Rec[];
  ledger: Call[];
  /** the inputs that reached `connector.method` */
  inputs(connector: string, method: string): Rec[];
}

interface ModelProgram {
  /** "<class>: <what the program does>" */
  name: string;
  code: string;
  /** how many gated calls the run makes in all (default 1) */
  gated?: number;
  check(outcome: Outcome): void;
}

function describeOutput(output: unknown): string {
  return JSON.stringify(output, null, 1)?.slice(0, 2_000) ?? String(output);
}

async function survives(
  options: ModelProgramsTestOptions,
  program: ModelProgram,
  /** a new executor for every request (a process per request), else one for the run (a server's) */
  executorPerRequest: boolean,
): Promise<void> {
  const world: World = {
    ledger: [],
    attempts: new Map(),
    polls: new Map(),
    held: [],
    flushing: false,
  };
  const store = memoryStore();
  const shared = executorPerRequest ? undefined : await options.createExecutor();
  // the runtime and its connectors are made anew for each request, as an app makes them
  const fresh = async () =>
    createCodemodeRuntime({
      store,
      executor: shared ?? (await options.createExecutor()),
      connectors: connectorsOf(world),
    });

  let output = await (await fresh()).execute({ code: program.code });
  if (output.status !== "paused") {
    throw new Error(`the first pass did not pause at a gated call: ${describeOutput(output)}`);
  }
  const executionId = output.executionId;
  const started = (await (await fresh()).execution(executionId))?.createdAt as number;
  const pending: PendingAction[] = [];
  const pauses: Array<{ pending: PendingAction[]; ledgerAt: number }> = [];
  const expectedGated = program.gated ?? 1;
  while (output.status === "paused") {
    expect(output.pending.length, "a pause shows the calls it waits for").toBeGreaterThan(0);
    for (const action of output.pending) {
      expect(isGated(action), `${action.connector}.${action.method} waits for approval`).toBe(true);
    }
    pauses.push({ pending: output.pending, ledgerAt: world.ledger.length });
    pending.push(...output.pending);
    if (pending.length > expectedGated) {
      throw new Error(
        `more gated calls than the program makes (${expectedGated}): ${describeOutput(pending)}`,
      );
    }
    output = await (await fresh()).approve({
      executionId,
      handle: decisionHandleOf(output.pending, executionId),
    });
  }

  // nothing ran twice: one connector call per seq of the run
  const keys = world.ledger.map((call) => call.idempotencyKey);
  const twice = world.ledger.filter((call, index) => keys.indexOf(call.idempotencyKey) !== index);
  expect(twice, "calls that reached a connector twice").toEqual([]);

  const gatedCalls = world.ledger.filter(isGated);
  if (output.status !== "completed") {
    throw new Error(`the approval did not complete the run: ${describeOutput(output)}`);
  }
  expect(pending, "gated calls the run made").toHaveLength(expectedGated);

  // each gated call reached its connector once, after its approval, with the input shown
  for (const [index, pause] of pauses.entries()) {
    for (const action of pause.pending) {
      const ran = world.ledger
        .map((call, at) => ({ call, at }))
        .filter(({ call }) => call.seq === action.seq);
      expect(ran, `the approved call at seq ${action.seq} (pause ${index + 1})`).toHaveLength(1);
      const [{ call, at }] = ran as [{ call: Call; at: number }];
      expect([call.connector, call.method]).toEqual([action.connector, action.method]);
      expect(call.input, "the approved input is the one shown").toEqual(action.args);
      expect(at, "ran only after its approval").toBeGreaterThanOrEqual(pause.ledgerAt);
    }
  }
  expect(gatedCalls, "every gated call that ran was shown and approved").toHaveLength(
    expectedGated,
  );

  program.check({
    started,
    result: output.result,
    pending,
    shown: pending.map((action) => action.args as Rec),
    ledger: world.ledger,
    inputs: (connector, method) =>
      world.ledger
        .filter((call) => call.connector === connector && call.method === method)
        .map((call) => call.input as Rec),
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers for the checks

const iso = (ms: number) => new Date(ms).toISOString();
const round2 = (n: number) => Math.round(n * 100) / 100;
const unpaidTotal = (invoices: Invoice[]) =>
  invoices.filter((invoice) => !invoice.paid).reduce((sum, invoice) => sum + invoice.amount, 0);
const orNull = <T>(body: () => T): T | null => {
  try {
    return body();
  } catch {
    return null;
  }
};
const shownAt = (outcome: Outcome, index = 0) => outcome.shown[index] as Rec;

// ---------------------------------------------------------------------------------------------
// The programs

const PROGRAMS: ModelProgram[] = [
  // ---- timestamps ----------------------------------------------------------------------------
  {
    name: "timestamps: a follow-up ticket due in three days (toISOString, ms arithmetic)",
    code: `async () => {
  // Open a follow-up ticket for customer 42, due in three days
  const customer = await crm.getCustomer({ id: 42 });
  const now = new Date();
  const dueDate = new Date(now.getTime() + 3 * 24 * 60 * 60 * 1000);
  const ticket = await tickets.create({
    title: \`Follow up with \${customer.name}\`,
    description: \`Opened on \${now.toISOString()} for a \${customer.tier} customer (balance $\${customer.balance}).\`,
    dueDate: dueDate.toISOString(),
    dueTimestamp: dueDate.getTime(),
    assignee: customer.tier === "enterprise" ? "account-team" : "support",
  });
  console.log("Created ticket", ticket.id);
  return { ticketId: ticket.id, due: dueDate.toISOString() };
}`,
    check: (o) => {
      const customer = customerOf(42);
      const due = o.started + 3 * DAY;
      expect(shownAt(o)).toEqual({
        title: `Follow up with ${customer.name}`,
        description: `Opened on ${iso(o.started)} for a ${customer.tier} customer (balance $${customer.balance}).`,
        dueDate: iso(due),
        dueTimestamp: due,
        assignee: "support",
      });
      expect(o.result).toMatchObject({ due: iso(due) });
    },
  },
  {
    name: "timestamps: a late-orders report titled with toLocaleDateString, days late from Date subtraction",
    code: `async () => {
  const { items } = await shop.listOrders({ status: "late" });
  const today = new Date();
  const title = "Late orders — " + today.toLocaleDateString("en-US", { weekday: "long", year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
  const lines = items.map((o) => {
    const placed = new Date(o.createdAt);
    const daysLate = Math.floor((today - placed) / 86400000) - 14;
    return \`#\${o.id} placed \${placed.toLocaleDateString("en-US", { timeZone: "UTC" })}: \${daysLate}d late\`;
  });
  await notes.write({ key: \`late-orders-\${today.toISOString().slice(0, 10)}\`, value: [title, ...lines].join("\\n") });
  return { count: items.length, title };
}`,
    check: (o) => {
      const orders = ordersOf("late");
      const shown = shownAt(o);
      expect(shown.key).toBe(`late-orders-${iso(o.started).slice(0, 10)}`);
      const lines = String(shown.value).split("\n");
      expect(lines).toHaveLength(orders.length + 1);
      orders.forEach((order, index) => {
        const days = Math.floor((o.started - Date.parse(order.createdAt)) / DAY) - 14;
        expect(lines[index + 1]).toMatch(new RegExp(`^#${order.id} placed .+: ${days}d late$`));
      });
      expect(o.result).toEqual({ count: orders.length, title: lines[0] });
    },
  },
  {
    name: "timestamps: a review scheduled for the next business day at 09:00 UTC (setUTCDate loop, local setHours)",
    code: `async () => {
  const user = await team.getUser({ handle: "ana" });
  // schedule the review for the next business day at 09:00 UTC
  const next = new Date();
  next.setUTCDate(next.getUTCDate() + 1);
  while (next.getUTCDay() === 0 || next.getUTCDay() === 6) next.setUTCDate(next.getUTCDate() + 1);
  next.setUTCHours(9, 0, 0, 0);
  const endOfDay = new Date();
  endOfDay.setHours(17, 30, 0, 0); // end of day in the sandbox's local time
  const hours = Math.round((next.getTime() - Date.now()) / 36e5);
  const post = await slack.postMessage({
    channel: "#reviews",
    text: \`:calendar: \${user.name}, your review is on \${next.toUTCString()} (in ~\${hours}h). Today ends \${endOfDay.toISOString()}\`,
    scheduledFor: next.getTime(),
  });
  return { scheduledFor: next.toISOString(), ts: post.ts };
}`,
    check: (o) => {
      const next = new Date(o.started);
      next.setUTCDate(next.getUTCDate() + 1);
      while (next.getUTCDay() === 0 || next.getUTCDay() === 6)
        next.setUTCDate(next.getUTCDate() + 1);
      next.setUTCHours(9, 0, 0, 0);
      const hours = Math.round((next.getTime() - o.started) / 36e5);
      const shown = shownAt(o);
      expect(shown.scheduledFor).toBe(next.getTime());
      expect(shown.text).toContain(`Ana, your review is on ${next.toUTCString()} (in ~${hours}h)`);
      expect(o.result).toMatchObject({ scheduledFor: next.toISOString() });
    },
  },
  {
    name: "timestamps: customers older than a year by Date.now() minus signup, oldest first",
    code: `async () => {
  const page = await crm.listCustomers({ limit: 50 });
  const DAY = 1000 * 60 * 60 * 24;
  const now = Date.now();
  const stale = page.items
    .map((c) => ({ id: c.id, name: c.name, ageDays: Math.floor((now - new Date(c.signedUpAt).getTime()) / DAY) }))
    .filter((c) => c.ageDays > 365)
    .sort((a, b) => b.ageDays - a.ageDays);
  const res = await notes.write({ key: "stale-customers", value: { generatedAt: new Date(now).toISOString(), stale: stale.slice(0, 5) } });
  return { total: stale.length, oldest: stale[0]?.name ?? null, res };
}`,
    check: (o) => {
      const stale = LISTED.map(customerOf)
        .map((c) => ({
          id: c.id,
          name: c.name,
          ageDays: Math.floor((o.started - c.signedUpAt.getTime()) / DAY),
        }))
        .filter((c) => c.ageDays > 365)
        .sort((a, b) => b.ageDays - a.ageDays);
      expect(shownAt(o)).toEqual({
        key: "stale-customers",
        value: { generatedAt: iso(o.started), stale: stale.slice(0, 5) },
      });
      expect(o.result).toMatchObject({ total: stale.length, oldest: stale[0]?.name ?? null });
    },
  },
  {
    name: "timestamps: an email and then its log entry, each stamped with new Date() and time taken (two approvals)",
    gated: 2,
    code: `async () => {
  const startedAt = Date.now();
  const invoices = await billing.getInvoices({ customerId: 4 });
  const unpaid = invoices.filter((i) => !i.paid);
  const reminder = await email.send({
    to: "customer4@example.com",
    subject: \`Reminder: \${unpaid.length} unpaid invoice(s)\`,
    body: unpaid.map((i) => \`\${i.number}: $\${i.amount.toFixed(2)} due \${new Date(i.dueDate).toDateString()}\`).join("\\n"),
    sentAt: new Date().toISOString(),
  });
  const log = await notes.write({
    key: "reminders/4",
    value: { messageId: reminder.messageId, at: new Date().toISOString(), tookMs: Date.now() - startedAt },
  });
  return { messageId: reminder.messageId, tookMs: Date.now() - startedAt, log };
}`,
    check: (o) => {
      const unpaid = invoicesOf(4).filter((invoice) => !invoice.paid);
      expect(shownAt(o, 0)).toMatchObject({
        to: "customer4@example.com",
        subject: `Reminder: ${unpaid.length} unpaid invoice(s)`,
        sentAt: iso(o.started),
      });
      expect(String(shownAt(o, 0).body).split("\n")).toHaveLength(unpaid.length);
      const second = shownAt(o, 1);
      expect(second).toMatchObject({
        key: "reminders/4",
        value: { at: iso(o.started), tookMs: 0 },
      });
      expect(o.result).toMatchObject({
        tookMs: 0,
        messageId: (second.value as Rec).messageId,
        log: { saved: "reminders/4" },
      });
    },
  },

  // ---- random ids and references ---------------------------------------------------------------
  {
    name: "random: a refund ticket with a Math.random().toString(36) reference and a coin-flip priority",
    code: `async () => {
  const c = await crm.getCustomer({ id: 8 });
  const ref = "REF-" + Math.random().toString(36).substring(2, 10).toUpperCase();
  const ticket = await tickets.create({
    title: \`Refund request for \${c.name}\`,
    reference: ref,
    priority: Math.random() > 0.5 ? "high" : "normal",
  });
  return { ref, ticket };
}`,
    check: (o) => {
      const shown = shownAt(o);
      expect(shown).toMatchObject({
        title: `Refund request for ${customerOf(8).name}`,
        reference: expect.stringMatching(/^REF-[0-9A-Z]{1,8}$/),
        priority: expect.stringMatching(/^(high|normal)$/),
      });
      expect(o.result).toMatchObject({ ref: shown.reference });
    },
  },
  {
    name: "random: crypto.randomUUID() with the usual Math.random() fallback, one per member",
    code: `async () => {
  function uuid() {
    if (typeof crypto !== "undefined" && typeof crypto.randomUUID === "function") return crypto.randomUUID();
    return "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, (ch) => {
      const r = (Math.random() * 16) | 0;
      const v = ch === "x" ? r : (r & 0x3) | 0x8;
      return v.toString(16);
    });
  }
  const members = await team.listMembers({ team: "web" });
  const requestId = uuid();
  const batch = members.map((handle) => ({ handle, token: uuid() }));
  const posted = await slack.postMessage({ channel: "#web", text: \`Standup links (\${requestId})\`, attachments: batch });
  return { requestId, batch, posted };
}`,
    check: (o) => {
      const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
      const shown = shownAt(o);
      const batch = shown.attachments as Array<{ handle: string; token: string }>;
      expect(batch.map((row) => row.handle)).toEqual(MEMBERS.web);
      for (const row of batch) expect(row.token).toMatch(UUID);
      const result = o.result as { requestId: string };
      expect(result.requestId).toMatch(UUID);
      expect(shown.text).toBe(`Standup links (${result.requestId})`);
      expect(new Set([result.requestId, ...batch.map((row) => row.token)]).size).toBe(4);
      expect(o.result).toMatchObject({ batch });
    },
  },
  {
    name: "random: two reviewers picked by a Fisher–Yates shuffle of the available members",
    code: `async () => {
  const handles = await team.listMembers({ team: "platform" });
  const people = await Promise.all(handles.map((handle) => team.getUser({ handle })));
  const available = people.filter((p) => p.openReviews < 5);
  // Fisher–Yates shuffle so we don't always pick the same reviewers
  for (let i = available.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [available[i], available[j]] = [available[j], available[i]];
  }
  const reviewers = available.slice(0, 2).map((p) => p.handle);
  const pr = await tickets.update({ id: "PR-481", reviewers, note: \`randomly assigned from \${available.length} available\` });
  return { reviewers, pr };
}`,
    check: (o) => {
      const available = (MEMBERS.platform as string[]).filter(
        (handle) => userOf(handle).openReviews < 5,
      );
      const shown = shownAt(o);
      const reviewers = shown.reviewers as string[];
      expect(reviewers).toHaveLength(Math.min(2, available.length));
      for (const reviewer of reviewers) expect(available).toContain(reviewer);
      expect(shown.note).toBe(`randomly assigned from ${available.length} available`);
      expect(o.result).toMatchObject({ reviewers, pr: { id: "PR-481" } });
    },
  },
  {
    name: "random: a survey emailed to three customers sampled with splice(Math.random()), all sent at once",
    gated: 3,
    code: `async () => {
  const { items } = await crm.listCustomers({ limit: 12 });
  const sample = [];
  const pool = [...items];
  while (sample.length < 3 && pool.length) sample.push(pool.splice(Math.floor(Math.random() * pool.length), 1)[0]);
  const sent = await Promise.all(
    sample.map((c) =>
      email.send({
        to: c.email,
        subject: "Quick survey",
        body: \`Hi \${c.name.split(" ")[0]}, got 2 minutes?\`,
        trackingId: Math.random().toString(36).slice(2, 9),
      })
    )
  );
  return sent.map((s, i) => ({ to: sample[i].email, id: s.messageId }));
}`,
    check: (o) => {
      const first12 = LISTED.slice(0, 12).map(customerOf);
      const to = o.shown.map((input) => input.to);
      expect(new Set(to).size).toBe(3);
      for (const input of o.shown) {
        const customer = first12.find((c) => c.email === input.to) as Customer;
        expect(customer, `${String(input.to)} is among the first twelve`).toBeDefined();
        expect(input.body).toBe(`Hi ${customer.name.split(" ")[0]}, got 2 minutes?`);
      }
      expect((o.result as Array<{ to: string }>).map((row) => row.to)).toEqual(to);
    },
  },
  {
    name: "random: an invite token from crypto.getRandomValues (hex) and a Date.now()-Math.random() idempotency key",
    code: `async () => {
  const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const randomHex = (n) => {
    if (typeof crypto !== "undefined" && crypto.getRandomValues) return toHex(crypto.getRandomValues(new Uint8Array(n)));
    return Array.from({ length: n * 2 }, () => Math.floor(Math.random() * 16).toString(16)).join("");
  };
  const owner = await team.getUser({ handle: "bo" });
  const inviteToken = randomHex(16);
  const idempotencyKey = \`\${Date.now()}-\${Math.random().toString(36).slice(2)}\`;
  const mail = await email.send({
    to: \`\${owner.handle}@example.com\`,
    subject: "Your invite",
    body: \`Join with https://example.com/invite/\${inviteToken}\`,
    idempotencyKey,
  });
  return { inviteToken, idempotencyKey, mail };
}`,
    check: (o) => {
      const shown = shownAt(o);
      const result = o.result as { inviteToken: string; idempotencyKey: string };
      expect(result.inviteToken).toMatch(/^[0-9a-f]{32}$/);
      expect(result.idempotencyKey.startsWith(`${o.started}-`)).toBe(true);
      expect(shown).toEqual({
        to: "bo@example.com",
        subject: "Your invite",
        body: `Join with https://example.com/invite/${result.inviteToken}`,
        idempotencyKey: result.idempotencyKey,
      });
    },
  },
  {
    name: "random: Math.random() drawn inside Promise.all callbacks as each chain's results arrive, then sorted by it",
    code: `async () => {
  const ids = [3, 5, 8, 11, 14];
  const rows = await Promise.all(ids.map(async (id) => {
    const c = await crm.getCustomer({ id });
    const stock = await inventory.getStock({ sku: \`SKU-\${id}\` });
    return { id, name: c.name, onHand: stock.onHand, sampleKey: Math.random().toString(36).slice(2, 7) };
  }));
  const picked = rows
    .filter((r) => r.onHand > 0)
    .sort((a, b) => (a.sampleKey < b.sampleKey ? -1 : 1))
    .slice(0, 3);
  const ticket = await tickets.create({ title: "Stock audit", rows: picked });
  return { picked, ticket };
}`,
    check: (o) => {
      const eligible = [3, 5, 8, 11, 14].filter((id) => stockOf(`SKU-${id}`).onHand > 0);
      const rows = shownAt(o).rows as Array<{ id: number; name: string; onHand: number }>;
      expect(rows).toHaveLength(Math.min(3, eligible.length));
      for (const row of rows) {
        expect(eligible).toContain(row.id);
        expect(row).toMatchObject({
          name: customerOf(row.id).name,
          onHand: stockOf(`SKU-${row.id}`).onHand,
        });
      }
      expect(o.result).toMatchObject({ picked: rows });
    },
  },

  // ---- Promise.all over read-then-write chains ------------------------------------------------
  {
    name: "Promise.all: customer then invoices per id, outstanding totals in one note",
    code: `async () => {
  const customerIds = [2, 4, 6, 9, 12];
  const summaries = await Promise.all(
    customerIds.map(async (id) => {
      const customer = await crm.getCustomer({ id });
      const invoices = await billing.getInvoices({ customerId: customer.id });
      const outstanding = invoices.filter((inv) => !inv.paid).reduce((sum, inv) => sum + inv.amount, 0);
      return { id, name: customer.name, outstanding: Math.round(outstanding * 100) / 100 };
    })
  );
  const total = summaries.reduce((s, x) => s + x.outstanding, 0);
  const note = await notes.write({ key: "ar-summary", value: { total: total.toFixed(2), summaries } });
  return { total: total.toFixed(2), note };
}`,
    check: (o) => {
      const summaries = [2, 4, 6, 9, 12].map((id) => ({
        id,
        name: customerOf(id).name,
        outstanding: round2(unpaidTotal(invoicesOf(id))),
      }));
      const total = summaries.reduce((sum, row) => sum + row.outstanding, 0).toFixed(2);
      expect(shownAt(o)).toEqual({ key: "ar-summary", value: { total, summaries } });
      expect(o.result).toMatchObject({ total });
    },
  },
  {
    name: "Promise.all: each chain ends in a gated email, enterprise chains one call longer",
    gated: 3,
    code: `async () => {
  const ids = [1, 5, 10];
  const results = await Promise.all(ids.map(async (id) => {
    const c = await crm.getCustomer({ id });
    if (c.tier === "enterprise") {
      const inv = await billing.getInvoices({ customerId: id }); // extra hop for enterprise
      return email.send({ to: c.email, subject: \`Your \${inv.length} invoices\`, body: "See attached." });
    }
    return email.send({ to: c.email, subject: "Thanks for being a customer", body: \`Hi \${c.name}\` });
  }));
  return results.map((r) => r.messageId);
}`,
    check: (o) => {
      const expected = [1, 5, 10].map((id) => {
        const c = customerOf(id);
        return c.tier === "enterprise"
          ? {
              to: c.email,
              subject: `Your ${invoicesOf(id).length} invoices`,
              body: "See attached.",
            }
          : { to: c.email, subject: "Thanks for being a customer", body: `Hi ${c.name}` };
      });
      const byRecipient = (a: Rec, b: Rec) => String(a.to).localeCompare(String(b.to));
      expect([...o.shown].sort(byRecipient)).toEqual([...expected].sort(byRecipient));
      expect(o.result).toHaveLength(3);
    },
  },
  {
    name: "Promise.all: nested Promise.all per team, load and busiest member posted to Slack",
    code: `async () => {
  const teams = ["platform", "web"];
  const roster = await Promise.all(teams.map(async (t) => {
    const handles = await team.listMembers({ team: t });
    const users = await Promise.all(handles.map((h) => team.getUser({ handle: h })));
    return {
      team: t,
      load: users.reduce((n, u) => n + u.openReviews, 0),
      busiest: users.reduce((a, b) => (b.openReviews > a.openReviews ? b : a)).handle,
    };
  }));
  await slack.postMessage({ channel: "#eng-leads", text: roster.map((r) => \`\${r.team}: \${r.load} open reviews, busiest \${r.busiest}\`).join("\\n") });
  return roster;
}`,
    check: (o) => {
      const roster = ["platform", "web"].map((team) => {
        const users = (MEMBERS[team] as string[]).map(userOf);
        return {
          team,
          load: users.reduce((n, u) => n + u.openReviews, 0),
          busiest: users.reduce((a, b) => (b.openReviews > a.openReviews ? b : a)).handle,
        };
      });
      expect(shownAt(o)).toEqual({
        channel: "#eng-leads",
        text: roster
          .map((r) => `${r.team}: ${r.load} open reviews, busiest ${r.busiest}`)
          .join("\n"),
      });
      expect(o.result).toEqual(roster);
    },
  },
  {
    name: "Promise.all: stock answered in reverse, low SKUs looked up again under another name, by index",
    code: `async () => {
  const skus = ["SKU-100", "SKU-101", "SKU-102", "SKU-103", "SKU-104", "SKU-105", "SKU-106"];
  const stock = await Promise.all(skus.map((sku) => inventory.getStock({ sku })));
  const low = stock.filter((s) => s.onHand < 15);
  const alternatives = await Promise.all(low.map((s) => inventory.getStock({ sku: s.sku.replace("SKU", "ALT") })));
  const order = await tickets.create({
    title: \`Restock \${low.length} SKUs\`,
    lines: low.map((s, i) => ({ sku: s.sku, onHand: s.onHand, alternative: alternatives[i].sku, altOnHand: alternatives[i].onHand })),
  });
  return { low: low.map((s) => s.sku), order };
}`,
    check: (o) => {
      const low = [100, 101, 102, 103, 104, 105, 106]
        .map((n) => stockOf(`SKU-${n}`))
        .filter((s) => s.onHand < 15);
      const lines = low.map((s) => {
        const alternative = stockOf(s.sku.replace("SKU", "ALT"));
        return {
          sku: s.sku,
          onHand: s.onHand,
          alternative: alternative.sku,
          altOnHand: alternative.onHand,
        };
      });
      expect(shownAt(o)).toEqual({ title: `Restock ${low.length} SKUs`, lines });
      expect(o.result).toMatchObject({ low: low.map((s) => s.sku) });
    },
  },

  // ---- Promise.allSettled with failing calls --------------------------------------------------
  {
    name: "allSettled: lookups of which two fail, found names and reasons in a report",
    code: `async () => {
  const ids = [5, 7, 12, 17, 21];
  const results = await Promise.allSettled(ids.map((id) => crm.getCustomer({ id })));
  const found = [];
  const missing = [];
  results.forEach((r, i) => {
    if (r.status === "fulfilled") found.push(r.value.name);
    else missing.push({ id: ids[i], reason: r.reason?.message ?? String(r.reason) });
  });
  const report = await notes.write({ key: "lookup-report", value: { found, missing } });
  return { found: found.length, missing: missing.length, report };
}`,
    check: (o) => {
      expect(shownAt(o)).toEqual({
        key: "lookup-report",
        value: {
          found: [5, 12, 21].map((id) => customerOf(id).name),
          missing: [
            { id: 7, reason: "Customer 7 not found" },
            { id: 17, reason: "Customer 17 not found" },
          ],
        },
      });
      expect(o.result).toMatchObject({ found: 3, missing: 2 });
    },
  },
  {
    name: "allSettled: failing billing calls fall back to a cache lookup in .catch, which may throw again",
    code: `async () => {
  const ids = [2, 13, 23, 33];
  const settled = await Promise.allSettled(ids.map((customerId) =>
    billing.getInvoices({ customerId }).catch(async (err) => {
      console.warn(\`billing failed for \${customerId}: \${err.message}; using the cache\`);
      const cached = await audit.lookup({ kind: "invoices", customerId });
      if (!cached.hit) throw new Error(\`no cached invoices for \${customerId}\`);
      return cached.value;
    })
  ));
  const ok = settled.filter((s) => s.status === "fulfilled").map((s) => s.value.length);
  const failed = settled.map((s, i) => (s.status === "rejected" ? ids[i] : null)).filter((x) => x !== null);
  await tickets.create({ title: "Invoice sync", body: \`synced \${ok.length}, failed \${failed.join(", ") || "none"}\`, counts: ok });
  return { ok, failed };
}`,
    check: (o) => {
      const ok = [invoicesOf(2).length, 1];
      expect(shownAt(o)).toEqual({
        title: "Invoice sync",
        body: "synced 2, failed 13, 33",
        counts: ok,
      });
      expect(o.result).toEqual({ ok, failed: [13, 33] });
      expect(o.inputs("audit", "lookup").map((input) => input.customerId)).toEqual([13, 23, 33]);
    },
  },
  {
    name: "allSettled: a health check over five services, error name, status and message per failure",
    code: `async () => {
  const checks = {
    crm: crm.getCustomer({ id: 27 }),
    billing: billing.getInvoices({ customerId: 3 }),
    stock: inventory.getStock({ sku: "DISCONTINUED-9" }),
    quote: pricing.quote({ provider: "down", sku: "SKU-1" }),
    ok: pricing.quote({ provider: "initech", sku: "SKU-1" }),
  };
  const names = Object.keys(checks);
  const outcomes = await Promise.allSettled(Object.values(checks));
  const health = Object.fromEntries(outcomes.map((o, i) => [
    names[i],
    o.status === "fulfilled" ? "up" : \`\${o.reason.name} (\${o.reason.status ?? "?"}): \${o.reason.message}\`,
  ]));
  const down = names.filter((n) => health[n] !== "up");
  await slack.postMessage({ channel: "#status", text: \`\${down.length}/\${names.length} checks failing\`, health });
  return health;
}`,
    check: (o) => {
      const status = (name: string, code: number, message: string) =>
        expect.stringMatching(
          new RegExp(
            `^${name} \\((${code}|\\?)\\): ${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`,
          ),
        );
      const health = {
        crm: status("NotFoundError", 404, "Customer 27 not found"),
        billing: status("ServiceUnavailableError", 503, "Billing is unavailable for customer 3"),
        stock: status("NotFoundError", 404, "Unknown SKU DISCONTINUED-9"),
        quote: status("ServiceUnavailableError", 503, "Provider down is down"),
        ok: "up",
      };
      expect(shownAt(o)).toEqual({ channel: "#status", text: "4/5 checks failing", health });
      expect(o.result).toEqual(shownAt(o).health);
    },
  },

  // ---- first answer wins ----------------------------------------------------------------------
  {
    name: "race: three pricing providers asked at once, the first to answer buys (the first asked answers last)",
    code: `async () => {
  // ask three pricing providers, take whichever answers first
  const providers = ["acme", "globex", "initech"];
  const first = await Promise.race(providers.map((provider) => pricing.quote({ provider, sku: "SKU-42" })));
  const order = await tickets.create({ title: \`Buy SKU-42 from \${first.provider}\`, price: first.price });
  return { provider: first.provider, price: first.price, order };
}`,
    check: (o) => {
      // results reach the program in the order the calls were made: the race goes to the first asked
      const quote = quoteOf("acme", "SKU-42");
      expect(shownAt(o)).toEqual({ title: "Buy SKU-42 from acme", price: quote.price });
      expect(o.result).toMatchObject({ provider: "acme", price: quote.price });
    },
  },
  {
    name: "any: the first provider is down, Promise.any takes the next, with an AggregateError branch",
    code: `async () => {
  const mirrors = ["down", "globex", "acme"];
  let quote;
  try {
    quote = await Promise.any(mirrors.map((provider) => pricing.quote({ provider, sku: "SKU-7" })));
  } catch (e) {
    // AggregateError: every provider failed
    return { error: e.errors.map((x) => x.message) };
  }
  const saved = await notes.write({ key: "quote/SKU-7", value: quote });
  return { quote, saved };
}`,
    check: (o) => {
      const quote = quoteOf("globex", "SKU-7");
      expect(shownAt(o)).toEqual({ key: "quote/SKU-7", value: quote });
      expect(o.result).toMatchObject({ quote });
    },
  },
  {
    name: "race: every call wrapped in a withTimeout(Promise.race with setTimeout) helper, where there is one",
    code: `async () => {
  const withTimeout = (promise, ms, label) => {
    if (typeof setTimeout !== "function") return promise;
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(\`\${label} timed out after \${ms}ms\`)), ms);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };
  const customer = await withTimeout(crm.getCustomer({ id: 19 }), 10000, "crm");
  const invoices = await withTimeout(billing.getInvoices({ customerId: customer.id }), 10000, "billing");
  const due = invoices.filter((i) => !i.paid).map((i) => i.number);
  await email.send({ to: customer.email, subject: "Invoices due", body: due.join(", ") || "nothing due" });
  return due;
}`,
    check: (o) => {
      const due = invoicesOf(19)
        .filter((invoice) => !invoice.paid)
        .map((invoice) => invoice.number);
      expect(shownAt(o)).toEqual({
        to: "customer19@example.com",
        subject: "Invoices due",
        body: due.join(", ") || "nothing due",
      });
      expect(o.result).toEqual(due);
    },
  },
  {
    name: "race: a cache lookup races the live call through .then, the live promise awaited again after",
    code: `async () => {
  const live = crm.getCustomer({ id: 31 });
  const cached = audit.lookup({ kind: "customer", customerId: 31 });
  const firstAnswer = await Promise.race([
    cached.then((c) => ({ source: "cache", hit: c.hit })),
    live.then((c) => ({ source: "live", name: c.name })),
  ]);
  const full = await live;
  const updated = await crm.updateCustomer({ id: 31, note: \`first answer from \${firstAnswer.source}\`, name: full.name });
  return { firstAnswer, updated };
}`,
    check: (o) => {
      const name = customerOf(31).name;
      expect(shownAt(o)).toEqual({ id: 31, note: "first answer from live", name });
      expect(o.result).toEqual({
        firstAnswer: { source: "live", name },
        updated: { id: 31, updated: true },
      });
    },
  },
  {
    name: "race: per SKU a race of two providers in a for loop, the losers still running into the next round",
    code: `async () => {
  const skus = ["SKU-1", "SKU-2", "SKU-3", "SKU-4"];
  const best = [];
  for (const sku of skus) {
    const quote = await Promise.race([
      pricing.quote({ provider: "initech", sku }),
      pricing.quote({ provider: "acme", sku }),
    ]);
    best.push(\`\${sku}@\${quote.provider}:\${quote.price}\`);
  }
  await notes.write({ key: "fastest-quotes", value: best });
  return best;
}`,
    check: (o) => {
      const best = [1, 2, 3, 4].map(
        (n) => `SKU-${n}@initech:${quoteOf("initech", `SKU-${n}`).price}`,
      );
      expect(shownAt(o)).toEqual({ key: "fastest-quotes", value: best });
      expect(o.result).toEqual(best);
    },
  },

  // ---- results in the order they arrive -----------------------------------------------------
  {
    name: "arrival order: stock results pushed as they arrive, the first three get priority",
    code: `async () => {
  const skus = ["SKU-10", "SKU-11", "SKU-12", "SKU-13", "SKU-14", "SKU-15"];
  const arrived = [];
  await Promise.all(skus.map((sku) => inventory.getStock({ sku }).then((s) => {
    arrived.push(s.sku);
    return s;
  })));
  // first three to respond get priority handling
  const priority = arrived.slice(0, 3);
  await tickets.create({ title: "Priority restock", skus: priority, order: arrived });
  return { arrived };
}`,
    check: (o) => {
      const skus = [10, 11, 12, 13, 14, 15].map((n) => `SKU-${n}`);
      expect(shownAt(o)).toEqual({
        title: "Priority restock",
        skus: skus.slice(0, 3),
        order: skus,
      });
      expect(o.result).toEqual({ arrived: skus });
    },
  },
  {
    name: "arrival order: a pool of three workers shifting ids off a shared queue",
    code: `async () => {
  const queue = Array.from({ length: 10 }, (_, i) => i + 1);
  const done = [];
  const workerLog = {};
  async function worker(name) {
    while (queue.length > 0) {
      const id = queue.shift();
      try {
        const c = await crm.getCustomer({ id });
        done.push({ id, name: c.name, by: name });
      } catch (err) {
        done.push({ id, error: err.message, by: name });
      }
      workerLog[name] = (workerLog[name] || 0) + 1;
    }
  }
  await Promise.all([worker("w1"), worker("w2"), worker("w3")]);
  const write = await notes.write({ key: "crawl", value: { done, workerLog } });
  return { count: done.length, write };
}`,
    check: (o) => {
      // each result reaches the program on its own, in call order: the workers take turns
      const done = Array.from({ length: 10 }, (_, index) => {
        const id = index + 1;
        const by = `w${(index % 3) + 1}`;
        const customer = orNull(() => customerOf(id));
        return customer
          ? { id, name: customer.name, by }
          : { id, error: `Customer ${id} not found`, by };
      });
      expect(shownAt(o)).toEqual({
        key: "crawl",
        value: { done, workerLog: { w1: 4, w2: 3, w3: 3 } },
      });
      expect(o.result).toMatchObject({ count: 10 });
    },
  },
  {
    name: "arrival order: an as-completed loop over Promise.race of a Map of pending calls",
    code: `async () => {
  const ids = [21, 22, 23, 24, 25];
  const pending = new Map(ids.map((id) => [
    id,
    billing.getInvoices({ customerId: id }).then((inv) => [id, inv], (err) => [id, err]),
  ]));
  const completed = [];
  while (pending.size > 0) {
    const [id, value] = await Promise.race(pending.values());
    pending.delete(id);
    completed.push(value instanceof Error ? \`\${id}:error\` : \`\${id}:\${value.length}\`);
  }
  await notes.write({ key: "as-completed", value: completed });
  return completed;
}`,
    check: (o) => {
      const completed = [21, 22, 23, 24, 25].map((id) => {
        const invoices = orNull(() => invoicesOf(id));
        return invoices ? `${id}:${invoices.length}` : `${id}:error`;
      });
      expect(shownAt(o)).toEqual({ key: "as-completed", value: completed });
      expect(o.result).toEqual(completed);
    },
  },
  {
    name: "arrival order: for await over an array of pending calls",
    code: `async () => {
  const ids = [18, 19, 20, 21];
  const lines = [];
  for await (const c of ids.map((id) => crm.getCustomer({ id }))) {
    lines.push(\`\${c.id}: \${c.name} (\${c.tier})\`);
  }
  await slack.postMessage({ channel: "#crm", text: lines.join("\\n") });
  return lines;
}`,
    check: (o) => {
      const lines = [18, 19, 20, 21].map((id) => {
        const c = customerOf(id);
        return `${id}: ${c.name} (${c.tier})`;
      });
      expect(shownAt(o)).toEqual({ channel: "#crm", text: lines.join("\n") });
      expect(o.result).toEqual(lines);
    },
  },

  // ---- elapsed time ----------------------------------------------------------------------------
  {
    name: "elapsed: performance.now() (or Date.now()) around a Promise.all, reported in the note",
    code: `async () => {
  const t0 = typeof performance !== "undefined" ? performance.now() : Date.now();
  const startedAt = Date.now();
  const results = await Promise.all([1, 2, 3, 4].map((id) => crm.getCustomer({ id })));
  const fetchMs = (typeof performance !== "undefined" ? performance.now() : Date.now()) - t0;
  const report = await notes.write({
    key: "timing",
    value: { customers: results.length, fetchMs: Math.round(fetchMs), wallMs: Date.now() - startedAt, at: new Date(startedAt).toISOString() },
  });
  return { fetchMs, report };
}`,
    check: (o) => {
      expect(shownAt(o)).toEqual({
        key: "timing",
        value: { customers: 4, fetchMs: 0, wallMs: 0, at: iso(o.started) },
      });
      expect(o.result).toMatchObject({ fetchMs: 0 });
    },
  },
  {
    name: "elapsed: per-call timings in an object, the slowest lookup named in Slack",
    code: `async () => {
  const timings = {};
  const skus = ["SKU-20", "SKU-21", "SKU-22", "SKU-23"];
  await Promise.all(skus.map(async (sku) => {
    const start = Date.now();
    await inventory.getStock({ sku });
    timings[sku] = Date.now() - start;
  }));
  const slowest = Object.entries(timings).sort((a, b) => b[1] - a[1])[0];
  const msg = await slack.postMessage({ channel: "#perf", text: \`Slowest stock lookup: \${slowest[0]} (\${slowest[1]} ms)\`, timings });
  return { slowest, msg };
}`,
    check: (o) => {
      const timings = { "SKU-20": 0, "SKU-21": 0, "SKU-22": 0, "SKU-23": 0 };
      expect(shownAt(o)).toEqual({
        channel: "#perf",
        text: "Slowest stock lookup: SKU-20 (0 ms)",
        timings,
      });
      expect(Object.keys(shownAt(o).timings as Rec)).toEqual(Object.keys(timings));
      expect(o.result).toMatchObject({ slowest: ["SKU-20", 0] });
    },
  },

  // ---- batches ---------------------------------------------------------------------------------
  {
    name: "batches: twenty lookups in batches of five with Promise.all in a for loop, missing ones caught",
    code: `async () => {
  const ids = Array.from({ length: 20 }, (_, i) => i + 1);
  const BATCH_SIZE = 5;
  const customers = [];
  for (let i = 0; i < ids.length; i += BATCH_SIZE) {
    const batch = ids.slice(i, i + BATCH_SIZE);
    const results = await Promise.all(batch.map((id) => crm.getCustomer({ id }).catch(() => null)));
    customers.push(...results.filter(Boolean));
    console.log(\`batch \${i / BATCH_SIZE + 1}: \${results.filter(Boolean).length} ok\`);
  }
  const vip = customers.filter((c) => c.tags.includes("vip"));
  await tickets.create({ title: \`VIP review (\${vip.length})\`, customers: vip.map((c) => ({ id: c.id, name: c.name })) });
  return { total: customers.length, vip: vip.length };
}`,
    check: (o) => {
      const vip = [5, 10, 15, 20].map((id) => ({ id, name: customerOf(id).name }));
      expect(shownAt(o)).toEqual({ title: "VIP review (4)", customers: vip });
      expect(o.result).toEqual({ total: 18, vip: 4 });
    },
  },
  {
    name: "batches: 26 SKUs in chunks of four with allSettled, a failure ticket and then a summary (two approvals)",
    gated: 2,
    code: `async () => {
  const skus = Array.from({ length: 26 }, (_, i) => (i % 9 === 8 ? \`DISCONTINUED-\${i}\` : \`SKU-\${200 + i}\`));
  const chunk = (arr, n) => arr.reduce((acc, x, i) => (i % n ? acc[acc.length - 1].push(x) : acc.push([x]), acc), []);
  const ok = [];
  const failed = [];
  for (const group of chunk(skus, 4)) {
    const settled = await Promise.allSettled(group.map((sku) => inventory.getStock({ sku })));
    settled.forEach((s, j) => (s.status === "fulfilled" ? ok.push(s.value) : failed.push(group[j])));
  }
  const totalUnits = ok.reduce((n, s) => n + s.onHand, 0);
  const ticket = await tickets.create({ title: "Inventory sync failures", failed });
  const summary = await slack.postMessage({
    channel: "#inventory",
    text: \`Synced \${ok.length} SKUs (\${totalUnits} units); \${failed.length} failed, see \${ticket.id}\`,
  });
  return { ok: ok.length, failed, ticket: ticket.id, summary };
}`,
    check: (o) => {
      const skus = Array.from({ length: 26 }, (_, i) =>
        i % 9 === 8 ? `DISCONTINUED-${i}` : `SKU-${200 + i}`,
      );
      const ok = skus.filter((sku) => !sku.startsWith("DISCONTINUED")).map(stockOf);
      const failed = ["DISCONTINUED-8", "DISCONTINUED-17"];
      const units = ok.reduce((n, s) => n + s.onHand, 0);
      expect(shownAt(o, 0)).toEqual({ title: "Inventory sync failures", failed });
      const ticket = o.result as { ticket: string };
      expect(shownAt(o, 1)).toEqual({
        channel: "#inventory",
        text: `Synced ${ok.length} SKUs (${units} units); 2 failed, see ${ticket.ticket}`,
      });
      expect(o.result).toMatchObject({ ok: 24, failed });
    },
  },
  {
    name: "batches: groups of three read-then-read chains, the second read keyed by the first",
    code: `async () => {
  const ids = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13];
  const rows = [];
  for (let i = 0; i < ids.length; i += 3) {
    const part = await Promise.all(ids.slice(i, i + 3).map(async (id) => {
      const c = await crm.getCustomer({ id });
      const s = await inventory.getStock({ sku: \`SKU-\${c.id * 10}\` });
      return \`\${c.name}:\${s.onHand}\`;
    }));
    rows.push(...part);
  }
  await notes.write({ key: "mixed-batches", value: rows });
  return rows.length;
}`,
    check: (o) => {
      const rows = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13].map(
        (id) => `${customerOf(id).name}:${stockOf(`SKU-${id * 10}`).onHand}`,
      );
      expect(shownAt(o)).toEqual({ key: "mixed-batches", value: rows });
      expect(o.result).toBe(12);
    },
  },

  // ---- .then chains ----------------------------------------------------------------------------
  {
    name: "then chains: three .then chains of one, three and four links under one Promise.all",
    code: `async () => {
  const [a, b, c] = await Promise.all([
    crm.getCustomer({ id: 2 }).then((c) => c.account),
    crm.getCustomer({ id: 3 })
      .then((c) => c.id)
      .then((id) => billing.getInvoices({ customerId: id + 1 }))
      .then((inv) => inv.length),
    team.listMembers({ team: "web" })
      .then((m) => m.length)
      .then((n) => n * 2)
      .then(() => team.getUser({ handle: "gus" }))
      .then((u) => u.name),
  ]);
  const note = await notes.write({ key: "chains", value: { a, b, c } });
  return { a, b, c, note };
}`,
    check: (o) => {
      const value = { a: customerOf(2).account, b: invoicesOf(4).length, c: "Gus" };
      expect(shownAt(o)).toEqual({ key: "chains", value });
      expect(o.result).toMatchObject(value);
    },
  },
  {
    name: "then chains: .then/.catch/.finally with a fallback call in catch and an audit call in finally",
    code: `async () => {
  const log = [];
  const result = await crm.getCustomer({ id: 17 })
    .then((c) => { log.push("found"); return c; })
    .catch((err) => { log.push(\`fallback: \${err.message}\`); return crm.getCustomer({ id: 18 }); })
    .finally(() => audit.log({ event: "lookup", steps: log.length }));
  const other = await crm.getCustomer({ id: 19 }).then((c) => c.name).finally(() => { log.push("done 19"); });
  const upd = await crm.updateCustomer({ id: result.id, note: log.join(" | "), friend: other });
  return { log, upd };
}`,
    check: (o) => {
      const log = ["fallback: Customer 17 not found", "done 19"];
      expect(shownAt(o)).toEqual({ id: 18, note: log.join(" | "), friend: customerOf(19).name });
      expect(o.result).toEqual({ log, upd: { id: 18, updated: true } });
      expect(o.inputs("audit", "log")).toEqual([{ event: "lookup", steps: 1 }]);
    },
  },

  // ---- async helpers and closures ---------------------------------------------------------------
  {
    name: "helpers: a memoizing loader (Map of promises) shared by Promise.all over orders",
    code: `async () => {
  const cache = new Map();
  const getCustomer = (id) => {
    if (!cache.has(id)) cache.set(id, crm.getCustomer({ id }));
    return cache.get(id);
  };
  const orders = (await shop.listOrders({ status: "open" })).items;
  const enriched = await Promise.all(orders.map(async (o) => ({ ...o, customer: (await getCustomer(o.customerId)).name })));
  const uniqueLookups = cache.size;
  await notes.write({ key: "orders-enriched", value: enriched.map((o) => \`\${o.id} \${o.customer} $\${o.total}\`) });
  return { uniqueLookups, orders: enriched.length };
}`,
    check: (o) => {
      const orders = ordersOf("open");
      expect(shownAt(o)).toEqual({
        key: "orders-enriched",
        value: orders.map(
          (order) => `${order.id} ${customerOf(order.customerId).name} $${order.total}`,
        ),
      });
      expect(o.result).toEqual({ uniqueLookups: 4, orders: 6 });
      expect(o.inputs("crm", "getCustomer")).toEqual([1, 2, 3, 4].map((id) => ({ id })));
    },
  },
  {
    name: "helpers: a generic withRetry(fn, { retries, label }) with a counter in the closure",
    code: `async () => {
  let attempts = 0;
  async function withRetry(fn, { retries = 3, label = "call" } = {}) {
    let lastError;
    for (let i = 0; i <= retries; i++) {
      attempts++;
      try {
        return await fn();
      } catch (err) {
        lastError = err;
        console.log(\`\${label} failed (attempt \${i + 1}): \${err.message}\`);
      }
    }
    throw lastError;
  }
  const report = await withRetry(() => flaky.fetchReport({ id: 5 }), { label: "report 5" });
  const other = await withRetry(() => flaky.fetchReport({ id: 6 }), { label: "report 6" });
  const saved = await notes.write({ key: "reports", value: { rows: report.rows + other.rows, attempts } });
  return { attempts, saved };
}`,
    check: (o) => {
      expect(shownAt(o)).toEqual({ key: "reports", value: { rows: 33, attempts: 6 } });
      expect(o.result).toMatchObject({ attempts: 6 });
    },
  },
  {
    name: "helpers: a small class wrapping the connector, loadMany with duplicates, seen ids in a Set",
    code: `async () => {
  class CustomerService {
    constructor(client) {
      this.client = client;
      this.seen = new Set();
    }
    async load(id) {
      const c = await this.client.getCustomer({ id });
      this.seen.add(c.id);
      return c;
    }
    async loadMany(ids) {
      return Promise.all(ids.map((id) => this.load(id)));
    }
  }
  const svc = new CustomerService(crm);
  const list = await svc.loadMany([6, 9, 6, 12]);
  const top = list.reduce((a, b) => (b.balance > a.balance ? b : a));
  await crm.updateCustomer({ id: top.id, flag: "top-balance", seen: [...svc.seen] });
  return { top: top.name, seen: [...svc.seen] };
}`,
    check: (o) => {
      const list = [6, 9, 6, 12].map(customerOf);
      const top = list.reduce((a, b) => (b.balance > a.balance ? b : a));
      expect(shownAt(o)).toEqual({ id: top.id, flag: "top-balance", seen: [6, 9, 12] });
      expect(o.result).toEqual({ top: top.name, seen: [6, 9, 12] });
    },
  },

  // ---- retry loops -----------------------------------------------------------------------------
  {
    name: "retry: while(true) try/catch around a rate-limited call, tries counted per report",
    code: `async () => {
  const ids = [11, 12];
  const reports = [];
  for (const id of ids) {
    let tries = 0;
    while (true) {
      tries++;
      try {
        const r = await flaky.fetchReport({ id });
        reports.push({ id, rows: r.rows, tries });
        break;
      } catch (e) {
        if (tries >= 5) throw e;
      }
    }
  }
  await tickets.create({ title: "Reports ready", reports });
  return reports;
}`,
    check: (o) => {
      const reports = [
        { id: 11, rows: 33, tries: 3 },
        { id: 12, rows: 36, tries: 3 },
      ];
      expect(shownAt(o)).toEqual({ title: "Reports ready", reports });
      expect(o.result).toEqual(reports);
    },
  },
  {
    name: "retry: retried calls at once in Promise.all, retrying only on 429, giving up on a 500",
    code: `async () => {
  async function getWithRetry(id) {
    for (let i = 1; ; i++) {
      try {
        return { ok: true, value: await flaky.fetchReport({ id }), attempts: i };
      } catch (error) {
        const retryable = error.status === 429 || error.name === "RateLimitError";
        if (!retryable || i === 4) return { ok: false, error: \`\${error.name}: \${error.message}\`, attempts: i };
      }
    }
  }
  const results = await Promise.all([41, 92, 42].map(getWithRetry));
  const summary = results.map((r) => (r.ok ? \`ok after \${r.attempts}\` : \`gave up after \${r.attempts}: \${r.error}\`));
  await email.send({ to: "oncall@example.com", subject: "Report fetch summary", body: summary.join("\\n") });
  return summary;
}`,
    check: (o) => {
      const summary = [
        "ok after 3",
        "gave up after 1: InternalError: upstream exploded",
        "ok after 3",
      ];
      expect(shownAt(o)).toEqual({
        to: "oncall@example.com",
        subject: "Report fetch summary",
        body: summary.join("\n"),
      });
      expect(o.result).toEqual(summary);
    },
  },
  {
    name: "retry: a sequential retry loop that sleeps between attempts (setTimeout where there is one)",
    code: `async () => {
  const wait = (ms) => new Promise((resolve) => {
    if (typeof setTimeout === "function") setTimeout(resolve, ms);
    else resolve();
  });
  let report;
  let attempt = 0;
  while (!report) {
    attempt++;
    try {
      report = await flaky.fetchReport({ id: 7 });
    } catch (e) {
      if (attempt > 4) throw e;
      console.log(\`attempt \${attempt} failed: \${e.message}\`);
      await wait(attempt * 2);
    }
  }
  const note = await notes.write({ key: "report-7", value: { rows: report.rows, attempt } });
  return { attempt, note };
}`,
    check: (o) => {
      expect(shownAt(o)).toEqual({ key: "report-7", value: { rows: 21, attempt: 3 } });
      expect(o.result).toMatchObject({ attempt: 3 });
    },
  },
  {
    name: "retry: two retry chains with exponential backoff and random jitter, slept with setTimeout, at once",
    code: `async () => {
  const sleep = (ms) => new Promise((resolve) => (typeof setTimeout === "function" ? setTimeout(resolve, ms) : resolve()));
  async function fetchWithBackoff(id, maxAttempts = 4) {
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      try {
        return await flaky.fetchReport({ id });
      } catch (err) {
        const isRateLimit = err.name === "RateLimitError" || /rate/i.test(err.message);
        if (!isRateLimit || attempt === maxAttempts - 1) throw err;
        const delay = Math.min(2 ** attempt * 2, 8) + Math.floor(Math.random() * 3);
        console.log(\`rate limited, retrying in \${delay}ms\`);
        await sleep(delay);
      }
    }
  }
  const [a, b] = await Promise.all([fetchWithBackoff(31), fetchWithBackoff(32)]);
  const c = await fetchWithBackoff(95).catch((e) => ({ error: e.message }));
  await notes.write({ key: "backoff", value: { a: a.rows, b: b.rows, c } });
  return { a: a.rows, b: b.rows, c };
}`,
    check: (o) => {
      const value = { a: 93, b: 96, c: { error: "upstream exploded" } };
      expect(shownAt(o)).toEqual({ key: "backoff", value });
      expect(o.result).toEqual(value);
    },
  },

  // ---- map / reduce with async callbacks -----------------------------------------------------
  {
    name: "reduce: a sequential async reduce that awaits the accumulator first",
    code: `async () => {
  const ids = [1, 2, 3, 4, 5, 6];
  const total = await ids.reduce(async (accPromise, id) => {
    const acc = await accPromise;
    const c = await crm.getCustomer({ id });
    return acc + c.balance;
  }, Promise.resolve(0));
  await notes.write({ key: "balance-total", value: total });
  return total;
}`,
    check: (o) => {
      const total = [1, 2, 3, 4, 5, 6].reduce((sum, id) => sum + customerOf(id).balance, 0);
      expect(shownAt(o)).toEqual({ key: "balance-total", value: total });
      expect(o.result).toBe(total);
    },
  },
  {
    name: "reduce: an async reduce that calls before awaiting the accumulator (all calls at once), grouped by warehouse",
    code: `async () => {
  const skus = ["SKU-1", "SKU-2", "SKU-3", "SKU-4", "SKU-5"];
  const order = [];
  const byWarehouse = await skus.reduce(async (accP, sku) => {
    const s = await inventory.getStock({ sku });
    const acc = await accP;
    order.push(sku);
    (acc[s.warehouse] ||= []).push(\`\${sku}=\${s.onHand}\`);
    return acc;
  }, Promise.resolve({}));
  await slack.postMessage({ channel: "#ops", text: JSON.stringify(byWarehouse), order });
  return byWarehouse;
}`,
    check: (o) => {
      const skus = [1, 2, 3, 4, 5].map((n) => `SKU-${n}`);
      const byWarehouse: Record<string, string[]> = {};
      for (const sku of skus) {
        const s = stockOf(sku);
        byWarehouse[s.warehouse] ??= [];
        byWarehouse[s.warehouse]?.push(`${sku}=${s.onHand}`);
      }
      expect(shownAt(o)).toEqual({
        channel: "#ops",
        text: JSON.stringify(byWarehouse),
        order: skus,
      });
      expect(o.result).toEqual(byWarehouse);
    },
  },
  {
    name: "map: forEach with an async callback (not awaited), then another call, then the collected names",
    code: `async () => {
  const ids = [2, 4, 6, 8];
  const collected = [];
  ids.forEach(async (id) => {
    const c = await crm.getCustomer({ id });
    collected.push(c.name);
  });
  const before = collected.length; // forEach does not wait
  const members = await team.listMembers({ team: "web" });
  const saved = await notes.write({ key: "fire-and-forget", value: { before, after: [...collected], members: members.length } });
  return { before, collected, saved };
}`,
    check: (o) => {
      const names = [2, 4, 6, 8].map((id) => customerOf(id).name);
      expect(shownAt(o)).toEqual({
        key: "fire-and-forget",
        value: { before: 0, after: names, members: 3 },
      });
      expect(o.result).toMatchObject({ before: 0, collected: names });
    },
  },
  {
    name: "map: map(async) with try/catch returning null, filter(Boolean), a second map(async) with .catch",
    code: `async () => {
  const ids = [10, 11, 12, 13, 14, 15];
  const customers = await Promise.all(ids.map(async (id) => {
    try {
      return await crm.getCustomer({ id });
    } catch {
      return null;
    }
  }));
  const withInvoices = await Promise.all(customers.filter(Boolean).map(async (c) => ({
    c,
    invoices: await billing.getInvoices({ customerId: c.id }).catch(() => []),
  })));
  const owing = withInvoices.filter(({ invoices }) => invoices.some((i) => !i.paid)).map(({ c }) => c.id);
  await crm.updateCustomer({ id: owing[0], flag: "collections", batch: owing });
  return owing;
}`,
    check: (o) => {
      const owing = [10, 11, 12, 13, 14, 15].filter((id) => {
        const invoices = orNull(() => invoicesOf(id)) ?? [];
        return invoices.some((invoice) => !invoice.paid);
      });
      expect(shownAt(o)).toEqual({ id: owing[0], flag: "collections", batch: owing });
      expect(o.result).toEqual(owing);
    },
  },

  // ---- sorting by fields of results ---------------------------------------------------------
  {
    name: "sort: 21 balances due fetched at once, sorted by amount then name, top five emailed",
    code: `async () => {
  const { items } = await crm.listCustomers({ limit: 100 });
  const details = await Promise.all(items.map((c) =>
    billing.getInvoices({ customerId: c.id })
      .then((inv) => ({ ...c, due: inv.filter((i) => !i.paid).reduce((s, i) => s + i.amount, 0) }))
      .catch(() => ({ ...c, due: -1 }))
  ));
  const top = details.sort((a, b) => b.due - a.due || a.name.localeCompare(b.name) || a.id - b.id).slice(0, 5);
  await email.send({
    to: "finance@example.com",
    subject: "Top 5 balances due",
    body: top.map((c, i) => \`\${i + 1}. \${c.name} (#\${c.id}) — $\${c.due.toFixed(2)}\`).join("\\n"),
  });
  return top.map((c) => c.id);
}`,
    check: (o) => {
      const top = LISTED.map(customerOf)
        .map((c) => ({ ...c, due: orNull(() => unpaidTotal(invoicesOf(c.id))) ?? -1 }))
        .sort((a, b) => b.due - a.due || a.name.localeCompare(b.name) || a.id - b.id)
        .slice(0, 5);
      expect(shownAt(o)).toEqual({
        to: "finance@example.com",
        subject: "Top 5 balances due",
        body: top.map((c, i) => `${i + 1}. ${c.name} (#${c.id}) — $${c.due.toFixed(2)}`).join("\n"),
      });
      expect(o.result).toEqual(top.map((c) => c.id));
    },
  },
  {
    name: "sort: users of two teams ranked by open reviews (ties kept in order), grouped by time zone",
    code: `async () => {
  const handles = [...(await team.listMembers({ team: "platform" })), ...(await team.listMembers({ team: "web" }))];
  const users = await Promise.all(handles.map((handle) => team.getUser({ handle })));
  const ranked = [...users].sort((a, b) => a.openReviews - b.openReviews);
  const tzGroups = {};
  for (const u of ranked) (tzGroups[u.timezone] ??= []).push(u.handle);
  await tickets.update({ id: "ROTA-7", next: ranked.slice(0, 3).map((u) => u.handle), byTimezone: tzGroups });
  return ranked.map((u) => \`\${u.handle}:\${u.openReviews}\`);
}`,
    check: (o) => {
      const ranked = [...(MEMBERS.platform as string[]), ...(MEMBERS.web as string[])]
        .map(userOf)
        .sort((a, b) => a.openReviews - b.openReviews);
      const byTimezone: Record<string, string[]> = {};
      for (const u of ranked) {
        byTimezone[u.timezone] ??= [];
        byTimezone[u.timezone]?.push(u.handle);
      }
      expect(shownAt(o)).toEqual({
        id: "ROTA-7",
        next: ranked.slice(0, 3).map((u) => u.handle),
        byTimezone,
      });
      expect(o.result).toEqual(ranked.map((u) => `${u.handle}:${u.openReviews}`));
    },
  },

  // ---- JSON round trips ------------------------------------------------------------------------
  {
    name: "JSON: a customer with a Date field copied by JSON.parse(JSON.stringify()) and structuredClone",
    code: `async () => {
  const raw = await crm.getCustomer({ id: 16 });
  const snapshot = JSON.parse(JSON.stringify(raw)); // plain copy for the audit record
  const clone = typeof structuredClone === "function" ? structuredClone(raw) : JSON.parse(JSON.stringify(raw));
  const signedUp = new Date(snapshot.signedUpAt);
  const years = ((Date.now() - signedUp.getTime()) / (365.25 * 864e5)).toFixed(1);
  const res = await notes.write({
    key: \`snapshot/\${raw.id}\`,
    value: { snapshot, signedUpIsDate: raw.signedUpAt instanceof Date, cloneIsDate: clone.signedUpAt instanceof Date, years },
  });
  return res;
}`,
    check: (o) => {
      const customer = customerOf(16);
      const shown = shownAt(o);
      expect(shown).toMatchObject({
        key: "snapshot/16",
        value: {
          snapshot: { ...customer, signedUpAt: customer.signedUpAt.toISOString() },
          signedUpIsDate: true,
          years: ((o.started - customer.signedUpAt.getTime()) / (365.25 * DAY)).toFixed(1),
        },
      });
      expect(o.result).toEqual({ saved: "snapshot/16" });
    },
  },
  {
    name: "JSON: pages of search hits until nextPage is null, a JSON.stringify(…, null, 2) body parsed back",
    code: `async () => {
  const docsFound = [];
  let page = 1;
  while (page) {
    const res = await docs.search({ query: "refund policy", page });
    docsFound.push(...res.hits);
    page = res.nextPage;
  }
  const body = JSON.stringify({
    query: "refund policy",
    count: docsFound.length,
    best: docsFound.reduce((a, b) => (b.score > a.score ? b : a)),
  }, null, 2);
  const parsed = JSON.parse(body);
  const t = await tickets.create({ title: \`Docs audit: \${parsed.count} hits\`, body, bestId: parsed.best.id });
  return { pages: 3, bestId: parsed.best.id, t };
}`,
    check: (o) => {
      const hits = [1, 2, 3].flatMap((page) => searchOf("refund policy", page).hits);
      const best = hits.reduce((a, b) => (b.score > a.score ? b : a));
      const body = JSON.stringify({ query: "refund policy", count: 12, best }, null, 2);
      expect(shownAt(o)).toEqual({ title: "Docs audit: 12 hits", body, bestId: best.id });
      expect(o.result).toMatchObject({ bestId: best.id });
    },
  },

  // ---- sets and maps ---------------------------------------------------------------------------
  {
    name: "sets and maps: tags in a Set, ids grouped by tier in a Map, Object.fromEntries for the note",
    code: `async () => {
  const ids = [1, 2, 3, 4, 5, 6, 8, 9, 10];
  const customers = await Promise.all(ids.map((id) => crm.getCustomer({ id })));
  const tags = new Set();
  const byTier = new Map();
  for (const c of customers) {
    c.tags.forEach((t) => tags.add(t));
    if (!byTier.has(c.tier)) byTier.set(c.tier, []);
    byTier.get(c.tier).push(c.id);
  }
  const summary = { tags: [...tags].sort(), tiers: Object.fromEntries(byTier), tierCount: byTier.size };
  await notes.write({ key: "segments", value: summary });
  return summary;
}`,
    check: (o) => {
      const customers = [1, 2, 3, 4, 5, 6, 8, 9, 10].map(customerOf);
      const tiers: Record<string, number[]> = {};
      for (const c of customers) {
        tiers[c.tier] ??= [];
        tiers[c.tier]?.push(c.id);
      }
      const summary = {
        tags: [...new Set(customers.flatMap((c) => c.tags))].sort(),
        tiers,
        tierCount: 3,
      };
      expect(shownAt(o)).toEqual({ key: "segments", value: summary });
      expect(Object.keys((shownAt(o).value as Rec).tiers as Rec)).toEqual(Object.keys(tiers));
      expect(o.result).toEqual(summary);
    },
  },
  {
    name: "sets and maps: a Set difference of two teams against the on-call list, users fetched one by one into a Map",
    code: `async () => {
  const [platform, web] = await Promise.all([team.listMembers({ team: "platform" }), team.listMembers({ team: "web" })]);
  const oncall = await team.getOncall({ week: 12 });
  const everyone = new Set([...platform, ...web]);
  const missing = [...everyone].filter((h) => !oncall.includes(h));
  const users = new Map();
  for (const h of missing) users.set(h, await team.getUser({ handle: h }));
  const text = [...users.values()].map((u) => \`\${u.name} (\${u.timezone})\`).join(", ");
  const msg = await slack.postMessage({ channel: "#oncall", text: \`Not on call in week 12: \${text}\`, handles: [...users.keys()] });
  return { missing, msg };
}`,
    check: (o) => {
      const missing = [...(MEMBERS.platform as string[]), ...(MEMBERS.web as string[])].filter(
        (handle) => !ONCALL.includes(handle),
      );
      const text = missing
        .map(userOf)
        .map((u) => `${u.name} (${u.timezone})`)
        .join(", ");
      expect(shownAt(o)).toEqual({
        channel: "#oncall",
        text: `Not on call in week 12: ${text}`,
        handles: missing,
      });
      expect(o.result).toMatchObject({ missing });
    },
  },

  // ---- codemode.step ---------------------------------------------------------------------------
  {
    name: "step: a step that loads four customers one by one, its value used for the note",
    code: `async () => {
  const customers = await codemode.step("load customers", async () => {
    const out = [];
    for (const id of [1, 2, 3, 4]) out.push(await crm.getCustomer({ id }));
    return out.map((c) => ({ id: c.id, name: c.name, balance: c.balance }));
  });
  const total = customers.reduce((s, c) => s + c.balance, 0);
  await notes.write({ key: "step-total", value: { total, names: customers.map((c) => c.name) } });
  return total;
}`,
    check: (o) => {
      const customers = [1, 2, 3, 4].map(customerOf);
      const total = customers.reduce((sum, c) => sum + c.balance, 0);
      expect(shownAt(o)).toEqual({
        key: "step-total",
        value: { total, names: customers.map((c) => c.name) },
      });
      expect(o.result).toBe(total);
    },
  },
  {
    name: "step: one step per item in a loop (named by id), then a step that makes a Date/Math.random reference",
    code: `async () => {
  const enriched = [];
  for (const id of [3, 6, 9]) {
    const row = await codemode.step(\`enrich-\${id}\`, async () => {
      const c = await crm.getCustomer({ id });
      const inv = await billing.getInvoices({ customerId: id }).catch(() => []);
      return { id, name: c.name, invoices: inv.length };
    });
    enriched.push(row);
  }
  const ref = await codemode.step("reference", () => \`BATCH-\${Date.now().toString(36)}-\${Math.random().toString(36).slice(2, 6)}\`);
  await tickets.create({ title: "Enrichment batch", ref, rows: enriched });
  return { ref, enriched };
}`,
    check: (o) => {
      const rows = [3, 6, 9].map((id) => ({
        id,
        name: customerOf(id).name,
        invoices: (orNull(() => invoicesOf(id)) ?? []).length,
      }));
      const shown = shownAt(o);
      expect(shown).toMatchObject({ title: "Enrichment batch", rows });
      expect(String(shown.ref).startsWith(`BATCH-${o.started.toString(36)}-`)).toBe(true);
      expect(o.result).toEqual({ ref: shown.ref, enriched: rows });
    },
  },
  {
    name: "step: two steps and a bare call side by side in a Promise.all",
    code: `async () => {
  const [profile, stock, members] = await Promise.all([
    codemode.step("profile", async () => {
      const c = await crm.getCustomer({ id: 14 });
      const inv = await billing.getInvoices({ customerId: 14 });
      return { name: c.name, unpaid: inv.filter((i) => !i.paid).length };
    }),
    inventory.getStock({ sku: "SKU-14" }),
    codemode.step("members", () => team.listMembers({ team: "web" })),
  ]);
  const msg = await slack.postMessage({
    channel: "#acct-14",
    text: \`\${profile.name}: \${profile.unpaid} unpaid, \${stock.onHand} in stock, \${members.length} on web\`,
  });
  return { profile, msg };
}`,
    check: (o) => {
      const profile = {
        name: customerOf(14).name,
        unpaid: invoicesOf(14).filter((invoice) => !invoice.paid).length,
      };
      expect(shownAt(o)).toEqual({
        channel: "#acct-14",
        text: `${profile.name}: ${profile.unpaid} unpaid, ${stockOf("SKU-14").onHand} in stock, 3 on web`,
      });
      expect(o.result).toMatchObject({ profile });
    },
  },
  {
    name: "step: the same step name in every turn of a loop, one step failing and caught",
    code: `async () => {
  const names = [];
  for (const id of [5, 7, 9]) {
    try {
      const c = await codemode.step("fetch customer", () => crm.getCustomer({ id }));
      names.push(c.name);
    } catch (err) {
      names.push(\`missing(\${id})\`);
    }
  }
  await notes.write({ key: "dup-step-names", value: names });
  return names;
}`,
    check: (o) => {
      const names = [customerOf(5).name, "missing(7)", customerOf(9).name];
      expect(shownAt(o)).toEqual({ key: "dup-step-names", value: names });
      expect(o.result).toEqual(names);
    },
  },
  {
    name: "step: a step nested in a step, calls at once inside the outer one",
    code: `async () => {
  const report = await codemode.step("weekly report", async () => {
    const members = await codemode.step("members", () => team.listMembers({ team: "platform" }));
    const loads = await Promise.all(members.map((h) => team.getUser({ handle: h }).then((u) => u.openReviews)));
    return { members: members.length, load: loads.reduce((a, b) => a + b, 0) };
  });
  await email.send({ to: "leads@example.com", subject: "Weekly platform load", body: \`\${report.members} people, \${report.load} open reviews\` });
  return report;
}`,
    check: (o) => {
      const load = (MEMBERS.platform as string[]).reduce((n, h) => n + userOf(h).openReviews, 0);
      expect(shownAt(o)).toEqual({
        to: "leads@example.com",
        subject: "Weekly platform load",
        body: `5 people, ${load} open reviews`,
      });
      expect(o.result).toEqual({ members: 5, load });
    },
  },

  // ---- Intl and number formatting -------------------------------------------------------------
  {
    name: "Intl: a statement with Intl.NumberFormat currency (toFixed fallback), padEnd/padStart columns",
    code: `async () => {
  const invoices = await billing.getInvoices({ customerId: 22 });
  const fmt = typeof Intl !== "undefined" && Intl.NumberFormat
    ? new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" })
    : { format: (n) => "$" + n.toFixed(2) };
  const total = invoices.reduce((s, i) => s + i.amount, 0);
  const lines = invoices.map((i) => \`\${i.number.padEnd(10)} \${fmt.format(i.amount).padStart(10)} \${i.paid ? "paid" : "open"}\`);
  await email.send({
    to: "customer22@example.com",
    subject: \`Statement: \${fmt.format(total)}\`,
    body: lines.join("\\n"),
    paidShare: ((invoices.filter((i) => i.paid).length / invoices.length) * 100).toFixed(1) + "%",
  });
  return fmt.format(total);
}`,
    check: (o) => {
      const invoices = invoicesOf(22);
      const total = invoices.reduce((sum, invoice) => sum + invoice.amount, 0);
      const shown = shownAt(o);
      expect(shown).toMatchObject({
        to: "customer22@example.com",
        subject: `Statement: ${o.result as string}`,
        paidShare: `${((invoices.filter((i) => i.paid).length / invoices.length) * 100).toFixed(1)}%`,
      });
      expect(String(o.result).replace(/[$,]/g, "")).toBe(total.toFixed(2));
      expect(String(shown.body).split("\n")).toHaveLength(invoices.length);
    },
  },
  {
    name: "Intl: Intl.DateTimeFormat and RelativeTimeFormat of a result's date and of new Date()",
    code: `async () => {
  const c = await crm.getCustomer({ id: 26 });
  const hasIntl = typeof Intl !== "undefined" && typeof Intl.DateTimeFormat === "function";
  const opts = { dateStyle: "medium", timeStyle: "short", timeZone: "America/New_York" };
  const fmt = (d) => (hasIntl ? new Intl.DateTimeFormat("en-US", opts).format(d) : d.toISOString());
  const since = fmt(new Date(c.signedUpAt));
  const now = fmt(new Date());
  const days = -Math.round((Date.now() - new Date(c.signedUpAt)) / 864e5);
  const rel = hasIntl && Intl.RelativeTimeFormat ? new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(days, "day") : \`\${days} days\`;
  await crm.updateCustomer({ id: c.id, note: \`Customer since \${since} (\${rel}); reviewed \${now}\` });
  return { since, now, rel };
}`,
    check: (o) => {
      const result = o.result as { since: string; now: string; rel: string };
      const days = -Math.round((o.started - customerOf(26).signedUpAt.getTime()) / DAY);
      expect(result.rel.replace(/[,\s]/g, "")).toContain(String(Math.abs(days)));
      expect(shownAt(o)).toEqual({
        id: 26,
        note: `Customer since ${result.since} (${result.rel}); reviewed ${result.now}`,
      });
    },
  },
  {
    name: "Intl: toLocaleString of numbers and of a fixed Date in a Slack message",
    code: `async () => {
  const { items } = await shop.listOrders({ status: "open" });
  const revenue = items.reduce((sum, o) => sum + o.total, 0);
  const newest = items.map((o) => new Date(o.createdAt)).sort((a, b) => b - a)[0];
  const text = [
    \`Open orders: \${items.length.toLocaleString("en-US")}\`,
    \`Revenue: \${revenue.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}\`,
    \`Newest: \${newest.toLocaleString("en-US", { timeZone: "UTC" })}\`,
    \`As of: \${new Date().toLocaleString("en-US", { timeZone: "UTC" })}\`,
  ].join("\\n");
  await slack.postMessage({ channel: "#sales", text });
  return text;
}`,
    check: (o) => {
      const orders = ordersOf("open");
      const lines = String(shownAt(o).text).split("\n");
      expect(lines[0]).toBe(`Open orders: ${orders.length}`);
      const revenue = orders.reduce((sum, order) => sum + order.total, 0);
      expect(
        String(lines[1])
          .replace(/^Revenue: /, "")
          .replace(/,/g, ""),
      ).toBe(revenue.toFixed(2));
      expect(o.result).toBe(shownAt(o).text);
    },
  },
  {
    name: "Intl: Intl.DateTimeFormat().format() with no date, to the millisecond",
    code: `async () => {
  const c = await crm.getCustomer({ id: 2 });
  const clock = typeof Intl !== "undefined"
    ? new Intl.DateTimeFormat("en-US", { timeZone: "UTC", hour: "2-digit", minute: "2-digit", second: "2-digit", fractionalSecondDigits: 3, hourCycle: "h23" }).format()
    : "no Intl";
  await notes.write({ key: "clock", value: \`\${c.name} checked at \${clock}\` });
  return clock;
}`,
    check: (o) => {
      // Intl's format() without a date reads the run's start (core README, invariant 5)
      const clock = new Intl.DateTimeFormat("en-US", {
        timeZone: "UTC",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        fractionalSecondDigits: 3,
        hourCycle: "h23",
      }).format(o.started);
      expect([clock, "no Intl"]).toContain(o.result);
      expect(shownAt(o)).toEqual({
        key: "clock",
        value: `${customerOf(2).name} checked at ${o.result as string}`,
      });
    },
  },
  {
    name: "Intl: a timestamp from performance.timeOrigin + performance.now(), Temporal.Now and formatToParts() of now",
    code: `async () => {
  const user = await team.getUser({ handle: "cy" });
  const perfStamp = typeof performance !== "undefined" && performance.timeOrigin !== undefined
    ? Math.round(performance.timeOrigin + performance.now())
    : Date.now();
  const instant = typeof Temporal !== "undefined" ? Temporal.Now.instant().toString() : null;
  const parts = typeof Intl !== "undefined"
    ? Object.fromEntries(new Intl.DateTimeFormat("en-US", { timeZone: "UTC", hour: "numeric", minute: "numeric", second: "numeric", hourCycle: "h23" }).formatToParts().filter((p) => p.type !== "literal").map((p) => [p.type, p.value]))
    : null;
  const res = await notes.write({ key: \`seen/\${user.handle}\`, value: { perfStamp, instant, parts, iso: new Date(perfStamp).toISOString() } });
  return res;
}`,
    check: (o) => {
      const value = shownAt(o).value as Rec;
      expect(value.perfStamp).toBe(o.started);
      expect(value.iso).toBe(iso(o.started));
      if (value.instant !== null) expect(Date.parse(String(value.instant))).toBe(o.started);
      const at = new Date(o.started);
      const two = (n: number) => String(n).padStart(2, "0");
      if (value.parts !== null) {
        expect(value.parts).toEqual({
          hour: two(at.getUTCHours()),
          minute: two(at.getUTCMinutes()),
          second: two(at.getUTCSeconds()),
        });
      }
      expect(o.result).toEqual({ saved: "seen/cy" });
    },
  },

  // ---- other things models write ------------------------------------------------------------------
  {
    name: "pagination: a do/while over a cursor that starts undefined",
    code: `async () => {
  let cursor;
  const all = [];
  do {
    const page = await crm.listCustomers({ limit: 5, cursor });
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  const enterprise = all.filter((c) => c.tier === "enterprise");
  await tickets.create({ title: \`\${enterprise.length} enterprise accounts to review\`, ids: enterprise.map((c) => c.id) });
  return all.length;
}`,
    check: (o) => {
      const enterprise = LISTED.map(customerOf).filter((c) => c.tier === "enterprise");
      expect(shownAt(o)).toEqual({
        title: `${enterprise.length} enterprise accounts to review`,
        ids: enterprise.map((c) => c.id),
      });
      expect(o.result).toBe(LISTED.length);
    },
  },
  {
    name: "pagination: an async generator yielding pages, consumed with for await",
    code: `async () => {
  async function* pages(query) {
    let page = 1;
    while (page) {
      const res = await docs.search({ query, page });
      yield res.hits;
      page = res.nextPage;
    }
  }
  const titles = [];
  for await (const hits of pages("onboarding")) {
    for (const h of hits) if (h.score > 0.5) titles.push(h.title);
  }
  await notes.write({ key: "onboarding-docs", value: titles });
  return titles.length;
}`,
    check: (o) => {
      const titles = [1, 2, 3]
        .flatMap((page) => searchOf("onboarding", page).hits)
        .filter((hit) => hit.score > 0.5)
        .map((hit) => hit.title);
      expect(shownAt(o)).toEqual({ key: "onboarding-docs", value: titles });
      expect(o.result).toBe(titles.length);
    },
  },
  {
    name: "random: pairs for coffee from a sort(() => Math.random() - 0.5) shuffle",
    code: `async () => {
  const handles = await team.listMembers({ team: "platform" });
  const order = [...handles].sort(() => Math.random() - 0.5);
  const pairs = [];
  for (let i = 0; i + 1 < order.length; i += 2) pairs.push([order[i], order[i + 1]]);
  if (order.length % 2) pairs[pairs.length - 1].push(order[order.length - 1]);
  await slack.postMessage({ channel: "#coffee", text: pairs.map((p) => p.join(" + ")).join("\\n") });
  return pairs;
}`,
    check: (o) => {
      const pairs = o.result as string[][];
      expect(pairs.flat().sort()).toEqual([...(MEMBERS.platform as string[])].sort());
      expect(shownAt(o)).toEqual({
        channel: "#coffee",
        text: pairs.map((pair) => pair.join(" + ")).join("\n"),
      });
    },
  },
  {
    name: "timestamps: Date objects in a read's input (a week back) and in the gated write's input",
    code: `async () => {
  const until = new Date();
  const since = new Date(until.getTime() - 7 * 24 * 3600 * 1000);
  const { items } = await shop.listOrders({ status: "open", since, until, page: undefined });
  const total = items.reduce((s, o) => s + o.total, 0);
  const saved = await notes.write({ key: "weekly-orders", value: { since, until, count: items.length, total: +total.toFixed(2) } });
  return { saved, since: since.toISOString() };
}`,
    check: (o) => {
      const orders = ordersOf("open");
      const since = new Date(o.started - 7 * DAY);
      expect(o.inputs("shop", "listOrders")).toEqual([
        { status: "open", since, until: new Date(o.started), page: undefined },
      ]);
      expect(shownAt(o)).toEqual({
        key: "weekly-orders",
        value: {
          since,
          until: new Date(o.started),
          count: orders.length,
          total: +orders.reduce((sum, order) => sum + order.total, 0).toFixed(2),
        },
      });
      expect(o.result).toMatchObject({ since: since.toISOString() });
    },
  },
  {
    name: "errors: the caught errors' messages and first stack lines put in the ticket",
    code: `async () => {
  const problems = [];
  for (const id of [7, 8, 17]) {
    try {
      await crm.getCustomer({ id });
    } catch (err) {
      console.error(err);
      problems.push({ id, error: \`\${err.name}: \${err.message}\`, where: String(err.stack || "").split("\\n").slice(0, 2).join(" | ") });
    }
  }
  const local = new Error("checked " + problems.length);
  await tickets.create({ title: \`\${problems.length} broken customer links\`, problems, trace: String(local.stack || "").split("\\n").slice(0, 2) });
  return problems.map((p) => p.id);
}`,
    check: (o) => {
      const problems = shownAt(o).problems as Rec[];
      expect(problems.map((p) => [p.id, p.error])).toEqual([
        [7, "NotFoundError: Customer 7 not found"],
        [17, "NotFoundError: Customer 17 not found"],
      ]);
      expect(o.result).toEqual([7, 17]);
    },
  },
  {
    name: "timers: a job polled with a sleep between status calls until it is done",
    code: `async () => {
  const sleep = (ms) => new Promise((r) => (typeof setTimeout === "function" ? setTimeout(r, ms) : r()));
  const job = await reports.start({ kind: "churn" });
  let status = await reports.status({ jobId: job.jobId });
  let polls = 1;
  while (status.state !== "done") {
    console.log(\`job \${job.jobId}: \${status.state} \${status.progress}%\`);
    await sleep(5);
    status = await reports.status({ jobId: job.jobId });
    polls++;
  }
  await email.send({ to: "analytics@example.com", subject: "Churn report ready", body: \`Download: \${status.url} (after \${polls} polls)\` });
  return polls;
}`,
    check: (o) => {
      expect(shownAt(o)).toEqual({
        to: "analytics@example.com",
        subject: "Churn report ready",
        body: "Download: https://reports.example.com/job-churn.csv (after 3 polls)",
      });
      expect(o.result).toBe(3);
    },
  },
  {
    name: "crypto.subtle: a SHA-256 fingerprint (crypto.subtle.digest where there is one) in some chains of a Promise.all",
    code: `async () => {
  const sha256 = async (text) => {
    if (typeof crypto !== "undefined" && crypto.subtle && typeof TextEncoder === "function") {
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
      return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    }
    let h = 5381;
    for (const ch of text) h = ((h * 33) ^ ch.charCodeAt(0)) >>> 0;
    return h.toString(16).padStart(16, "0");
  };
  const slugs = ["refund-policy", "shipping", "faq"];
  const checked = await Promise.all(slugs.map(async (slug) => {
    const doc = await docs.getDocument({ slug });
    if (doc.kind === "policy") {
      // policies are versioned by content hash
      const hash = (await sha256(doc.body)).slice(0, 16);
      const status = await docs.indexStatus({ slug, hash });
      return { slug, hash, stale: status.indexedHash !== hash };
    }
    const status = await docs.indexStatus({ slug });
    return { slug, stale: status.stale };
  }));
  const stale = checked.filter((d) => d.stale);
  await tickets.create({ title: \`Re-index \${stale.length} docs\`, docs: stale });
  return checked;
}`,
    check: (o) => {
      const checked = o.result as Rec[];
      expect(checked).toEqual([
        { slug: "refund-policy", hash: expect.stringMatching(/^[0-9a-f]{16}$/), stale: true },
        { slug: "shipping", stale: false },
        { slug: "faq", stale: true },
      ]);
      expect(shownAt(o)).toEqual({
        title: "Re-index 2 docs",
        docs: [checked[0], checked[2]],
      });
    },
  },
  {
    name: "arrival order: a p-limit style mapLimit (Promise.race over a Set of running chains), three at a time",
    code: `async () => {
  async function mapLimit(items, limit, fn) {
    const results = new Array(items.length);
    const executing = new Set();
    for (const [i, item] of items.entries()) {
      const p = fn(item).then((r) => {
        results[i] = r;
        executing.delete(p);
      });
      executing.add(p);
      if (executing.size >= limit) await Promise.race(executing);
    }
    await Promise.all(executing);
    return results;
  }
  const ids = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11];
  const started = [];
  const rows = await mapLimit(ids, 3, async (id) => {
    started.push(id);
    const c = await crm.getCustomer({ id });
    const inv = await billing.getInvoices({ customerId: id }).catch(() => []);
    return { id, name: c.name, open: inv.filter((i) => !i.paid).length };
  });
  await notes.write({ key: "limited", value: { rows, started } });
  return rows.length;
}`,
    check: (o) => {
      const ids = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11];
      const rows = ids.map((id) => ({
        id,
        name: customerOf(id).name,
        open: (orNull(() => invoicesOf(id)) ?? []).filter((invoice) => !invoice.paid).length,
      }));
      expect(shownAt(o)).toEqual({ key: "limited", value: { rows, started: ids } });
      expect(o.result).toBe(ids.length);
    },
  },
  {
    name: "Promise.all: the same announcement to three channels at once, one channel twice (identical gated inputs)",
    gated: 3,
    code: `async () => {
  const text = "Reminder: all-hands at 3pm";
  const channels = ["#general", "#eng", "#general"];
  const posted = await Promise.all(channels.map((channel) => slack.postMessage({ channel, text })));
  return posted.map((p) => p.ts);
}`,
    check: (o) => {
      const text = "Reminder: all-hands at 3pm";
      expect(o.shown.map((input) => String(input.channel)).sort()).toEqual([
        "#eng",
        "#general",
        "#general",
      ]);
      for (const input of o.shown) expect(input.text).toBe(text);
      expect(o.result).toHaveLength(3);
    },
  },
  {
    name: "Promise.all: two chains of a read, a gated ticket and a gated Slack post built on the ticket (approvals in parallel)",
    gated: 4,
    code: `async () => {
  const ids = [2, 5];
  const results = await Promise.all(ids.map(async (id) => {
    const c = await crm.getCustomer({ id });
    const ticket = await tickets.create({ title: \`Onboarding call with \${c.name}\`, customerId: id });
    const msg = await slack.postMessage({ channel: "#onboarding", text: \`\${ticket.id} opened for \${c.name}\` });
    return { id, ticket: ticket.id, ts: msg.ts };
  }));
  return results;
}`,
    check: (o) => {
      const created = o.pending.filter((action) => action.method === "create");
      const posted = o.pending.filter((action) => action.method === "postMessage");
      expect(created.map((action) => action.args)).toEqual(
        expect.arrayContaining(
          [2, 5].map((id) => ({
            title: `Onboarding call with ${customerOf(id).name}`,
            customerId: id,
          })),
        ),
      );
      const results = o.result as Array<{ id: number; ticket: string }>;
      expect(results.map((row) => row.id)).toEqual([2, 5]);
      expect(posted.map((action) => action.args)).toEqual(
        expect.arrayContaining(
          results.map((row) => ({
            channel: "#onboarding",
            text: `${row.ticket} opened for ${customerOf(row.id).name}`,
          })),
        ),
      );
    },
  },
  {
    name: "errors: lookups started early and awaited later in try/catch (a rejection handled late)",
    code: `async () => {
  // kick off the lookups early; handle failures when we need them
  const ownerPromise = crm.getCustomer({ id: 27 });
  const backupPromise = crm.getCustomer({ id: 28 });
  const members = await team.listMembers({ team: "web" });
  const stock = await inventory.getStock({ sku: "SKU-27" });
  let owner;
  try {
    owner = await ownerPromise;
  } catch (err) {
    console.warn(\`owner lookup failed: \${err.message}\`);
    owner = await backupPromise;
  }
  await tickets.update({ id: "ACC-27", owner: owner.name, watchers: members, stock: stock.onHand });
  return owner.id;
}`,
    check: (o) => {
      expect(shownAt(o)).toEqual({
        id: "ACC-27",
        owner: customerOf(28).name,
        watchers: MEMBERS.web,
        stock: stockOf("SKU-27").onHand,
      });
      expect(o.result).toBe(28);
    },
  },
  {
    name: "step: steps under Promise.allSettled, one throwing before its call, the others answered in reverse",
    code: `async () => {
  const regions = ["east", "west", "north"];
  const settled = await Promise.allSettled(regions.map((region) =>
    codemode.step(\`sync-\${region}\`, async () => {
      if (region === "north") throw new Error(\`no warehouse in \${region}\`);
      const s = await inventory.getStock({ sku: \`SKU-\${region.toUpperCase()}\` });
      return { region, onHand: s.onHand };
    })
  ));
  const summary = settled.map((r, i) => (r.status === "fulfilled" ? \`\${r.value.region}: \${r.value.onHand}\` : \`\${regions[i]}: \${r.reason.message}\`));
  await slack.postMessage({ channel: "#warehouses", text: summary.join("; ") });
  return summary;
}`,
    check: (o) => {
      const summary = [
        `east: ${stockOf("SKU-EAST").onHand}`,
        `west: ${stockOf("SKU-WEST").onHand}`,
        "north: no warehouse in north",
      ];
      expect(shownAt(o)).toEqual({ channel: "#warehouses", text: summary.join("; ") });
      expect(o.result).toEqual(summary);
    },
  },
  {
    name: "Promise.all: one chain formats 90 days of hourly amounts with toLocaleString before its next call, beside a slow export",
    code: `async () => {
  const [usage, exported] = await Promise.all([
    crm.getCustomer({ id: 12 }).then(async (customer) => {
      // one line per hour of the last 90 days of usage, amounts formatted as dollars, for the attachment
      const lines = [];
      for (let hour = 0; hour < 90 * 24; hour++) {
        const amount = ((hour * 7919 + customer.id) % 10000) / 100;
        lines.push(\`\${hour},\${amount.toLocaleString("en-US", { style: "currency", currency: "USD" })}\`);
      }
      const invoices = await billing.getInvoices({ customerId: customer.id });
      return { lines: lines.length, invoices: invoices.length };
    }),
    reports.exportCsv({ kind: "usage" }).then((file) => audit.log({ event: "exported", url: file.url })),
  ]);
  const saved = await notes.write({ key: "usage-12", value: { ...usage, exported: exported.logged } });
  return saved;
}`,
    check: (o) => {
      expect(shownAt(o)).toEqual({
        key: "usage-12",
        value: { lines: 2160, invoices: invoicesOf(12).length, exported: true },
      });
      expect(o.result).toEqual({ saved: "usage-12" });
    },
  },
  {
    name: "timers: requests to a slow API staggered 25 ms apart with setTimeout, each a read-then-read chain",
    code: `async () => {
  const sleep = (ms) => new Promise((r) => (typeof setTimeout === "function" ? setTimeout(r, ms) : r()));
  const orderIds = [5000, 5001, 5002, 5003];
  // the order API rate-limits bursts: stagger the requests 25ms apart
  const rows = await Promise.all(orderIds.map(async (id, i) => {
    await sleep(i * 25);
    const order = await shop.getOrder({ id });
    const customer = await crm.getCustomer({ id: order.customerId });
    return \`#\${order.id}: \${customer.name} $\${order.total}\`;
  }));
  await notes.write({ key: "staggered-orders", value: rows });
  return rows;
}`,
    check: (o) => {
      const rows = ordersOf("open")
        .slice(0, 4)
        .map((order) => `#${order.id}: ${customerOf(order.customerId).name} $${order.total}`);
      expect(shownAt(o)).toEqual({ key: "staggered-orders", value: rows });
      expect(o.result).toEqual(rows);
    },
  },
];

export function modelProgramsTests(options: ModelProgramsTestOptions): void {
  for (const [index, program] of PROGRAMS.entries()) {
    options.test(program.name, () => survives(options, program, index % 2 === 0), SLOW_TEST_MS);
  }
}
