import type { ExecutionStatus } from "../../journal-store.ts";

/** What a rollback did with a call that reached its connector (`RollbackCall["outcome"]`). */
export type RevertOutcome = "reverted" | "skipped" | "failed" | "unrecorded";

/**
 * Where a decision on a run came from: the runtime's API, a tool approval response, or the AI SDK
 * aborting the `codemode` tool call (a cancellation).
 */
export type DecisionSource = "api" | "tool-approval" | "tool-abort";

/**
 * What the runtime tells `onEvent` as a run goes (version 1): enough to draw the run's timeline.
 * Times are the runtime's clock (`now`). A call that replays was answered from the journal without
 * its connector (`live: false`); a live call has the time it started and the time its outcome was
 * recorded. Events are for watching only: an observer that throws changes nothing.
 */
export type RuntimeEvent =
  | {
      type: "pass-start";
      executionId: string;
      at: number;
      /** the number of calls and steps the journal already holds for the run */
      recorded: number;
    }
  | {
      type: "call";
      executionId: string;
      seq: number;
      connector: string;
      method: string;
      live: boolean;
      startedAt: number;
      endedAt: number;
      /** the call failed (its error is recorded and replays as it is) */
      failed: boolean;
    }
  | {
      type: "step";
      executionId: string;
      seq: number;
      name: string;
      live: boolean;
      at: number;
    }
  | {
      /** the pass stopped at a call that waits for a person (`approval`) or an outside result */
      type: "waiting";
      executionId: string;
      seq: number;
      connector: string;
      method: string;
      for: "approval" | "result";
      /** the call may already have run: an earlier pass started it and its outcome was never recorded */
      inDoubt?: true;
      at: number;
    }
  | {
      type: "pass-end";
      executionId: string;
      at: number;
      status: ExecutionStatus;
      error?: string;
    }
  | {
      type: "decision";
      executionId: string;
      decision: "approved" | "rejected" | "resolved" | "cancelled";
      /** the calls it covers (a cancellation: the waiting calls it withdrew) */
      seqs: number[];
      at: number;
      source: DecisionSource;
      /** who decided, as the host named them (`runtime.cancel`'s `by`) */
      by?: string;
      reason?: string;
    }
  | {
      type: "revert";
      executionId: string;
      seq: number;
      connector: string;
      method: string;
      outcome: RevertOutcome;
      reason?: string;
      startedAt: number;
      endedAt: number;
    }
  | {
      type: "rollback-end";
      executionId: string;
      at: number;
      status: ExecutionStatus;
      reverted: number;
      notReverted: number;
    };

/** `onEvent`, called so that a failing or missing observer changes nothing. */
export function eventSink(
  observer: ((event: RuntimeEvent) => void) | undefined,
): (event: RuntimeEvent) => void {
  if (!observer) return () => {};
  return (event) => {
    try {
      const heard: unknown = observer(event);
      // an observer that answers with a promise (one that writes the event to a store) may reject
      // later: heard here, or it would end the process as an unhandled rejection
      if (typeof (heard as PromiseLike<unknown> | null)?.then === "function") {
        Promise.resolve(heard).catch(() => {});
      }
    } catch {
      // an observer only watches
    }
  };
}
