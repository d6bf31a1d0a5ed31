import { describe, expect, it } from "vitest";
import { knownEncodings } from "./known-encodings.ts";

describe("knownEncodings", () => {
  it("hands an input's text to the host function it is called with, once", () => {
    const input = { key: 1 };
    const taken = knownEncodings.withInput(input, '{"key":1}', () => [
      knownEncodings.takeInput({ key: 1 }),
      knownEncodings.takeInput(input),
      knownEncodings.takeInput(input),
    ]);
    expect(taken).toEqual([undefined, '{"key":1}', undefined]);
  });

  it("forgets the input when the call returns or throws", () => {
    const input = { key: 2 };
    knownEncodings.withInput(input, '{"key":2}', () => undefined);
    expect(knownEncodings.takeInput(input)).toBeUndefined();
    expect(() =>
      knownEncodings.withInput(input, '{"key":2}', () => {
        throw new Error("host failed");
      }),
    ).toThrow("host failed");
    expect(knownEncodings.takeInput(input)).toBeUndefined();
    // primitives are not worth noting: their text is cheap to write again
    expect(knownEncodings.withInput(3, "3", () => knownEncodings.takeInput(3))).toBeUndefined();
  });

  it("hands the holder of a reply's recorded text to the caller of the host function, once", async () => {
    const holder: { text?: string } = {};
    const reply = Promise.resolve().then(() => {
      holder.text = '"done"';
      return "done";
    });
    knownEncodings.noteReply(reply, holder);
    expect(knownEncodings.takeReply(Promise.resolve("done"))).toBeUndefined();
    const taken = knownEncodings.takeReply(reply);
    expect(knownEncodings.takeReply(reply)).toBeUndefined();
    await reply;
    expect(taken?.text).toBe('"done"');
  });
});
