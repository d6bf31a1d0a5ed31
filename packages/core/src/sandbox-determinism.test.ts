import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { determinismPrelude } from "./sandbox-determinism.ts";
import { SANDBOX_SEED_HOOK } from "./sandbox-protocol.ts";

/** Runs the prelude for a run in a fresh realm, then `probe`, and returns what `probe` evaluates to. */
function observe(seed: string, time: number, probe: string, extra: object = {}): unknown {
  const context = { crypto: globalThis.crypto, performance: { now: () => 12.5 }, ...extra };
  return runInNewContext(`${determinismPrelude({ seed, time })}\n${probe}`, context);
}

const PROBE = `JSON.stringify({
  now: Date.now(),
  made: new Date().getTime(),
  called: Date(),
  given: new Date(86400000).toISOString(),
  parsed: Date.parse("2026-01-02T00:00:00Z"),
  utc: Date.UTC(2026, 0, 2),
  instance: new Date() instanceof Date && Object.prototype.toString.call(new Date()) === "[object Date]",
  constructor: new Date().constructor === Date,
  performance: performance.now(),
  random: [Math.random(), Math.random(), Math.random()],
  bytes: Array.from(crypto.getRandomValues(new Uint8Array(8))),
  uuid: crypto.randomUUID(),
})`;

describe("the run's clock and chance in the sandbox", () => {
  const time = Date.UTC(2026, 11, 6, 3, 44, 0);

  it("reads the run's start on every clock, and builds ordinary dates from arguments", () => {
    const seen = JSON.parse(observe("exec_a", time, PROBE) as string);
    expect(seen).toMatchObject({
      now: time,
      made: time,
      called: "Sun Dec 06 2026 03:44:00 GMT+0000 (Coordinated Universal Time)",
      given: "1970-01-02T00:00:00.000Z",
      parsed: Date.UTC(2026, 0, 2),
      utc: Date.UTC(2026, 0, 2),
      instance: true,
      constructor: true,
      performance: 0,
    });
    expect(observe("exec_a", time, "class Stamp extends Date {}; new Stamp().getTime()")).toBe(
      time,
    );
  });

  it("reads the run's start through Intl date formats without a date, performance.timeOrigin and Temporal.Now", () => {
    const probe = `JSON.stringify({
      formatted: new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "full", timeStyle: "long" }).format(),
      parts: new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric" }).formatToParts().map((part) => part.value).join(""),
      given: new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric" }).format(new Date(0)),
      origin: performance.timeOrigin,
    })`;
    const expected = new Intl.DateTimeFormat("en-US", {
      timeZone: "UTC",
      dateStyle: "full",
      timeStyle: "long",
    }).format(time);
    expect(JSON.parse(observe("exec_a", time, probe) as string)).toMatchObject({
      formatted: expected,
      parts: "2026",
      given: "1970",
      origin: time,
    });
    // Temporal, where a sandbox has it (a stand-in of its shape here: Node has none yet)
    const Temporal = {
      Now: { timeZoneId: () => "UTC", instant: () => ({ epochMilliseconds: -1 }) },
      Instant: {
        fromEpochMilliseconds: (ms: number) => ({
          epochMilliseconds: ms,
          toZonedDateTimeISO: (zone: string) => ({ toPlainDate: () => `${zone} ${ms}` }),
        }),
      },
    };
    expect(
      observe(
        "exec_a",
        time,
        "[Temporal.Now.instant().epochMilliseconds, Temporal.Now.plainDateISO(), Temporal.Now.plainDateISO('Europe/Paris')]",
        { Temporal },
      ),
    ).toEqual([time, `UTC ${time}`, `Europe/Paris ${time}`]);
  });

  it("draws the same numbers for the same run on every pass, and others for another run", () => {
    const first = JSON.parse(observe("exec_a", time, PROBE) as string);
    const again = JSON.parse(observe("exec_a", time, PROBE) as string);
    const other = JSON.parse(observe("exec_b", time, PROBE) as string);
    expect(again).toEqual(first);
    expect(other.random).not.toEqual(first.random);
    expect(other.uuid).not.toBe(first.uuid);
    for (const value of first.random) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
    expect(first.uuid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("draws from a second seed where a sandbox of a saved program has one, and removes it", () => {
    const random = "JSON.stringify([Math.random(), crypto.randomUUID(), typeof __codemodeSeed])";
    const run = JSON.parse(observe("exec_a", time, random) as string);
    const nested = (seed: string) =>
      JSON.parse(observe("exec_a", time, random, { [SANDBOX_SEED_HOOK]: seed }) as string);
    expect(run[2]).toBe("undefined");
    expect(nested("k1")).toEqual(nested("k1"));
    expect(nested("k1")[2]).toBe("undefined");
    const draws = [run, nested("k1"), nested("k2")].flatMap((seen) => seen.slice(0, 2));
    expect(new Set(draws).size).toBe(6);
    // the run's seed is in it too: the same second seed under another run draws other numbers
    const other = JSON.parse(
      observe("exec_b", time, random, { [SANDBOX_SEED_HOOK]: "k1" }) as string,
    );
    expect(other.slice(0, 2)).not.toEqual(nested("k1").slice(0, 2));
  });

  it("draws SHA-256 of the seed and a block counter, so its numbers tell nothing without the seed", () => {
    const seed = "3f9a0c7e5b1d2468ace0f1e2d3c4b5a6";
    const drawn = observe(
      seed,
      time,
      "Array.from(crypto.getRandomValues(new Uint8Array(80)))",
    ) as number[];
    const seedBytes = [...seed].flatMap((char) => [
      char.charCodeAt(0) >>> 8,
      char.charCodeAt(0) & 0xff,
    ]);
    const block = (n: number) =>
      createHash("sha256")
        .update(
          Uint8Array.from([
            ...seedBytes,
            0,
            n >>> 24,
            (n >>> 16) & 0xff,
            (n >>> 8) & 0xff,
            n & 0xff,
          ]),
        )
        .digest();
    expect(drawn).toEqual([...block(0), ...block(1), ...block(2)].slice(0, 80));
  });

  it("hands the program nothing of the seed, whatever built-ins it replaced (found by a red-team pass)", () => {
    const seed = "SECRETSEED0123456789abcdef";
    const probe = `(() => {
      let log = "";
      let busy = false;
      const note = (value) => {
        if (busy) return;
        busy = true;
        try {
          const n = Math.min(200, value.length >>> 0);
          for (let i = 0; i < n; i++) log += String.fromCharCode(value[i] & 0xff);
          log += "|";
        } catch {} finally { busy = false; }
      };
      const push = Array.prototype.push;
      const shift = Array.prototype.shift;
      const iterate = Array.prototype[Symbol.iterator];
      const typed = Object.getPrototypeOf(Uint8Array.prototype);
      const length = Object.getOwnPropertyDescriptor(typed, "length");
      Array.prototype.push = function (...items) { note(this); return push.apply(this, items); };
      Array.prototype.shift = function () { note(this); return 7; };
      Array.prototype[Symbol.iterator] = function () { note(this); return iterate.call(this); };
      for (let i = 0; i < 100; i++) {
        Object.defineProperty(Array.prototype, i, {
          configurable: true, get() { note(this); }, set(v) { note(this); },
        });
      }
      Object.defineProperty(typed, "length", {
        configurable: true, get() { note(this); return length.get.call(this); },
      });
      const bytes = crypto.getRandomValues(new Uint8Array(80));
      const random = Math.random();
      for (let i = 0; i < 100; i++) delete Array.prototype[i];
      Object.defineProperty(typed, "length", length);
      Array.prototype.push = push;
      Array.prototype.shift = shift;
      Array.prototype[Symbol.iterator] = iterate;
      return JSON.stringify({ log, drawn: Array.from(bytes), random });
    })()`;
    const { log, drawn } = JSON.parse(observe(seed, time, probe) as string) as {
      log: string;
      drawn: number[];
    };
    // the seed's UTF-16 code units as bytes, its high bytes left out
    const spelled = log.replaceAll("\u0000", "");
    expect(spelled).not.toContain("SECRET");
    expect(spelled).not.toContain("0123456789");
    const clean = observe(seed, time, "Array.from(crypto.getRandomValues(new Uint8Array(80)))");
    expect(drawn).toEqual(clean);
  });

  it("refuses what the platform refuses: a DataView, more than 65,536 bytes at once", () => {
    expect(() =>
      observe("x", time, "crypto.getRandomValues(new DataView(new ArrayBuffer(4)))"),
    ).toThrow(/integer typed array/);
    expect(() => observe("x", time, "crypto.getRandomValues(new Uint8Array(65537))")).toThrow(
      /at most 65536 bytes/,
    );
    expect(observe("x", time, "crypto.getRandomValues(new Uint8Array(65536)).length")).toBe(65_536);
  });

  it("spreads its numbers evenly", () => {
    const draws = observe(
      "exec_spread",
      time,
      "Array.from({ length: 20000 }, () => Math.floor(Math.random() * 10))",
    ) as number[];
    const counts = Array.from(
      { length: 10 },
      (_, digit) => draws.filter((d) => d === digit).length,
    );
    for (const count of counts) expect(Math.abs(count - 2000)).toBeLessThan(250);
  });

  it("refuses a float array as the platform does, and leaves a sandbox without crypto or performance alone", () => {
    expect(() => observe("exec_a", time, "crypto.getRandomValues(new Float64Array(2))")).toThrow(
      /integer typed array/,
    );
    const bare = runInNewContext(
      `${determinismPrelude({ seed: "x", time })}\n[typeof crypto, typeof performance, Date.now()]`,
      {},
    );
    expect(bare).toEqual(["undefined", "undefined", time]);
  });
});

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
