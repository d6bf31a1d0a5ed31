// The model-facing types of seed 000, exactly.
export type { DescribeOutput, SearchOutput } from "@codemode/typegen";

/** What the model sends to the `codemode` tool. */
export type CodeModeInput = {
  code: string;
};

/** A call that waits for a person (or, for a deferred method, for a result from outside). */
export type PendingAction = {
  executionId: string;
  seq: number;
  connector: string;
  method: string;
  args: unknown;
};

/** What one pass of a run ends with. */
export type CodeModeOutput =
  | { status: "completed"; executionId: string; result: unknown; logs?: string[] }
  | { status: "paused"; executionId: string; pending: PendingAction[] }
  | { status: "error"; executionId: string; error: string; logs?: string[] };
