import {
  CodemodeError,
  type ExecuteRequest,
  type ExecuteResult,
  type Executor,
  type SandboxError,
} from "@codemode/core";
import {
  abortedError,
  callHost,
  decodeResult,
  describeNamespaces,
  errorReply,
  type HostReply,
  LogSink,
  outcomeError,
  positive,
  positiveInteger,
  timeoutError,
} from "@codemode/executor-kit";
import { cspProblem, DEFAULT_CSP, iframeDocument } from "./iframe-document.ts";
import { MAX_BATCH_CHARS, SandboxFrame } from "./sandbox-frame.ts";
import type { HarnessOutcome, RunMessage } from "./worker-harness.ts";

export interface IframeSandboxExecutorOptions {
  /** wall time of a pass in ms; the page ends it and removes the iframe; default 30,000 */
  timeout?: number;
  /**
   * the Content Security Policy of the sandbox's document; default
   * `default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval';` (no network, no images, no
   * forms). Relax it only when the code needs more: whatever it can reach, it can send tool results to.
   */
  csp?: string;
  /** most console lines kept per pass; default 1,000 */
  maxLogLines?: number;
  /** most console characters kept per pass; default 100,000 */
  maxLogChars?: number;
  /**
   * most host calls a pass may have in flight (made and not answered) at once; a call past it fails
   * in the sandbox at once with a `BUDGET_EXCEEDED` error and never reaches the host. Default 256.
   */
  maxConcurrentCalls?: number;
  /**
   * keep one fresh sandbox ready for the next pass (a new iframe and worker take tens of ms to
   * start); it has run nothing and serves exactly one pass. `dispose()` removes it. Default true.
   */
  prewarm?: boolean;
  /**
   * Where each pass's sandbox document is loaded from, instead of an inline document in the page's
   * own process: a URL, or a function that gives each sandbox one. Serve the text of
   * `sandboxDocument({ csp })` there as `text/html`. A frame of another site gets a renderer process
   * of its own where the browser isolates sites (Chromium and Firefox on desktop), so a pass that
   * runs out of memory ends only the passes on its own site: give each pass its own site (a
   * subdomain of a domain on the Public Suffix List, or distinct domains) to keep them all apart.
   * The frame is still `sandbox="allow-scripts"`: an opaque origin, whatever it is served from.
   */
  sandboxUrl?: string | (() => string);
  /**
   * most characters of the inputs of one pass's calls in flight at once, which the page holds
   * until each call is answered; a call that would pass it fails at once with `BUDGET_EXCEEDED`.
   * Default 32 Mi (the most one input may have).
   */
  maxInputCharsInFlight?: number;
}

const DEFAULTS = {
  timeout: 30_000,
  maxLogLines: 1_000,
  maxLogChars: 100_000,
  maxConcurrentCalls: 256,
  maxInputCharsInFlight: 32 * 1024 * 1024,
};
/** A reply larger than this is refused: the page would hold it twice while it crosses. */
const MAX_REPLY_CHARS = 32 * 1024 * 1024;
/** The sandbox kept ready is removed after this long without a pass. */
const SPARE_IDLE_MS = 30_000;

/**
 * Runs Code Mode programs in the browser: a hidden `<iframe sandbox="allow-scripts">` per pass
 * (an opaque origin: no cookies, storage or DOM of the page), its CSP in the document, the code sent
 * by `postMessage`. Host calls and results are messages bound to that iframe's window and a nonce of
 * the pass; anything else is ignored. The page ends a pass on timeout or abort by removing the iframe,
 * which also stops code that never yields. The iframe and the page's listener are removed when the
 * pass ends, whatever ends it.
 */
export class IframeSandboxExecutor implements Executor {
  readonly specificationVersion = "v1" as const;
  readonly #timeout: number;
  readonly #document: string;
  readonly #sandboxUrl: (() => string) | undefined;
  readonly #maxLogLines: number;
  readonly #maxLogChars: number;
  readonly #prewarm: boolean;
  readonly #maxConcurrentCalls: number;
  readonly #maxInputCharsInFlight: number;
  #spare: SandboxFrame | undefined;
  readonly #retired = new Set<SandboxFrame>();

  constructor(options: IframeSandboxExecutorOptions = {}) {
    this.#timeout = positive(options.timeout ?? DEFAULTS.timeout, "timeout");
    const csp = options.csp ?? DEFAULT_CSP;
    if (typeof csp !== "string" || csp.trim() === "") {
      throw new CodemodeError("INVALID_CONFIG", "csp must be a Content Security Policy string.");
    }
    const problem = cspProblem(csp);
    if (problem) throw new CodemodeError("INVALID_CONFIG", problem);
    this.#document = iframeDocument(csp);
    const url = options.sandboxUrl;
    if (url !== undefined && typeof url !== "string" && typeof url !== "function") {
      throw new CodemodeError(
        "INVALID_CONFIG",
        "sandboxUrl must be a URL or a function that gives one.",
      );
    }
    this.#sandboxUrl = url === undefined ? undefined : typeof url === "string" ? () => url : url;
    this.#maxLogLines = positive(options.maxLogLines ?? DEFAULTS.maxLogLines, "maxLogLines");
    this.#maxLogChars = positive(options.maxLogChars ?? DEFAULTS.maxLogChars, "maxLogChars");
    this.#prewarm = options.prewarm ?? true;
    const inFlight = positiveInteger(
      options.maxConcurrentCalls ?? DEFAULTS.maxConcurrentCalls,
      "maxConcurrentCalls",
    );
    this.#maxConcurrentCalls = inFlight;
    this.#maxInputCharsInFlight = positiveInteger(
      options.maxInputCharsInFlight ?? DEFAULTS.maxInputCharsInFlight,
      "maxInputCharsInFlight",
    );
  }

  async execute(request: ExecuteRequest): Promise<ExecuteResult> {
    if (typeof request?.code !== "string") {
      throw new CodemodeError("INVALID_CONFIG", "execute() needs request.code as a string.");
    }
    if (typeof document === "undefined" || typeof window === "undefined") {
      throw new CodemodeError(
        "INVALID_CONFIG",
        "IframeSandboxExecutor runs in a browser page (it needs document and window); on a server use QuickJSExecutor or DynamicWorkerExecutor.",
      );
    }
    const globals = request.globals ?? {};
    const timeoutMs = positive(request.limits?.timeoutMs ?? this.#timeout, "limits.timeoutMs");
    const pass: Omit<RunMessage, "type" | "nonce"> = {
      spec: {
        namespaces: describeNamespaces(globals),
        timers: true,
        maxLineChars: this.#maxLogChars,
        maxLogLines: this.#maxLogLines,
        maxConcurrentCalls: this.#maxConcurrentCalls,
        maxInputCharsInFlight: this.#maxInputCharsInFlight,
        maxBatchChars: MAX_BATCH_CHARS,
      },
      code: request.code,
      ...(typeof request.prelude === "string" && request.prelude.length > 0
        ? { prelude: request.prelude }
        : {}),
    };
    const logs = new LogSink(this.#maxLogLines, this.#maxLogChars);
    const signal = request.signal;
    if (signal?.aborted) return { error: abortedError(signal), logs: [] };

    const frame = this.#spare?.take() ?? this.#newFrame();
    this.#spare = undefined;
    type End = { outcome: HarnessOutcome } | { stopped: SandboxError };
    let closed = false;
    let resolveEnd: (end: End) => void = () => {};
    const ended = new Promise<End>((resolve) => {
      resolveEnd = resolve;
    });
    // the first end wins; from then on no call of this pass reaches the host functions
    const finish = (end: End) => {
      closed = true;
      resolveEnd(end);
    };
    const limit = { chars: MAX_REPLY_CHARS, reason: "the sandbox accepts in one reply" };
    frame.start(pass, {
      call: (id, namespace, method, input) => {
        if (closed || signal?.aborted) {
          frame.reply(id, endedReply(namespace, method));
          return;
        }
        void callHost(globals, namespace, method, input, limit).then((reply) =>
          frame.reply(id, reply),
        );
      },
      log: (line) => logs.add(line),
      done: (outcome, dropped) => {
        logs.drop(dropped);
        finish({ outcome });
      },
      failed: (error) => finish({ stopped: error }),
    });
    const timer = setTimeout(() => finish({ stopped: timeoutError(timeoutMs) }), timeoutMs);
    const onAbort = () => signal && finish({ stopped: abortedError(signal) });
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const end = await ended;
      if ("stopped" in end) return { error: end.stopped, logs: logs.snapshot() };
      const outcome = end.outcome;
      if (outcome[0] === "problem") throw new CodemodeError("INVALID_CONFIG", outcome[1]);
      if (outcome[0] === "ok") return decodeResult(outcome[1], logs.snapshot());
      return { error: passError(outcome), logs: logs.snapshot() };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      frame.retire();
      if (this.#prewarm) this.#warmUp(frame);
      else frame.remove();
    }
  }

  /**
   * Soon after a pass returns (inserting an iframe takes the page some milliseconds, so not on the
   * way to the caller): makes the next pass's sandbox if none is ready, then removes the retired one.
   * In that order, the browser keeps the sandboxes' process and starts the new one in it, several
   * times faster than in a new process. The retired sandbox can no longer reach the page meanwhile.
   * A sandbox kept ready is removed if no pass comes for `SPARE_IDLE_MS`.
   */
  #warmUp(retired: SandboxFrame): void {
    this.#retired.add(retired);
    setTimeout(() => {
      // gone already if dispose() came first
      if (!this.#retired.delete(retired)) return;
      try {
        if (!this.#spare) {
          const spare = this.#newFrame();
          this.#spare = spare;
          spare.expire(SPARE_IDLE_MS, () => {
            if (this.#spare === spare) this.#spare = undefined;
          });
        }
      } catch {
        // a sandboxUrl that gives no URL: the next pass says so
      } finally {
        retired.remove();
      }
    }, 0);
  }

  /** A new sandbox: the inline document, or the one served at `sandboxUrl` (asked for each sandbox). */
  #newFrame(): SandboxFrame {
    if (!this.#sandboxUrl) return new SandboxFrame(this.#document);
    const url = this.#sandboxUrl();
    if (typeof url !== "string" || !/^https?:\/\//i.test(url)) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `sandboxUrl must give an http(s) URL, got ${JSON.stringify(String(url)).slice(0, 200)}.`,
      );
    }
    return new SandboxFrame({ url });
  }

  /**
   * Removes the sandbox kept ready for the next pass (one hidden iframe and its worker). A later
   * pass makes a new one.
   */
  dispose(): void {
    for (const retired of this.#retired) retired.remove();
    this.#retired.clear();
    this.#spare?.remove();
    this.#spare = undefined;
  }
}

/** The reply to a call that came after its pass ended: refused without reaching the host. */
function endedReply(namespace: string, method: string): HostReply {
  return errorReply({
    name: "Error",
    code: "ABORTED",
    message: `The run has ended; ${namespace}.${method} was not called.`,
  });
}

/** The error of a pass that did not return. */
function passError(
  outcome: Exclude<HarnessOutcome, readonly ["ok" | "problem", string]>,
): SandboxError {
  if (outcome[0] !== "syntax") return outcomeError(outcome);
  const [, stage, message] = outcome;
  return {
    name: "SyntaxError",
    code: "SYNTAX_ERROR",
    message: stage === "prelude" ? `The prelude failed: ${message}` : message,
  };
}
