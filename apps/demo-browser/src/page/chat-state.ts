// The AI SDK's chat (AbstractChat) keeps its state in a ChatState that each UI binding provides
// (React, Vue and Svelte each have one). This is a plain one: fields, and listeners told after
// every change, so the page re-renders from `messages` and `status`.
import type { ChatState, ChatStatus, UIMessage } from "ai";

export class ListenableChatState<MESSAGE extends UIMessage> implements ChatState<MESSAGE> {
  #status: ChatStatus = "ready";
  #error: Error | undefined;
  #messages: MESSAGE[];
  readonly #listeners = new Set<() => void>();

  constructor(messages: MESSAGE[] = []) {
    this.#messages = messages;
  }

  get status() {
    return this.#status;
  }
  set status(status: ChatStatus) {
    this.#status = status;
    this.#notify();
  }

  get error() {
    return this.#error;
  }
  set error(error: Error | undefined) {
    this.#error = error;
    this.#notify();
  }

  get messages() {
    return this.#messages;
  }
  set messages(messages: MESSAGE[]) {
    this.#messages = [...messages];
    this.#notify();
  }

  // The chat mutates the message it is streaming into and hands the same object in again, so the
  // state keeps its own copies (as the framework bindings do).
  pushMessage = (message: MESSAGE) => {
    this.#messages = [...this.#messages, this.snapshot(message)];
    this.#notify();
  };

  popMessage = () => {
    this.#messages = this.#messages.slice(0, -1);
    this.#notify();
  };

  replaceMessage = (index: number, message: MESSAGE) => {
    this.#messages = [
      ...this.#messages.slice(0, index),
      this.snapshot(message),
      ...this.#messages.slice(index + 1),
    ];
    this.#notify();
  };

  snapshot = <T>(thing: T): T => structuredClone(thing);

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify() {
    for (const listener of this.#listeners) listener();
  }
}
