import { describe, expect, it } from "vitest";
import { type HarnessOutcome, readHarnessReply } from "./worker-harness.ts";

describe("readHarnessReply", () => {
  it("reads the reply the harness writes: its outcome, console lines and replay count", () => {
    const outcomes: HarnessOutcome[] = [
      ["ok", '{"a":1}'],
      ["thrown", "Error", "boom", "at program.js:2:3", "", ""],
      ["unserializable", "TypeError", "a function", "", "NOT_SERIALIZABLE"],
      ["timeout"],
      ["load", "prelude", "SyntaxError", "Bad", ""],
      ["problem", "a namespace hides a global"],
    ];
    for (const outcome of outcomes) {
      const text = JSON.stringify({ outcome, logs: '[["a"],0]', replayed: 2 });
      expect(readHarnessReply(text)).toEqual({ outcome, logs: '[["a"],0]', replayed: 2 });
    }
    expect(readHarnessReply('{"outcome":["timeout"],"replayed":0}')).toEqual({
      outcome: ["timeout"],
      logs: undefined,
      replayed: 0,
    });
  });

  it("refuses a reply it cannot read, and an outcome of another shape or kind", () => {
    for (const bad of [
      undefined,
      42,
      "null",
      "[]",
      "{}",
      '{"outcome":"ok"}',
      '{"outcome":["ok"]}',
      '{"outcome":["ok",1]}',
      '{"outcome":["thrown","Error","boom","",""]}',
      '{"outcome":["load","elsewhere","Error","no",""]}',
      // the iframe's kind, not this harness's
      '{"outcome":["syntax","program","Unexpected token"]}',
      '{"outcome":["ok","1","extra"]}',
    ]) {
      expect(() => readHarnessReply(bad), String(bad)).toThrow();
    }
  });
});
