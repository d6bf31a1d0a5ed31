import type { ModelInfo } from "@codemode/demo-kit";
import type { ModelMessage } from "ai";
import type { CodeModeOutput, CodemodeProgress, DecisionHandle, PendingAction } from "codemode";

/** What the page sends over the chat WebSocket. */
export type ChatRequest =
  | { type: "hello" }
  | { type: "chat"; text: string }
  | { type: "clear" }
  /** the person's answer to an approval card in the chat, with the handle the card showed */
  | {
      type: "approval";
      approvalId: string;
      approved: boolean;
      reason?: string;
      handle?: DecisionHandle;
    };

/** What a waiting call would change, where its connector can say (a task's status now and after). */
export interface CallEffect {
  summary: string;
  before?: unknown;
  after?: unknown;
}

/**
 * A call that waits, as the card and the queue show it: the runtime's pending action (with
 * `inDoubt` when it may already have run), what it would change, and, for a call in doubt, the
 * idempotency key it runs again under.
 */
export type WaitingCall = PendingAction & { effect?: CallEffect; idempotencyKey?: string };

/** A call of the run, as the approval card lists it. */
export interface CardCall {
  seq: number;
  connector: string;
  method: string;
  args?: unknown;
  result?: unknown;
  state: string;
}

/**
 * An approval request in the conversation: the program, the calls it made before it paused (they
 * replay from the journal when it resumes), and each waiting call with its exact input and effect.
 */
export interface ApprovalCard {
  approvalId: string;
  toolCallId: string;
  executionId: string;
  code: string;
  /** the person's message that led to it */
  request: string;
  askedAt: number;
  done: CardCall[];
  pending: WaitingCall[];
  /** the calls shown and their digests: an answer decides these or nothing */
  handle: DecisionHandle;
  answer?: ApprovalAnswer;
}

/** How an approval card was answered, and where. */
export interface ApprovalAnswer {
  approved: boolean;
  reason?: string;
  at: number;
  /** in the chat's card, or in the page's queue of everything waiting */
  via: "chat" | "queue";
  /** the card's calls no longer waited as it showed them (decided elsewhere, or the run ended): nothing ran for it */
  stale?: true;
}

/** A turn that is still streaming, for a page that connects in the middle of it. */
export interface TurnInProgress {
  /** what started it: the person's message, or an answer to an approval card */
  text: string;
  events: ChatEvent[];
}

/** What the agent sends over the chat WebSocket. */
export type ChatEvent =
  | {
      type: "hello";
      model: ModelInfo;
      history: ModelMessage[];
      /** the approval cards of the conversation, answered or not, by approvalId */
      approvals: ApprovalCard[];
      inProgress?: TurnInProgress;
    }
  | { type: "user"; text: string }
  | { type: "text-delta"; text: string }
  | { type: "tool-call"; toolCallId: string; code: string }
  /** a preliminary result: the calls the run has made so far */
  | { type: "tool-progress"; toolCallId: string; progress: CodemodeProgress }
  | { type: "tool-result"; toolCallId: string; output: CodeModeOutput }
  | { type: "tool-error"; toolCallId: string; error: string }
  | { type: "approval-request"; card: ApprovalCard }
  | { type: "approval-answered"; approvalId: string; answer: ApprovalAnswer }
  /** an answer to a card that was decided already, or whose calls no longer wait as it showed */
  | { type: "approval-stale"; approvalId: string; message: string }
  | { type: "note"; text: string }
  | { type: "done" }
  | { type: "error"; message: string }
  | { type: "cleared" }
  /** runs, approvals or snippets changed: the page refreshes its panels */
  | { type: "changed" };
