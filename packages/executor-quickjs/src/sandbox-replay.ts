// Code that runs INSIDE the QuickJS sandbox, compiled from its source text like the kit's parts, and
// only in a pass that replays recorded calls (see `ReplayHint` in @codemode/core). It must stay
// self-contained (no imports, no references outside its body) and plain JavaScript once types are
// stripped. It is compiled and loaded before the prelude and the program run, and uses only the
// built-ins the sandbox captured when it was made: a program that replaces `JSON.stringify`,
// `Object.keys` or `Array.prototype.sort`, or puts getters on `Array.prototype`, cannot make it
// answer a call the host would not have answered from the journal.

/**
 * The recorded calls go into the sandbox as one flat JSON array, four items a call: which method
 * (an id the host gives each namespace and method it recorded), how to read the rest (a sum of these
 * values), the input and the result. Inputs and plain results are codec text, which is JSON: the
 * host embeds them as they are, and the sandbox reads every call with one `JSON.parse` (flat and
 * without names, which makes that parse about 40% cheaper than a row of strings per call). The
 * sandbox side below uses the numbers themselves: it cannot import this object.
 */
export const REPLAY_KIND = {
  /** the result is the fourth item, as JSON */
  plainResult: 0,
  /** the fourth item is the codec's text of the result (a tagged value), as a string */
  taggedResult: 1,
  /** the result is `undefined` (the fourth item is null) */
  undefinedResult: 2,
  /** added when the recorded input is `undefined` (the third item is null) */
  undefinedInput: 4,
} as const;

/** A namespace method as the host installs it: the input, and how many calls were answered so far. */
export type ReplayHostMethod = (input: unknown, answered: number) => unknown;

/**
 * The replay part. `answered` and `ended` are plain data properties of this object, so the host reads
 * and sets them without running sandbox code (also after the pass ended, when the VM runs no more).
 */
export interface SandboxReplay {
  /** how many of the program's calls were answered here so far */
  answered: number;
  /** set by the host when the pass ends: no call is answered here any more */
  ended: boolean;
  /** how many answers wait for the host to hand them to the program (`deliver`) */
  waiting: number;
  /**
   * Hands the program the oldest waiting answer. The host calls it only once the program is idle
   * (its pending jobs all run), as it hands over a live reply.
   */
  deliver(): void;
  /** the recorded calls, in order, as the flat JSON array `REPLAY_KIND` describes */
  load(text: string): void;
  /**
   * The method the program sees: answers from the record while the calls match, else calls `host`.
   * `id` is the index the rows use for this namespace and method (-1 when none was recorded).
   */
  wrap(method: string, id: number, host: ReplayHostMethod): (input: unknown) => unknown;
}

/**
 * Answers the program's first calls from the recorded ones while they match in order: the same
 * namespace and method (the same id), and an input whose canonical encoding is the recorded one.
 * Plain data (what the encoder writes with `JSON.stringify`) is compared with the parsed record
 * directly, keys in any order, without encoding it; anything else is encoded as the host would
 * receive it and compared with every object's keys sorted on both sides (so the value codec is
 * compiled only for a call that sends a `Date`, `Map`, … or gets a tagged result). The first call that does not match (or cannot be answered here) goes to the
 * host and ends replay for the pass; so does every later call. A call that reaches the host carries
 * how many were answered so far, and the host reads `answered` when the pass ends: answering a call
 * here crosses no boundary.
 *
 * An answer does not settle the call's promise at once: it waits, in the order the calls were made,
 * until the host hands it over (`deliver`) once the program is idle, one at a time, as live replies
 * arrive. A chain that takes more microtask hops after its call than another then calls on at the
 * same point as it did live, so the program makes the same calls in the same order.
 */
export function sandboxReplay(
  helper: (name: "codec") => unknown,
  encode: (value: unknown) => string,
  canonical: (value: unknown) => string,
  parse: (text: string) => unknown,
  keysOf: (value: object) => string[],
  getPrototype: (value: object) => object | null,
  hasOwn: (value: object, key: string) => boolean,
  isArray: (value: unknown) => value is unknown[],
  objectPrototype: object,
  arrayPrototype: object,
  PromiseType: PromiseConstructor,
): SandboxReplay {
  const TAG = "$codemode";
  /** An answer waiting to be handed over; object literals only, so no prototype setter is reached. */
  interface Waiting {
    value: unknown;
    settle: (value: unknown) => void;
    next: Waiting | null;
  }
  let first: Waiting | null = null;
  let last: Waiting | null = null;
  let calls: unknown[] = [];
  let count = 0;
  let position = 0;
  let replaying = false;
  let codec: { decode(text: string): unknown } | undefined;

  /**
   * Whether `value` is plain data (what the encoder writes with JSON.stringify) equal to `recorded`,
   * a value `parse` made: same keys in any order, same items. False is not a mismatch yet.
   */
  function same(value: unknown, recorded: unknown, depth: number): boolean {
    switch (typeof value) {
      case "string":
      case "boolean":
        return value === recorded;
      case "number":
        // finite and not -0, as the encoder writes it unchanged
        return value === recorded && value - value === 0 && !(value === 0 && 1 / value < 0);
      case "object": {
        if (value === null) return recorded === null;
        if (typeof recorded !== "object" || recorded === null || depth > 32) return false;
        if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
        const prototype = getPrototype(value);
        if (prototype === arrayPrototype && isArray(value)) {
          if (!isArray(recorded) || value.length !== recorded.length) return false;
          for (let index = 0; index < value.length; index++) {
            if (!same(value[index], recorded[index], depth + 1)) return false;
          }
          return true;
        }
        if (prototype !== objectPrototype && prototype !== null) return false;
        if (isArray(recorded) || hasOwn(value, TAG)) return false;
        const record = value as Record<string, unknown>;
        const other = recorded as Record<string, unknown>;
        const keys = keysOf(record);
        if (keys.length !== keysOf(other).length) return false;
        for (let index = 0; index < keys.length; index++) {
          const key = keys[index] as string;
          if (!hasOwn(other, key) || !same(record[key], other[key], depth + 1)) return false;
        }
        return true;
      }
      default:
        return false;
    }
  }

  /** A promise of the recorded result if the call matches the next recorded one; else undefined. */
  function answer(id: number, input: unknown): unknown {
    // the count first: an index past the end would be read from a prototype the program can change
    if (position >= count) return undefined;
    const at = position * 4;
    if (calls[at] !== id) return undefined;
    const kind = calls[at + 1] as number;
    const recorded = calls[at + 2];
    const matches =
      kind >= 4
        ? input === undefined
        : input !== undefined &&
          (same(input, recorded, 0) || canonical(parse(encode(input))) === canonical(recorded));
    if (!matches) return undefined;
    let value: unknown;
    const resultKind = kind & 3;
    if (resultKind === 0) value = calls[at + 3];
    else if (resultKind === 1) {
      if (!codec) codec = helper("codec") as { decode(text: string): unknown };
      value = codec.decode(calls[at + 3] as string);
    }
    position++;
    api.answered = position;
    return new PromiseType((settle) => {
      const waiting: Waiting = { value, settle, next: null };
      if (last === null) first = waiting;
      else last.next = waiting;
      last = waiting;
      api.waiting++;
    });
  }

  const api: SandboxReplay = {
    answered: 0,
    ended: false,
    waiting: 0,
    deliver() {
      const next = first;
      if (next === null) return;
      first = next.next;
      if (first === null) last = null;
      api.waiting--;
      next.settle(next.value);
    },
    load(text) {
      try {
        const items = parse(text);
        calls = isArray(items) && items.length % 4 === 0 ? items : [];
      } catch {
        // unreadable (or no memory to read it): every call goes to the host
        calls = [];
      }
      count = calls.length / 4;
      position = 0;
      replaying = count > 0;
    },
    wrap(method, id, host) {
      // a computed key names the function after the method
      const named = {
        [method]: (input: unknown) => {
          if (replaying && !api.ended) {
            let answered: unknown;
            try {
              answered = answer(id, input);
            } catch {
              // unencodable input, a value too deep, out of memory: the host decides
              answered = undefined;
            }
            if (answered !== undefined) return answered;
            replaying = false;
          }
          return host(input, api.answered);
        },
      };
      return named[method] as (input: unknown) => unknown;
    },
  };
  return api;
}
