import { describe, expect, it } from "vitest";
import { codeInputSchema } from "./code-tool.ts";

describe("codeInputSchema", () => {
  it("validates { code: string } as a Standard Schema and as the AI SDK's schema", () => {
    const schema = codeInputSchema();
    expect(schema["~standard"].validate({ code: "1", extra: true })).toEqual({
      value: { code: "1" },
    });
    expect(schema["~standard"].validate({ code: 1 })).toMatchObject({
      issues: [{ message: expect.any(String) }],
    });
    expect(schema["~standard"].jsonSchema.input({ target: "draft-2020-12" })).toMatchObject({
      required: ["code"],
    });
    const sdk = schema as unknown as { validate(value: unknown): { success: boolean } };
    expect(sdk.validate({ code: "x" }).success).toBe(true);
    expect(sdk.validate(null).success).toBe(false);
  });
});
