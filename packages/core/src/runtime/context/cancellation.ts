import type { AbortSignalLike } from "../../abort-signal.ts";
import type { DecisionSource } from "./runtime-event.ts";

/** The longest reason a decision keeps (approve, reject, cancel). */
export const MAX_REASON_LENGTH = 1000;
/** The longest name of who cancelled that a cancellation keeps. */
export const MAX_CANCELLED_BY_LENGTH = 200;

/** A person's reason for a decision, as kept: trimmed, at most 1,000 characters ("" for none). */
export function reasonText(reason: unknown, max = MAX_REASON_LENGTH): string {
  return typeof reason === "string" ? reason.trim().slice(0, max) : "";
}

/** What a cancellation decided: who, why, when and through what; `text` is what the journal keeps. */
export interface Cancellation {
  at: number;
  by?: string;
  reason?: string;
  source: DecisionSource;
  /** the run's `error` once it has ended cancelled, and what the pass's caller reads */
  text: string;
}

/** A cancellation as it is kept: `by` and `reason` trimmed and bounded, its words in `text`. */
export function cancellationOf(options: {
  at: number;
  by?: unknown;
  reason?: unknown;
  source: DecisionSource;
}): Cancellation {
  const by = reasonText(options.by, MAX_CANCELLED_BY_LENGTH);
  const reason = reasonText(options.reason);
  const who =
    by || (options.source === "tool-abort" ? "the AI SDK (it aborted the tool call)" : "the host");
  const date = new Date(options.at);
  const when = Number.isNaN(date.getTime()) ? "" : ` at ${date.toISOString()}`;
  return {
    at: options.at,
    ...(by ? { by } : {}),
    ...(reason ? { reason } : {}),
    source: options.source,
    text: `Cancelled by ${who}${when}${reason ? `: ${reason.replace(/([^.!?])$/, "$1.")}` : "."} No call of the run starts after a cancellation.`,
  };
}

/**
 * A pass of this process on a run, from just before it takes the run (so no window is left between
 * the write that takes it and the pass) until it has reported: `runtime.cancel` finds it here,
 * stops it at once and waits for its report.
 */
export class PassTicket {
  readonly executionId: string;
  /** settles once the pass has reported (or the run was not taken) */
  readonly reported: Promise<void>;
  #cancelled: Cancellation | undefined;
  #listeners: ((cancellation: Cancellation) => void)[] = [];
  #leave: () => void = () => {};
  #left = false;
  readonly #onLeave: () => void;

  constructor(executionId: string, onLeave: () => void) {
    this.executionId = executionId;
    this.#onLeave = onLeave;
    this.reported = new Promise<void>((resolve) => {
      this.#leave = resolve;
    });
  }

  /** The cancellation this pass heard, if any (the first one wins). */
  get cancelled(): Cancellation | undefined {
    return this.#cancelled;
  }

  /** Stops the pass with `cancellation`; tells whether it is the one kept (not an earlier one). */
  cancel(cancellation: Cancellation): boolean {
    if (this.#cancelled || this.#left) return false;
    this.#cancelled = cancellation;
    for (const listener of this.#listeners.splice(0)) listener(cancellation);
    return true;
  }

  /** Hears the cancellation: at once when it came already. */
  onCancel(listener: (cancellation: Cancellation) => void): void {
    if (this.#cancelled) listener(this.#cancelled);
    else this.#listeners.push(listener);
  }

  /**
   * Cancels the pass when the signal aborts (an AI SDK tool call's `abortSignal`; anything else
   * is ignored), until it has reported; an aborted signal cancels it at once.
   */
  cancelOn(value: unknown, now: () => number): void {
    const signal = value as AbortSignalLike | null | undefined;
    if (
      typeof signal !== "object" ||
      signal === null ||
      typeof signal.addEventListener !== "function" ||
      typeof signal.removeEventListener !== "function"
    ) {
      return;
    }
    const abort = () => this.cancel(cancellationOf({ at: now(), source: "tool-abort" }));
    if (signal.aborted) {
      abort();
      return;
    }
    signal.addEventListener("abort", abort, { once: true });
    void this.reported.then(() => signal.removeEventListener("abort", abort));
  }

  /** The pass has reported: no cancellation reaches it any more. */
  leave(): void {
    if (this.#left) return;
    this.#left = true;
    this.#listeners = [];
    this.#onLeave();
    this.#leave();
  }
}
