import type { SandboxError } from "@codemode/core";
import {
  errorReply,
  type HostReply,
  readPassOutcome,
  tooManyCallsMessage,
  tooMuchInFlightMessage,
} from "@codemode/executor-kit";
import {
  type HarnessOutcome,
  OUTCOME_KINDS,
  type PassMessage,
  type ReadyMessage,
  type RelayMessage,
  type ReplyMessage,
  type RunMessage,
} from "./worker-harness.ts";

/**
 * What the page does with the messages of one pass. Each is called only for a well-formed message
 * of the pass while it runs: nothing after `done` or `failed`.
 */
export interface PassHandlers {
  /** a call the page admitted: a new id, within the limit of calls in flight; answer with `reply` */
  call(id: number, namespace: string, method: string, input: string): void;
  log(line: string): void;
  done(outcome: HarnessOutcome, dropped: number): void;
  /** the sandbox died (its process ended, its iframe went, its worker failed): the pass is over */
  failed(error: SandboxError): void;
}

/**
 * The page pings the sandbox's frame this often while a pass runs, and takes it for dead after
 * `MISSED_BEATS` pings in a row went unanswered: its process ended (Chromium tells the page nothing
 * else: a `MessagePort` has no `close` event there). A frame that is alive can take seconds to
 * answer on a busy machine (its process runs the program's worker beside it, and a hidden frame's
 * process may run at a low priority), so the wait is long: a live pass taken for dead is lost.
 */
const HEARTBEAT_MS = 1_000;
const MISSED_BEATS = 15;
/** Namespace and method names longer than this are not names the page handed out. */
const MAX_NAME_CHARS = 1_000;
/** A call's input longer than this is refused before the host decodes it. */
export const MAX_INPUT_CHARS = 32 * 1024 * 1024;
/**
 * Calls made at once come in one message while their text stays within this (the harness sends a
 * larger call on its own), so the page parses no more at once than one call's input.
 */
export const MAX_BATCH_CHARS = 8 * 1024 * 1024;
/** The refusal of a call past the limit of calls in flight (the harness says the same). */
function tooManyCalls(namespace: string, method: string, most: number): HostReply {
  return errorReply({
    name: "RangeError",
    code: "BUDGET_EXCEEDED",
    message: tooManyCallsMessage(namespace, method, most),
  });
}

/** The error of a pass whose sandbox's frame stopped answering: its process ended. */
export function sandboxDiedError(): SandboxError {
  return {
    name: "Error",
    code: "MEMORY",
    message:
      `The sandbox ended before the code finished: its frame answered nothing for ${(MISSED_BEATS * HEARTBEAT_MS) / 1_000} s, ` +
      "so its browser process most likely stopped because this run or another one in the same " +
      "process ran out of memory. Keep less in memory (page through results, keep only the fields " +
      "you need) and run it again.",
  };
}

function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * One sandbox: a hidden `<iframe sandbox="allow-scripts">` whose document (its CSP and the frame
 * relay) starts a worker at once, and the page's listener for that iframe's `ready`. It may be made
 * ahead of its pass and runs exactly one: the pass goes to that iframe's window only, with a nonce of
 * its own and the end of a new channel; from then on the page and the worker talk on the channel
 * (no other window can post into it), every message carrying the nonce.
 */
export class SandboxFrame {
  readonly #iframe: HTMLIFrameElement;
  readonly #nonce = newNonce();
  readonly #listener: (event: MessageEvent) => void;
  #ready = false;
  #run: RunMessage | undefined;
  #handlers: PassHandlers | undefined;
  #port: MessagePort | undefined;
  #relay: MessagePort | undefined;
  #retired = false;
  /** the pass ended for the page (`done` or `failed`): nothing more of it is heard */
  #ended = false;
  #expiry: ReturnType<typeof setTimeout> | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #missed = 0;
  /** calls admitted and not answered yet, with the characters of their inputs */
  readonly #inFlight = new Map<number, number>();
  /** characters of the inputs of the calls admitted and not answered yet */
  #charsInFlight = 0;
  #lastId = 0;
  /** whether the program has been heard from (a call or a line): a `problem` comes only before */
  #heard = false;

  /**
   * `source`: the sandbox's document itself (an inline document, in the page's renderer process), or
   * the URL it is served at (`iframeDocument`'s text; another site's frame gets a process of its own).
   */
  constructor(source: string | { url: string }) {
    const iframe = document.createElement("iframe");
    iframe.setAttribute("sandbox", "allow-scripts");
    iframe.setAttribute("aria-hidden", "true");
    iframe.tabIndex = -1;
    iframe.title = "codemode sandbox";
    iframe.style.display = "none";
    if (typeof source === "string") iframe.srcdoc = source;
    else {
      iframe.referrerPolicy = "no-referrer";
      iframe.src = source.url;
    }
    this.#iframe = iframe;
    this.#listener = (event) => this.#onWindowMessage(event);
    window.addEventListener("message", this.#listener);
    (document.body ?? document.documentElement).appendChild(iframe);
  }

  /** Removes this sandbox if it is not taken within `ms`; `onExpire` runs then. */
  expire(ms: number, onExpire: () => void): void {
    this.#expiry = setTimeout(() => {
      this.remove();
      onExpire();
    }, ms);
  }

  /** Takes this sandbox for a pass: it no longer expires. */
  take(): this {
    clearTimeout(this.#expiry);
    return this;
  }

  /** Sends the pass as soon as the sandbox is ready; its messages go to `handlers`. */
  start(pass: Omit<RunMessage, "type" | "nonce">, handlers: PassHandlers): void {
    if (this.#run || this.#retired) throw new Error("a sandbox runs one pass");
    this.#run = { type: "run", nonce: this.#nonce, ...pass };
    this.#handlers = handlers;
    if (this.#ready) this.#send();
  }

  /** Answers an admitted call, once; anything else is dropped. */
  reply(id: number, reply: HostReply): void {
    const size = this.#inFlight.get(id);
    if (size === undefined) return;
    this.#inFlight.delete(id);
    this.#charsInFlight -= size;
    if (this.#retired || this.#ended) return;
    this.#post(id, reply);
  }

  #post(id: number, reply: HostReply): void {
    const message: ReplyMessage = { type: "reply", nonce: this.#nonce, id, reply };
    this.#port?.postMessage(message);
  }

  /** Ends the pass for the page: the listener and the channel go; nothing from the sandbox is heard. */
  retire(): void {
    if (this.#retired) return;
    this.#retired = true;
    this.#ended = true;
    clearTimeout(this.#expiry);
    clearInterval(this.#heartbeat);
    this.#handlers = undefined;
    this.#inFlight.clear();
    this.#charsInFlight = 0;
    window.removeEventListener("message", this.#listener);
    for (const port of [this.#port, this.#relay]) {
      if (port) {
        port.onmessage = null;
        port.close();
      }
    }
  }

  /** Retires the sandbox and removes its iframe, which ends its worker, whatever it is doing. */
  remove(): void {
    this.retire();
    this.#iframe.remove();
  }

  #send(): void {
    const target = this.#iframe.contentWindow;
    if (!this.#run || !target) return;
    const channel = new MessageChannel();
    this.#port = channel.port1;
    this.#port.onmessage = (event) => this.#onPassMessage(event);
    // the frame's own channel: the heartbeat, and word of a worker that failed
    const relay = new MessageChannel();
    this.#relay = relay.port1;
    this.#relay.onmessage = (event) => this.#onRelayMessage(event);
    // the iframe's origin is opaque: "*" is the only target that reaches it, and this window is it
    target.postMessage(this.#run, "*", [channel.port2, relay.port2]);
    this.#heartbeat = setInterval(() => this.#beat(), HEARTBEAT_MS);
  }

  /**
   * One heartbeat: a sandbox whose iframe left the page, or whose frame let `MISSED_BEATS` pings in
   * a row go unanswered, fails its pass. The frame's thread is not the program's (that is the
   * worker's), so a busy program does not miss beats; a page too busy to hear the answers counts one
   * miss per beat it runs, not more.
   */
  #beat(): void {
    if (this.#ended) return;
    if (!this.#iframe.isConnected || !this.#iframe.contentWindow) {
      this.#fail({
        name: "AbortError",
        code: "ABORTED",
        message:
          "The run was stopped from outside: the sandbox's iframe was removed from the page before the code finished.",
      });
      return;
    }
    if (this.#missed >= MISSED_BEATS) {
      this.#fail(sandboxDiedError());
      return;
    }
    this.#missed++;
    this.#relay?.postMessage("ping");
  }

  #fail(error: SandboxError): void {
    const handlers = this.#handlers;
    if (this.#ended || !handlers) return;
    this.#ended = true;
    clearInterval(this.#heartbeat);
    handlers.failed(error);
  }

  #onRelayMessage(event: MessageEvent): void {
    const data = event.data as Partial<RelayMessage> | null;
    if (this.#ended || typeof data !== "object" || data === null) return;
    if (data.type === "pong") this.#missed = 0;
    else if (data.type === "failed") {
      const message = typeof data.message === "string" ? data.message.slice(0, 500) : "";
      this.#fail({
        name: "Error",
        code: "THROWN",
        message: `The sandbox's worker failed and the run was stopped${message ? `: ${message}` : "."}`,
      });
    }
  }

  #onWindowMessage(event: MessageEvent): void {
    if (this.#retired || event.source === null || event.source !== this.#iframe.contentWindow) {
      return;
    }
    const data = event.data as Partial<ReadyMessage> | null;
    if (this.#ready || typeof data !== "object" || data === null || data.type !== "ready") return;
    this.#ready = true;
    // the only message this listener takes: the pass goes on the channel from now on
    window.removeEventListener("message", this.#listener);
    if (this.#run) this.#send();
  }

  /**
   * One call of the sandbox: a new id (a safe integer above every id before it), names and input of
   * bounded size, and room under the limit of calls in flight, else it is refused here without
   * reaching the host.
   */
  #takeCall(id: unknown, namespace: unknown, method: unknown, input: unknown): void {
    const handlers = this.#handlers;
    if (
      !handlers ||
      typeof id !== "number" ||
      !Number.isSafeInteger(id) ||
      id <= this.#lastId ||
      typeof namespace !== "string" ||
      typeof method !== "string" ||
      typeof input !== "string" ||
      namespace.length > MAX_NAME_CHARS ||
      method.length > MAX_NAME_CHARS
    ) {
      return;
    }
    this.#lastId = id;
    this.#heard = true;
    if (input.length > MAX_INPUT_CHARS) {
      this.#post(
        id,
        errorReply({
          name: "RangeError",
          code: "TOO_LARGE",
          message: `The input of ${namespace}.${method} is ${input.length} characters, more than the ${MAX_INPUT_CHARS} a call may send. Send less (a page, fewer fields).`,
        }),
      );
      return;
    }
    const most = this.#run?.spec.maxConcurrentCalls ?? 0;
    if (this.#inFlight.size >= most) {
      this.#post(id, tooManyCalls(namespace, method, most));
      return;
    }
    // the page holds each input until its call is answered
    const budget = this.#run?.spec.maxInputCharsInFlight ?? 0;
    if (this.#charsInFlight + input.length > budget) {
      this.#post(
        id,
        errorReply({
          name: "RangeError",
          code: "BUDGET_EXCEEDED",
          message: tooMuchInFlightMessage(
            namespace,
            method,
            this.#charsInFlight + input.length,
            budget,
          ),
        }),
      );
      return;
    }
    this.#inFlight.set(id, input.length);
    this.#charsInFlight += input.length;
    handlers.call(id, namespace, method, input);
  }

  /**
   * A message of the pass, checked before anything of it is used: the nonce, the type, every field's
   * type and range. Only strings and numbers are taken from it; nothing it holds is called or
   * converted.
   */
  #onPassMessage(event: MessageEvent): void {
    const data = event.data as Partial<PassMessage> | null;
    const handlers = this.#handlers;
    if (this.#ended || !handlers || typeof data !== "object" || data === null) return;
    if (data.nonce !== this.#nonce) return;
    if (data.type === "call") {
      const { id, namespace, method, input } = data;
      this.#takeCall(id, namespace, method, input);
    } else if (data.type === "calls") {
      // the calls of one turn, started in order before any is answered
      const most = this.#run?.spec.maxConcurrentCalls ?? 0;
      const text = data.calls;
      if (typeof text !== "string" || text.length > MAX_BATCH_CHARS) return;
      let calls: unknown;
      try {
        calls = JSON.parse(text);
      } catch {
        return;
      }
      if (!Array.isArray(calls) || calls.length > most) return;
      // host values parsed from text: reading them runs no code of the sandbox
      for (const call of calls as unknown[]) {
        if (Array.isArray(call) && call.length === 4)
          this.#takeCall(call[0], call[1], call[2], call[3]);
      }
    } else if (data.type === "log") {
      if (typeof data.line !== "string") return;
      this.#heard = true;
      handlers.log(data.line);
    } else if (data.type === "done") {
      // a copy, of a kind the harness reports and of that kind's shape; anything else is not heard
      const outcome = readPassOutcome(data.outcome, OUTCOME_KINDS);
      if (!outcome) return;
      // the harness reports a problem before the program runs, never after it was heard from
      if (outcome[0] === "problem" && this.#heard) return;
      const dropped = data.dropped;
      this.#ended = true;
      clearInterval(this.#heartbeat);
      handlers.done(
        outcome,
        typeof dropped === "number" && Number.isSafeInteger(dropped) && dropped > 0 ? dropped : 0,
      );
    }
  }
}
