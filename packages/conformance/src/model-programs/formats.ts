// Model programs that format numbers and dates (Intl, toFixed, toLocaleString).
import { expect } from "vitest";
import { iso, shownAt } from "./check-helpers.ts";
import type { ModelProgram } from "./model-program.ts";
import { customerOf, DAY, invoicesOf, ordersOf, type Rec } from "./world.ts";

export const FORMAT_PROGRAMS: readonly ModelProgram[] = [
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
];
