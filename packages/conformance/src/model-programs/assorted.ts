// Other things models write: timers, errors, pagination, crypto.subtle, staggered requests.
import { expect } from "vitest";
import { orNull, shownAt } from "./check-helpers.ts";
import type { ModelProgram } from "./model-program.ts";
import {
  customerOf,
  DAY,
  invoicesOf,
  LISTED,
  MEMBERS,
  ordersOf,
  type Rec,
  searchOf,
  stockOf,
} from "./world.ts";

export const ASSORTED_PROGRAMS: readonly ModelProgram[] = [
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
