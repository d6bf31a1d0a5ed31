import { describe, expect, it } from "vitest";
import {
  CODEMODE_TOOL,
  isApprovalCall,
  isCodemodeTool,
  misconfigured,
  ownApproval,
  userApproval,
} from "./tool-approval.ts";

describe("tool approval", () => {
  it("tells the AI SDK's generic call shape and codemode's tools apart", () => {
    expect(isApprovalCall({ toolCall: { toolName: "codemode", toolCallId: "call_1" } })).toBe(true);
    expect(isApprovalCall({ toolCall: { toolName: "codemode" } })).toBe(false);
    expect(isApprovalCall({ code: "async () => 1" })).toBe(false);
    expect(isCodemodeTool({ [CODEMODE_TOOL]: true })).toBe(true);
    expect(isCodemodeTool({ needsApproval: true })).toBe(false);
    expect(isCodemodeTool(undefined)).toBe(false);
  });

  it("keeps another tool's own needsApproval: a flag, or a function of its input and context", async () => {
    const call = (tools: Record<string, unknown>) => ({
      toolCall: { toolName: "mail", toolCallId: "call_1", input: { to: "a" } },
      tools,
      toolsContext: { mail: { user: "ada" } },
      messages: ["m"],
    });
    expect(await ownApproval({ needsApproval: true }, call({}))).toBe("user-approval");
    expect(await ownApproval({}, call({}))).toBe("not-applicable");
    const seen: unknown[] = [];
    const asks = async (input: unknown, options: unknown) => {
      seen.push([input, options]);
      return false;
    };
    expect(await ownApproval({ needsApproval: asks }, call({}))).toBe("not-applicable");
    expect(seen).toEqual([
      [{ to: "a" }, { toolCallId: "call_1", messages: ["m"], context: { user: "ada" } }],
    ]);
  });

  it("answers a setup that would leave a run with nobody asked: nothing ran, and the fix", () => {
    const notAsked = misconfigured("not-asked");
    expect(notAsked).toMatchObject({ status: "error", executionId: "", code: "INVALID_CONFIG" });
    expect((notAsked as { error: string }).error).toMatch(
      /^Nothing ran: this codemode call reached execute without codemode's approval check/,
    );
    expect((misconfigured("not-answered", "exec_1", 2) as { error: string }).error).toContain(
      "the run waits for a person's approval of 2 calls",
    );
    expect(misconfigured("asked-before-run")).toMatchObject({ code: "INVALID_CONFIG" });
    expect(userApproval("why")).toEqual({ type: "user-approval", reason: "why" });
  });
});
