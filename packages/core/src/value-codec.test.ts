import { describe, expect, it } from "vitest";
import { createValueCodec } from "./value-codec.ts";

const codec = createValueCodec();
const roundTrip = (value: unknown) => codec.decode(codec.encode(value));

describe("value codec", () => {
  it.each<[string, unknown]>([
    ["null", null],
    ["string", 'hé \u2028 "quoted"'],
    ["numbers", [0, -1.5, 1e300, Number.MAX_SAFE_INTEGER]],
    ["NaN and infinities", [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]],
    ["bigint", 12345678901234567890123n],
    ["undefined", undefined],
    ["undefined inside", { a: undefined, b: [undefined, 1] }],
    ["Date", new Date("2026-11-29T17:00:00.000Z")],
    ["invalid Date", new Date(Number.NaN)],
    [
      "Map",
      new Map<unknown, unknown>([
        ["a", 1],
        [{ k: 1 }, new Set([1, 2])],
      ]),
    ],
    ["Set", new Set(["x", 2, null])],
    ["RegExp", /a+b/gi],
    ["Uint8Array", new Uint8Array([0, 1, 2, 253, 254, 255])],
    ["Float64Array", new Float64Array([1.5, -2])],
    ["BigInt64Array", new BigInt64Array([1n, -2n])],
    ["nested", { list: [{ when: new Date(0), tags: new Set(["t"]) }], n: 1 }],
  ])("keeps %s identical", (_name, value) => {
    expect(roundTrip(value)).toEqual(value);
  });

  it("refuses an array longer than a recorded value can be, even a sparse one, at once", () => {
    const array: unknown[] = [];
    array.length = 2 ** 32 - 1;
    // the work counted, not timed: every slot or key the codec reads goes through this proxy
    const read: string[] = [];
    const sparse = new Proxy(array, {
      get(target, key, receiver) {
        if (typeof key === "string" && key !== "length") read.push(key);
        return Reflect.get(target, key, receiver);
      },
      has(target, key) {
        if (typeof key === "string") read.push(key);
        return Reflect.has(target, key);
      },
      ownKeys(target) {
        read.push("(its keys)");
        return Reflect.ownKeys(target);
      },
    });
    expect(() => codec.encode(sparse)).toThrow(/array of 4294967295 items cannot be recorded/);
    expect(() => codec.encode({ nested: [sparse] }, { canonical: true })).toThrow(
      /at most 1000000/,
    );
    // the length alone refuses it: not one of its 2^32 - 1 slots is read, nor its list of keys
    expect(read.filter((key) => key === "(its keys)" || /^\d+$/.test(key))).toEqual([]);
    expect(codec.decode(codec.encode(new Array(1_000_000).fill(0)))).toHaveLength(1_000_000);
  });

  it("refuses a bigint of more than 4,096 digits both ways, before reading its digits", () => {
    const most = 10n ** 4096n - 1n;
    expect(roundTrip(most)).toBe(most);
    expect(roundTrip(-most)).toBe(-most);
    expect(() => codec.encode(10n ** 4096n)).toThrow(/bigint of more than 4096 digits/);
    expect(() => codec.encode({ deep: [-(10n ** 4096n)] })).toThrow(/more than 4096 digits/);
    // text the codec never writes, as a sandbox could forge it: refused by its length before its
    // digits are read (digits ending in one a BigInt cannot read would say so if they were read)
    const forged = `{"$codemode":"bigint","value":"${"9".repeat(2_000_000)}z"}`;
    expect(() => codec.decode(`[${forged}]`)).toThrow(/more than 4096 digits/);
  });

  it("keeps -0, an ArrayBuffer and a DataView", () => {
    expect(Object.is(roundTrip(-0), -0)).toBe(true);
    const buffer = new Uint8Array([9, 8, 7]).buffer;
    expect(new Uint8Array(roundTrip(buffer) as ArrayBuffer)).toEqual(new Uint8Array([9, 8, 7]));
    const view = roundTrip(new DataView(new Uint8Array([1, 2, 3, 4]).buffer, 1, 2)) as DataView;
    expect(view).toBeInstanceOf(DataView);
    expect([view.getUint8(0), view.getUint8(1)]).toEqual([2, 3]);
  });

  it("keeps an Error's name and message", () => {
    const error = roundTrip(Object.assign(new TypeError("bad"), {})) as Error;
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.message]).toEqual(["TypeError", "bad"]);
  });

  it("escapes a plain object that uses the tag key", () => {
    const value = { $codemode: "Date", value: "not a date" };
    expect(roundTrip(value)).toEqual(value);
  });

  it("keeps a __proto__ key an own property and never touches Object.prototype", () => {
    const decoded = codec.decode('{"__proto__":{"polluted":true},"a":1}') as Record<
      string,
      unknown
    >;
    expect(Object.hasOwn(decoded, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    const again = roundTrip(decoded) as Record<string, unknown>;
    expect(Object.hasOwn(again, "__proto__")).toBe(true);
  });

  it.each<[string, () => unknown]>([
    [
      "a cycle",
      () => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      },
    ],
    ["a function", () => ({ f: () => 1 })],
    ["a symbol", () => [Symbol("s")]],
  ])("refuses %s with NOT_SERIALIZABLE", (_name, make) => {
    expect(() => codec.encode(make())).toThrow(
      expect.objectContaining({ code: "NOT_SERIALIZABLE" }),
    );
  });

  it("allows the same object twice when it is not a cycle", () => {
    const shared = { a: 1 };
    expect(roundTrip([shared, shared])).toEqual([{ a: 1 }, { a: 1 }]);
  });

  it("sorts keys in canonical form", () => {
    expect(codec.encode({ b: 1, a: { d: 1, c: 2 } }, { canonical: true })).toBe(
      '{"a":{"c":2,"d":1},"b":1}',
    );
    expect(codec.encode({ b: 1, a: 2 })).toBe('{"b":1,"a":2}');
  });

  it("writes plain data as JSON writes it and reads such text as JSON reads it", () => {
    const plain = { a: [1, "two", null, true, { b: -1.5 }], "": {}, c: Object.create(null) };
    expect(codec.encode(plain)).toBe(JSON.stringify(plain));
    expect(codec.decode(JSON.stringify(plain))).toEqual(JSON.parse(JSON.stringify(plain)));
    // the tag's name inside a string is only text
    const text = { note: 'say "$codemode"', list: ["$codemode"] };
    expect(roundTrip(text)).toEqual(text);
  });

  it("does not take values that only look plain for JSON", () => {
    // a hole, a toJSON that JSON would call, an instance, -0 and a tag key deep down
    const sparse: unknown[] = [];
    sparse[0] = 1;
    sparse[2] = 3;
    const holes = roundTrip(sparse) as unknown[];
    expect(holes).toHaveLength(3);
    expect(holes[1]).toBeUndefined();
    const withToJson = Object.defineProperty({ a: 1 }, "toJSON", { value: () => "replaced" });
    expect(roundTrip(withToJson)).toEqual({ a: 1 });
    expect(roundTrip(Object.assign([1, 2], { toJSON: () => "replaced" }))).toEqual([1, 2]);
    class Point {
      constructor(readonly x: number) {}
    }
    expect(roundTrip(new Point(2))).toEqual({ x: 2 });
    expect(Object.is((roundTrip({ n: [-0] }) as { n: number[] }).n[0], -0)).toBe(true);
    const tagged = { deep: [{ $codemode: "bigint", value: "1" }] };
    expect(roundTrip(tagged)).toEqual(tagged);
  });

  it("handles nesting deeper than the plain-data check looks", () => {
    let deep: unknown = { leaf: new Date(3) };
    for (let level = 0; level < 100; level++) deep = { level, next: [deep] };
    expect(roundTrip(deep)).toEqual(deep);
  });

  it("works from its own source text, as a sandbox evaluates it", () => {
    const fromSource = new Function(`return (${createValueCodec.toString()})();`)() as typeof codec;
    const value = { when: new Date(5), big: 7n, bytes: new Uint8Array([1, 2]) };
    expect(codec.decode(fromSource.encode(value))).toEqual(value);
    expect(fromSource.decode(codec.encode(value))).toEqual(value);
  });
});
