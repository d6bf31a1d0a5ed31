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
