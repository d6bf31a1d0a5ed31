import { jsonSchema, tool } from "ai";

/**
 * A stand-in `codemode` tool for the offline model's tests: it records the code it is given and
 * answers with `answer(code)`, so the AI SDK's own tool loop runs without a sandbox.
 */
export function recordingCodeTool(answer: (code: string) => unknown) {
  const codes: string[] = [];
  const codemode = tool({
    description: "Run JavaScript.",
    inputSchema: jsonSchema<{ code: string }>({
      type: "object",
      properties: { code: { type: "string" } },
      required: ["code"],
    }),
    execute: async ({ code }) => {
      codes.push(code);
      return answer(code);
    },
  });
  return { codes, tools: { codemode } };
}
