import type {
  BootstrapSpec,
  ErrorReply,
  HostReply,
  isHostReply,
  OutcomeOf,
  QueuedCall,
  sandboxBootstrap,
  sandboxCallQueue,
  sandboxEncoder,
  sandboxErrors,
  sandboxTaggedWriter,
} from "@codemode/executor-kit";

/** What the page sends to start a pass (the `run` message); the frame passes it on without the nonce. */
export interface RunMessage {
  type: "run";
  nonce: string;
  spec: BootstrapSpec & {
    maxLogLines: number;
    maxConcurrentCalls: number;
    maxInputCharsInFlight: number;
    maxBatchChars: number;
  };
  code: string;
  prelude?: string;
}

/** The kinds of `PassOutcome` this harness reports (the page takes no other). */
export const OUTCOME_KINDS = ["ok", "thrown", "unserializable", "syntax", "problem"] as const;

/**
 * How a pass ended, as the harness reports it (the kit's `PassOutcome`): `["ok", encodedResult]`,
 * `["thrown", name, message, stack, code, unknownMethod]`,
 * `["unserializable", name, message, stack, code]`, `["syntax", stage, message]`, `["problem", text]`.
 */
export type HarnessOutcome = OutcomeOf<(typeof OUTCOME_KINDS)[number]>;

/** The sandbox's frame tells the page, once, that it can take the pass. */
export interface ReadyMessage {
  type: "ready";
}

/** Messages from the worker to the page, on the pass's own channel, with its nonce. */
export type PassMessage =
  | { type: "call"; nonce: string; id: number; namespace: string; method: string; input: string }
  /** the calls the program made in one turn: JSON text of `[[id, namespace, method, input], ...]` */
  | { type: "calls"; nonce: string; calls: string }
  | { type: "log"; nonce: string; line: string }
  | { type: "done"; nonce: string; outcome: HarnessOutcome; dropped: number };

/**
 * Between the page and the sandbox's frame (not its worker), on a channel of their own: the page
 * pings, the frame answers; the frame tells the page when its worker failed. A frame whose process
 * ended answers nothing.
 */
export type RelayMessage = { type: "pong" } | { type: "failed"; message: string };

/** The page's answer to a `call`. */
export interface ReplyMessage {
  type: "reply";
  nonce: string;
  id: number;
  reply: HostReply;
}

/**
 * Runs INSIDE the sandbox's worker, as its whole script; self-contained. It takes the first message
 * (the pass, with the end of the page's channel) and then listens only on that channel, for replies
 * with the pass's nonce. It installs `console` and the namespaces through the shared bootstrap,
 * compiles the prelude and the program with an indirect `eval` (global scope: neither sees this
 * closure, the channel or the nonce) and reports how the pass ended. The program has no DOM, no
 * `location` to navigate and no frame to reach: only what a worker under the document's CSP has.
 */
export function workerHarness(
  bootstrap: typeof sandboxBootstrap,
  encoder: typeof sandboxEncoder,
  errors: typeof sandboxErrors,
  tagged: typeof sandboxTaggedWriter,
  createValueCodec: () => unknown,
  createRenderer: (maxLineChars: number) => unknown,
  /** `isHostReply` of the kit, pasted the same way */
  isReply: typeof isHostReply,
  /** `sandboxCallQueue` of the kit, pasted the same way */
  callQueue: typeof sandboxCallQueue,
): void {
  const scope = globalThis as unknown as {
    addEventListener(type: string, listener: (event: Event) => void): void;
    removeEventListener(type: string, listener: (event: Event) => void): void;
    eval(source: string): unknown;
  };
  const evaluate = scope.eval;
  const then = Promise.prototype.then;
  const resolvePromise = Promise.resolve.bind(Promise);
  // the channel's built-ins, taken before the program runs: a program that replaces them sees
  // neither the channel nor the nonce
  const apply = Reflect.apply;
  const send = MessagePort.prototype.postMessage;
  const dataOf = Object.getOwnPropertyDescriptor(MessageEvent.prototype, "data")?.get;
  const stringify = JSON.stringify;
  const isArray = Array.isArray;
  const queueTask = queueMicrotask;
  // The bootstrap's `hostIdle`: a task of its own, a message on a channel only this closure holds
  // (a timer would be clamped to 4 ms once nested). Callbacks wait in a list of object literals.
  const idleChannel = new MessageChannel();
  let idleFirst: { run: () => void; next: unknown } | null = null;
  let idleLast: { run: () => void; next: unknown } | null = null;
  idleChannel.port1.onmessage = () => {
    const task = idleFirst;
    if (task === null) return;
    idleFirst = task.next as typeof idleFirst;
    if (idleFirst === null) idleLast = null;
    task.run();
  };
  const atIdle = (run: () => void) => {
    const task = { run, next: null };
    if (idleLast === null) idleFirst = task;
    else idleLast.next = task;
    idleLast = task;
    apply(send, idleChannel.port2, [0]);
  };
  // calls waiting for the page, by id: an object without a prototype, so a program that replaces
  // built-ins (Map's methods, iterators) does not see or change them
  const pending = Object.create(null) as Record<
    number,
    ((reply: HostReply, atIdle?: boolean) => void) | undefined
  >;
  // A worker that closes itself ends without a word to anyone: the program gets no way to do it.
  for (
    let object: object | null = globalThis;
    object !== null;
    object = Object.getPrototypeOf(object) as object | null
  ) {
    if (Object.hasOwn(object, "close")) Reflect.deleteProperty(object, "close");
  }
  /** The reply to a call made after the pass ended (a new tuple each time: the program gets it). */
  const late = (): ErrorReply => [
    "error",
    "Error",
    "The code finished before this call was made; it was not run. Await every call before returning.",
    "ABORTED",
    "",
  ];
  let port: MessagePort | undefined;
  let nonce = "";
  let finished = false;
  /** the program's promise settled: its result is being read, and calls made now (a getter's) are refused */
  let returned = false;
  let nextId = 1;
  let sentLines = 0;
  let droppedLines = 0;
  let maxLogLines = 0;
  let maxConcurrentCalls = 0;
  let maxInputCharsInFlight = 0;
  let inFlight = 0;
  /** characters of the inputs of the calls not answered yet (the page holds them) */
  let charsInFlight = 0;
  /** characters of console lines sent to the page; past the pass's limit lines are only counted */
  let sentChars = 0;
  let maxLogChars = 0;

  /** The reply to a call past the limit: the same words as the page's (sandbox-frame.ts). */
  function tooMany(namespace: string, method: string, most: number): ErrorReply {
    return [
      "error",
      "RangeError",
      `${namespace}.${method} was not called: more than ${most} calls of this run would be in flight at once. Await calls before starting more (in batches of at most ${most} with Promise.all).`,
      "BUDGET_EXCEEDED",
      "",
    ];
  }

  /** The reply to a call past the budget of input in flight: the same words as the page's. */
  function tooMuch(namespace: string, method: string, chars: number, most: number): ErrorReply {
    return [
      "error",
      "RangeError",
      `${namespace}.${method} was not called: with the calls still in flight its input would make ${chars} characters of input waiting on the host, more than the ${most} one run may have in flight. Await calls before sending more, or send less at once.`,
      "BUDGET_EXCEEDED",
      "",
    ];
  }

  const post = (message: PassMessage) => {
    if (port) apply(send, port, [message]);
  };

  // The calls the program makes in one turn go to the page in one message (more when their text is
  // large) once the turn's microtasks run, through the kit's queue (`sandboxCallQueue`, made when the
  // pass starts): the page starts them together, as calls made at once are in-process, so a
  // Promise.all of gated calls pauses with all of them waiting. A batch's calls are JSON text of
  // `NumberedCall`s: no array a program's prototype reaches.
  let queueCall: (call: QueuedCall) => void = () => {};
  function sendCalls(head: QueuedCall, size: number, calls: string): void {
    if (finished) return;
    // a call alone goes as `call`, its input as it is
    if (size === 1) {
      const { id, namespace, method, input } = head;
      post({ type: "call", nonce, id, namespace, method, input });
    } else post({ type: "calls", nonce, calls });
  }

  function settle(outcome: HarnessOutcome): void {
    if (finished) return;
    finished = true;
    post({ type: "done", nonce, outcome, dropped: droppedLines });
    for (const id in pending) {
      const answer = pending[id as unknown as number];
      delete pending[id as unknown as number];
      answer?.(late());
    }
  }

  function log(line: string): void {
    if (finished) return;
    if (sentLines < maxLogLines && sentChars < maxLogChars) {
      sentLines++;
      sentChars += line.length;
      post({ type: "log", nonce, line });
    } else droppedLines++;
  }

  /**
   * The program, called as the bootstrap calls it, marking when its promise settles: this reaction
   * is registered before the bootstrap's, so it runs before the result is read.
   */
  function watched(program: () => unknown): () => unknown {
    return () => {
      const value = apply(program, undefined, []);
      const mark = () => {
        returned = true;
      };
      apply(then, resolvePromise(value), [mark, mark]);
      return value;
    };
  }

  function start(message: RunMessage): void {
    maxLogLines = message.spec.maxLogLines;
    maxConcurrentCalls = message.spec.maxConcurrentCalls;
    maxInputCharsInFlight = message.spec.maxInputCharsInFlight;
    queueCall = callQueue(queueTask, stringify, message.spec.maxBatchChars, true, sendCalls).add;
    maxLogChars = message.spec.maxLineChars;
    const api = bootstrap(
      (namespace, method, input, answer) => {
        if (finished || returned) return answer(late());
        // the page refuses these too: refused here, they cost it nothing
        if (inFlight >= maxConcurrentCalls) {
          return answer(tooMany(namespace, method, maxConcurrentCalls));
        }
        if (charsInFlight + input.length > maxInputCharsInFlight) {
          return answer(
            tooMuch(namespace, method, charsInFlight + input.length, maxInputCharsInFlight),
          );
        }
        inFlight++;
        charsInFlight += input.length;
        const id = nextId++;
        const size = input.length;
        pending[id] = (reply: HostReply, atIdle = false) => {
          charsInFlight -= size;
          answer(reply, atIdle);
        };
        queueCall({ next: null, id, namespace, method, input });
      },
      log,
      settle,
      // replies and timers reach the program one at a time, each once it is idle
      atIdle,
      (name) =>
        (name === "codec" ? createValueCodec : createRenderer) as (...args: never[]) => unknown,
      JSON.stringify(message.spec),
      encoder,
      errors,
      tagged,
    );
    if (api.problem) {
      settle(["problem", api.problem]);
      return;
    }
    let stage: "prelude" | "program" = "prelude";
    try {
      // named scripts: a stack trace reads the same on every pass (no per-pass blob: URL)
      if (typeof message.prelude === "string") {
        evaluate(`${message.prelude}\n//# sourceURL=codemode-prelude.js`);
      }
      stage = "program";
      const program = evaluate(`(${message.code}\n)\n//# sourceURL=codemode-program.js`);
      api.run(typeof program === "function" ? watched(program as () => unknown) : program);
    } catch (error) {
      let name = "Error";
      let text = "";
      let stack = "";
      try {
        const record = (typeof error === "object" && error !== null ? error : {}) as {
          name?: unknown;
          message?: unknown;
          stack?: unknown;
        };
        name = typeof record.name === "string" && record.name ? record.name : "Error";
        text = typeof record.message === "string" ? record.message : String(error);
        stack = typeof record.stack === "string" ? record.stack : "";
      } catch {
        text = "A value that cannot be read was thrown.";
      }
      if (name === "SyntaxError") settle(["syntax", stage, text]);
      else {
        const prefix = stage === "prelude" ? "The prelude failed: " : "";
        settle(["thrown", name, prefix + text, stack, "", ""]);
      }
    }
  }

  const onPass = (event: Event) => {
    const { data, ports } = event as MessageEvent;
    const pass = data as Partial<RunMessage> | null;
    if (port || !ports?.[0] || typeof pass !== "object" || pass === null) return;
    if (pass.type !== "run" || typeof pass.nonce !== "string") return;
    scope.removeEventListener("message", onPass);
    port = ports[0];
    nonce = pass.nonce;
    port.onmessage = (reply: MessageEvent) => {
      const answer = (
        dataOf ? apply(dataOf, reply, []) : reply.data
      ) as Partial<ReplyMessage> | null;
      if (typeof answer !== "object" || answer === null || answer.nonce !== nonce) return;
      const id = answer.id;
      const waiting = typeof id === "number" ? pending[id] : undefined;
      if (waiting && isReply(answer.reply, isArray)) {
        delete pending[id as number];
        inFlight--;
        // a message of its own: the program is idle in this task
        waiting(answer.reply, true);
      }
    };
    start(pass as RunMessage);
  };
  scope.addEventListener("message", onPass);
  // an error thrown later by a callback of the program (a timer, an event) is only logged
  scope.addEventListener("error", (event: Event) => {
    event.preventDefault();
    log(`[error] Uncaught in the sandbox: ${(event as ErrorEvent).message || "an error"}`);
  });
}

/**
 * Runs INSIDE the sandbox's iframe, as the document's one inline script; self-contained. It starts
 * the worker from `workerSource` at once (so a sandbox made ahead of its pass is warm) and tells the
 * page it is ready. The first `run` from the parent window brings the pass, its nonce and the end of
 * a channel made by the page; the relay hands both to the worker and takes no further part. If the
 * worker cannot start (the CSP forbids it), it answers the pass on the channel with the reason.
 */
export function frameRelay(workerSource: string): void {
  const page = window.parent;
  let worker: Worker | undefined;
  let problem = "";
  try {
    const url = URL.createObjectURL(new Blob([workerSource], { type: "text/javascript" }));
    worker = new Worker(url);
    URL.revokeObjectURL(url);
  } catch (error) {
    problem = `The sandbox could not start its worker (${String((error as Error)?.message ?? error)}): the csp must allow workers from blob: URLs.`;
  }
  let started = false;
  window.addEventListener("message", (event: MessageEvent) => {
    const pass = event.data as Partial<RunMessage> | null;
    const port = event.ports?.[0];
    const relay = event.ports?.[1];
    if (started || event.source !== page || !port || typeof pass !== "object" || pass === null) {
      return;
    }
    if (pass.type !== "run" || typeof pass.nonce !== "string") return;
    started = true;
    if (relay) {
      // the page's heartbeat: a frame whose process ended (out of memory) answers nothing
      const pong: RelayMessage = { type: "pong" };
      relay.onmessage = () => relay.postMessage(pong);
      worker?.addEventListener("error", (failure: ErrorEvent) => {
        const failed: RelayMessage = {
          type: "failed",
          message: String(failure.message || "the worker stopped").slice(0, 500),
        };
        relay.postMessage(failed);
      });
    }
    if (worker) worker.postMessage(pass, [port]);
    else {
      const done: PassMessage = {
        type: "done",
        nonce: pass.nonce,
        outcome: ["problem", problem],
        dropped: 0,
      };
      port.postMessage(done);
    }
  });
  const ready: ReadyMessage = { type: "ready" };
  page.postMessage(ready, "*");
}
