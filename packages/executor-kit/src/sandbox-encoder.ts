// Code that runs INSIDE a sandbox: every executor pastes this factory's source into its sandbox
// (`sandboxSource`) and calls it with built-ins it captured before the program ran. It must stay
// self-contained (no imports, no references outside its body) and plain JavaScript once types are
// stripped.

/** The value codec's encoder, as the sandbox sees it. */
interface Encoder {
  encode(value: unknown): string;
}

/** Gives the value codec (an object with `encode`), made on first use. */
export type EncoderHelper = (name: "codec") => unknown;

/**
 * The encoder of values the sandbox sends (call inputs, the result): values the codec would write
 * as plain JSON go through `JSON.stringify` directly; others (Date, Map, undefined, …) through the
 * codec, compiled the first time one comes along.
 */
export function sandboxEncoder(
  helper: EncoderHelper,
  stringify: (value: unknown) => string,
  keysOf: (value: object) => string[],
  getPrototype: (value: object) => object | null,
  hasOwn: (value: object, key: string) => boolean,
  isArray: (value: unknown) => value is unknown[],
  objectPrototype: object,
  arrayPrototype: object,
): (value: unknown) => string {
  let codec: Encoder | undefined;
  function plain(value: unknown, depth: number): boolean {
    switch (typeof value) {
      case "string":
      case "boolean":
        return true;
      case "number":
        // finite (NaN and ±Infinity give NaN) and not -0: what JSON writes unchanged
        return value - value === 0 && !(value === 0 && 1 / value < 0);
      case "object": {
        if (value === null) return true;
        if (depth > 32) return false;
        const prototype = getPrototype(value);
        if (prototype === arrayPrototype && isArray(value)) {
          for (let index = 0; index < value.length; index++) {
            if (!plain(value[index], depth + 1)) return false;
          }
          return true;
        }
        if (prototype !== objectPrototype && prototype !== null) return false;
        if (hasOwn(value, "$codemode")) return false;
        const record = value as Record<string, unknown>;
        for (const key of keysOf(record)) {
          if (!plain(record[key], depth + 1)) return false;
        }
        return true;
      }
      default:
        return false;
    }
  }
  return (value) => {
    if (plain(value, 0)) return stringify(value);
    if (!codec) codec = helper("codec") as Encoder;
    return codec.encode(value);
  };
}
