// biome-ignore-all lint/style/useTemplate: QuickJS compiles a template literal to calls of String.prototype.concat, which the program may replace
// Code that runs INSIDE a sandbox (see sandbox-parts.ts): self-contained, and plain JavaScript once
// types are stripped.

/** Gives a built-in by its path (`"JSON.stringify"`), as it was before any program ran. */
export type BuiltinReader = (path: string) => unknown;

/**
 * The built-ins `sandboxEncoder` asks its reader for, by path, all while it is made: an executor that
 * captures built-ins before the program runs captures these.
 */
export const ENCODER_BUILTINS = [
  "JSON.stringify",
  "Object.keys",
  "Object.getPrototypeOf",
  "Object.setPrototypeOf",
  "Array.isArray",
  "Array.prototype.join",
  "Reflect.apply",
  "Object.prototype",
  "Array.prototype",
] as const;

/** What the encoder hands its other part (`sandboxTaggedWriter`) to write with. */
export interface EncoderSink {
  /** writes any value (the way back for what an object holds) */
  write(value: unknown): void;
  /** appends text */
  put(text: string): void;
  /** writes an array's items (at most 1,000,000) */
  array(list: unknown[]): void;
  /** writes an object's own enumerable properties, escaped if one is named like the tag */
  record(object: object): void;
}

/** The encoder's other part (see `sandboxTaggedWriter`). */
export interface TaggedWriter {
  /**
   * writes what is not plain JSON data: `undefined`, a bigint, `NaN`, `±Infinity`, `-0`, and any
   * object that is neither a plain object nor an array (`prototype` is its prototype, read once); a
   * function or a symbol is refused
   */
  write(value: unknown, prototype: object | null, sink: EncoderSink): void;
  /** the error of a value that cannot cross: a cycle, or an array of `items` items */
  refuse(what: "cycle" | "array", items?: unknown): Error;
}

/**
 * The encoder of every value the sandbox sends (a call's input, the result): the value codec's text
 * (`createValueCodec` of @codemode/core writes the same), made in one pass that reads each property
 * of the value once and writes the text as it goes. Nothing is checked on one read and written from
 * another, so a getter or a proxy that answers differently each time cannot make the host receive
 * what the program never held. It runs none of the program's code except those reads (a getter, a
 * proxy's traps, an inherited accessor such as a typed array's `buffer`): no `toJSON`, no
 * `JSON.stringify` of an object (whose stack the program's `Array.prototype` index accessors reach
 * in QuickJS), only the built-ins the reader gave while it was made, before the program ran.
 * Bigints have at most 4,096 digits and arrays at most 1,000,000 items, as in the codec.
 *
 * Plain data (strings, booleans, finite numbers, null, plain objects and arrays) is written here;
 * everything else, and the errors, by the other part `tagged` gives, asked for the first time it is
 * needed (QuickJS compiles that part only then, so sending plain data compiles little).
 */
export function sandboxEncoder(
  read: BuiltinReader,
  tagged: () => TaggedWriter,
): (value: unknown) => string {
  // No template literals here: QuickJS compiles them to calls of String.prototype.concat, which
  // the program may have replaced; `+` runs no code of the program on strings and numbers.
  const TAG = "$codemode";
  const MAX_ARRAY_ITEMS = 1_000_000;
  /** beyond this depth an object is looked for among the open ones (a cycle) */
  const CHECKED_DEPTH = 32;
  const stringify = read("JSON.stringify") as (value: string) => string;
  const keysOf = read("Object.keys") as (value: object) => string[];
  const getPrototype = read("Object.getPrototypeOf") as (value: object) => object | null;
  const setPrototype = read("Object.setPrototypeOf") as <T>(value: T, prototype: null) => T;
  const isArray = read("Array.isArray") as (value: unknown) => value is unknown[];
  const join = read("Array.prototype.join") as (this: unknown[], separator: string) => string;
  const apply = read("Reflect.apply") as typeof Reflect.apply;
  const objectPrototype = read("Object.prototype") as object;
  const arrayPrototype = read("Array.prototype") as object;
  let other: TaggedWriter | undefined;
  const part = (): TaggedWriter => {
    if (other === undefined) other = tagged();
    return other;
  };

  // The text of one call, in pieces joined once at the end; and the objects open above the one being
  // written. Both are arrays without a prototype, so writing to them reaches no accessor of the program.
  let parts: string[] = [];
  let count = 0;
  let open: object[] = [];
  let depth = 0;

  function put(text: string): void {
    parts[count++] = text;
  }

  function write(value: unknown): void {
    const type = typeof value;
    if (type === "string") put(stringify(value as string));
    else if (type === "boolean") put(value ? "true" : "false");
    // finite (NaN and ±Infinity give NaN) and not -0: JSON writes it as it is
    else if (
      type === "number" &&
      (value as number) - (value as number) === 0 &&
      !(value === 0 && 1 / (value as number) < 0)
    ) {
      put("" + value);
    } else if (value === null) put("null");
    else if (type !== "object") part().write(value, null, sink);
    else {
      const object = value as object;
      if (depth >= CHECKED_DEPTH) {
        for (let index = 0; index < depth; index++) {
          if (open[index] === object) throw part().refuse("cycle");
        }
      }
      open[depth++] = object;
      const prototype = getPrototype(object);
      if (prototype === objectPrototype || prototype === null) writeRecord(object);
      else if (prototype === arrayPrototype && isArray(object)) writeArray(object);
      else part().write(object, prototype, sink);
      depth--;
    }
  }

  function writeRecord(object: object): void {
    const record = object as Record<string, unknown>;
    const keys = keysOf(record);
    let escaped = false;
    for (let index = 0; index < keys.length; index++) {
      if (keys[index] === TAG) escaped = true;
    }
    // an object with the tag's key is written inside a tagged one, as the codec escapes it
    if (escaped) put('{"' + TAG + '":"object","value":');
    put("{");
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      put((index > 0 ? "," : "") + stringify(key) + ":");
      write(record[key]);
    }
    put(escaped ? "}}" : "}");
  }

  function writeArray(list: unknown[]): void {
    // a proxy's length is whatever its trap says: only a number in range is followed
    const length = list.length as unknown;
    if (typeof length !== "number" || !(length <= MAX_ARRAY_ITEMS)) {
      throw part().refuse("array", length);
    }
    put("[");
    for (let index = 0; index < length; index++) {
      if (index > 0) put(",");
      write(list[index]);
    }
    put("]");
  }

  const sink: EncoderSink = { write, put, array: writeArray, record: writeRecord };

  return (value) => {
    if (typeof value === "string") return stringify(value);
    // a getter may send a call of its own while this one is written: each call has its own pieces
    const outerParts = parts;
    const outerCount = count;
    const outerOpen = open;
    const outerDepth = depth;
    parts = setPrototype([], null);
    count = 0;
    open = setPrototype([], null);
    depth = 0;
    try {
      write(value);
      return apply(join, parts, [""]);
    } finally {
      parts = outerParts;
      count = outerCount;
      open = outerOpen;
      depth = outerDepth;
    }
  };
}
