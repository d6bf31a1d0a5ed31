import { MAX_HANDLE_CALLS, MAX_OPERATION_LENGTH } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { approvalQuestion, codemodeApproval, shownCalls } from "./codemode-approval.ts";

// The payload comes back from the client: what it may hold is bounded before anything walks it.
const validate = (value: unknown) => codemodeApproval.payloadSchema["~standard"].validate(value);
const call = (seq: number) => ({
  seq,
  connector: "crm",
  method: "update",
  input: { id: seq },
  digest: "a".repeat(64),
});
const payload = (count: number) => ({
  executionId: "exec_1",
  toolCallId: "call_1",
  calls: Array.from({ length: count }, (_, seq) => call(seq)),
});

describe("codemodeApproval's payload", () => {
  it("takes 1 to MAX_HANDLE_CALLS calls, as a decision handle does, and refuses more or none", () => {
    expect(validate(payload(1))).toEqual({ value: payload(1) });
    expect(validate(payload(MAX_HANDLE_CALLS))).toHaveProperty("value");
    for (const count of [0, MAX_HANDLE_CALLS + 1]) {
      expect(validate(payload(count))).toEqual({
        issues: [
          { message: `The payload needs the calls the run waits for (1 to ${MAX_HANDLE_CALLS}).` },
        ],
      });
    }
    const schema = codemodeApproval.payloadSchema["~standard"].jsonSchema.input({
      target: "draft-07",
    });
    expect(schema).toMatchObject({
      properties: { calls: { minItems: 1, maxItems: MAX_HANDLE_CALLS } },
    });
  });
});

describe("codemodeApproval's calls", () => {
  it("carry where each goes when it names an operation: a string of 1 to MAX_OPERATION_LENGTH", () => {
    const withOperation = (operation: unknown) => ({
      ...payload(1),
      calls: [{ ...call(0), operation }],
    });
    const named = withOperation("PATCH https://crm.example/v1/items/{id}");
    expect(validate(named)).toEqual({ value: named });
    expect(validate(withOperation("x".repeat(MAX_OPERATION_LENGTH)))).toHaveProperty("value");
    for (const operation of ["", "x".repeat(MAX_OPERATION_LENGTH + 1), 7, null, undefined]) {
      expect(validate(withOperation(operation))).toHaveProperty("issues");
    }
    const schema = codemodeApproval.payloadSchema["~standard"].jsonSchema.input({
      target: "draft-07",
    });
    expect(schema).toMatchObject({
      properties: {
        calls: {
          items: {
            properties: { operation: { type: "string", maxLength: MAX_OPERATION_LENGTH } },
          },
        },
      },
    });
  });

  it("say why a call may already have run, and the question says approving runs it again", () => {
    const pending = (seq: number, inDoubt?: string) => ({
      executionId: "exec_1",
      seq,
      connector: "crm",
      method: "update",
      args: { id: seq },
      digest: "a".repeat(64),
      ...(inDoubt === undefined ? {} : { inDoubt }),
    });
    const shown = shownCalls([pending(0, "it may have run"), pending(1)]);
    expect(shown).toEqual([{ ...call(0), inDoubt: "it may have run" }, call(1)]);
    expect(validate({ ...payload(1), calls: [shown[0]] })).toHaveProperty("value");
    for (const inDoubt of ["", "x".repeat(2_001), 7, null]) {
      expect(validate({ ...payload(1), calls: [{ ...call(0), inDoubt }] })).toHaveProperty(
        "issues",
      );
    }
    expect(approvalQuestion(shown.slice(0, 1))).toBe(
      "The code wants to call crm.update again: it may already have run. Approve running it again?",
    );
    expect(approvalQuestion(shown)).toBe(
      "The code wants to make 2 calls together (crm.update, crm.update). None runs unless you approve; approving runs each once. One of them may already have run, and approving runs it again.",
    );
    expect(approvalQuestion(shownCalls([pending(0)]))).toBe(
      "The code wants to call crm.update. Approve it?",
    );
  });
});
