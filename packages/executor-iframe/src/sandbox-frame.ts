import type {
  HarnessOutcome,
  PassMessage,
  ReadyMessage,
  ReplyMessage,
  RunMessage,
} from "./worker-harness.ts";

/** What the page does with the messages of one pass. */
export interface PassHandlers {
  call(id: number, namespace: string, method: string, input: string): void;
  log(line: string): void;
  done(outcome: HarnessOutcome, dropped: number): void;
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
  #retired = false;
  #expiry: ReturnType<typeof setTimeout> | undefined;

  constructor(documentSource: string) {
    const iframe = document.createElement("iframe");
    iframe.setAttribute("sandbox", "allow-scripts");
    iframe.setAttribute("aria-hidden", "true");
    iframe.tabIndex = -1;
    iframe.title = "codemode sandbox";
    iframe.style.display = "none";
    iframe.srcdoc = documentSource;
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

  reply(id: number, text: string): void {
    if (this.#retired) return;
    const message: ReplyMessage = { type: "reply", nonce: this.#nonce, id, reply: text };
    this.#port?.postMessage(message);
  }

  /** Ends the pass for the page: the listener and the channel go; nothing from the sandbox is heard. */
  retire(): void {
    if (this.#retired) return;
    this.#retired = true;
    clearTimeout(this.#expiry);
    this.#handlers = undefined;
    window.removeEventListener("message", this.#listener);
    if (this.#port) {
      this.#port.onmessage = null;
      this.#port.close();
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
    // the iframe's origin is opaque: "*" is the only target that reaches it, and this window is it
    target.postMessage(this.#run, "*", [channel.port2]);
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

  #onPassMessage(event: MessageEvent): void {
    const data = event.data as Partial<PassMessage> | null;
    const handlers = this.#handlers;
    if (!handlers || typeof data !== "object" || data === null || data.nonce !== this.#nonce) {
      return;
    }
    if (data.type === "call") {
      const { id, namespace, method, input } = data;
      if (
        typeof id === "number" &&
        typeof namespace === "string" &&
        typeof method === "string" &&
        typeof input === "string"
      ) {
        handlers.call(id, namespace, method, input);
      }
    } else if (data.type === "log") {
      if (typeof data.line === "string") handlers.log(data.line);
    } else if (data.type === "done" && Array.isArray(data.outcome)) {
      handlers.done(data.outcome.map(String), typeof data.dropped === "number" ? data.dropped : 0);
    }
  }
}
