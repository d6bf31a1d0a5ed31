import type { LanguageModelV3, LanguageModelV4 } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import type { CodemodeRuntime, RuntimeEvent } from "codemode";
import { type ApprovalCards, buildApprovalCard } from "./approval-cards.ts";
import type { ApprovalAnswer, ChatEvent, TurnInProgress } from "./chat-event.ts";
import type { ChatHistory } from "./chat-history.ts";
import type { DemoStores } from "./demo-stores.ts";
import type { QueueAnswer, QueueDecision } from "./handle-api.ts";
import { runChatTurn } from "./run-chat-turn.ts";
import type { DecidedBy, TimelineEvent } from "./run-events.ts";
import { sameHandle, waitsAsShown } from "./same-handle.ts";
import { unansweredApprovals } from "./unanswered-approvals.ts";

/** Events of a turn kept for a page that connects in the middle of it. */
const MAX_TURN_EVENTS = 5_000;
/** Characters of a chat message and of an approval's reason kept. */
export const MAX_MESSAGE_CHARS = 10_000;
export const MAX_REASON_CHARS = 1_000;

/** What a message sent while an approval card waits gets instead of a turn. */
export const CARD_WAITS_MESSAGE =
  "An approval card in the chat waits for your answer: approve or reject it first, then send your message (or clear the chat; the run stays in the queue).";

export interface ChatSessionOptions {
  runtime: CodemodeRuntime;
  stores: DemoStores;
  history: ChatHistory;
  cards: ApprovalCards;
  model: () => LanguageModelV3 | LanguageModelV4;
  /** tells every open page */
  broadcast: (event: ChatEvent) => void;
}

const textOf = (message: ModelMessage | undefined): string => {
  if (message?.role !== "user") return "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
};

const reasonOf = (reason: unknown) =>
  typeof reason === "string" && reason.trim()
    ? { reason: reason.trim().slice(0, MAX_REASON_CHARS) }
    : {};

/**
 * The conversation: turns one after another (after the person's message, or after their answer to
 * an approval card), the cards the model's runs raise, and the answers that continue the chat, from
 * the chat or from the page's queue. The Durable Object wires it to its WebSockets; tests drive it
 * in Node.
 */
export class ChatSession {
  readonly #options: ChatSessionOptions;
  #turns: Promise<void> = Promise.resolve();
  #current: TurnInProgress | undefined;
  /** who is deciding a run now, for its decision event */
  readonly #deciding = new Map<string, DecidedBy>();

  constructor(options: ChatSessionOptions) {
    this.#options = options;
  }

  /** The turn streaming now, if any. */
  get current(): TurnInProgress | undefined {
    return this.#current;
  }

  /**
   * A runtime event as the timeline keeps it: a decision says who made it (the queue or the chat
   * while this session decides the run; otherwise the API, or the chat for a tool approval).
   */
  attribute(event: RuntimeEvent): TimelineEvent {
    if (event.type !== "decision") return event;
    const by = this.#deciding.get(event.executionId) ?? (event.source === "api" ? "api" : "chat");
    return { ...event, by };
  }

  /** Settles once every turn asked for so far has ended. */
  idle(): Promise<void> {
    return this.#turns;
  }

  /** The person's message: a turn of the model's tool loop. */
  say(text: string): Promise<void> {
    const trimmed = text.trim().slice(0, MAX_MESSAGE_CHARS);
    return this.#enqueue({ role: "user", content: trimmed }, trimmed);
  }

  clear(): void {
    this.#options.history.clear();
    this.#options.cards.clear();
    this.#options.broadcast({ type: "cleared" });
  }

  /**
   * The person answered a card: the answer goes into the conversation as the AI SDK's approval
   * response, and a turn follows in which the approved call runs (or the run is rejected) and the
   * model says what happened. An answer decides what the card showed or nothing: `"stale"` when the
   * card was answered already or `handle` is not the card's (nothing is recorded); when the card's
   * calls no longer wait as it showed them (decided elsewhere, or the run ended), the answer closes
   * the card marked `stale`, runs nothing, and the model reads the run's recorded outcome.
   * `"unknown"` when no card of the conversation has that id.
   */
  async answer(
    approvalId: string,
    answer: {
      approved: boolean;
      reason?: unknown;
      via: ApprovalAnswer["via"];
      /** the handle the page showed with the card (a card kept before handles has none) */
      handle?: unknown;
    },
  ): Promise<"answered" | "stale" | "unknown"> {
    const { runtime, cards } = this.#options;
    const shown = cards.get(approvalId);
    if (!shown) return "unknown";
    if (shown.answer) return "stale";
    if (answer.handle !== undefined && shown.handle && !sameHandle(answer.handle, shown.handle)) {
      return "stale";
    }
    const waits =
      !shown.handle || waitsAsShown(shown.handle, await runtime.pending(shown.executionId));
    const recorded: ApprovalAnswer = {
      approved: answer.approved === true,
      ...reasonOf(answer.reason),
      at: Date.now(),
      via: answer.via,
      ...(waits ? {} : { stale: true }),
    };
    const card = cards.answer(approvalId, recorded);
    if (!card) return "stale";
    this.#deciding.set(card.executionId, recorded.via === "queue" ? "queue" : "chat");
    this.#options.broadcast({ type: "approval-answered", approvalId, answer: recorded });
    const response: ModelMessage = {
      role: "tool",
      content: [
        {
          type: "tool-approval-response",
          approvalId,
          approved: recorded.approved,
          ...(recorded.reason ? { reason: recorded.reason } : {}),
        },
      ],
    };
    const label = recorded.approved
      ? "Approved"
      : `Rejected${recorded.reason ? `: ${recorded.reason}` : ""}`;
    void this.#enqueue(response, label).finally(() => this.#deciding.delete(card.executionId));
    return "answered";
  }

  /**
   * A decision from the page's queue, with the handle of the calls the queue showed: it decides
   * those calls or nothing (`stale`, "already decided"). A run the chat asked about is answered
   * through its card, so the conversation goes on; any other run (started from Run code) is
   * decided directly.
   */
  async decide(executionId: string, decision: QueueAnswer): Promise<QueueDecision> {
    const { runtime, cards } = this.#options;
    const { handle } = decision;
    const status = async () => (await runtime.execution(executionId))?.status ?? "gone";
    const stale = async (): Promise<QueueDecision> => {
      const now = await status();
      return {
        status: now,
        executionId,
        via: "queue",
        stale: true,
        error: `Already decided: run ${executionId} no longer waits for the calls shown (it is ${now.replaceAll("_", " ")} now). Nothing ran for this answer.`,
      };
    };
    const card = cards.unansweredOf(executionId);
    if (card) {
      if (card.handle && !sameHandle(handle, card.handle)) return stale();
      if (card.handle && !waitsAsShown(card.handle, await runtime.pending(executionId))) {
        return stale();
      }
      const answered = await this.answer(card.approvalId, {
        approved: decision.approved,
        reason: decision.reason,
        via: "queue",
        handle,
      });
      if (answered !== "answered") return stale();
      await this.#turns;
      return { status: await status(), executionId, via: "chat" };
    }
    // a card answered in the chat whose turn has not reached the runtime yet decides first: this
    // answer then finds what it decided (a rejection that lands in that gap is not overtaken)
    await this.#turns;
    const [first] = handle.calls;
    if (handle.executionId !== executionId || !first) return stale();
    this.#deciding.set(executionId, "queue");
    try {
      if (decision.approved) {
        const output = await runtime.approve({ executionId, handle, ...reasonOf(decision.reason) });
        if (output.status === "error" && output.code === "DECISION_STALE") return stale();
        const error = output.status === "error" ? { error: output.error } : {};
        return { status: output.status, executionId, via: "queue", ...error };
      }
      // a rejection ends the run without any call it waits for: with the handle, only while the
      // calls shown still wait as shown
      const rejected = await runtime.reject({
        executionId,
        seq: first.seq,
        handle,
        ...reasonOf(decision.reason),
      });
      return rejected ? { status: await status(), executionId, via: "queue" } : stale();
    } finally {
      this.#deciding.delete(executionId);
    }
  }

  #enqueue(input: ModelMessage, label: string): Promise<void> {
    this.#turns = this.#turns.then(() => this.#turn(input, label));
    return this.#turns;
  }

  /** Whether the conversation waits for the answer to an approval card. */
  waitsForCard(): boolean {
    const { history, cards } = this.#options;
    return (
      cards.list().some((card) => !card.answer) || unansweredApprovals(history.list()).length > 0
    );
  }

  /** One turn, streamed to every page, then kept. */
  async #turn(input: ModelMessage, label: string): Promise<void> {
    const { runtime, stores, history, cards, broadcast } = this.#options;
    // a new message would leave the card's request without an answer, which the model's loop
    // cannot get past: the person answers the card first, whatever sent the message
    if (input.role === "user" && this.waitsForCard()) {
      broadcast({ type: "error", message: CARD_WAITS_MESSAGE });
      return;
    }
    const current: TurnInProgress = { text: label, events: [] };
    this.#current = current;
    const send = (event: ChatEvent) => {
      if (current.events.length < MAX_TURN_EVENTS) current.events.push(event);
      broadcast(event);
    };
    if (input.role === "user") send({ type: "user", text: label });
    const before = history.list();
    const request = textOf(
      input.role === "user" ? input : before.findLast((m) => m.role === "user"),
    );
    try {
      // a denial in the conversation rejects its run, with the person's reason, before the model runs
      await runtime.rejectDenied([...before, input]);
      // the notes and catalog connectors list their methods asynchronously: the tool's description
      // names them once this resolves
      await runtime.ready();
      const messages = await runChatTurn({
        model: this.#options.model(),
        tool: runtime.tool(),
        history: before,
        input,
        send,
        onApprovalRequest: async (requested) => {
          const card = await buildApprovalCard(runtime, stores, requested, request, Date.now());
          if (!card) return;
          cards.put(card);
          send({ type: "approval-request", card });
        },
      });
      history.append(messages);
    } catch (error) {
      history.append([input]);
      send({ type: "error", message: (error as Error).message });
    }
    this.#current = undefined;
    broadcast({ type: "changed" });
    broadcast({ type: "done" });
  }
}
