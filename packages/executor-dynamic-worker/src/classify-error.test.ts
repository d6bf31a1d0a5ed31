import { describe, expect, it } from "vitest";
import {
  crashError,
  isolateDied,
  loadError,
  passError,
  programSyntaxError,
} from "./classify-error.ts";
import { PROGRAM_LINE_OFFSET } from "./harness-source.ts";

describe("passError", () => {
  it("tells a timeout, a thrown error, an unknown method and a result that cannot cross", () => {
    expect(passError(["timeout"], 1_500)).toMatchObject({
      code: "TIMEOUT",
      message: expect.stringContaining("1500"),
    });
    expect(passError(["thrown", "RangeError", "bad", "at x", "", ""], 1_000)).toEqual({
      name: "RangeError",
      message: "bad",
      stack: "at x",
      code: "THROWN",
    });
    expect(
      passError(["thrown", "TypeError", "no", "", "UNKNOWN_METHOD", '["ns","nope"]'], 1_000),
    ).toMatchObject({ code: "UNKNOWN_METHOD", method: { namespace: "ns", name: "nope" } });
    expect(
      passError(["unserializable", "TypeError", "a function", "", "NOT_SERIALIZABLE"], 1_000),
    ).toMatchObject({ code: "NOT_SERIALIZABLE" });
  });

  it("gives a module that failed to load the program's own line numbers", () => {
    const line = 3 + PROGRAM_LINE_OFFSET;
    expect(
      passError(
        ["load", "program", "SyntaxError", "Unexpected token", `at program.js:${line}:7`],
        1_000,
      ),
    ).toEqual({
      name: "SyntaxError",
      code: "SYNTAX_ERROR",
      message: "Unexpected token (line 3, column 7)",
    });
    expect(passError(["load", "prelude", "SyntaxError", "Bad", "prelude.js:4"], 1_000)).toEqual({
      name: "SyntaxError",
      code: "SYNTAX_ERROR",
      message: "The prelude failed: Bad (line 4)",
    });
    expect(passError(["load", "prelude", "TypeError", "x is undefined", ""], 1_000)).toEqual({
      name: "TypeError",
      code: "THROWN",
      message: "The prelude failed: x is undefined",
    });
    expect(loadError("program", { name: "SyntaxError", message: "Bad" })).toMatchObject({
      code: "SYNTAX_ERROR",
      message: "Bad",
    });
  });
});

describe("programSyntaxError", () => {
  it("names the program's own line and column, and shows the line", () => {
    const code = "async () => {\n  const x = ;\n}";
    expect(
      programSyntaxError(code, {
        ok: false,
        message: "Unexpected token",
        line: 2 + PROGRAM_LINE_OFFSET,
        column: 12,
      }),
    ).toEqual({
      name: "SyntaxError",
      code: "SYNTAX_ERROR",
      message: "Unexpected token (line 2, column 13): const x = ;",
    });
  });

  it("puts a position past the program's lines at its end, and cuts a long line", () => {
    const long = `async () => ${"x".repeat(200)}`;
    const failure = { ok: false as const, message: "Unexpected end", line: 9, column: 0 };
    const error = programSyntaxError(long, failure);
    expect(error.message).toMatch(
      /^Unexpected end \(line 1, column 213\): async \(\) => x+\.\.\.$/,
    );
    expect(error.message.length).toBeLessThan(160);
  });
});

describe("crashError", () => {
  it("reads workerd's messages: a module that did not compile, the CPU limit, memory, a hang", () => {
    const line = 2 + PROGRAM_LINE_OFFSET;
    expect(
      crashError(
        new Error(`Uncaught SyntaxError: Unexpected identifier\n  at program.js:${line}:5`),
      ),
    ).toEqual({
      name: "SyntaxError",
      code: "SYNTAX_ERROR",
      message: "Unexpected identifier (line 2, column 5)",
    });
    expect(crashError(new Error("SyntaxError: Invalid regular expression"))).toMatchObject({
      code: "SYNTAX_ERROR",
      message: "Invalid regular expression",
    });
    expect(crashError(new Error("Worker exceeded CPU time limit."))).toMatchObject({
      name: "TimeoutError",
      code: "TIMEOUT",
      message: expect.stringContaining("(Worker exceeded CPU time limit.)"),
    });
    expect(crashError(new Error("Worker exceeded memory limit."))).toMatchObject({
      name: "RangeError",
      code: "MEMORY",
    });
    expect(
      crashError(
        new Error(
          "The Workers runtime canceled this request because it detected that your Worker's code had hung and would never generate a response.",
        ),
      ),
    ).toMatchObject({ code: "THROWN", message: expect.stringMatching(/can never settle/) });
  });

  it("says whether the worker died or failed otherwise", () => {
    expect(crashError(new Error("Network connection lost."))).toMatchObject({
      code: "THROWN",
      message: "The sandbox worker died and the run was stopped: Network connection lost.",
    });
    expect(crashError("no such entrypoint")).toMatchObject({
      code: "THROWN",
      message: "The sandbox worker failed and the run was stopped: no such entrypoint",
    });
  });
});

describe("isolateDied", () => {
  it("is true only for the messages of an isolate that is gone", () => {
    for (const gone of [
      "Worker exceeded memory limit.",
      "Worker exceeded CPU time limit.",
      "Network connection lost.",
      "internal error",
      "The worker was killed",
    ]) {
      expect(isolateDied(new Error(gone)), gone).toBe(true);
    }
    for (const alive of ["TypeError: x is not a function", "the reply is not readable"]) {
      expect(isolateDied(new Error(alive)), alive).toBe(false);
    }
  });
});
