// Model programs that read the clock and chance: timestamps and due dates, random ids and references,
// shuffles, UUIDs.
import { expect } from "vitest";
import { iso, shownAt } from "./check-helpers.ts";
import type { ModelProgram } from "./model-program.ts";
import {
  type Customer,
  customerOf,
  DAY,
  invoicesOf,
  LISTED,
  MEMBERS,
  ordersOf,
  type Rec,
  stockOf,
  userOf,
} from "./world.ts";

export const CLOCK_AND_CHANCE_PROGRAMS: readonly ModelProgram[] = [
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

  {
    name: "timestamps: a report stamped with toLocaleString(), getHours() and a dateStyle format, none naming a zone or a locale (the host's zone and language are not the sandbox's)",
    code: `async () => {
  const { items } = await shop.listOrders({ status: "late" });
  const now = new Date();
  const hour = now.getHours();
  const greeting = hour < 12 ? "Good morning" : hour < 18 ? "Good afternoon" : "Good evening";
  const weekday = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][now.getDay()];
  // the date in words where the sandbox can format it, the plain date otherwise
  const day = typeof Intl !== "undefined" ? new Intl.DateTimeFormat(undefined, { dateStyle: "full" }).format(now) : now.toDateString();
  const review = new Date(now);
  review.setDate(review.getDate() + 7);
  review.setHours(9, 0, 0, 0);
  const total = items.reduce((sum, o) => sum + o.total, 0);
  const sent = await email.send({
    to: "ops@example.com",
    subject: \`\${greeting}: \${items.length} late orders this \${weekday}\`,
    body: \`Report generated \${now.toLocaleString()} (hour \${hour}, offset \${now.getTimezoneOffset()}) for \${day}. Late: \${total.toLocaleString()}. Next review \${review.toLocaleDateString()} at \${review.toLocaleTimeString()} (\${review.toString()}).\`,
    reviewAt: review.getTime(),
  });
  return { messageId: sent.messageId, reviewAt: review.toISOString() };
}`,
    check: (o) => {
      // what an engine in UTC that formats for en-US computes (the host's engine, told so)
      const utc = { timeZone: "UTC" } as const;
      const now = new Date(o.started);
      const hour = now.getUTCHours();
      const greeting = hour < 12 ? "Good morning" : hour < 18 ? "Good afternoon" : "Good evening";
      const weekday = now.toLocaleDateString("en-US", { ...utc, weekday: "long" });
      const review = new Date(o.started);
      review.setUTCDate(review.getUTCDate() + 7);
      review.setUTCHours(9, 0, 0, 0);
      const total = ordersOf("late").reduce((sum, order) => sum + order.total, 0);
      const days = [
        now.toLocaleDateString("en-US", { ...utc, dateStyle: "full" }),
        `${now.toUTCString().slice(0, 3)} ${now.toUTCString().slice(8, 11)} ${now.toUTCString().slice(5, 7)} ${now.getUTCFullYear()}`,
      ];
      const shown = shownAt(o);
      expect(shown.subject).toBe(
        `${greeting}: ${ordersOf("late").length} late orders this ${weekday}`,
      );
      expect(shown.reviewAt).toBe(review.getTime());
      // without Intl (QuickJS), the total prints as toString does and the day as toDateString
      const body = (day: string, sum: string) =>
        `Report generated ${now.toLocaleString("en-US", utc)} (hour ${hour}, offset 0) for ${day}. Late: ${sum}. Next review ${review.toLocaleDateString("en-US", utc)} at ${review.toLocaleTimeString("en-US", utc)} (${review.toUTCString().slice(0, 3)} ${review.toUTCString().slice(8, 11)} ${review.toUTCString().slice(5, 7)} ${review.getUTCFullYear()} 09:00:00 GMT+0000 (Coordinated Universal Time)).`;
      expect([
        body(days[0] as string, total.toLocaleString("en-US")),
        body(days[1] as string, String(total)),
      ]).toContain(shown.body);
      expect(o.result).toMatchObject({ reviewAt: iso(review.getTime()) });
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
];
