// What a program can observe of the clock and of chance, made a function of its run: every pass of a
// run (the live one, and each replay after an approval) reads the same time, in the same zone and
// locale (UTC, "en-US"), and draws the same numbers, so the calls it builds from them are the calls
// the person approved. Executor-agnostic: it is source the prelude runs in the sandbox before the
// model's code.
import { SANDBOX_SEED_HOOK } from "./sandbox-protocol.ts";
import { sandboxSource } from "./sandbox-source.ts";

/** What the determinism of one run is made from: both are in the journal from the run's start. */
export interface RunDeterminism {
  /** the run's secret seed (`ExecutionRecord.seed`; its id for runs of older versions): seeds the generator behind `Math.random()` and `crypto` */
  seed: string;
  /** the run's start (epoch milliseconds, as journaled): the time its code reads */
  time: number;
}

type Scope = Record<string, unknown> & {
  Date: DateConstructor;
  Math: Math;
};

/**
 * Runs INSIDE the sandbox (self-contained: no imports, nothing from outside its body). Replaces:
 * - `Date.now()`, `new Date()` and `Date()` with the run's start (`time`); a `Date` built from
 *   arguments is an ordinary one; `performance.now()`, where the sandbox has it, reads 0 and
 *   `performance.timeOrigin` the start; `Intl.DateTimeFormat`'s `format()` and `formatToParts()`
 *   without a date, and `Temporal.Now` where the sandbox has it, read the start too;
 * - `Math.random()`, `crypto.getRandomValues()` and `crypto.randomUUID()`, where the sandbox has
 *   them, with one generator: SHA-256 of the secret `seed` and a block counter.
 * - the local time zone with UTC and the default locale with "en-US": the local-time `Date` methods
 *   read and set the UTC fields, `getTimezoneOffset()` is 0, `toString()` and its parts print as an
 *   engine in UTC does, `new Date(y, m, ...)` and a date-time string without an offset read in UTC,
 *   and `toLocale*String`, Intl's formats, `localeCompare` and the other formats for a locale take
 *   the zone "UTC" and the locale "en-US" where the program names none; without Intl,
 *   `toLocale*String` print as "en-US" does.
 * What the scope does not have or cannot change (a read-only `crypto`) is left as it is.
 * A sandbox that runs a saved program for `codemode.run` on its own has a second seed at `seedHook`
 * (`SANDBOX_SEED_HOOK`): it is taken, removed, and drawn from with `seed`.
 */
export function installDeterminism(
  scope: Scope,
  runSeed: string,
  time: number,
  seedHook?: string,
): void {
  const nested = seedHook === undefined ? undefined : scope[seedHook];
  if (seedHook !== undefined) {
    try {
      delete scope[seedHook];
    } catch {}
  }
  const seed = typeof nested === "string" ? `${runSeed}/${nested}` : runSeed;
  const RealDate = scope.Date;
  const construct = Reflect.construct;
  const define = Object.defineProperty;
  const method = (value: unknown) => ({ value, writable: true, configurable: true });

  // ---- the zone and the locale ----
  // The host's time zone and language differ between the machines that run the passes of one run
  // (a process's TZ, a device's zone and language; workerd is in UTC), so the sandbox's are fixed:
  // its local time is UTC, and what formats for a locale formats for "en-US", unless the program
  // names a zone or a locale. Where the sandbox has no Intl (QuickJS), nothing there reads a locale.
  const apply = Reflect.apply;
  const create = Object.create;
  const toObject = Object;
  const toText = String;
  const isArray = Array.isArray;
  const trunc = Math.trunc;
  const nan = Number.isNaN;
  const like = <T extends object>(wrapper: T, original: unknown, name: string): T => {
    define(wrapper, "name", { value: name, configurable: true });
    define(wrapper, "length", {
      value: (original as { length: number }).length,
      configurable: true,
    });
    return wrapper;
  };
  /** the locales a program gave, or "en-US" where it gave none */
  const localesOf = (locales: unknown) =>
    locales === undefined || (isArray(locales) && locales.length === 0) ? "en-US" : locales;
  /** the options a program gave, read as they are, with `timeZone` "UTC" where they name none */
  const zonedOptions = (options: unknown) =>
    options === undefined
      ? { timeZone: "UTC" }
      : options === null
        ? options
        : create(toObject(options), {
            timeZone: {
              get: () => {
                const zone = (options as { timeZone?: unknown }).timeZone;
                return zone === undefined ? "UTC" : zone;
              },
            },
          });
  const intl = scope.Intl as Record<string, unknown> | undefined;
  const hasIntl = typeof intl === "object" && intl !== null;
  // the parse of a date-time string without an offset: the engine reads it in the host's zone
  let parseUTC: ((text: string) => number) | undefined;
  /** `new Date(...args)`'s arguments for the engine's own Date: components and strings read in UTC */
  let dateArgs = (args: unknown[]) => args;
  let dateText: ((this: Date) => string) | undefined;
  if (typeof RealDate === "function") {
    const proto = RealDate.prototype as unknown as Record<string, (...args: never[]) => unknown>;
    const realParse = RealDate.parse;
    const realUTC = RealDate.UTC;
    const getTime = proto.getTime as () => number;
    const setUTCFullYear = proto.setUTCFullYear as (...args: number[]) => number;
    const setUTCHours = proto.setUTCHours as (...args: number[]) => number;
    const utc = (name: string) => proto[`getUTC${name}`] as () => number;
    const [utcYear, utcMonth, utcDate, utcDay, utcHours, utcMinutes, utcSeconds] = [
      utc("FullYear"),
      utc("Month"),
      utc("Date"),
      utc("Day"),
      utc("Hours"),
      utc("Minutes"),
      utc("Seconds"),
    ];
    // the engine's own readers of the host's zone, for a string it read there and nothing else does
    const local = [
      proto.getFullYear,
      proto.getMonth,
      proto.getDate,
      proto.getHours,
      proto.getMinutes,
      proto.getSeconds,
      proto.getMilliseconds,
    ] as Array<() => number>;
    const read = (date: unknown, getter: () => number) => apply(getter, date, []) as number;
    // the fields in the local zone are the UTC ones
    for (const name of [
      "FullYear",
      "Month",
      "Date",
      "Day",
      "Hours",
      "Minutes",
      "Seconds",
      "Milliseconds",
    ]) {
      define(proto, `get${name}`, method(proto[`getUTC${name}`]));
      if (name !== "Day") define(proto, `set${name}`, method(proto[`setUTC${name}`]));
    }
    define(
      proto,
      "getTimezoneOffset",
      method(
        like(
          function (this: unknown) {
            const t = read(this, getTime);
            return nan(t) ? t : 0;
          },
          proto.getTimezoneOffset,
          "getTimezoneOffset",
        ),
      ),
    );
    if (typeof proto.getYear === "function" && typeof proto.setYear === "function") {
      define(
        proto,
        "getYear",
        method(
          like(
            function (this: unknown) {
              return read(this, utcYear) - 1900;
            },
            proto.getYear,
            "getYear",
          ),
        ),
      );
      define(
        proto,
        "setYear",
        method(
          like(
            function (this: unknown, year: unknown) {
              const y = +(year as number);
              const whole = trunc(y);
              return apply(setUTCFullYear, this, [whole >= 0 && whole <= 99 ? 1900 + whole : y]);
            },
            proto.setYear,
            "setYear",
          ),
        ),
      );
    }
    // toString and its parts, as an engine in UTC prints them
    const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS = [
      "Jan",
      "Feb",
      "Mar",
      "Apr",
      "May",
      "Jun",
      "Jul",
      "Aug",
      "Sep",
      "Oct",
      "Nov",
      "Dec",
    ];
    const two = (n: number) => (n < 10 ? "0" : "") + n;
    const four = (n: number) => (n < 10 ? "000" : n < 100 ? "00" : n < 1000 ? "0" : "") + n;
    const dayText = (date: unknown) => {
      const year = read(date, utcYear);
      return `${DAYS[read(date, utcDay)]} ${MONTHS[read(date, utcMonth)]} ${two(read(date, utcDate))} ${year < 0 ? `-${four(-year)}` : four(year)}`;
    };
    const timeText = (date: unknown) =>
      `${two(read(date, utcHours))}:${two(read(date, utcMinutes))}:${two(read(date, utcSeconds))} GMT+0000 (Coordinated Universal Time)`;
    const printer = (name: string, print: (date: unknown) => string) =>
      like(
        function (this: unknown) {
          const t = read(this, getTime);
          return nan(t) ? "Invalid Date" : print(this);
        },
        proto[name],
        name,
      );
    dateText = printer("toString", (date) => `${dayText(date)} ${timeText(date)}`);
    define(proto, "toString", method(dateText));
    define(proto, "toDateString", method(printer("toDateString", dayText)));
    define(proto, "toTimeString", method(printer("toTimeString", timeText)));
    // toLocaleString and its parts: Intl's formats for the locale (default "en-US") in the zone
    // (default UTC); without Intl, as "en-US" prints them
    const DateTimeFormat = hasIntl ? intl.DateTimeFormat : undefined;
    const formatGetter =
      typeof DateTimeFormat === "function"
        ? Object.getOwnPropertyDescriptor(DateTimeFormat.prototype, "format")?.get
        : undefined;
    const formats: Record<string, object> = create(null);
    const NUMERIC = "numeric";
    for (const [name, date, time] of [
      ["toLocaleString", true, true],
      ["toLocaleDateString", true, false],
      ["toLocaleTimeString", false, true],
    ] as const) {
      const original = proto[name] as (...args: unknown[]) => string;
      const print = (value: unknown) => {
        const hours = read(value, utcHours);
        const day = `${read(value, utcMonth) + 1}/${read(value, utcDate)}/${read(value, utcYear)}`;
        const clock = `${hours % 12 || 12}:${two(read(value, utcMinutes))}:${two(read(value, utcSeconds))} ${hours < 12 ? "AM" : "PM"}`;
        return date && time ? `${day}, ${clock}` : date ? day : clock;
      };
      const printed = printer(name, print);
      const formatted = function (this: unknown, locales?: unknown, options?: unknown) {
        if (!formatGetter) return apply(printed, this, []);
        if (options === undefined && (locales === undefined || typeof locales === "string")) {
          // the common call, with a format made once: a format made per call costs ~0.3 ms
          const t = read(this, getTime);
          if (nan(t)) return "Invalid Date";
          const locale = locales === undefined ? "en-US" : locales;
          const key = `${name} ${locale}`;
          let format = formats[key] as object;
          if (format === undefined) {
            // the fields toLocaleString and its parts show when the options name none
            const numeric = date ? { year: NUMERIC, month: NUMERIC, day: NUMERIC } : {};
            const fields = time
              ? { ...numeric, hour: NUMERIC, minute: NUMERIC, second: NUMERIC }
              : numeric;
            format = construct(DateTimeFormat as typeof Intl.DateTimeFormat, [
              locale,
              { ...fields, timeZone: "UTC" },
            ]);
            formats[key] = format;
          }
          return apply(apply(formatGetter, format, []) as (t: number) => string, undefined, [t]);
        }
        return apply(original, this, [localesOf(locales), zonedOptions(options)]);
      };
      define(proto, name, method(like(formatted, original, name)));
    }
    // a date-time string without an offset, and a date made of components, read in UTC
    const ZONE =
      /(?:^|[^a-z])(?:gmt|utc|ut|z|[ecmp][sd]t)(?![a-z])|:\d\d(?:[.,]\d+)?\s*(?:[ap]\.?m\.?\s*)?[+-]\d/i;
    // its own exec: the program's RegExp.prototype.exec is not called
    define(ZONE, "exec", { value: RegExp.prototype.exec });
    const test = RegExp.prototype.test;
    parseUTC = (text: string) => {
      const inHostZone = realParse(text);
      // a zone or an offset in it (parenthesized comments left out): the engine read it as it is
      if (nan(inHostZone)) return inHostZone;
      let bare = "";
      let depth = 0;
      for (let index = 0; index < text.length; index++) {
        const char = text[index];
        if (char === "(") depth++;
        else if (char === ")") depth = depth > 0 ? depth - 1 : 0;
        else if (depth === 0) bare += char;
      }
      if (apply(test, ZONE, [bare])) return inHostZone;
      let inUTC = realParse(`${text} GMT`);
      if (nan(inUTC)) inUTC = realParse(`${text}Z`);
      if (!nan(inUTC)) return inUTC;
      // a form the engine reads with no zone added: the fields it read, in UTC
      const date = new RealDate(inHostZone);
      const at = (index: number) => read(date, local[index] as () => number);
      const inUTCFields = new RealDate(0);
      apply(setUTCFullYear, inUTCFields, [at(0), at(1), at(2)]);
      return apply(setUTCHours, inUTCFields, [at(3), at(4), at(5), at(6)]) as number;
    };
    dateArgs = (args) =>
      args.length === 1 && typeof args[0] === "string"
        ? [(parseUTC as (text: string) => number)(args[0])]
        : args.length > 1
          ? [apply(realUTC, undefined, args)]
          : args;
  }
  // the formats of Intl, and the methods that format or compare for a locale
  if (hasIntl) {
    for (const name of [
      "DateTimeFormat",
      "NumberFormat",
      "Collator",
      "PluralRules",
      "RelativeTimeFormat",
      "ListFormat",
      "DisplayNames",
      "Segmenter",
      "DurationFormat",
    ]) {
      const Real = intl[name] as (new (...args: unknown[]) => object) & Record<string, unknown>;
      if (typeof Real !== "function") continue;
      const zoned = name === "DateTimeFormat";
      const Pinned = like(
        function (this: unknown, locales?: unknown, options?: unknown) {
          const args = [localesOf(locales), zoned ? zonedOptions(options) : options];
          return new.target === undefined
            ? apply(Real as unknown as () => object, this, args)
            : construct(Real, args, new.target);
        },
        Real,
        name,
      );
      try {
        define(Pinned, "prototype", { value: Real.prototype });
        define(Pinned, "supportedLocalesOf", method(Real.supportedLocalesOf));
        define(Real.prototype, "constructor", method(Pinned));
        define(intl, name, method(Pinned));
      } catch {}
    }
    const pin = (target: unknown, name: string, at: 0 | 1) => {
      const original = (target as Record<string, unknown> | undefined)?.[name];
      if (typeof original !== "function") return;
      const pinned = function (this: unknown, a?: unknown, b?: unknown, c?: unknown) {
        return apply(original, this, at === 0 ? [localesOf(a), b, c] : [a, localesOf(b), c]);
      };
      try {
        define(target, name, method(like(pinned, original, name)));
      } catch {}
    };
    pin(String.prototype, "localeCompare", 1);
    pin(String.prototype, "toLocaleUpperCase", 0);
    pin(String.prototype, "toLocaleLowerCase", 0);
    pin(Number.prototype, "toLocaleString", 0);
    if (typeof BigInt === "function") pin(BigInt.prototype, "toLocaleString", 0);
  }

  // ---- the clock ----
  if (typeof RealDate === "function") {
    const FixedDate = function (this: unknown, ...args: unknown[]) {
      if (new.target === undefined) return apply(dateText as () => string, new RealDate(time), []);
      return construct(RealDate, args.length === 0 ? [time] : dateArgs(args), new.target);
    } as unknown as DateConstructor;
    define(FixedDate, "prototype", { value: RealDate.prototype });
    define(
      FixedDate,
      "now",
      method(() => time),
    );
    define(
      FixedDate,
      "parse",
      method(
        like(
          (text: unknown) => (parseUTC as (text: string) => number)(toText(text)),
          RealDate.parse,
          "parse",
        ),
      ),
    );
    define(FixedDate, "UTC", method(RealDate.UTC));
    define(FixedDate, "length", { value: 7 });
    define(FixedDate, "name", { value: "Date" });
    define(RealDate.prototype, "constructor", method(FixedDate));
    define(scope, "Date", method(FixedDate));
    const performance = scope.performance as Record<string, unknown> | undefined;
    if (performance && typeof performance.now === "function") {
      try {
        define(
          performance,
          "now",
          method(() => 0),
        );
        define(performance, "timeOrigin", { value: time, configurable: true });
      } catch {}
    }
    // the other readers of the current time: Intl's date formats without a date, Temporal.Now
    const intl = scope.Intl as { DateTimeFormat?: { prototype: object } } | undefined;
    const formats = intl?.DateTimeFormat?.prototype;
    if (formats) {
      try {
        const format = Object.getOwnPropertyDescriptor(formats, "format")?.get;
        const formatToParts = (formats as { formatToParts?: unknown }).formatToParts;
        if (typeof format === "function") {
          define(formats, "format", {
            configurable: true,
            get(this: unknown) {
              const bound = format.call(this) as (date?: unknown) => string;
              return (date?: unknown) => bound(date === undefined ? time : date);
            },
          });
        }
        if (typeof formatToParts === "function") {
          define(
            formats,
            "formatToParts",
            method(function (this: unknown, date?: unknown) {
              return formatToParts.call(this, date === undefined ? time : date);
            }),
          );
        }
      } catch {}
    }
    const temporal = scope.Temporal as
      | {
          Now?: Record<string, unknown>;
          Instant?: { fromEpochMilliseconds(ms: number): Record<string, unknown> };
        }
      | undefined;
    const now = temporal?.Now;
    const Instant = temporal?.Instant;
    if (now && Instant) {
      try {
        // the sandbox's zone is UTC
        const zone = () => "UTC";
        define(now, "timeZoneId", method(zone));
        const instant = () => Instant.fromEpochMilliseconds(time);
        const zoned = (timeZone?: unknown) =>
          (instant().toZonedDateTimeISO as (zone: unknown) => Record<string, () => unknown>)(
            timeZone === undefined ? zone() : timeZone,
          );
        define(now, "instant", method(instant));
        define(now, "zonedDateTimeISO", method(zoned));
        define(
          now,
          "plainDateTimeISO",
          method((tz?: unknown) => zoned(tz).toPlainDateTime?.()),
        );
        define(
          now,
          "plainDateISO",
          method((tz?: unknown) => zoned(tz).toPlainDate?.()),
        );
        define(
          now,
          "plainTimeISO",
          method((tz?: unknown) => zoned(tz).toPlainTime?.()),
        );
      } catch {}
    }
  }

  // ---- chance ----
  // SHA-256 (FIPS 180-4) of the seed and a block counter: without the seed, nobody can tell the
  // numbers a run draws from those another run drew, so `crypto` stays fit for secrets. The round
  // constants are the fractional parts of the cube and square roots of the first primes. The seed
  // and every value made from it live only in typed arrays made here and in local variables, and
  // what runs while the program runs calls no method and reads no property the program could
  // replace (array methods, iterators, a typed array's `length`), so nothing hands it the seed.
  const Bytes = Uint8Array;
  const Words = Uint32Array;
  const floor = Math.floor;
  const primes: number[] = [];
  for (let candidate = 2; primes.length < 64; candidate++) {
    if (primes.every((prime) => prime * prime > candidate || candidate % prime !== 0)) {
      primes.push(candidate);
    }
  }
  const fraction = (x: number) => ((x - Math.floor(x)) * 4294967296) >>> 0;
  const ROUND = new Words(64);
  for (let i = 0; i < 64; i++) ROUND[i] = fraction(Math.cbrt(primes[i] as number));
  const INITIAL = new Words(8);
  for (let i = 0; i < 8; i++) INITIAL[i] = fraction(Math.sqrt(primes[i] as number));
  const rotate = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  const w = new Words(64);
  const hash = new Words(8);
  /** SHA-256 of the first `length` bytes of `message`, into `out` (32 bytes). */
  const sha256 = (message: Uint8Array, length: number, out: Uint8Array): void => {
    const padded = floor((length + 8) / 64) * 64 + 64;
    const bytes = new Bytes(padded);
    for (let i = 0; i < length; i++) bytes[i] = message[i] as number;
    bytes[length] = 0x80;
    const bits = length * 8;
    for (let i = 0; i < 8; i++) {
      const shift = 56 - i * 8;
      bytes[padded - 8 + i] =
        shift >= 32 ? floor(bits / 2 ** shift) & 0xff : (bits >>> shift) & 0xff;
    }
    for (let i = 0; i < 8; i++) hash[i] = INITIAL[i] as number;
    for (let offset = 0; offset < padded; offset += 64) {
      for (let i = 0; i < 16; i++) {
        const at = offset + i * 4;
        w[i] =
          ((bytes[at] as number) << 24) |
          ((bytes[at + 1] as number) << 16) |
          ((bytes[at + 2] as number) << 8) |
          (bytes[at + 3] as number);
      }
      for (let i = 16; i < 64; i++) {
        const a = w[i - 15] as number;
        const b = w[i - 2] as number;
        const s0 = rotate(a, 7) ^ rotate(a, 18) ^ (a >>> 3);
        const s1 = rotate(b, 17) ^ rotate(b, 19) ^ (b >>> 10);
        w[i] = (w[i - 16] as number) + s0 + (w[i - 7] as number) + s1;
      }
      let a = hash[0] as number;
      let b = hash[1] as number;
      let c = hash[2] as number;
      let d = hash[3] as number;
      let e = hash[4] as number;
      let f = hash[5] as number;
      let g = hash[6] as number;
      let h = hash[7] as number;
      for (let i = 0; i < 64; i++) {
        const t1 =
          (h +
            (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) +
            ((e & f) ^ (~e & g)) +
            (ROUND[i] as number) +
            (w[i] as number)) >>>
          0;
        const t2 =
          ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        h = g;
        g = f;
        f = e;
        e = (d + t1) >>> 0;
        d = c;
        c = b;
        b = a;
        a = (t1 + t2) >>> 0;
      }
      hash[0] = (hash[0] as number) + a;
      hash[1] = (hash[1] as number) + b;
      hash[2] = (hash[2] as number) + c;
      hash[3] = (hash[3] as number) + d;
      hash[4] = (hash[4] as number) + e;
      hash[5] = (hash[5] as number) + f;
      hash[6] = (hash[6] as number) + g;
      hash[7] = (hash[7] as number) + h;
    }
    for (let i = 0; i < 8; i++) {
      const word = hash[i] as number;
      out[i * 4] = word >>> 24;
      out[i * 4 + 1] = (word >>> 16) & 0xff;
      out[i * 4 + 2] = (word >>> 8) & 0xff;
      out[i * 4 + 3] = word & 0xff;
    }
  };
  // the message: the seed's UTF-16 code units, then a marker byte and a 4-byte block counter
  const seedLength = seed.length * 2;
  const message = new Bytes(seedLength + 5);
  for (let index = 0; index < seed.length; index++) {
    const code = seed.charCodeAt(index);
    message[index * 2] = code >>> 8;
    message[index * 2 + 1] = code & 0xff;
  }
  let block = 0;
  const pool = new Bytes(32);
  let used = 32;
  const nextByte = (): number => {
    if (used === 32) {
      message[seedLength] = 0;
      message[seedLength + 1] = (block >>> 24) & 0xff;
      message[seedLength + 2] = (block >>> 16) & 0xff;
      message[seedLength + 3] = (block >>> 8) & 0xff;
      message[seedLength + 4] = block & 0xff;
      sha256(message, seedLength + 5, pool);
      block++;
      used = 0;
    }
    const byte = pool[used] as number;
    used++;
    return byte;
  };
  // Math.random draws from a fast generator (xoshiro128**, as fit for secrets as the platforms'
  // own Math.random, that is not at all) whose state is SHA-256 of the seed apart from crypto's
  const state = new Bytes(32);
  message[seedLength] = 1;
  sha256(message, seedLength + 1, state);
  const word = (at: number) =>
    (((state[at] as number) << 24) |
      ((state[at + 1] as number) << 16) |
      ((state[at + 2] as number) << 8) |
      (state[at + 3] as number)) >>>
    0;
  let s0 = word(0);
  let s1 = word(4);
  let s2 = word(8);
  let s3 = word(12) || 1;
  const imul = Math.imul;
  const fast32 = () => {
    const result = imul(rotate(imul(s1, 5) >>> 0, 25), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotate(s3, 21) >>> 0;
    return result;
  };
  // 53 random bits, as Math.random gives
  const random = () => (fast32() * 2097152 + (fast32() >>> 11)) / 9007199254740992;
  if (typeof scope.Math === "object" && scope.Math !== null) {
    define(scope.Math, "random", method(random));
  }

  const crypto = scope.crypto as Record<string, unknown> | undefined;
  if (crypto && typeof crypto === "object") {
    const ViewIsView = ArrayBuffer.isView;
    const View = DataView;
    const getRandomValues = <T>(array: T): T => {
      if (
        !ViewIsView(array) ||
        array instanceof View ||
        array instanceof Float32Array ||
        array instanceof Float64Array
      ) {
        throw new TypeError("crypto.getRandomValues takes an integer typed array.");
      }
      const view = array as unknown as ArrayBufferView;
      const length = view.byteLength;
      if (length > 65_536) {
        throw new RangeError(
          `crypto.getRandomValues fills at most 65536 bytes at once, not ${length}.`,
        );
      }
      const bytes = new Bytes(view.buffer, view.byteOffset, length);
      for (let index = 0; index < length; index++) bytes[index] = nextByte();
      return array;
    };
    const hex = (byte: number) => (byte < 16 ? "0" : "") + byte.toString(16);
    const randomUUID = () => {
      const bytes = getRandomValues(new Bytes(16));
      bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
      bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
      const text = Array.from(bytes, hex).join("");
      return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
    };
    try {
      define(crypto, "getRandomValues", method(getRandomValues));
      define(crypto, "randomUUID", method(randomUUID));
    } catch {}
  }
}

/** The prelude's first part for a run: installs its clock and its generator in the sandbox. */
export function determinismPrelude(run: RunDeterminism): string {
  const time = Number.isFinite(run.time) ? Math.trunc(run.time) : 0;
  return `${sandboxSource(installDeterminism)}(globalThis, ${JSON.stringify(String(run.seed))}, ${time}, ${JSON.stringify(SANDBOX_SEED_HOOK)});`;
}
