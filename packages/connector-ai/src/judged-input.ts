// The input an approval rule is asked about, and the input `execute` then receives. The AI SDK
// parses a tool call with the tool's schema before it asks `toolApproval` or `needsApproval` about
// it, and hands the parsed value to both; here the runtime asks `requiresApproval` before the
// connector validates, so the connector parses first itself, the same way `invoke` will.
import {
  type FunctionMethod,
  functionConnector,
  type MethodSchema,
} from "@codemode/connector-function";
import type { CallContext } from "@codemode/core";

/** The call a decision is about, as the runtime names it to `requiresApproval`. */
export interface CallRef {
  executionId: string;
  seq: number;
}

/** Parses one call's input with its tool's schema; throws `INVALID_INPUT` when the schema refuses it. */
export type ParseInput = (tool: string, input: unknown, call: CallRef) => Promise<unknown>;

/** Parsing starts nothing that could be aborted. */
const NEVER_ABORTED: CallContext["signal"] = {
  aborted: false,
  reason: undefined,
  addEventListener: () => {},
  removeEventListener: () => {},
};

/**
 * Parses inputs exactly as the connector's `invoke` does before `execute`: a functionConnector over
 * the same schemas whose `execute` gives back what it is handed, so the value, the check and the
 * `INVALID_INPUT` error (its message names `name.tool` and the fields) are the ones `invoke` has.
 */
export function inputParser(
  name: string,
  schemas: ReadonlyMap<string, MethodSchema | undefined>,
): ParseInput {
  const methods: Record<string, FunctionMethod> = {};
  for (const [tool, inputSchema] of schemas) {
    methods[tool] = {
      ...(inputSchema !== undefined ? { inputSchema } : {}),
      execute: (input: unknown) => input,
    };
  }
  const parser = functionConnector({ name, methods });
  return (tool, input, { executionId, seq }) =>
    parser.invoke(tool, input, {
      executionId,
      seq,
      idempotencyKey: `${executionId}:${seq}`,
      signal: NEVER_ABORTED,
    });
}

/** A call a rule let run without a person: the parsed input it was asked about, and its answer. */
export interface Cleared<Status> {
  input: unknown;
  status: Status;
}

/** The calls whose rule let them run, from the decision until their `execute` or their pass's end. */
export interface ClearedCalls<Status> {
  keep(call: CallRef, cleared: Cleared<Status>): void;
  forget(call: CallRef): void;
  /** the decision about this call, at most once */
  take(call: CallRef): Cleared<Status> | undefined;
  /** the pass of this run ended: its undecided leftovers go */
  endPass(executionId: string): void;
}

/**
 * Remembers, per run and call, what a rule decided for a call it let run. The runtime decides such
 * a call and runs it in the same pass, on this connector, so `execute` finds the decision here.
 * Invariant: a call a rule cleared runs with the very value the rule was asked about, not a second
 * parse of the same input (a default or a transform that reads the clock or outside state could
 * give a value the rule would have gated). A call a person approved finds nothing here, and runs
 * with the input as parsed when it runs; so does one whose rule asked, which is never kept. No
 * other call runs: one in doubt after a lost pass waits for a person too (toolSetConnector has no
 * `reconcile`).
 */
export function clearedCalls<Status>(): ClearedCalls<Status> {
  const byRun = new Map<string, Map<number, Cleared<Status>>>();
  const forget = ({ executionId, seq }: CallRef) => {
    const calls = byRun.get(executionId);
    if (!calls) return;
    calls.delete(seq);
    if (calls.size === 0) byRun.delete(executionId);
  };
  return {
    keep({ executionId, seq }, cleared) {
      const calls = byRun.get(executionId) ?? new Map<number, Cleared<Status>>();
      calls.set(seq, cleared);
      byRun.set(executionId, calls);
    },
    forget,
    take(call) {
      const cleared = byRun.get(call.executionId)?.get(call.seq);
      forget(call);
      return cleared;
    },
    endPass(executionId) {
      byRun.delete(executionId);
    },
  };
}
