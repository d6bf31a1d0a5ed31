// The model programs' connectors: services that answer from the world after delays that depend on
// the input, or hold calls and answer them in reverse, so calls finish in another order than they
// were made, and stop when their signal is aborted, as a fetch or an MCP request does; which of
// their methods wait for approval.
import type { CallContext, Connector } from "@codemode/core";
import {
  customerOf,
  DOCUMENTS,
  documentOf,
  failure,
  fetchReport,
  hash,
  invoicesOf,
  listCustomers,
  MEMBERS,
  ONCALL,
  ordersOf,
  PROVIDER_DELAY,
  quoteOf,
  type Rec,
  searchOf,
  stable,
  stockOf,
  userOf,
  type World,
} from "./world.ts";

declare function setTimeout(callback: () => void, ms: number): unknown;

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

/** The answer, or the signal's reason once it is aborted, whichever comes first. */
function abortable(signal: CallContext["signal"], answer: Promise<unknown>): Promise<unknown> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
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
      if (spec.answer === "reversed") return abortable(context.signal, reversed(world, answer));
      const ms = spec.delay ? spec.delay(args) : hash(`${name}.${method}:${stable(input)}`) % 10;
      return abortable(context.signal, later(ms, answer));
    },
  };
}

const written = (prefix: string) => (input: Rec) => `${prefix}${hash(stable(input)) % 90_000}`;

export function connectorsOf(world: World): Connector[] {
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
export const isGated = (call: { connector: string; method: string }) =>
  GATED.has(`${call.connector}.${call.method}`);
