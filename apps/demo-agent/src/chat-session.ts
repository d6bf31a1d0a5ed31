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

/** Events of a turn kept for a page that connects in the middle of it. */
const MAX_TURN_EVENTS = 5_000;
/** Characters of a chat message and of an approval's reason kept. */
export const MAX_MESSAGE_CHARS = 10_000;
export const MAX_REASON_CHARS = 1_000;

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
   * model says what happened. False when the card is unknown or already answered.
   */
  answer(
    approvalId: string,
    answer: { approved: boolean; reason?: unknown; via: ApprovalAnswer["via"] },
  ): boolean {
    const recorded: ApprovalAnswer = {
      approved: answer.approved === true,
      ...reasonOf(answer.reason),
      at: Date.now(),
      via: answer.via,
    };
    const card = this.#options.cards.answer(approvalId, recorded);
    if (!card) return false;
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
    return true;
  }

  /**
   * A decision from the page's queue. A run the chat asked about is answered through its card, so
   * the conversation goes on; any other run (started from Run code) is decided directly.
   */
  async decide(executionId: string, decision: QueueAnswer): Promise<QueueDecision> {
    const { runtime, cards } = this.#options;
    const status = async () => (await runtime.execution(executionId))?.status ?? "gone";
    const card = cards.unansweredOf(executionId);
    if (card) {
      this.answer(card.approvalId, {
        approved: decision.approved,
        reason: decision.reason,
        via: "queue",
      });
      await this.#turns;
      return { status: await status(), executionId, via: "chat" };
    }
    this.#deciding.set(executionId, "queue");
    try {
      if (decision.approved) {
        const output = await runtime.approve({
          executionId,
          ...(decision.seqs ? { seqs: decision.seqs } : {}),
          ...reasonOf(decision.reason),
        });
        const error = output.status === "error" ? { error: output.error } : {};
        return { status: output.status, executionId, via: "queue", ...error };
      }
      const rejected = await runtime.reject({
        executionId,
        seq: decision.seq,
        ...reasonOf(decision.reason),
      });
      const error = rejected ? {} : { error: "The run was not waiting for that call." };
      return { status: await status(), executionId, via: "queue", ...error };
    } finally {
      this.#deciding.delete(executionId);
    }
  }

  #enqueue(input: ModelMessage, label: string): Promise<void> {
    this.#turns = this.#turns.then(() => this.#turn(input, label));
    return this.#turns;
  }

  /** One turn, streamed to every page, then kept. */
  async #turn(input: ModelMessage, label: string): Promise<void> {
    const { runtime, stores, history, cards, broadcast } = this.#options;
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
