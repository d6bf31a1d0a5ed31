import type { ToolAnnotations } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { approvalFromAnnotations } from "./approval-from-annotations.ts";

describe("approvalFromAnnotations", () => {
  it.each<[string, ToolAnnotations | undefined, boolean, boolean]>([
    // name, annotations, needs approval from an untrusted server, from a trusted one
    ["read-only", { readOnlyHint: true }, true, false],
    [
      "read-only and destructive: destructive wins",
      { readOnlyHint: true, destructiveHint: true },
      true,
      true,
    ],
    ["destructive", { destructiveHint: true }, true, true],
    ["destructive, not read-only", { readOnlyHint: false, destructiveHint: true }, true, true],
    ["only adds", { readOnlyHint: false, destructiveHint: false }, true, false],
    ["no annotations", undefined, true, true],
    ["not read-only, destructiveness unsaid", { readOnlyHint: false }, true, true],
    ["only other hints", { idempotentHint: true, openWorldHint: false }, true, true],
  ])("%s", (_name, annotations, untrusted, trusted) => {
    expect(approvalFromAnnotations(annotations)).toBe(untrusted);
    expect(approvalFromAnnotations(annotations, { trusted: false })).toBe(untrusted);
    expect(approvalFromAnnotations(annotations, { trusted: true })).toBe(trusted);
  });

  it("uses the given default when the annotations decide nothing, and destructive still asks", () => {
    for (const trusted of [false, true]) {
      expect(approvalFromAnnotations(undefined, { trusted, unannotated: false })).toBe(false);
      expect(
        approvalFromAnnotations({ openWorldHint: true }, { trusted, unannotated: false }),
      ).toBe(false);
      expect(
        approvalFromAnnotations({ destructiveHint: true }, { trusted, unannotated: false }),
      ).toBe(true);
    }
    // an untrusted server's read-only hint decides nothing: the default does
    expect(approvalFromAnnotations({ readOnlyHint: true }, { unannotated: false })).toBe(false);
  });
});
