// What a program can observe of the clock and of chance, made a function of its run: every pass of a
// run (the live one, and each replay after an approval) reads the same time and draws the same
// numbers, so the calls it builds from them are the calls the person approved. Executor-agnostic:
// it is source the prelude runs in the sandbox before the model's code, after the zone and the
// locale (UTC, "en-US") of sandbox-zone.ts.
import { SANDBOX_SEED_HOOK } from "./sandbox-protocol.ts";
import { sandboxSource } from "./sandbox-source.ts";
import { installZone } from "./sandbox-zone.ts";

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
 * The `Date` it wraps, `Date.parse`, `Date.prototype.toString` (for `Date()`) and
 * `Temporal.Now.timeZoneId` are those of the scope at install time: after `installZone`, in UTC.
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

  // ---- the clock ----
  if (typeof RealDate === "function") {
    const apply = Reflect.apply;
    // what Date() prints, taken now: a program that replaces toString later does not change it
    const printDate = RealDate.prototype.toString;
    const FixedDate = function (this: unknown, ...args: unknown[]) {
      if (new.target === undefined) return apply(printDate, new RealDate(time), []);
      return construct(RealDate, args.length === 0 ? [time] : args, new.target);
    } as unknown as DateConstructor;
    define(FixedDate, "prototype", { value: RealDate.prototype });
    define(
      FixedDate,
      "now",
      method(() => time),
    );
    define(FixedDate, "parse", method(RealDate.parse));
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
        // the sandbox's zone (UTC after installZone), taken now
        const zone = now.timeZoneId as () => string;
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

/**
 * The prelude's first part for a run: installs its zone and locale, then its clock and its generator
 * in the sandbox. The zone goes first: it makes the scope's `Date` one that reads components and
 * strings in UTC and prints in UTC, and the clock wraps that `Date` (and takes its `parse`, its
 * `toString` for `Date()`, and `Temporal.Now.timeZoneId`) as it finds them, so `new Date()` is the
 * run's start and `new Date(2026, 0, 1)` or `Date.parse("2026-01-01 09:00")` read in UTC. The other
 * way round, the zone would wrap the fixed clock and would have to know of it (`Date()` prints the
 * current time; `Temporal.Now`'s defaults would already be taken in the host's zone).
 */
export function determinismPrelude(run: RunDeterminism): string {
  const time = Number.isFinite(run.time) ? Math.trunc(run.time) : 0;
  return `${sandboxSource(installZone)}(globalThis); ${sandboxSource(installDeterminism)}(globalThis, ${JSON.stringify(String(run.seed))}, ${time}, ${JSON.stringify(SANDBOX_SEED_HOOK)});`;
}
