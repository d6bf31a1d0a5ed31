// visibleText: every character a person cannot see, or that reorders what they read, becomes a
// visible \u escape; text a person reads as it is stays as it is.
import { describe, expect, it } from "vitest";
import { visibleText } from "./visible-text.ts";

const hex = (code: number) => `\\u${code.toString(16).padStart(4, "0")}`;
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe("visibleText", () => {
  it("escapes controls, bidi embeddings, overrides, isolates and marks, and zero-width characters", () => {
    const unseen = [
      ...range(0x00, 0x1f),
      ...range(0x7f, 0x9f),
      ...range(0x202a, 0x202e),
      ...range(0x2066, 0x2069),
      0x200e,
      0x200f,
      0x061c,
      ...range(0x200b, 0x200d),
      0x2060,
      0xfeff,
      0x00ad,
      0x2028,
      0x2029,
      0x00a0,
      0x3000,
      0xfe0f,
      0x3164,
      0x2800,
    ];
    for (const code of unseen) {
      expect(visibleText(`a${String.fromCharCode(code)}b`)).toBe(`a${hex(code)}b`);
    }
  });

  it("escapes tag characters and lone surrogates unit by unit, as JSON would write them", () => {
    expect(visibleText("x\u{E0041}y")).toBe("x\\udb40\\udc41y");
    expect(visibleText("x\uD800y\uDC00")).toBe("x\\ud800y\\udc00");
    // inside a JSON string the escape means the same character
    const shown = visibleText(JSON.stringify({ to: "evil\u202Emoc.elpmaxe\u200B" }));
    expect(shown).toBe('{"to":"evil\\u202emoc.elpmaxe\\u200b"}');
    expect(JSON.parse(shown)).toEqual({ to: "evil\u202Emoc.elpmaxe\u200B" });
  });

  it("leaves what a person reads as it is: letters of any script, combining marks, emoji, spaces", () => {
    const seen = "Grüße, 東京 — cafe\u0301, שלום, 🙂 and a space";
    expect(visibleText(seen)).toBe(seen);
    // an emoji sequence joined by U+200D shows its joiner: it could join anything else too
    expect(visibleText("👩\u200D💻")).toBe("👩\\u200d💻");
  });
});
