// The model-facing types of seed 000, exactly.
export type { DescribeOutput, SearchOutput } from "@codemode/typegen";

import type { CodemodeErrorCode } from "./codemode-error.ts";

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
  /** where the call goes, as its method named it when it was recorded (`ConnectorMethod.operation`) */
  operation?: string;
  /**
   * what the person is shown, as a digest of the connector, method, recorded input text and
   * operation (`decisionHandleOf` puts it in the decision's handle; not in seed 000)
   */
  digest: string;
  /**
   * Present when the call may already have run: a pass started it and its outcome was never
   * recorded, and its connector could not tell what became of it. Says why; approving runs it again
   * under the same idempotency key, rejecting ends the run, and the host's `resolve` records what it
   * gave when the host found out.
   */
  inDoubt?: string;
  /**
   * Present when the call waits for a result from outside (a deferred method), not for a person:
   * the host records it with `runtime.resolve`; approving does not run it.
   */
  deferred?: true;
};

/** What one pass of a run ends with. */
export type CodeModeOutput =
  | { status: "completed"; executionId: string; result: unknown; logs?: string[] }
  | { status: "paused"; executionId: string; pending: PendingAction[] }
  | {
      status: "error";
      executionId: string;
      error: string;
      logs?: string[];
      /** why a decision (`DECISION_STALE`) or an input without code (`INVALID_INPUT`) was refused */
      code?: CodemodeErrorCode;
    };
