import { runInNewContext } from "node:vm";
import { createValueCodec } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { sandboxBootstrap } from "./sandbox-bootstrap.ts";
import { sandboxEncoder } from "./sandbox-encoder.ts";
import { sandboxErrors } from "./sandbox-parts.ts";
import { createRenderer } from "./sandbox-renderer.ts";
import { sandboxSource } from "./sandbox-source.ts";
import { sandboxTaggedWriter } from "./sandbox-tagged-writer.ts";
import {
  errorReply,
  isHostReply,
  okReply,
  outcomeError,
  type PassOutcome,
  readPassOutcome,
} from "./sandbox-wire.ts";

const ALL = [
  "ok",
  "thrown",
  "unserializable",
  "timeout",
  "load",
  "syntax",
  "problem",
] as const satisfies readonly PassOutcome[0][];

describe("HostReply", () => {
  it("is a tuple of strings of a fixed length, a field the error lacks being empty", () => {
    expect(okReply('{"a":1}')).toEqual(["ok", '{"a":1}']);
    expect(errorReply({ name: "TypeError", message: "no" })).toEqual([
      "error",
      "TypeError",
      "no",
      "",
      "",
    ]);
    expect(
      errorReply({ name: "E", message: "m", code: "HTTP_ERROR", data: '{"status":404}' }),
    ).toEqual(["error", "E", "m", "HTTP_ERROR", '{"status":404}']);
  });

  it("isHostReply accepts only the two shapes, whole", () => {
    for (const good of [okReply("1"), errorReply({ name: "E", message: "m" })]) {
      expect(isHostReply(good, Array.isArray)).toBe(true);
    }
    for (const bad of [
      'r"x"',
      ["ok"],
      ["ok", "1", "2"],
      ["ok", 1],
      ["error", "E", "m", ""],
      ["error", "E", "m", "", "", ""],
      ["error", "E", "m", "", null],
      ["r", "1"],
      { 0: "ok", 1: "1", length: 2 },
      null,
    ]) {
      expect(isHostReply(bad, Array.isArray), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("readPassOutcome", () => {
  it("answers a copy of a well-formed outcome of an allowed kind", () => {
    const outcomes: PassOutcome[] = [
      ["ok", "1"],
      ["thrown", "Error", "boom", "at x", "", ""],
      ["unserializable", "TypeError", "a function", "", "NOT_SERIALIZABLE"],
      ["timeout"],
      ["load", "prelude", "Error", "no", ""],
      ["syntax", "program", "Unexpected token"],
      ["problem", "a namespace hides a global"],
    ];
    for (const outcome of outcomes) {
      const read = readPassOutcome(outcome, ALL);
      expect(read).toEqual(outcome);
      expect(read).not.toBe(outcome);
    }
  });

  it("refuses every other shape, and kinds not allowed", () => {
    for (const bad of [
      undefined,
      "ok",
      [],
      ["ok"],
      ["ok", "1", ""],
      ["ok", 1],
      ["ok", ["1"]],
      [["ok"], "1"],
      ["thrown", "Error", "boom", "", ""],
      ["timeout", ""],
      ["load", "elsewhere", "Error", "no", ""],
      ["syntax", "(a+)+$", "no"],
      ["constructor", "x"],
      ["__proto__", "x"],
      { 0: "ok", 1: "1", length: 2 },
    ]) {
      expect(readPassOutcome(bad, ALL), JSON.stringify(bad)).toBeUndefined();
    }
    expect(readPassOutcome(["timeout"], ["ok", "thrown"])).toBeUndefined();
    expect(readPassOutcome(["ok", "1"], ["ok", "thrown"])).toEqual(["ok", "1"]);
  });
});

describe("outcomeError", () => {
  it("tells a thrown error, an unknown method, a deep recursion and a result that cannot cross", () => {
    expect(outcomeError(["thrown", "RangeError", "bad", "stack", "", ""])).toEqual({
      name: "RangeError",
      message: "bad",
      stack: "stack",
      code: "THROWN",
    });
    expect(
      outcomeError(["thrown", "TypeError", "no", "", "UNKNOWN_METHOD", '["ns","nope"]']),
    ).toMatchObject({ code: "UNKNOWN_METHOD", method: { namespace: "ns", name: "nope" } });
    expect(
      outcomeError(["thrown", "RangeError", "Maximum call stack size exceeded", "", "", ""]),
    ).toMatchObject({ code: "MEMORY" });
    expect(
      outcomeError(["unserializable", "TypeError", "a function", "", "NOT_SERIALIZABLE"]),
    ).toMatchObject({ code: "NOT_SERIALIZABLE", name: "TypeError" });
    expect(outcomeError(["unserializable", "", "getter threw", "", ""])).toMatchObject({
      name: "Error",
      code: "THROWN",
    });
  });
});

describe("the bootstrap on the wire", () => {
  /**
   * The bootstrap in a realm of its own, as a sandbox has it; the host answers `ns.echo` with its
   * input and `ns.fail` with an error without code or data, and records the outcome.
   */
  function pass(program: string): Promise<PassOutcome> {
    const realm = runInNewContext("globalThis") as object;
    const compile = <T>(fn: T) =>
      runInNewContext(sandboxSource(fn as (...args: never[]) => unknown), realm) as T;
    const codec = createValueCodec;
    return new Promise((settle) => {
      const api = compile(sandboxBootstrap)(
        (_namespace, method, input, answer) => {
          if (method === "echo") answer(okReply(input));
          else setTimeout(() => answer(errorReply({ name: "RangeError", message: "refused" })), 1);
        },
        () => {},
        settle,
        null,
        (name) => (name === "codec" ? codec : createRenderer),
        JSON.stringify({ namespaces: { ns: ["echo", "fail"] }, timers: false, maxLineChars: 100 }),
        compile(sandboxEncoder),
        compile(sandboxErrors),
        compile(sandboxTaggedWriter),
      );
      api.run(runInNewContext(`(${program})`, realm));
    });
  }

  it("reads replies by index and reports outcomes as tuples, under a program's accessors", async () => {
    const outcome = await pass(`async () => {
      Array.prototype.then = function (resolve) { resolve(["ok", '"forged"']); };
      for (const index of ["1", "2", "3", "4", "5"]) {
        Object.defineProperty(Array.prototype, index, { get() { return '"forged"'; }, configurable: true });
      }
      for (const name of ["code", "data", "name", "message"]) {
        Object.defineProperty(Object.prototype, name, { get() { return "FORGED"; }, configurable: true });
      }
      String.prototype.slice = () => '"forged"';
      const echoed = await ns.echo({ a: 1 });
      let failed;
      try { await ns.fail(1); } catch (error) {
        failed = [Object.getOwnPropertyNames(error).includes("code"), Object.getOwnPropertyDescriptor(error, "message").value];
      }
      throw new RangeError(JSON.stringify([Object.keys(echoed), echoed.a, failed]));
    }`);
    expect(outcome).toHaveLength(6);
    expect(outcome[0]).toBe("thrown");
    expect(JSON.parse(outcome[2] as string)).toEqual([["a"], 1, [false, "refused"]]);
  });

  it("settles with the encoded result", async () => {
    expect(await pass(`async () => ns.echo([1, "two"])`)).toEqual(["ok", '[1,"two"]']);
  });
});
