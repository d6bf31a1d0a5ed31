import { runInNewContext } from "node:vm";
import { createValueCodec } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { type BuiltinReader, ENCODER_BUILTINS, sandboxEncoder } from "./sandbox-encoder.ts";
import { sandboxSource } from "./sandbox-source.ts";
import { sandboxTaggedWriter, TAGGED_WRITER_BUILTINS } from "./sandbox-tagged-writer.ts";

const codec = createValueCodec();

/** The built-in at `path` of a realm's global object. */
function builtinOf(global: object): (path: string) => unknown {
  return (path) =>
    path
      .split(".")
      .reduce<unknown>((found, name) => (found as Record<string, unknown>)[name], global);
}

/** The encoder as a sandbox makes it: both parts, with built-ins of `read`. */
function encoderOf(read: BuiltinReader): (value: unknown) => string {
  const tagged = sandboxTaggedWriter(read);
  return sandboxEncoder(read, () => tagged);
}

/**
 * A realm of its own, as a sandbox is: the encoder compiled there from its source and made with that
 * realm's built-ins before `program` runs; `program` then gets `encode` and may rewrite the realm.
 */
function inRealm(program: string): unknown {
  const realm = runInNewContext("globalThis") as object;
  const read = builtinOf(realm);
  const makeTagged = runInNewContext(
    sandboxSource(sandboxTaggedWriter),
    realm,
  ) as typeof sandboxTaggedWriter;
  const make = runInNewContext(sandboxSource(sandboxEncoder), realm) as typeof sandboxEncoder;
  const tagged = makeTagged(read);
  const encode = make(read, () => tagged);
  return runInNewContext(`(encode) => { ${program} }`, realm)(encode);
}

describe("sandboxEncoder", () => {
  const encode = encoderOf(builtinOf(globalThis));

  it("writes the value codec's text, for plain data and every tagged type", () => {
    const values: unknown[] = [
      null,
      'hé \u2028 "quoted"',
      [0, -1.5, 1e300, 1e21, 5e-324, true, false],
      { a: 1, nested: { list: [1, "two", null, { deep: [] }] }, "": "", __proto__x: 1 },
      JSON.parse('{"__proto__": {"a": 1}}'),
      [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, undefined],
      { a: undefined, n: 12345678901234567890123n, minus: -5n },
      new Date("2026-11-29T17:00:00.000Z"),
      new Date(Number.NaN),
      new Map<unknown, unknown>([
        ["a", 1],
        [{ k: 1 }, new Set([1, 2])],
      ]),
      new Set(["x", 2, null]),
      /a+b/gi,
      new Uint8Array([0, 1, 2, 253, 254, 255]),
      new Uint8Array([1, 2, 3, 4, 5]).subarray(1, 4),
      new Float64Array([1.5, -2]),
      new BigInt64Array([1n, -2n]),
      new Uint8Array([9, 8, 7, 6]).buffer,
      new DataView(new Uint8Array([1, 2, 3, 4]).buffer, 1, 2),
      Object.assign(new TypeError("bad"), { extra: 1 }),
      { $codemode: "Date", value: "escaped" },
      Object.assign(Object.create(null), { a: [1] }),
      new (class Point {
        x = 1;
        y = [2];
      })(),
      Object.assign([1, 2], { extra: "ignored" }),
    ];
    for (const [index, value] of values.entries()) {
      expect(encode(value), `value ${index}`).toBe(codec.encode(value));
    }
  });

  it("refuses what the codec refuses, with its messages", () => {
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    const cycle: Record<string, unknown> = { list: [] };
    (cycle.list as unknown[]).push({ back: cycle });
    for (const value of [
      () => {},
      { fn: Symbol("s") },
      sparse,
      cycle,
      new Map([[1, cycle]]),
      10n ** 4096n,
      [-(10n ** 4096n)],
    ]) {
      let message = "";
      try {
        codec.encode(value);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).not.toBe("");
      expect(() => encode(value)).toThrow(message);
      try {
        encode(value);
      } catch (error) {
        expect((error as { code?: unknown }).code).toBe("NOT_SERIALIZABLE");
      }
    }
    expect(encode(10n ** 4096n - 1n)).toBe(codec.encode(10n ** 4096n - 1n));
  });

  it("reads each property once: what a getter or proxy answers first is what is sent", () => {
    let reads = 0;
    const value = {
      get x() {
        reads++;
        return reads === 1 ? "first" : { $codemode: "bigint", value: "9".repeat(100_000) };
      },
      list: new Proxy([1, 2], {
        get: (target, key, receiver) => {
          if (key === "0") reads++;
          return Reflect.get(target, key, receiver);
        },
      }),
      map: new Map([
        [
          "k",
          {
            get y() {
              reads++;
              return reads;
            },
          },
        ],
      ]),
    };
    expect(codec.decode(encode(value))).toEqual({
      x: "first",
      list: [1, 2],
      map: new Map([["k", { y: 3 }]]),
    });
    expect(reads).toBe(3);
  });

  it("takes exactly the built-ins it names, while it is made, and its other part only for what is not plain data", () => {
    const read = builtinOf(globalThis);
    const asked: string[] = [];
    let making = true;
    const reader: BuiltinReader = (path) => {
      if (!making) throw new Error(`asked for ${path} after it was made`);
      asked.push(path);
      return read(path);
    };
    let taggedMade = 0;
    const made = sandboxEncoder(reader, () => {
      taggedMade++;
      return sandboxTaggedWriter(read);
    });
    making = false;
    expect(asked).toEqual([...ENCODER_BUILTINS]);
    // plain data needs nothing of the other part
    expect(made({ plain: [1, "two", null, true, { deep: [] }] })).toBe(
      codec.encode({ plain: [1, "two", null, true, { deep: [] }] }),
    );
    expect(taggedMade).toBe(0);
    const tagged = {
      when: new Date(0),
      bytes: new Uint8Array(2),
      tags: new Set([1n]),
      no: undefined,
    };
    expect(made(tagged)).toBe(codec.encode(tagged));
    expect(made(tagged)).toBe(codec.encode(tagged));
    expect(taggedMade).toBe(1);
    asked.length = 0;
    making = true;
    sandboxTaggedWriter(reader);
    expect(asked).toEqual([...TAGGED_WRITER_BUILTINS]);
  });

  it("writes the same text whatever built-ins and prototypes the program rewrote after it was made", () => {
    const text = inRealm(`
      let leaks = "";
      const note = (what) => { leaks += what + ";"; };
      for (const index of ["0", "1", "2", "3"]) {
        for (const prototype of [Array.prototype, Object.prototype]) {
          Object.defineProperty(prototype, index, {
            get() { note("get " + index); },
            set(value) { note("set " + index); try { value.forged = true; } catch {} },
            configurable: true,
          });
        }
      }
      Object.defineProperty(Object.prototype, "toJSON", { get() { note("toJSON"); return () => "forged"; }, configurable: true });
      JSON.stringify = () => { note("stringify"); return '"forged"'; };
      Array.prototype.join = () => { note("join"); return '"forged"'; };
      Reflect.apply = () => { note("apply"); return '"forged"'; };
      Object.keys = () => { note("keys"); return []; };
      Object.getPrototypeOf = () => { note("prototype"); return null; };
      Object.setPrototypeOf = (value) => { note("setPrototypeOf"); return value; };
      Date.prototype.getTime = () => { note("getTime"); return 0; };
      Date.prototype.toISOString = () => { note("toISOString"); return "forged"; };
      Map.prototype.forEach = () => { note("forEach"); };
      Set.prototype.forEach = () => { note("forEach"); };
      Array.prototype[Symbol.iterator] = function* () { note("iterator"); };
      const value = { list: [1, [2, { three: 3 }]], when: new Date(5), map: new Map([["k", [1]]]), set: new Set(["s"]) };
      return { text: encode(value), leaks };
    `) as { text: string; leaks: string };
    expect(text.leaks).toBe("");
    expect(text.text).toBe(
      codec.encode({
        list: [1, [2, { three: 3 }]],
        when: new Date(5),
        map: new Map([["k", [1]]]),
        set: new Set(["s"]),
      }),
    );
  });

  it("gives a call made by a getter while a value is written its own text", () => {
    const inner: string[] = [];
    const value = {
      a: 1,
      get b() {
        inner.push(encode({ nested: [true] }));
        return 2;
      },
      c: [3],
    };
    expect(encode(value)).toBe('{"a":1,"b":2,"c":[3]}');
    expect(inner).toEqual(['{"nested":[true]}']);
  });
});
