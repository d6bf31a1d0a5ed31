import { describe, expect, it } from "vitest";
import { thrownError } from "./sandbox-error.ts";
import { sandboxErrors } from "./sandbox-parts.ts";

describe("thrownError", () => {
  const errors = sandboxErrors(() => ({ render: String }), Error, TypeError, Object.keys);

  it("keeps UNKNOWN_METHOD and the method the sandbox's own error names", () => {
    const [name, message, stack, code, method] = errors.describe(
      errors.unknownMethod("tracker", "list_issue", { list_issues: () => 1 }),
    );
    expect(thrownError({ name, message, stack, code, method })).toMatchObject({
      name: "TypeError",
      code: "UNKNOWN_METHOD",
      method: { namespace: "tracker", name: "list_issue" },
    });
  });

  it("marks a thrown value it could not read, which the program sees as a plain throw", () => {
    const hostile = Object.defineProperty(new Error("x"), "message", {
      get() {
        throw new Error("no");
      },
    });
    const [name, message, stack, code, method] = errors.describe(hostile);
    expect([name, message, code]).toEqual([
      "Error",
      "A value that cannot be read was thrown.",
      "UNREADABLE",
    ]);
    expect(thrownError({ name, message, stack, code, method }).code).toBe("THROWN");
  });

  it("treats anything else as a plain throw, whatever the sandbox sends", () => {
    const forged = Object.assign(new Error("x"), { code: "UNKNOWN_METHOD" });
    const [name, message, stack, code, method] = errors.describe(forged);
    expect(method).toBe("");
    expect(thrownError({ name, message, stack, code, method }).code).toBe("THROWN");
    for (const bad of [{ toString: () => "[]" }, "[1,2]", "not json", "x".repeat(5_000)]) {
      expect(thrownError({ name: 7, message: {}, code: "UNKNOWN_METHOD", method: bad })).toEqual({
        name: "Error",
        message: "",
        code: "THROWN",
      });
    }
  });
});
