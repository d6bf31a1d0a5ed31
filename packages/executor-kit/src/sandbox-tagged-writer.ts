// biome-ignore-all lint/style/useTemplate: QuickJS compiles a template literal to calls of String.prototype.concat, which the program may replace
// Code that runs INSIDE a sandbox (see sandbox-parts.ts): self-contained, and plain JavaScript once
// types are stripped.
import type { BuiltinReader, EncoderSink, TaggedWriter } from "./sandbox-encoder.ts";

/** The built-ins `sandboxTaggedWriter` asks its reader for, by path, all while it is made. */
export const TAGGED_WRITER_BUILTINS = [
  "Error",
  "Object.getPrototypeOf",
  "Object.setPrototypeOf",
  "Array.isArray",
  "Reflect.apply",
  "JSON.stringify",
  "Object.prototype",
  "Array.prototype",
  "Date.prototype",
  "Date.prototype.getTime",
  "Date.prototype.toISOString",
  "RegExp.prototype",
  "Map.prototype",
  "Map.prototype.forEach",
  "Set.prototype",
  "Set.prototype.forEach",
  "ArrayBuffer.prototype",
  "ArrayBuffer.prototype.slice",
  "ArrayBuffer.isView",
  "Uint8Array",
  "Error.prototype",
] as const;

/**
 * The part of `sandboxEncoder` that writes what is not plain JSON data, as the value codec does:
 * `undefined`, a bigint (at most 4,096 digits), `NaN`, `±Infinity` and `-0`; a `Date` (its time, by
 * the built-in, which refuses a proxy that only claims the prototype), a `Map` or `Set` (its entries
 * as they are when it is reached, each then written once), a `RegExp`, an `ArrayBuffer` or a view (a
 * copy of its bytes, by the built-in `slice`, in base64), an `Error` (its name and message), and any
 * other object (an instance of a class, a proxy) as its own enumerable properties. What an object is
 * comes from its prototype chain, compared with the prototypes taken before the program ran (at
 * most 64 links: a proxy's chain may not end). It also makes the errors of what cannot cross.
 */
export function sandboxTaggedWriter(read: BuiltinReader): TaggedWriter {
  const OPEN = '{"$codemode":"';
  const MAX_CHAIN = 64;
  const MAX_ARRAY_ITEMS = 1_000_000;
  const MAX_BIGINT_DIGITS = 4096;
  // 10 ** MAX_BIGINT_DIGITS: a bigint smaller in size has at most that many digits
  const BIGINT_LIMIT = 10n ** 4096n;
  const ErrorType = read("Error") as ErrorConstructor;
  const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const getPrototype = read("Object.getPrototypeOf") as (value: object) => object | null;
  const setPrototype = read("Object.setPrototypeOf") as <T>(value: T, prototype: null) => T;
  const isArray = read("Array.isArray") as (value: unknown) => value is unknown[];
  const apply = read("Reflect.apply") as typeof Reflect.apply;
  const stringify = read("JSON.stringify") as (value: string) => string;
  const objectPrototype = read("Object.prototype") as object;
  const arrayPrototype = read("Array.prototype") as object;
  const datePrototype = read("Date.prototype") as object;
  const getTime = read("Date.prototype.getTime") as (this: Date) => number;
  const toISOString = read("Date.prototype.toISOString") as (this: Date) => string;
  const regExpPrototype = read("RegExp.prototype") as object;
  const mapPrototype = read("Map.prototype") as object;
  const mapForEach = read("Map.prototype.forEach") as Map<unknown, unknown>["forEach"];
  const setPrototypeObject = read("Set.prototype") as object;
  const setForEach = read("Set.prototype.forEach") as Set<unknown>["forEach"];
  const arrayBufferPrototype = read("ArrayBuffer.prototype") as object;
  const sliceBuffer = read("ArrayBuffer.prototype.slice") as ArrayBuffer["slice"];
  const isView = read("ArrayBuffer.isView") as (value: unknown) => boolean;
  const BytesType = read("Uint8Array") as Uint8ArrayConstructor;
  const errorPrototype = read("Error.prototype") as object;
  /** the views the codec names by their type; any other view is a `DataView` */
  const VIEWS = {
    __proto__: null,
    Uint8Array: true,
    Int8Array: true,
    Uint8ClampedArray: true,
    Uint16Array: true,
    Int16Array: true,
    Uint32Array: true,
    Int32Array: true,
    Float32Array: true,
    Float64Array: true,
    BigUint64Array: true,
    BigInt64Array: true,
  } as unknown as Record<string, true | undefined>;

  /**
   * A buffer's bytes in base64. The end is where an index reads undefined: a typed array answers its
   * own indexes without a prototype, where `length` is an accessor the program may have replaced.
   */
  function base64(buffer: ArrayBuffer): string {
    const bytes = new BytesType(buffer) as unknown as Record<number, number | undefined>;
    let out = "";
    for (let index = 0; bytes[index] !== undefined; index += 3) {
      const a = bytes[index] as number;
      const b = bytes[index + 1];
      const c = bytes[index + 2];
      const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
      out += ALPHABET[(n >> 18) & 63] as string;
      out += ALPHABET[(n >> 12) & 63] as string;
      out += b === undefined ? "=" : (ALPHABET[(n >> 6) & 63] as string);
      out += c === undefined ? "=" : (ALPHABET[n & 63] as string);
    }
    return out;
  }

  function unserializable(message: string): Error {
    const error = new ErrorType(message) as Error & { code?: string };
    error.code = "NOT_SERIALIZABLE";
    return error;
  }

  /** A value of another type than object: what is not plain JSON of it. */
  function writePrimitive(value: unknown, sink: EncoderSink): void {
    switch (typeof value) {
      case "number": {
        const text = value === 0 ? "-0" : value > 0 ? "Infinity" : value < 0 ? "-Infinity" : "NaN";
        sink.put(OPEN + 'number","value":"' + text + '"}');
        return;
      }
      case "undefined":
        sink.put(OPEN + 'undefined"}');
        return;
      case "bigint":
        if (value >= BIGINT_LIMIT || value <= -BIGINT_LIMIT) {
          throw unserializable(
            "A bigint of more than " +
              MAX_BIGINT_DIGITS +
              " digits cannot be recorded or passed across the sandbox boundary.",
          );
        }
        sink.put(OPEN + 'bigint","value":"' + value + '"}');
        return;
      case "function":
        throw unserializable(
          "A function cannot be recorded or passed across the sandbox boundary.",
        );
      default:
        throw unserializable("A symbol cannot be recorded or passed across the sandbox boundary.");
    }
  }

  function writeObject(object: object, prototype: object, sink: EncoderSink): void {
    let kind: object | null = null;
    let link: object | null = prototype;
    for (let steps = 0; link !== null && steps < MAX_CHAIN; steps++) {
      if (
        link === datePrototype ||
        link === regExpPrototype ||
        link === mapPrototype ||
        link === setPrototypeObject ||
        link === arrayBufferPrototype ||
        link === errorPrototype
      ) {
        kind = link;
        break;
      }
      if (link === objectPrototype || link === arrayPrototype) break;
      link = getPrototype(link);
    }
    if (kind === datePrototype) {
      const time = apply(getTime, object, []);
      const text = time - time !== 0 ? "null" : stringify(apply(toISOString, object, []));
      sink.put(OPEN + 'Date","value":' + text + "}");
    } else if (kind === mapPrototype || kind === setPrototypeObject) {
      const keys: unknown[] = setPrototype([], null);
      const items: unknown[] = setPrototype([], null);
      let size = 0;
      const map = kind === mapPrototype;
      apply(map ? mapForEach : setForEach, object, [
        (item: unknown, key: unknown) => {
          keys[size] = key;
          items[size++] = item;
        },
      ]);
      sink.put(OPEN + (map ? "Map" : "Set") + '","value":[');
      for (let index = 0; index < size; index++) {
        if (index > 0) sink.put(",");
        if (map) {
          sink.put("[");
          sink.write(keys[index]);
          sink.put(",");
          sink.write(items[index]);
          sink.put("]");
        } else sink.write(items[index]);
      }
      sink.put("]}");
    } else if (kind === regExpPrototype) {
      const source = (object as RegExp).source as unknown;
      const flags = (object as RegExp).flags as unknown;
      if (typeof source !== "string" || typeof flags !== "string") {
        throw unserializable("A RegExp whose source or flags are not strings cannot be sent.");
      }
      sink.put(
        OPEN + 'RegExp","source":' + stringify(source) + ',"flags":' + stringify(flags) + "}",
      );
    } else if (kind === arrayBufferPrototype) {
      const copy = apply(sliceBuffer, object, [0]);
      sink.put(OPEN + 'ArrayBuffer","value":"' + base64(copy) + '"}');
    } else if (isView(object)) {
      const view = object as ArrayBufferView;
      const { buffer, byteOffset, byteLength } = view;
      const copy = apply(sliceBuffer, buffer, [byteOffset, byteOffset + byteLength]);
      const type = (view as { constructor?: { name?: unknown } }).constructor;
      const name = type === null || type === undefined ? undefined : type.name;
      const tag = typeof name === "string" && VIEWS[name] === true ? name : "DataView";
      sink.put(OPEN + tag + '","value":"' + base64(copy) + '"}');
    } else if (kind === errorPrototype) {
      const name = (object as Error).name as unknown;
      const message = (object as Error).message as unknown;
      sink.put(
        OPEN +
          'Error","name":' +
          stringify(typeof name === "string" ? name : "Error") +
          ',"message":' +
          stringify(typeof message === "string" ? message : "") +
          "}",
      );
    } else if (isArray(object)) sink.array(object);
    else sink.record(object);
  }

  return {
    write(value, prototype, sink) {
      if (typeof value !== "object" || value === null) writePrimitive(value, sink);
      else writeObject(value, prototype as object, sink);
    },
    refuse(what, items) {
      return unserializable(
        what === "cycle"
          ? "A value with a cycle cannot be recorded or passed across the sandbox boundary."
          : "An array of " +
              (typeof items === "number" ? items : "unknown") +
              " items cannot be recorded or passed across the sandbox boundary (at most " +
              MAX_ARRAY_ITEMS +
              ").",
      );
    },
  };
}
