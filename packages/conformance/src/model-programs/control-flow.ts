// Model programs that sequence their calls: elapsed time, batches in a loop, .then chains, async
// helpers and closures, retry loops.
import { expect } from "vitest";
import { iso, shownAt } from "./check-helpers.ts";
import type { ModelProgram } from "./model-program.ts";
import { customerOf, invoicesOf, ordersOf, type Rec, stockOf } from "./world.ts";

export const CONTROL_FLOW_PROGRAMS: readonly ModelProgram[] = [
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
];
