// What a program can observe of the clock and of chance, made a function of its run: every pass of a
// run (the live one, and each replay after an approval) reads the same time and draws the same
// numbers, so the calls it builds from them are the calls the person approved. Executor-agnostic:
// it is source the prelude runs in the sandbox before the model's code.
import { sandboxSource } from "./sandbox-source.ts";

/** What the determinism of one run is made from: both are in the journal from the run's start. */
export interface RunDeterminism {
  /** the run's id: seeds the generator behind `Math.random()` and `crypto` */
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
 *   arguments is an ordinary one; `performance.now()`, where the sandbox has it, reads 0;
 * - `Math.random()`, `crypto.getRandomValues()` and `crypto.randomUUID()`, where the sandbox has
 *   them, with one generator seeded by `seed` (a murmur3-style mix of a Weyl sequence).
 * What the scope does not have or cannot change (a read-only `crypto`) is left as it is.
 */
export function installDeterminism(scope: Scope, seed: string, time: number): void {
  const RealDate = scope.Date;
  const construct = Reflect.construct;
  const define = Object.defineProperty;
  const imul = Math.imul;
  const method = (value: unknown) => ({ value, writable: true, configurable: true });

  // ---- the clock ----
  if (typeof RealDate === "function") {
    const FixedDate = function (this: unknown, ...args: unknown[]) {
      if (new.target === undefined) return new RealDate(time).toString();
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
      } catch {}
    }
  }

  // ---- chance ----
  let hash = 0x811c9dc5;
  for (let index = 0; index < seed.length; index++) {
    hash = imul(hash ^ seed.charCodeAt(index), 0x01000193);
  }
  let counter = hash >>> 0;
  const next32 = () => {
    counter = (counter + 0x9e3779b9) | 0;
    let mixed = counter;
    mixed = imul(mixed ^ (mixed >>> 16), 0x85ebca6b);
    mixed = imul(mixed ^ (mixed >>> 13), 0xc2b2ae35);
    return (mixed ^ (mixed >>> 16)) >>> 0;
  };
  // 53 random bits, as Math.random gives
  const random = () => (next32() * 2097152 + (next32() >>> 11)) / 9007199254740992;
  if (typeof scope.Math === "object" && scope.Math !== null) {
    define(scope.Math, "random", method(random));
  }

  const crypto = scope.crypto as Record<string, unknown> | undefined;
  if (crypto && typeof crypto === "object") {
    const ViewIsView = ArrayBuffer.isView;
    const Bytes = Uint8Array;
    const getRandomValues = <T>(array: T): T => {
      if (!ViewIsView(array) || array instanceof Float32Array || array instanceof Float64Array) {
        throw new TypeError("crypto.getRandomValues takes an integer typed array.");
      }
      const view = array as unknown as ArrayBufferView;
      const bytes = new Bytes(view.buffer, view.byteOffset, view.byteLength);
      for (let index = 0; index < bytes.length; index++) bytes[index] = next32() & 0xff;
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
  return `${sandboxSource(installDeterminism)}(globalThis, ${JSON.stringify(String(run.seed))}, ${time});`;
}
