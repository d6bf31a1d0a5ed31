import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { approvalFromAnnotations } from "./approval-from-annotations.ts";

describe("approvalFromAnnotations", () => {
  it.each<[string, ToolAnnotations | undefined, boolean]>([
    ["read-only", { readOnlyHint: true }, false],
    ["read-only wins over destructive", { readOnlyHint: true, destructiveHint: true }, false],
    ["destructive", { destructiveHint: true }, true],
    ["destructive, not read-only", { readOnlyHint: false, destructiveHint: true }, true],
    ["only adds", { readOnlyHint: false, destructiveHint: false }, false],
    ["no annotations", undefined, true],
    ["not read-only, destructiveness unsaid", { readOnlyHint: false }, true],
    ["only other hints", { idempotentHint: true, openWorldHint: false }, true],
  ])("%s", (_name, annotations, expected) => {
    expect(approvalFromAnnotations(annotations)).toBe(expected);
  });

  it("uses the given default when the annotations say nothing", () => {
    expect(approvalFromAnnotations(undefined, false)).toBe(false);
    expect(approvalFromAnnotations({ openWorldHint: true }, false)).toBe(false);
    expect(approvalFromAnnotations({ destructiveHint: true }, false)).toBe(true);
  });
});
