/** Encodes values as JSON text that keeps what JSON loses, and reads them back. */
export interface ValueCodec {
  /** JSON text; throws an Error with `code: "NOT_SERIALIZABLE"` for cycles, functions and symbols */
  encode(value: unknown, options?: { canonical?: boolean }): string;
  decode(text: string): unknown;
}

/**
 * The value codec: `Date`, `Map`, `Set`, `bigint`, `undefined`, `NaN`, `±Infinity`, `-0`, `RegExp`,
 * `ArrayBuffer` and typed arrays survive a round trip, so a replayed value equals the live one.
 * Tagged values are objects with a `$codemode` key; a plain object that has that key is escaped.
 * `canonical` sorts object keys, for comparing arguments.
 *
 * The function is self-contained (no imports, no outside references) so that its source text can be
 * evaluated inside a sandbox to get the same codec there.
 */
export function createValueCodec(): ValueCodec {
  const TAG = "$codemode";
  /** Items an array may have: more cannot fit a recorded value (at least two characters each). */
  const MAX_ARRAY_ITEMS = 1_000_000;
  /**
   * Digits a bigint may have: reading a decimal text of n digits costs time that grows faster than
   * n (V8 about 350 ms for 2,000,000 digits, QuickJS over 30 s), so a longer one is refused both ways.
   */
  const MAX_BIGINT_DIGITS = 4096;
  /** 10 ** MAX_BIGINT_DIGITS: a bigint is compared with it before its digits are written */
  const BIGINT_LIMIT = 10n ** 4096n;
  const BYTES = [
    "Uint8Array",
    "Int8Array",
    "Uint8ClampedArray",
    "Uint16Array",
    "Int16Array",
    "Uint32Array",
    "Int32Array",
    "Float32Array",
    "Float64Array",
    "BigUint64Array",
    "BigInt64Array",
  ];
  const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  function unserializable(message: string): Error {
    const error = new Error(message) as Error & { code: string };
    error.code = "NOT_SERIALIZABLE";
    return error;
  }

  function toBase64(bytes: Uint8Array): string {
    let out = "";
    for (let index = 0; index < bytes.length; index += 3) {
      const a = bytes[index] as number;
      const b = index + 1 < bytes.length ? (bytes[index + 1] as number) : 0;
      const c = index + 2 < bytes.length ? (bytes[index + 2] as number) : 0;
      const n = (a << 16) | (b << 8) | c;
      out += ALPHABET[(n >> 18) & 63];
      out += ALPHABET[(n >> 12) & 63];
      out += index + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : "=";
      out += index + 2 < bytes.length ? ALPHABET[n & 63] : "=";
    }
    return out;
  }

  function fromBase64(text: string): Uint8Array {
    const clean = text.replace(/=+$/, "");
    const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
    let at = 0;
    for (let index = 0; index < clean.length; index += 4) {
      const n =
        (ALPHABET.indexOf(clean[index] as string) << 18) |
        (ALPHABET.indexOf(clean[index + 1] ?? "A") << 12) |
        (ALPHABET.indexOf(clean[index + 2] ?? "A") << 6) |
        ALPHABET.indexOf(clean[index + 3] ?? "A");
      if (at < bytes.length) bytes[at++] = (n >> 16) & 255;
      if (at < bytes.length) bytes[at++] = (n >> 8) & 255;
      if (at < bytes.length) bytes[at++] = n & 255;
    }
    return bytes;
  }

  function toJson(value: unknown, canonical: boolean, seen: unknown[]): unknown {
    switch (typeof value) {
      case "undefined":
        return { [TAG]: "undefined" };
      case "bigint": {
        if (value >= BIGINT_LIMIT || value <= -BIGINT_LIMIT) {
          throw unserializable(
            `A bigint of more than ${MAX_BIGINT_DIGITS} digits cannot be recorded or passed across the sandbox boundary.`,
          );
        }
        return { [TAG]: "bigint", value: value.toString() };
      }
      case "number":
        if (Number.isNaN(value)) return { [TAG]: "number", value: "NaN" };
        if (value === Number.POSITIVE_INFINITY) return { [TAG]: "number", value: "Infinity" };
        if (value === Number.NEGATIVE_INFINITY) return { [TAG]: "number", value: "-Infinity" };
        if (Object.is(value, -0)) return { [TAG]: "number", value: "-0" };
        return value;
      case "function":
        throw unserializable(
          "A function cannot be recorded or passed across the sandbox boundary.",
        );
      case "symbol":
        throw unserializable("A symbol cannot be recorded or passed across the sandbox boundary.");
      case "string":
      case "boolean":
        return value;
    }
    if (value === null) return null;
    if (seen.includes(value)) {
      throw unserializable(
        "A value with a cycle cannot be recorded or passed across the sandbox boundary.",
      );
    }
    seen.push(value);
    try {
      const object = value as object;
      if (object instanceof Date)
        return {
          [TAG]: "Date",
          value: Number.isNaN(object.getTime()) ? null : object.toISOString(),
        };
      if (object instanceof RegExp)
        return { [TAG]: "RegExp", source: object.source, flags: object.flags };
      if (object instanceof Map) {
        const entries = [...object].map(([key, item]) => [
          toJson(key, canonical, seen),
          toJson(item, canonical, seen),
        ]);
        return { [TAG]: "Map", value: entries };
      }
      if (object instanceof Set)
        return { [TAG]: "Set", value: [...object].map((item) => toJson(item, canonical, seen)) };
      if (object instanceof ArrayBuffer)
        return { [TAG]: "ArrayBuffer", value: toBase64(new Uint8Array(object)) };
      if (ArrayBuffer.isView(object)) {
        const type = object.constructor?.name;
        const bytes = new Uint8Array(object.buffer, object.byteOffset, object.byteLength);
        return {
          [TAG]: BYTES.includes(type as string) ? type : "DataView",
          value: toBase64(bytes),
        };
      }
      if (object instanceof Error) {
        return { [TAG]: "Error", name: object.name, message: object.message };
      }
      if (Array.isArray(object)) {
        // a sparse array's length costs nothing to make and would cost the encoder every index
        if (object.length > MAX_ARRAY_ITEMS) {
          throw unserializable(
            `An array of ${object.length} items cannot be recorded or passed across the sandbox boundary (at most ${MAX_ARRAY_ITEMS}).`,
          );
        }
        const items: unknown[] = [];
        for (let index = 0; index < object.length; index++)
          items.push(toJson(object[index], canonical, seen));
        return items;
      }
      const keys = Object.keys(object);
      if (canonical) keys.sort();
      // no prototype: every key, "__proto__" too, becomes an own property by plain assignment
      const out: Record<string, unknown> = Object.create(null);
      for (const key of keys) {
        out[key] = toJson((object as Record<string, unknown>)[key], canonical, seen);
      }
      return Object.hasOwn(out, TAG) ? { [TAG]: "object", value: out } : out;
    } finally {
      seen.pop();
    }
  }

  function fromJson(json: unknown): unknown {
    if (Array.isArray(json)) return json.map(fromJson);
    if (typeof json !== "object" || json === null) return json;
    const record = json as Record<string, unknown>;
    const tag = Object.hasOwn(record, TAG) ? record[TAG] : undefined;
    switch (tag) {
      case undefined:
        break;
      case "undefined":
        return undefined;
      case "bigint": {
        const digits = record.value;
        // the digits and a sign, as encode writes them
        if (typeof digits !== "string" || digits.length > MAX_BIGINT_DIGITS + 1) {
          throw unserializable(`A bigint of more than ${MAX_BIGINT_DIGITS} digits cannot be read.`);
        }
        return BigInt(digits);
      }
      case "number":
        return record.value === "-0" ? -0 : Number(record.value);
      case "Date":
        return new Date(record.value === null ? Number.NaN : (record.value as string));
      case "RegExp":
        return new RegExp(record.source as string, record.flags as string);
      case "Map":
        return new Map(
          (record.value as unknown[][]).map(([key, item]) => [fromJson(key), fromJson(item)]),
        );
      case "Set":
        return new Set((record.value as unknown[]).map(fromJson));
      case "ArrayBuffer": {
        const bytes = fromBase64(record.value as string);
        return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      }
      case "DataView": {
        const bytes = fromBase64(record.value as string);
        return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      }
      case "Error": {
        const error = new Error(record.message as string);
        error.name = record.name as string;
        return error;
      }
      case "object":
        // an escaped plain object that has a key named like the tag: rebuild it as it is
        return plainObject(record.value as Record<string, unknown>);
      default: {
        if (typeof tag === "string" && BYTES.includes(tag)) {
          const bytes = fromBase64(record.value as string);
          const View = (
            globalThis as unknown as Record<string, new (buffer: ArrayBuffer) => unknown>
          )[tag];
          if (View)
            return new View(
              bytes.buffer.slice(
                bytes.byteOffset,
                bytes.byteOffset + bytes.byteLength,
              ) as ArrayBuffer,
            );
        }
        break;
      }
    }
    return plainObject(record);
  }

  function plainObject(record: Record<string, unknown>): Record<string, unknown> {
    // fromEntries defines own properties, not assignment: a "__proto__" key stays an own property
    return Object.fromEntries(Object.keys(record).map((key) => [key, fromJson(record[key])]));
  }

  /**
   * True when JSON writes the value exactly as `toJson` would: strings, booleans, null, finite
   * numbers other than -0, and arrays and plain objects of them, with no tag key and no `toJSON`.
   * Deeper than 64 levels is left to `toJson`, which also finds cycles. (The sandboxes' encoder in
   * executor-kit makes the same check with built-ins it captured; this one must stay inside this
   * self-contained function.)
   */
  function plainJson(value: unknown, depth: number): boolean {
    switch (typeof value) {
      case "string":
      case "boolean":
        return true;
      case "number":
        // finite (NaN and ±Infinity give NaN) and not -0
        return value - value === 0 && !(value === 0 && 1 / value < 0);
      case "object": {
        if (value === null) return true;
        if (depth > 64) return false;
        if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
        const prototype = Object.getPrototypeOf(value);
        if (prototype === Array.prototype && Array.isArray(value)) {
          if (value.length > MAX_ARRAY_ITEMS) return false;
          for (let index = 0; index < value.length; index++) {
            if (!plainJson(value[index], depth + 1)) return false;
          }
          return true;
        }
        if (prototype !== Object.prototype && prototype !== null) return false;
        const record = value as Record<string, unknown>;
        if (Object.hasOwn(record, TAG)) return false;
        for (const key of Object.keys(record)) {
          if (!plainJson(record[key], depth + 1)) return false;
        }
        return true;
      }
      default:
        return false;
    }
  }

  return {
    encode(value, options = {}) {
      // most values are plain data: JSON writes them directly (with sorted keys only on request)
      if (options.canonical !== true && plainJson(value, 0)) return JSON.stringify(value);
      return JSON.stringify(toJson(value, options.canonical === true, []));
    },
    decode(text) {
      // a text without the tag key anywhere holds no tagged value: JSON reads it as it is
      if (!text.includes(`"${TAG}"`)) return JSON.parse(text);
      return fromJson(JSON.parse(text));
    },
  };
}
