// The surface-integrity oracle's ledger of one case: every effect that reached the connector, every
// card and what it showed, every decision with the calls it was shown, every run started, every run
// the host or a person ended, and what went wrong at once.
import type { PendingAction } from "@codemode/core";
import { canonical } from "./integrity-ledger.ts";

/** One call that reached the connector: a real effect. */
export interface Effect {
  executionId: string;
  seq: number;
  idempotencyKey: string;
  method: string;
  /** canonical codec text of the input as received */
  input: string;
  gated: boolean;
  at: number;
  step: number;
}

/** A call as a person (or the host) was shown it. */
export interface ShownCall {
  executionId: string;
  seq: number;
  connector: string;
  method: string;
  /** canonical codec text of the input shown */
  input: string;
  digest: string;
}

/** An approval card the chat showed: what the tool call's approval request asks about. */
export interface Card {
  toolCallId: string;
  code: string;
  approvalId: string;
  executionId?: string;
  shown: ShownCall[];
  step: number;
}

/** A decision that arrived, with what its sender was shown. */
export interface Decision {
  step: number;
  by: string;
  approves: boolean;
  shown: ShownCall[];
}

/** Calls a decision alone in its step must run: they waited as shown when it was sent. */
export interface Expectation {
  step: number;
  by: string;
  calls: ShownCall[];
}

/** A decision the runtime told `onEvent` about, with the step it came in. */
export interface DecisionEvent {
  step: number;
  executionId: string;
  decision: "approved" | "rejected" | "resolved" | "cancelled";
  seqs: number[];
  source: string;
}

export interface StepRecord {
  index: number;
  /** how many runs the step may start, at least and at most */
  minRuns: number;
  maxRuns: number;
  /** a continuation that started no run must stand for the run its conversation pointed at */
  continuation?: { toolCallId: string; target: string; resultId?: string };
}

export interface SurfaceTrace {
  effects: Effect[];
  decisions: Decision[];
  cards: Card[];
  expectations: Expectation[];
  /** each run's first pass (a new run), with the step that started it */
  starts: Array<{ executionId: string; at: number; step: number }>;
  /** runs the host or a person's denial ended, and when the call that ended them returned */
  endings: Array<{ executionId: string; at: number; how: string }>;
  /**
   * each write a pass sent to let a call start (its entry put or updated `executing`), and when it
   * was sent: one sent before a run's ending returned may have been committed before the ending,
   * so its call may start after the ending returned (in flight, as the journal ordered it)
   */
  takes: Array<{ executionId: string; seq: number; at: number }>;
  steps: StepRecord[];
  /** the runtime's own account of each decision (`onEvent`) */
  decisionEvents: DecisionEvent[];
  /** every denial that reached the server, with the calls its card showed */
  denials: Array<{ step: number; shown: ShownCall[] }>;
  /** what went wrong at once: a tool or host call that threw, a card about another run */
  violations: string[];
  /**
   * decisions that must decide nothing: sent by who may not decide the run they name (an MCP session
   * about a run of another session, runs not shared), or with a handle that names no call as shown
   */
  refusals: Array<{ step: number; executionId: string; by: string; solo: boolean }>;
  /** what the TanStack interrupts and MCP replies showed (their cards) */
  shownCards: Array<{ surface: "tanstack" | "mcp"; step: number; shown: ShownCall[] }>;
}

/** A pending call as the one it was shown to reads it. */
export const shownOf = (action: PendingAction): ShownCall => ({
  executionId: action.executionId,
  seq: action.seq,
  connector: action.connector,
  method: action.method,
  input: canonical(action.args),
  digest: action.digest,
});
