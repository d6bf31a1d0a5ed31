import { createValueCodec } from "./value-codec.ts";

const codec = createValueCodec();

/**
 * A value as a person is shown it over JSON: plain JSON data stays as it is, and what JSON cannot
 * hold says what it is in the value codec's tagged form (`{ "$codemode": "Map", ... }` for a Map, a
 * Set, bytes, a bigint, `undefined`, a Date), so no two different inputs read the same and none
 * fails to be sent. Every surface that shows a call's input to a person shows it this way.
 */
export function shownValue(value: unknown): unknown {
  return JSON.parse(codec.encode(value));
}
