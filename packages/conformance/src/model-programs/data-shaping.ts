// Model programs that shape results: map and reduce with async callbacks, sorting by fields of
// results, JSON round trips, sets and maps.
import { expect } from "vitest";
import { orNull, shownAt, unpaidTotal } from "./check-helpers.ts";
import type { ModelProgram } from "./model-program.ts";
import {
  customerOf,
  DAY,
  invoicesOf,
  LISTED,
  MEMBERS,
  ONCALL,
  type Rec,
  searchOf,
  stockOf,
  userOf,
} from "./world.ts";

export const DATA_SHAPING_PROGRAMS: readonly ModelProgram[] = [
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
];
