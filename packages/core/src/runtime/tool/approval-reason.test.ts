import { describe, expect, it } from "vitest";
import type { PendingAction } from "../../types.ts";
import { approvalReason, isApprovalReason } from "./approval-reason.ts";

const action = (seq: number, args: unknown, inDoubt?: string): PendingAction => ({
  executionId: "exec_1",
  seq,
  connector: "issues",
  method: "create",
  args,
  digest: "d",
  ...(inDoubt === undefined ? {} : { inDoubt }),
});

describe("approvalReason", () => {
  it("shows each waiting call with its exact input, one line each, and says which may have run", () => {
    const one = approvalReason("exec_1", [action(1, { title: "Triage" })]);
    expect(one).toBe(
      'Approve this call of codemode run exec_1:\n#1 issues.create({"title":"Triage"})',
    );
    const two = approvalReason("exec_1", [
      action(1, { title: "line\u2028break\u202Eevil" }),
      action(2, undefined, "it may have\n  run"),
    ]);
    expect(two).toBe(
      "Approve these 2 calls of codemode run exec_1:\n" +
        '#1 issues.create({"title":"line\\u2028break\\u202eevil"})\n' +
        '#2 issues.create({"$codemode":"undefined"})\n' +
        "  in doubt: it may have run",
    );
    expect(isApprovalReason(one)).toBe(true);
    expect(isApprovalReason(two)).toBe(true);
    expect(isApprovalReason("Approve this call, please")).toBe(false);
    expect(isApprovalReason(undefined)).toBe(false);
  });

  it("says where each call goes when its method names an operation, on a line of its own", () => {
    const reason = approvalReason("exec_1", [
      {
        ...action(1, { id: 1 }, "it may have run"),
        operation: "DELETE https://api.example/items/{id}",
      },
      { ...action(2, { id: 2 }), operation: "GET /x\u202Eevil" },
    ]);
    expect(reason).toBe(
      "Approve these 2 calls of codemode run exec_1:\n" +
        '#1 issues.create({"id":1})\n' +
        "  operation: DELETE https://api.example/items/{id}\n" +
        "  in doubt: it may have run\n" +
        '#2 issues.create({"id":2})\n' +
        "  operation: GET /x\\u202eevil",
    );
  });
});
