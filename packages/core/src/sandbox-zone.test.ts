import { spawnSync } from "node:child_process";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { determinismPrelude } from "./sandbox-determinism.ts";
import { sandboxSource } from "./sandbox-source.ts";
import { installZone } from "./sandbox-zone.ts";

/** Runs the whole prelude of a run (the zone, then the clock) in a fresh realm, then `probe`. */
function observe(seed: string, time: number, probe: string): unknown {
  return runInNewContext(`${determinismPrelude({ seed, time })}\n${probe}`, {});
}

// The host's zone and language as the machines that run one run's passes have them: the process's
// TZ (QuickJS on Node), a browser's device, workerd's UTC.
const HOSTS = [
  { TZ: "America/Los_Angeles", LC_ALL: "de_DE.UTF-8" },
  { TZ: "Asia/Tokyo", LC_ALL: "ja_JP.UTF-8" },
  { TZ: "Asia/Kolkata", LC_ALL: "fr_FR.UTF-8" },
];
/** an engine in UTC that formats for "en-US": what every pass reads */
const REFERENCE = { TZ: "UTC", LC_ALL: "en_US.UTF-8" };

/**
 * What `source` evaluates to in a new Node process with the zone and language of `host`: natively
 * (the reference), or in a fresh realm after the prelude of a run.
 */
function inHost(host: Record<string, string>, source: string, prelude?: string): string {
  const runner =
    prelude === undefined
      ? "process.stdout.write(String((0, eval)(process.argv[1])))"
      : "process.stdout.write(String(require('node:vm').runInNewContext(process.argv[1], {})))";
  const child = spawnSync(
    process.execPath,
    ["-e", runner, prelude === undefined ? source : `${prelude}\n${source}`],
    { env: { PATH: process.env.PATH ?? "", ...host }, encoding: "utf8" },
  );
  if (child.status !== 0) throw new Error(child.stderr);
  return child.stdout;
}

/** Runs `body` with the process's zone set to `zone` (V8 reads a new TZ at once). */
function inZone<T>(zone: string, body: () => T): T {
  const original = process.env.TZ;
  process.env.TZ = zone;
  try {
    return body();
  } finally {
    if (original === undefined) delete process.env.TZ;
    else process.env.TZ = original;
  }
}

/** What programs do with dates, numbers and strings for a locale, none naming a zone unless said. */
const DATES = (at: number) => `(() => {
  const now = new Date(${at});
  const week = new Date(now);
  week.setDate(week.getDate() + 7);
  week.setHours(9, 0, 0, 0);
  const year = new Date(now);
  year.setYear(99);
  const parsed = [
    "2026-07-01T09:00:00", "2026-07-01T09:00", "2026-07-01T09:00:00.123", "2026-07-01 09:00",
    "2026-03-08 02:30", "2026-07-01", "2026-07", "Jul 1, 2026", "July 1, 2026 9:00 PM", "07/01/2026",
    "07/01/2026 09:00", "2026/07/01 09:00", "Wed Jul 01 2026 09:00:00", "Wed Jul 01 2026",
    "Wed Jul 01 2026 09:00:00 GMT+0900 (Japan Standard Time)", "Wed, 01 Jul 2026 09:00:00 -0700",
    "2026-07-01T09:00:00Z", "2026-07-01T09:00:00+09:00", "2026-07-01 09:00 +0900",
    "Jul 1, 2026 09:00 PDT", "Jul 1, 2026 09:00 UTC", now.toString(), now.toLocaleString(), "soon",
  ].map((text) => [Date.parse(text), new Date(text).getTime()]);
  return JSON.stringify({
    string: [now.toString(), now.toDateString(), now.toTimeString(), String(now), \`\${now}\`],
    locale: [
      now.toLocaleString(), now.toLocaleDateString(), now.toLocaleTimeString(),
      now.toLocaleDateString("en-US", { weekday: "long", year: "numeric", month: "long", day: "numeric" }),
      now.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }),
      now.toLocaleString("de-DE"), now.toLocaleString(undefined, { timeZoneName: "short" }),
      now.toLocaleString("en-US", { timeZone: "America/New_York" }),
      now.toLocaleDateString("ja-JP", { timeZone: "Asia/Tokyo", dateStyle: "full" }),
    ],
    fields: [
      now.getFullYear(), now.getMonth(), now.getDate(), now.getDay(), now.getHours(), now.getMinutes(),
      now.getSeconds(), now.getMilliseconds(), now.getTimezoneOffset(), now.getYear(),
    ],
    made: [
      week.toISOString(), new Date(now.getFullYear(), now.getMonth(), 1).toISOString(),
      new Date(2026, 2, 8, 2, 30).getTime(), new Date(2026, 6, 1).getTime(), new Date(99, 0).getTime(),
      year.toISOString(),
    ],
    parsed,
    intl: [
      new Intl.DateTimeFormat().format(now),
      new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "long" }).format(now),
      Intl.DateTimeFormat(undefined, { hour: "numeric" }).formatToParts(now).map((part) => part.value).join(""),
      new Intl.DateTimeFormat().resolvedOptions().timeZone,
      new Intl.DateTimeFormat().resolvedOptions().locale,
      new Intl.DateTimeFormat("en-GB", { timeZone: "Asia/Tokyo", timeStyle: "short" }).format(now),
    ],
    numbers: [
      (1234567.891).toLocaleString(), (1234.5).toLocaleString("de-DE"), 12345678901234567890n.toLocaleString(),
      new Intl.NumberFormat(undefined, { style: "currency", currency: "EUR" }).format(1234.5),
      new Intl.NumberFormat().resolvedOptions().locale, [1234.5, now].toLocaleString(),
    ],
    strings: [
      ["b", "a", "ä", "Z", "z"].sort((a, b) => a.localeCompare(b)), new Intl.Collator().compare("a", "B"),
      "i".toLocaleUpperCase(), new Intl.PluralRules().select(1), new Intl.RelativeTimeFormat().format(-1, "day"),
      new Intl.ListFormat().format(["a", "b", "c"]), new Intl.DisplayNames(undefined, { type: "region" }).of("DE"),
    ],
    invalid: [new Date(NaN).toString(), new Date(NaN).toLocaleString(), new Date(NaN).getTimezoneOffset(), new Date(NaN).getHours()],
    far: [new Date(Date.UTC(-1, 0, 1)).toString(), new Date(Date.UTC(12345, 0, 1)).toDateString()],
  });
})()`;

describe("the run's zone (UTC) and locale (en-US) in the sandbox, whatever the host's", () => {
  // a day apart in Los Angeles and in Tokyo; and a summer day, when Los Angeles keeps daylight time
  const times = [Date.UTC(2026, 11, 7, 2, 37, 8, 5), Date.UTC(2026, 6, 1, 23, 59, 59, 999)];

  it("formats, reads, makes and parses dates, numbers and strings as an engine in UTC for en-US does, on hosts in other zones and languages", () => {
    for (const time of times) {
      const prelude = determinismPrelude({ seed: "exec_a", time });
      const expected = inHost(REFERENCE, DATES(time));
      // the reference is what it says: in UTC, for en-US
      expect(JSON.parse(expected).intl.slice(3, 5)).toEqual(["UTC", "en-US"]);
      for (const host of HOSTS) {
        // natively, the host's zone and language show
        expect(inHost(host, DATES(time))).not.toEqual(expected);
        expect(inHost(host, DATES(time), prelude), `${host.TZ}, ${host.LC_ALL}`).toEqual(expected);
      }
    }
  });

  it("reads a note stamped with toLocaleString() and getHours() the same in every zone of the process (found by a red-team pass)", () => {
    const time = times[0] as number;
    const note = `"Report generated " + new Date().toLocaleString() + " (hour " + new Date().getHours() + ") " + Date()`;
    const seen = ["America/Los_Angeles", "Asia/Tokyo", "UTC"].map((zone) =>
      inZone(zone, () => observe("exec_a", time, note)),
    );
    expect(seen).toEqual([
      "Report generated 12/7/2026, 2:37:08 AM (hour 2) Mon Dec 07 2026 02:37:08 GMT+0000 (Coordinated Universal Time)",
      seen[0],
      seen[0],
    ]);
    // without the prelude, the process's zone shows
    const native = (zone: string) =>
      inZone(zone, () => runInNewContext(`new Date(${time}).getHours()`, {}));
    expect([native("America/Los_Angeles"), native("Asia/Tokyo")]).toEqual([18, 11]);
  });

  it("honours a zone and a locale the program names, and reads its options once", () => {
    const time = times[0] as number;
    const probe = `(() => {
      let reads = 0;
      const options = { get timeZone() { reads++; return undefined; }, hour: "numeric" };
      const stamped = new Date().toLocaleString("en-US", options);
      return JSON.stringify([
        stamped, reads,
        new Date().toLocaleString("en-US", { timeZone: "Asia/Tokyo" }),
        new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", timeStyle: "short" }).resolvedOptions().timeZone,
        new Intl.DateTimeFormat("fr-FR").resolvedOptions().locale,
        Intl.DateTimeFormat.supportedLocalesOf(["fr-FR"]),
        new Intl.DateTimeFormat() instanceof Intl.DateTimeFormat,
        Intl.DateTimeFormat.prototype.constructor === Intl.DateTimeFormat,
        new (class Stamp extends Intl.NumberFormat {})().format(1e6),
      ]);
    })()`;
    expect(
      JSON.parse(inZone("Asia/Tokyo", () => observe("exec_a", time, probe)) as string),
    ).toEqual([
      "2 AM",
      1,
      "12/7/2026, 11:37:08 AM",
      "Europe/Paris",
      "fr-FR",
      ["fr-FR"],
      true,
      true,
      "1,000,000",
    ]);
  });

  it("keeps reading UTC after the program replaces the built-ins it reads with", () => {
    const time = times[0] as number;
    const probe = `(() => {
      RegExp.prototype.exec = () => null;
      RegExp.prototype.test = () => true;
      Function.prototype.call = Function.prototype.apply = () => "replaced";
      Reflect.apply = () => "replaced";
      Date.prototype.getUTCHours = () => -1;
      Date.prototype.getTime = () => -1;
      Array.prototype.map = () => [];
      String.prototype.replace = () => "";
      Object.create = () => ({});
      return JSON.stringify([
        new Date().toString(), new Date().getHours(), new Date().toLocaleString(),
        Date.parse("2026-07-01 09:00"), new Date("2026-07-01T09:00").valueOf(),
        new Date().toLocaleString("en-US", { hour: "numeric" }), (1234.5).toLocaleString(),
      ]);
    })()`;
    expect(
      JSON.parse(inZone("Asia/Tokyo", () => observe("exec_a", time, probe)) as string),
    ).toEqual([
      "Mon Dec 07 2026 02:37:08 GMT+0000 (Coordinated Universal Time)",
      2,
      "12/7/2026, 2:37:08 AM",
      Date.UTC(2026, 6, 1, 9),
      Date.UTC(2026, 6, 1, 9),
      "2 AM",
      "1,234.5",
    ]);
  });

  it("formats in UTC as en-US prints it where the sandbox has no Intl", () => {
    const time = times[0] as number;
    const probe =
      "[new Date().toLocaleString(), new Date().toLocaleDateString('de-DE'), new Date(Date.UTC(2026, 0, 1, 12)).toLocaleTimeString(), new Date(NaN).toLocaleString(), typeof Intl]";
    const without = (zone: string) =>
      inZone(zone, () =>
        runInNewContext(
          `delete globalThis.Intl;\n${determinismPrelude({ seed: "x", time })}\n${probe}`,
          {},
        ),
      );
    expect(without("Asia/Tokyo")).toEqual([
      "12/7/2026, 2:37:08 AM",
      "12/7/2026",
      "12:00:00 PM",
      "Invalid Date",
      "undefined",
    ]);
    expect(without("America/Los_Angeles")).toEqual(without("Asia/Tokyo"));
  });
});

/**
 * Date strings as models write them, and strings that are not dates: ISO with and without a zone or
 * fractions, ISO's date-only forms (UTC in the spec) and slashed ones (local in V8), RFC 2822 with
 * GMT, an offset or a US zone, the US forms, the engine's own toString, comments in parentheses
 * (nested, left open), zone words before the first number (ignored by the engine), offsets after
 * the year, dates at the ends of the range, garbage.
 */
const FORMS = [
  "2026-12-07T10:00:00Z",
  "2026-12-07T10:00:00",
  "2026-12-07T10:00",
  "2026-12-07T10:00:00.123",
  "2026-12-07T10:00:00.123456",
  "2026-12-07T10:00:00.000+05:30",
  "2026-12-07T10:00:00-07:00",
  "2026-12-07T10:00:00+0530",
  "2026-12-07T10:00:00.000z",
  "2026-12-07 10:00",
  "2026-12-07 10:00:00.5",
  "2026-12-07 10:00 +0900",
  "2026-12-07 10:00 -7",
  "2026-12-07",
  "2026-12",
  "2026",
  "+002026-12-07T10:00:00",
  "2026/12/07",
  "2026/12/07 10:00",
  "Mon, 07 Dec 2026 10:00:00 GMT",
  "Mon, 07 Dec 2026 10:00:00 -0700",
  "Mon, 07 Dec 2026 10:00:00 +0530",
  "Mon, 07 Dec 2026 10:00:00 EST",
  "Mon, 07 Dec 2026 10:00:00 PDT",
  "Mon, 07 Dec 2026 10:00:00 UT",
  "Mon, 07 Dec 2026 10:00:00 Z",
  "Mon, 07 Dec 2026 10:00:00 CET",
  "Mon, 07 Dec 2026 10:00:00 UTC+2",
  "Mon, 07 Dec 2026 10:00:00",
  "Mon, 07 Dec 2026",
  "December 7, 2026 10:00 AM",
  "December 7, 2026 10:00 PM",
  "December 7, 2026, 10:00:00 AM",
  "December 7, 2026 10:00 AM -0500",
  "December 7, 2026 10:00 a.m.",
  "12/07/2026 10:00",
  "12/07/2026",
  "12/7/2026, 10:00:00 AM",
  "12-07-2026",
  "Dec 7 2026",
  "Dec 7, 2026",
  "7 Dec 2026",
  "7 December 2026 10:00",
  "Dec 7 2026 10:00 GMT+0530",
  "Mon Dec 07 2026 10:00:00 GMT-0800 (Pacific Standard Time)",
  "Mon Dec 07 2026 10:00:00 (GMT+0900)",
  "Mon Dec 07 2026 10:00:00 (Pacific Standard Time)",
  "Mon Dec 07 2026 10:00:00 ((nested) GMT)",
  "Mon Dec 07 2026 10:00:00 (unclosed GMT",
  "Mon Dec 07 2026 10:00:00) GMT",
  "Dec 7 2026 (note) 10:00",
  "Mon Dec 07 10:00:00 2026",
  "Mon Dec 07 10:00:00 2026 -0700",
  "Mon Dec 07 10:00:00 -0700 2026",
  "Dec 7 2026 10:00 +09:00",
  "Dec 7 2026 10:00:00.123 -0700",
  "Dec 7 2026 10:00 AM+0100",
  "Dec 7 2026 10:00 am GMT",
  "Dec 7 2026 10 AM",
  "Dec 7 2026 10:00z",
  "Dec 7 2026 10:00 Zulu",
  "Dec 7 2026 10:00 EST5EDT",
  "Dec 7 2026 10:00 UTC",
  "Dec 7 2026 10:00 utc",
  "Tuesday, December 7, 2026",
  "Z Dec 7 2026 10:00",
  "GMT Dec 7 2026 10:00",
  "est Dec 7 2026",
  "Dec 7 2026 T10:00",
  "2026-12-07T10:00:00 GMT",
  "2026-12-07 +0900",
  "Dec 7 2026 +0900",
  "Dec 7 2026 -0700 10:00",
  "1 Jan 1970 00:00:00",
  "Jan 1 0099 10:00",
  "Jan 1 99",
  "275760-09-13T00:00:00",
  "275760-09-12T20:00:00",
  "-271821-04-20T00:00:00",
  "-271821-04-20",
  "Sat, 13 Sep 275760 00:00:00",
  "2026-03-08 02:30",
  "2026-11-01 01:30",
  "soon",
  "",
  "   ",
  "12",
  "0",
  "10:00",
  "Dec",
  "2026-13-45",
  "Mon Dec 07 2026 10:00:00 GMT+0000 (Coordinated Universal Time)",
  "2026-12-07T10:00:00.000Z (ignored)",
  "Dec 7 2026 10:00 (a) + 0900",
  "Dec 7 2026 10:00 -(x)0700",
  "2026-12-07T",
  "Dec 7 2026 10:00 -",
  "Dec 7 2026 10:00 ESTé",
  "Dec 7 2026 10:00 éEST",
  "10:00 2026-12-07",
  "10:00 Dec 7 2026",
  "2026-12-07 10:00 GMT",
  "Dec 7 2026 10:00 (x",
  "Dec 7 2026 10:00 ((x) y",
  "Dec 7 2026 GMT",
  "Dec 7 2026 Z",
  "Dec 7 2026 GM(x)T 10:00",
  "Dec 7 2026 10:0(x)0",
  "2026-12-07T10:00:00.000+05:30 GMT",
  "Dec 7 2026 10:00:00 PM -0800",
  "Dec 7 2026 10:00 PST8",
  "meeting Dec 7 2026 10:00",
  "Dec 7 2026 10:00 meeting",
  "Dec 7 2026, 10:00 Pacific",
  "12/07/2026 10:00 UTC",
  "12/07/2026 10:00:00 +01:00",
  "2026-12-07T10:00:00+01:00[Europe/Paris]",
  "Mon, 07 Dec 2026 10:00:00 +0000 (UTC)",
  "10:00 2026-12-07 -0700",
  "10:00:00.123-0700",
  "Dec 7 2026 10:00:00.5 -0100",
  "10:00 12-07-2026",
  "2026-12-07 10:00-07",
  "Dec 7, 2026 10:00 AM-05",
  "10:00, 7-Dec-2026",
  "7-Dec-2026 10:00",
  "07-Dec-2026 10:00:00 -0800",
];

describe("a date string read in UTC where it names no zone, and as it is where it does", () => {
  const probe = `JSON.stringify(${JSON.stringify(FORMS)}.map((text) => [Date.parse(text), new Date(text).getTime()]))`;
  const prelude = determinismPrelude({ seed: "exec_a", time: Date.UTC(2026, 11, 7, 2, 37, 8) });

  it("reads every form as an engine in UTC does, on hosts in other zones", () => {
    const expected = JSON.parse(inHost(REFERENCE, probe)) as unknown[];
    for (const TZ of ["America/Los_Angeles", "Asia/Kolkata"]) {
      // natively, the host's zone shows in many of them
      expect(inHost({ TZ }, probe)).not.toEqual(JSON.stringify(expected));
      const seen = JSON.parse(inHost({ TZ }, probe, prelude)) as unknown[];
      const differing = FORMS.filter(
        (_, index) => JSON.stringify(seen[index]) !== JSON.stringify(expected[index]),
      );
      expect(differing, TZ).toEqual([]);
    }
  });

  it("reads a string of 100,000 characters in one pass: work linear in its length", () => {
    // strings that would cost a scan with backtracking (or a re-read per character) quadratic
    // work: 10^10 steps at this length, far past the test's timeout
    const long = `((n) => [
      "1:" + "0".repeat(n), "Dec 7 2026 10:00" + " ".repeat(n) + "x", ":00.".repeat(n / 4),
      "(".repeat(n), "Dec 7 2026 10:00 " + "(".repeat(n), "Dec 7 2026 10:00 " + "(x)".repeat(n / 3),
      "1 " + "z".repeat(n), "a".repeat(n) + " Dec 7 2026 10:00", "1:00 " + "- ".repeat(n / 2),
      "2026-12-07T10:00:00." + "0".repeat(n), "Dec 7 2026 10:00:00" + " ".repeat(n) + "GMT",
      "1:00" + " \\t".repeat(n / 2) + "am" + " ".repeat(n),
    ])(100000)`;
    const probeLong = `JSON.stringify(${long}.map((text) => [text.length, Date.parse(text), new Date(text).getTime()]))`;
    const expected = inHost(REFERENCE, probeLong);
    expect(JSON.parse(expected)[4]).toEqual([
      100017,
      Date.UTC(2026, 11, 7, 10),
      Date.UTC(2026, 11, 7, 10),
    ]);
    expect(inHost({ TZ: "America/Los_Angeles" }, probeLong, prelude)).toEqual(expected);
  });
});

describe("the zone on its own, and with the clock", () => {
  it("is self-contained: installed alone, it reads components and strings in UTC and leaves the clock running", () => {
    const seen = inZone("Asia/Tokyo", () =>
      runInNewContext(
        `${sandboxSource(installZone)}(globalThis);
        JSON.stringify([new Date(2026, 0, 1).getTime(), Date.parse("2026-07-01 09:00"), new Date("2026-07-01 09:00").getHours(),
          Math.abs(Date.now() - new Date().getTime()) < 60000, Date().endsWith("(Coordinated Universal Time)"),
          new Date(0).toString(), Date.name, Date.length, new Date() instanceof Date, new Date().constructor === Date])`,
        {},
      ),
    );
    expect(JSON.parse(seen as string)).toEqual([
      Date.UTC(2026, 0, 1),
      Date.UTC(2026, 6, 1, 9),
      9,
      true,
      true,
      "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)",
      "Date",
      7,
      true,
      true,
    ]);
  });

  it("goes before the clock, which takes its Date, Date() and Temporal.Now's zone", () => {
    const time = Date.UTC(2026, 11, 7, 2, 37, 8);
    // Temporal, where a sandbox has it (a stand-in of its shape, in the host's zone: Node has none)
    const Temporal = {
      Now: { timeZoneId: () => "Asia/Tokyo" },
      Instant: {
        fromEpochMilliseconds: (ms: number) => ({
          toZonedDateTimeISO: (zone: string) => ({ toPlainDate: () => `${zone} ${ms}` }),
        }),
      },
    };
    const seen = inZone("Asia/Tokyo", () =>
      runInNewContext(
        `${determinismPrelude({ seed: "exec_a", time })}
        JSON.stringify([Date(), new Date().getHours(), new Date(2026, 0, 1).getTime(), Date.now(),
          Temporal.Now.timeZoneId(), Temporal.Now.plainDateISO(), Temporal.Now.plainDateISO("Europe/Paris")])`,
        { Temporal },
      ),
    );
    expect(JSON.parse(seen as string)).toEqual([
      "Mon Dec 07 2026 02:37:08 GMT+0000 (Coordinated Universal Time)",
      2,
      Date.UTC(2026, 0, 1),
      time,
      "UTC",
      `UTC ${time}`,
      `Europe/Paris ${time}`,
    ]);
  });
});
