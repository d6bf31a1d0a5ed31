import { describe, expect, it } from "vitest";
import { MAX_OPERATION_LENGTH, operationProblem } from "./operation.ts";

describe("operationProblem", () => {
  it("takes one line of visible text", () => {
    expect(operationProblem("POST https://api.example.com/v1/tasks/{id}")).toBeUndefined();
    expect(operationProblem("é 名前 🙂")).toBeUndefined();
    expect(operationProblem("x".repeat(MAX_OPERATION_LENGTH))).toBeUndefined();
  });

  it("refuses what is not a string, empty or too long", () => {
    expect(operationProblem(42)).toBe("is a number, not a string");
    expect(operationProblem(null)).toBe("is a object, not a string");
    expect(operationProblem("  ")).toBe("is empty");
    expect(operationProblem("x".repeat(MAX_OPERATION_LENGTH + 1))).toBe(
      `has ${MAX_OPERATION_LENGTH + 1} characters (at most ${MAX_OPERATION_LENGTH})`,
    );
  });

  it.each([
    ["a line break", "GET /a\nPOST /b", "000A"],
    ["a control", "GET /a\u0000", "0000"],
    ["a right-to-left override", "GET /\u202Eevil", "202E"],
    ["a zero-width space", "GET /a\u200Bb", "200B"],
    ["a line separator", "GET /a\u2028", "2028"],
    ["a lone surrogate", "GET /\uD800", "D800"],
    ["a Hangul filler", "GET /items\u3164/{id}", "3164"],
    ["a variation selector", "GET /a\uFE0F", "FE0F"],
    ["the braille blank", "GET /a\u2800", "2800"],
    ["a no-break space", "GET\u00A0/a", "00A0"],
  ])("refuses %s", (_name, operation, unit) => {
    expect(operationProblem(operation)).toContain(`U+${unit}`);
  });
});
