import { CodemodeError } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { unwrapToolResult } from "./unwrap-tool-result.ts";

const text = (value: string) => ({ type: "text" as const, text: value });

describe("unwrapToolResult", () => {
  it("prefers structuredContent over the text beside it", () => {
    expect(
      unwrapToolResult({ structuredContent: { a: 1 }, content: [text('{"a":2}')] }, "t.x"),
    ).toEqual({ a: 1 });
  });

  it("parses one text block that is JSON and keeps any other text as a string", () => {
    expect(unwrapToolResult({ content: [text('{"ok":true}')] }, "t.x")).toEqual({ ok: true });
    expect(unwrapToolResult({ content: [text("[1,2]")] }, "t.x")).toEqual([1, 2]);
    expect(unwrapToolResult({ content: [text("42")] }, "t.x")).toBe(42);
    expect(unwrapToolResult({ content: [text("{not json")] }, "t.x")).toBe("{not json");
    expect(unwrapToolResult({ content: [text("")] }, "t.x")).toBe("");
  });

  it("returns several blocks as they are and nothing for empty content", () => {
    const content = [text("a"), text("b")];
    expect(unwrapToolResult({ content }, "t.x")).toBe(content);
    expect(unwrapToolResult({ content: [] }, "t.x")).toBeUndefined();
    expect(unwrapToolResult({ toolResult: { legacy: true } }, "t.x")).toEqual({ legacy: true });
  });

  it("throws the server's message for isError, or says there was none", () => {
    const failing = (answer: Parameters<typeof unwrapToolResult>[0]) => {
      try {
        unwrapToolResult(answer, "shop.buy");
      } catch (error) {
        expect(CodemodeError.isInstance(error)).toBe(true);
        return error as CodemodeError;
      }
      throw new Error("expected a throw");
    };
    const error = failing({ isError: true, content: [text("Out of stock."), text("Try later.")] });
    expect(error.code).toBe("CONNECTOR_FAILED");
    expect(error.message).toBe("Out of stock.\nTry later.");
    expect(error.details).toMatchObject({ tool: "shop.buy" });
    expect(failing({ isError: true, content: [], structuredContent: { code: 7 } }).message).toBe(
      '{"code":7}',
    );
    expect(failing({ isError: true, content: [] }).message).toBe(
      "shop.buy failed and the server gave no message.",
    );
  });
});
