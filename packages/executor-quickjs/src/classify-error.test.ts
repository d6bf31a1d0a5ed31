import releaseSyncVariant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import { describe, expect, it } from "vitest";
import {
  classifyError,
  hostFault,
  type PassLimits,
  readError,
  syntaxError,
} from "./classify-error.ts";

function limits(overrides: Partial<{ timedOut: boolean; near: boolean }> = {}) {
  const seen = { outOfMemory: false };
  const value: PassLimits = {
    timeoutMs: 1_000,
    memoryBytes: 16 * 1024 * 1024,
    timedOut: overrides.timedOut ?? false,
    nearMemoryLimit: () => overrides.near ?? false,
    onOutOfMemory: () => {
      seen.outOfMemory = true;
    },
  };
  return { value, seen };
}

describe("classifyError", () => {
  it("tells QuickJS's own failures from what the program threw", () => {
    const { value, seen } = limits();
    expect(classifyError({ name: "InternalError", message: "out of memory" }, value)).toMatchObject(
      {
        code: "MEMORY",
        message: expect.stringContaining("16 MiB"),
      },
    );
    expect(seen.outOfMemory).toBe(true);
    expect(classifyError({ name: "InternalError", message: "stack overflow" }, value).code).toBe(
      "MEMORY",
    );
    expect(classifyError({ name: "InternalError", message: "interrupted" }, value).code).toBe(
      "TIMEOUT",
    );
    expect(
      classifyError({ name: "TypeError", message: "x is undefined", stack: "at f" }, value),
    ).toEqual({ name: "TypeError", message: "x is undefined", stack: "at f", code: "THROWN" });
  });

  it("takes the time limit over anything else, and a lost job near the memory cap as MEMORY", () => {
    expect(
      classifyError({ name: "Error", message: "boom" }, limits({ timedOut: true }).value).code,
    ).toBe("TIMEOUT");
    expect(
      classifyError({ name: "Error", message: "null", code: "NULL" }, limits({ near: true }).value)
        .code,
    ).toBe("MEMORY");
    expect(
      classifyError({ name: "Error", message: "null", code: "NULL" }, limits().value).code,
    ).toBe("THROWN");
    // QuickJS's own error made without the message it had no memory for
    const messageless = { name: "InternalError", message: "" };
    expect(classifyError(messageless, limits({ near: true }).value).code).toBe("MEMORY");
    expect(classifyError(messageless, limits().value).code).toBe("THROWN");
    // an error the sandbox had no memory left to read, at the cap and away from it
    const unreadable = { name: "Error", message: "[object Object]", code: "UNREADABLE" };
    expect(classifyError(unreadable, limits({ near: true }).value).code).toBe("MEMORY");
    expect(classifyError(unreadable, limits().value)).toEqual({
      name: "Error",
      message: "[object Object]",
      code: "THROWN",
    });
  });

  it("crosses an unknown method with its namespace and name, and only what the sandbox wrote", () => {
    const { value } = limits();
    expect(
      classifyError(
        { name: "TypeError", message: "no", code: "UNKNOWN_METHOD", method: '["ns","nope"]' },
        value,
      ),
    ).toMatchObject({ code: "UNKNOWN_METHOD", method: { namespace: "ns", name: "nope" } });
    expect(
      classifyError(
        { name: "TypeError", message: "no", code: "UNKNOWN_METHOD", method: "{not json" },
        value,
      ).code,
    ).toBe("THROWN");
  });
});

describe("hostFault and syntaxError", () => {
  it("names a fault of the host layer, and where a syntax error is", () => {
    expect(hostFault(new RangeError("Maximum call stack size exceeded"), limits().value).code).toBe(
      "MEMORY",
    );
    const trap = Object.assign(new Error("memory access out of bounds"), { name: "RuntimeError" });
    expect(hostFault(trap, limits({ near: true }).value).code).toBe("MEMORY");
    expect(hostFault(trap, limits().value).code).toBe("THROWN");
    expect(hostFault(new Error("wasm trap"), limits().value)).toMatchObject({
      name: "InternalError",
      code: "THROWN",
      message: expect.stringContaining("wasm trap"),
    });
    expect(
      syntaxError({
        name: "SyntaxError",
        message: "unexpected token",
        stack: "at codemode.js:1:5",
      }),
    ).toEqual({
      name: "SyntaxError",
      code: "SYNTAX_ERROR",
      message: "unexpected token (line 1, column 4)",
    });
  });
});

describe("readError", () => {
  it("reads an error's name and message, a thrown primitive as text, and marks what it cannot read", async () => {
    const module = await newQuickJSWASMModuleFromVariant(releaseSyncVariant);
    const context = module.newContext();
    try {
      const read = (code: string) => {
        const handle = context.unwrapResult(context.evalCode(code));
        try {
          return readError(context, handle);
        } finally {
          handle.dispose();
        }
      };
      expect(read("new TypeError('no')")).toMatchObject({ name: "TypeError", message: "no" });
      expect(read("'plain'")).toEqual({ name: "Error", message: "plain" });
      expect(read("null")).toEqual({ name: "InternalError", message: "out of memory" });
      // an object that cannot be read as JSON
      expect(read("({ toJSON() { throw new Error('no') } })").code).toBe("UNREADABLE");
      // an error whose message could not be copied (as when the sandbox is out of memory): only in part
      const partial = read(
        "(() => { const e = new InternalError('x'); Object.defineProperty(e, 'message', { get() { throw 1 } }); return e })()",
      );
      expect(partial).toMatchObject({ name: "InternalError", message: "", code: "UNREADABLE" });
      expect(classifyError(partial, limits({ near: true }).value).code).toBe("MEMORY");
      expect(classifyError(partial, limits().value).code).toBe("THROWN");
      // a thrown object that has no message is read whole and stays the program's own throw
      expect(classifyError(read("({ reason: 1 })"), limits().value).code).toBe("THROWN");
    } finally {
      context.dispose();
    }
  });
});
