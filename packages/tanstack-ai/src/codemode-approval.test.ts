import { MAX_HANDLE_CALLS } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { codemodeApproval } from "./codemode-approval.ts";

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
