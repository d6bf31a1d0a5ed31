// Model programs that run calls at once: Promise.all over read-then-write chains, allSettled with
// failing calls, the first answer winning (race, any), results taken in the order they arrive.
import { expect } from "vitest";
import { orNull, round2, shownAt, unpaidTotal } from "./check-helpers.ts";
import type { ModelProgram } from "./model-program.ts";
import { customerOf, invoicesOf, MEMBERS, quoteOf, type Rec, stockOf, userOf } from "./world.ts";

export const CALLS_AT_ONCE_PROGRAMS: readonly ModelProgram[] = [
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
];
