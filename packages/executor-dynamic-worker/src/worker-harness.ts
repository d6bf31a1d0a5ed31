import {
  type ErrorReply,
  type HostReply,
  type isHostReply,
  type OutcomeOf,
  type QueuedCall,
  type RpcReply,
  readPassOutcome,
  type sandboxBootstrap,
  type sandboxCallQueue,
  type sandboxCanonical,
  type sandboxEncoder,
  type sandboxErrors,
  type sandboxTaggedWriter,
} from "@codemode/executor-kit";
import type { TickModule } from "./tick-source.ts";

/** What the harness is told for one pass; it is written into the harness module itself. */
export interface HarnessSpec {
  /** namespace name → its host method names */
  namespaces: Record<string, string[]>;
  /** the in-sandbox timer, in ms */
  timeoutMs: number;
  /** console lines sent to the host at most; later ones are only counted */
  maxLogLines: number;
  /** console characters sent to the host at most; a rendered line is cut at this many too */
  maxLineChars: number;
  /** most host calls in flight at once; the host enforces it too */
  maxConcurrentCalls: number;
  /** most characters of the inputs of the calls in flight; the host enforces it too */
  maxInputCharsInFlight: number;
  /** most characters of one batch of calls made at once; a larger call goes on its own */
  maxBatchChars: number;
  /** whether `prelude.js` exists */
  prelude: boolean;
  /**
   * a saved program's worker (`codemode.run`): the seed the prelude drew for it, defined at
   * `SANDBOX_SEED_HOOK` before the prelude runs; null in the pass's own worker
   */
  seed: string | null;
  /** whether `fetch()` goes to the host's outbound service (through the bridge, gated there) */
  outbound: boolean;
  /** the specifiers the program's `import()` may load (both `x.js` and `./x.js` for a module) */
  imports: string[];
  /** calls an earlier pass recorded, answered here while the program makes them again in order */
  replay: Array<{ namespace: string; method: string; input: string; result: string }>;
}

/** The kinds of `PassOutcome` this harness reports (the host takes no other). */
export const OUTCOME_KINDS = [
  "ok",
  "thrown",
  "unserializable",
  "timeout",
  "load",
  "problem",
] as const;

/**
 * How a pass ended, as the harness reports it (the kit's `PassOutcome`): `["ok", encodedResult]`,
 * `["thrown", name, message, stack, code, unknownMethod]`,
 * `["unserializable", name, message, stack, code]`, `["timeout"]`,
 * `["load", "prelude" | "program", name, message, stack]`, `["problem", text]`.
 */
export type HarnessOutcome = OutcomeOf<(typeof OUTCOME_KINDS)[number]>;

/** The tick module's `arm` (tick-source.ts): starts the pass's deadline. */
export type ArmDeadline = TickModule["arm"];

/**
 * The messages from the sandbox to the host: the methods of the host's `HostBridge` (which
 * implements this), called over Workers RPC. Each message carries the console lines since the last
 * one (JSON text of `[lines, dropped]`, absent when there are none) and how many recorded calls were
 * answered in the sandbox since the last. `call`, `reply` and `evaluate` answer an `RpcReply`;
 * `calls` (a batch: JSON text of `BatchedCall`s) the ticket of its first call, whose reply `reply`
 * gives, and of the next ones at the tickets that follow.
 */
export interface BridgeProtocol {
  call(
    namespace: string,
    method: string,
    input: string,
    logs: string | undefined,
    replayed: number,
  ): Promise<RpcReply> | RpcReply;
  calls(batch: string, logs: string | undefined, replayed: number): number;
  reply(ticket: number): Promise<RpcReply> | RpcReply;
  /** `codemode.run`: a saved program's source, its encoded input and the seed the prelude drew for it ("": none) */
  evaluate(
    source: string,
    input: string,
    seed: string,
    logs: string | undefined,
    replayed: number,
  ): Promise<RpcReply> | RpcReply;
  /** the sandbox's `fetch()`, when the host has an outbound service */
  fetch(request: unknown): Promise<unknown>;
}

/**
 * The bridge as the sandbox holds it: every method answers a promise over RPC, of what the harness
 * checks before it uses it (an answer it cannot read is taken for a lost reply).
 */
type Bridge = {
  [Name in keyof BridgeProtocol]: (...args: Parameters<BridgeProtocol[Name]>) => Promise<unknown>;
};

/** What the loaded worker's entrypoint offers the host: one pass, reported as JSON text. */
export interface HarnessEntrypoint {
  /** answers JSON text of a `HarnessReply` */
  evaluate(host: unknown, input?: string): Promise<string>;
}

/**
 * How a pass ended, as `evaluate` answers it in JSON text (the harness's `reply` writes it): the
 * outcome, the console lines since the last message (JSON text of `[lines, dropped]`; absent when
 * there are none) and how many recorded calls were answered in the sandbox since the last host call.
 * The host checks `logs` and `replayed` as it checks them with every call (`BridgeScope.take`).
 */
export interface HarnessReply {
  outcome: HarnessOutcome;
  logs?: unknown;
  replayed?: unknown;
}

/**
 * The harness's reply, read on the host (JSON text: nothing in it can run code of the sandbox). An
 * outcome that is not one the harness reports, of its shape (`readPassOutcome`), is a reply the host
 * cannot read: this throws, and the pass fails.
 */
export function readHarnessReply(text: unknown): HarnessReply {
  // (Workers RPC bounds its size)
  const reply =
    typeof text === "string" ? (JSON.parse(text) as Partial<HarnessReply> | null) : undefined;
  const outcome =
    typeof reply === "object" && reply !== null
      ? readPassOutcome(reply.outcome, OUTCOME_KINDS)
      : undefined;
  if (!reply || !outcome) throw new Error("the sandbox worker's reply is not readable");
  return { outcome, logs: reply.logs, replayed: reply.replayed };
}

/** The entrypoint class the harness module exports (workerd makes an instance per request). */
export type HarnessClass = abstract new (...args: never[]) => HarnessEntrypoint;

/**
 * Runs INSIDE the loaded worker: the harness module (`harnessSource`) evaluates this function's
 * source text and exports the class it returns as the worker's entrypoint. It must stay
 * self-contained (no imports, no references outside its body) and plain JavaScript once types are
 * stripped: workerd compiles no code at run time, so the bootstrap, the value codec and the renderer
 * are pasted into the module as source too, and handed over here.
 *
 * Called at module evaluation, it takes the built-ins it needs and installs `console` and the
 * namespace globals (through the shared bootstrap). `evaluate(bridge, input?)` takes the bridge's
 * methods (and lets go of the bridge itself) and arms the deadline of the tick module (which the
 * instrumented program imports) before any code of the pass runs, loads the prelude and the
 * program, each a module of its own (`load`), runs it, and reports the outcome with the logs: a
 * timeout once the deadline has passed, whatever the program did after.
 *
 * Against a program that rewrites built-ins: nothing of the host (the bridge stub, its methods, the
 * promises of their calls) is ever the receiver or the argument of a property lookup or call the
 * program can intercept after it started; messages to the host carry primitive strings and numbers
 * only; a reply (a `HostReply` tuple in the `RpcReply` the host answers with) is read by index
 * only and never settles a promise, nor does an outcome (settling a promise with an array looks up
 * `then` on it, which the program can put on `Array.prototype`); the spec lives in this closure, not
 * in a module the program could import. After the outcome, calls from
 * the sandbox are refused here already, and the host refuses them too.
 */
export function workerHarness(
  spec: HarnessSpec,
  /** `WorkerEntrypoint` of `cloudflare:workers` */
  WorkerEntrypoint: abstract new (...args: never[]) => object,
  /** `arm` of the tick module */
  arm: ArmDeadline,
  /** imports the prelude's or the program's module */
  load: (stage: "prelude" | "program") => Promise<{ default?: unknown }>,
  /** the global the prelude finds the evaluate hook at (`SANDBOX_EVALUATE_HOOK`) */
  evaluateHookName: string,
  /** the global the prelude finds a saved program's seed at (`SANDBOX_SEED_HOOK`) */
  seedHookName: string,
  bootstrap: typeof sandboxBootstrap,
  encoder: typeof sandboxEncoder,
  errors: typeof sandboxErrors,
  tagged: typeof sandboxTaggedWriter,
  createValueCodec: () => unknown,
  createRenderer: (maxLineChars: number) => unknown,
  canonicalOf: typeof sandboxCanonical,
  /** `isHostReply` of the kit, pasted the same way */
  isReply: typeof isHostReply,
  /** `sandboxCallQueue` of the kit, pasted the same way */
  callQueue: typeof sandboxCallQueue,
): HarnessClass {
  const scope = globalThis as unknown as {
    setTimeout(callback: () => void, ms: number): unknown;
    clearTimeout(timer: unknown): void;
    queueMicrotask(callback: () => void): void;
    Request: new (input: unknown, init: unknown) => unknown;
  };
  // built-ins, taken before any code of the pass runs
  const canonical = canonicalOf(
    JSON.stringify,
    Object.keys,
    Array.isArray,
    Reflect.apply,
    Array.prototype.sort,
  );
  const quote = JSON.stringify;
  const parseJson = JSON.parse;
  const isArray = Array.isArray;
  const StringType = String;
  const ErrorType = Error;
  const TypeErrorType = TypeError;
  const RangeErrorType = RangeError;
  const PromiseType = Promise;
  const RequestType = scope.Request;
  const define = Object.defineProperty;
  const deleteProperty = Reflect.deleteProperty;
  const startTimer = scope.setTimeout;
  const queueTask = scope.queueMicrotask;
  const stopTimer = scope.clearTimeout;

  const replayTotal = spec.replay.length;
  /** The reply to a call made after the pass ended (a new tuple each time: the program gets it). */
  const lateReply = (): ErrorReply => [
    "error",
    "Error",
    "The code finished before this call was made; it was not run. Await every call before returning.",
    "ABORTED",
    "",
  ];
  const TOO_MANY_MESSAGE = `More than ${spec.maxConcurrentCalls} host calls are in flight at once; await some before making more (batch them, e.g. ${spec.maxConcurrentCalls} at a time).`;
  const tooMany = (): ErrorReply => [
    "error",
    "RangeError",
    TOO_MANY_MESSAGE,
    "BUDGET_EXCEEDED",
    "",
  ];

  // The bridge's methods (RPC properties), taken in evaluate before the prelude and the program run;
  // the bridge stub itself is kept nowhere.
  let hostCall: Bridge["call"] | null = null;
  let hostCalls: Bridge["calls"] | null = null;
  let hostReply: Bridge["reply"] | null = null;
  let hostEvaluate: Bridge["evaluate"] | null = null;
  let hostFetch: Bridge["fetch"] | null = null;
  let started = false;
  let finished = false;
  let settle: (outcome: HarnessOutcome) => void = () => {};
  let inFlight = 0;
  // characters of the inputs of the queued and sent calls not answered yet
  let charsInFlight = 0;

  // The deadline of the pass, armed in evaluate before any code of the pass runs: whether it has
  // passed (a tick of the program saw it, or the clock says so), and what makes every later tick throw.
  let expired = () => false;
  let halt = () => {};
  let yielding = () => false;
  // How the pass ended, first come first served. Past the deadline it is a timeout, whatever the
  // program returned or threw since (it may have caught the ticks' error, or a getter of its result
  // may have been stopped while the result was encoded); from then on every tick of the program throws.
  function end(outcome: HarnessOutcome): void {
    if (finished) return;
    const late = expired();
    finished = true;
    halt();
    settle(late ? ["timeout"] : outcome);
  }
  // A call from the sandbox past the deadline ends the pass instead of reaching the host.
  function overdue(): boolean {
    if (finished) return true;
    if (!expired()) return false;
    end(["timeout"]);
    return true;
  }

  // Console lines since the last message, as JSON text: no array the program's prototypes could reach.
  let pendingText = "";
  let pendingCount = 0;
  let sentLines = 0;
  let sentChars = 0;
  let droppedLines = 0;
  function logs(): string | undefined {
    if (pendingCount === 0 && droppedLines === 0) return undefined;
    const batch = `[[${pendingText}],${droppedLines}]`;
    pendingText = "";
    pendingCount = 0;
    droppedLines = 0;
    return batch;
  }

  // Replay: the program's first calls, while they match the recorded ones in order, are answered from
  // the journal here; the host hears how many with the next call that reaches it and at the end.
  let replayed = 0;
  let unsent = 0;
  let replaying = replayTotal > 0;
  function answeredHere(): number {
    const count = unsent;
    unsent = 0;
    return count;
  }
  function replayAnswer(namespace: string, method: string, input: string): HostReply | undefined {
    // the count first: an index past the end would be read from a prototype the program can change
    const next = replayed < replayTotal ? spec.replay[replayed] : undefined;
    if (
      next &&
      next.namespace === namespace &&
      next.method === method &&
      // the recorded input is canonical text: the same text is the same call, without parsing it
      (next.input === input || canonical(parseJson(next.input)) === canonical(parseJson(input)))
    ) {
      replayed++;
      unsent++;
      return ["ok", next.result];
    }
    replaying = false;
    return undefined;
  }

  // A host call whose message or reply was lost on the way. Whether it ran is said as far as the
  // harness can know: a reply lost on its way back belongs to a call that may have run.
  function describeLoss(error: unknown, mayHaveRun: boolean): ErrorReply {
    let message = "";
    try {
      const record = error as { message?: unknown };
      message =
        typeof error === "object" && error !== null && typeof record.message === "string"
          ? (record.message as string)
          : StringType(error);
    } catch {}
    const what = mayHaveRun
      ? "The host call's message or its reply was lost (the call may have run on the host; check before making it again): "
      : "The host could not be reached; the call was not run: ";
    return ["error", "Error", what + message, "ABORTED", ""];
  }

  /**
   * A call waiting for its reply. The calls the program makes in one turn wait in the kit's queue
   * (`sandboxCallQueue`) until the turn's microtasks run, then go to the host together (`dispatch`).
   * A queued call counts as in flight from the start, its input in `charsInFlight` until it is
   * answered (a nested run's is ""). Every call is an object literal whose properties are all its
   * own: no setter or getter of a prototype the program changed is ever reached.
   */
  interface Waiting extends QueuedCall {
    /**
     * takes the reply (never a promise settled with it: that would look `then` up on the tuple), and
     * whether it came in a task of its own while the program was idle (see `sandboxBootstrap`)
     */
    deliver: (reply: HostReply, atIdle?: boolean) => void;
  }

  // One ordering domain per pass. A saved program (`codemode.run`) runs in a worker of its own, and
  // the host numbers the calls of the pass in the order they reach it, from whichever worker: left
  // to run side by side, the two workers' calls would interleave by connector latency and worker
  // start-up, which a replay (its calls answered at once) does not repeat, and the approval pass
  // would diverge. So while a saved program this worker started runs, nothing this worker sends
  // reaches the host: its calls (and a next `codemode.run`) wait here, in the order they were made,
  // and go once the saved program has ended. The host then numbers the calls of the pass in one
  // order that depends on no clock: this worker's messages in the order it made them, each saved
  // program's own calls (numbered the same way, one level down) in place of its `codemode.run`.
  // This worker itself goes on meanwhile only as far as replies of calls sent before allow: replies
  // reach the program in call order (the saved program's result in its turn), timers wait while it
  // runs (`api.wait`), and what the program does in between is the same on every pass. Nothing waits
  // in a circle: a saved program never waits on its caller, and its end (its result, its deadline,
  // the pass ended by the host) always lets its caller's messages go.
  let nesting = false;
  interface Held {
    send: () => void;
    next: Held | null;
  }
  let firstHeld: Held | null = null;
  let lastHeld: Held | null = null;
  // Sends now, or after the saved program running now, in the order posted.
  function post(send: () => void): void {
    if (!nesting) {
      send();
      return;
    }
    const held: Held = { send, next: null };
    if (lastHeld === null) firstHeld = held;
    else lastHeld.next = held;
    lastHeld = held;
  }
  // The saved program ended: what waited goes, up to the next `codemode.run`, which holds the rest.
  function resume(): void {
    nesting = false;
    while (!nesting && firstHeld !== null) {
      const held: Held = firstHeld;
      firstHeld = held.next;
      if (firstHeld === null) lastHeld = null;
      held.send();
    }
  }

  // A host call that is not a namespace call (`codemode.run`), counted while in flight: sent when
  // `post` lets it, its reply taken by `got`, and a promise of this realm that settles (with nothing)
  // in the reply's turn among the calls' (`api.wait`: timers wait for it too) and never rejects.
  // The RPC promise is only ever handed to harness callbacks. With `nests`, nothing else this worker
  // sends goes before its reply came.
  function send(
    start: () => Promise<unknown>,
    got: (reply: HostReply) => void,
    nests: boolean,
  ): Promise<void> {
    inFlight++;
    return api.wait((done) => {
      const deliver = (reply: HostReply, atIdle?: boolean) => {
        if (nests) resume();
        got(reply);
        done(atIdle);
      };
      const call: Waiting = { next: null, id: 0, namespace: "", method: "", input: "", deliver };
      post(() => {
        if (nests) nesting = true;
        forward(call, start, false);
      });
    });
  }

  // consecutive calls go together while their text stays within a batch's limit; a call alone goes
  // as `call`; either waits while a saved program of this worker runs
  const queue = callQueue<Waiting>(
    queueTask,
    quote,
    spec.maxBatchChars,
    false,
    (head, size, text) => post(() => dispatch(head, size, text)),
  );
  const flush = queue.flush;
  const queueCall = queue.add;
  function enqueue(
    namespace: string,
    method: string,
    input: string,
    deliver: (reply: HostReply, atIdle?: boolean) => void,
  ): void {
    inFlight++;
    charsInFlight += input.length;
    queueCall({
      next: null,
      id: 0,
      namespace: StringType(namespace),
      method: StringType(method),
      input: StringType(input),
      deliver,
    });
  }
  // Every queued call is answered once, and leaves the count in flight then.
  function answer(item: Waiting, reply: HostReply, atIdle = false): void {
    inFlight--;
    charsInFlight -= item.input.length;
    item.deliver(reply, atIdle);
  }
  // The reply in the `RpcReply` the host answered with; a lost one if it is anything else.
  function replyOf(envelope: unknown): HostReply {
    const reply =
      typeof envelope === "object" && envelope !== null
        ? (envelope as { reply?: unknown }).reply
        : undefined;
    return isReply(reply, isArray) ? reply : describeLoss("an unreadable reply", true);
  }
  // Answers a call with the reply of the RPC `start` makes (whose promise is only ever handed harness
  // callbacks). A throw of `start` itself means nothing was sent, unless the call reached the host
  // before (`sentBefore`: only its reply was to be asked for); a lost reply belongs to a call that may
  // have run; an answer that is not an `RpcReply` is taken for a lost one.
  function forward(item: Waiting, start: () => Promise<unknown>, sentBefore: boolean): void {
    let pending: Promise<unknown>;
    try {
      pending = start();
    } catch (error) {
      answer(item, describeLoss(error, sentBefore));
      return;
    }
    // an RPC's answer comes in a task of its own: the program is idle there unless its ticks yield
    pending.then(
      (envelope) => answer(item, replyOf(envelope), !yielding()),
      (error) => answer(item, describeLoss(error, true)),
    );
  }
  // Sends a call alone (`call`), or a batch (`calls`, `batchText` the queue's JSON text of its
  // `BatchedCall`s): the host starts every call of a batch before it answers any, and answers each
  // on its own.
  function dispatch(head: Waiting, size: number, batchText: string): void {
    const answerAll = (reply: () => HostReply) => {
      let item: Waiting | null = head;
      for (let index = 0; index < size && item !== null; index++) {
        const next: Waiting | null = item.next;
        answer(item, reply());
        item = next;
      }
    };
    if (finished || hostCall === null || hostCalls === null || hostReply === null) {
      answerAll(lateReply);
      return;
    }
    const text = logs();
    const count = answeredHere();
    if (size === 1) {
      const call = hostCall;
      forward(head, () => call(head.namespace, head.method, head.input, text, count), false);
      return;
    }
    const takeReply = hostReply;
    let started: Promise<unknown>;
    try {
      started = hostCalls(batchText, text, count);
    } catch (error) {
      answerAll(() => describeLoss(error, false));
      return;
    }
    started.then(
      (ticket) => {
        if (typeof ticket !== "number") {
          return answerAll(() => describeLoss("an unreadable reply", true));
        }
        let item: Waiting | null = head;
        for (let index = 0; index < size && item !== null; index++) {
          const next: Waiting | null = item.next;
          const mine = ticket + index;
          forward(item, () => takeReply(mine), true);
          item = next;
        }
      },
      // the batch did not arrive: none of its calls ran
      (error) => answerAll(() => describeLoss(error, false)),
    );
  }

  const api = bootstrap(
    (namespace, method, input, deliver) => {
      if (overdue() || hostCall === null) return deliver(lateReply());
      if (replaying) {
        let answered: HostReply | undefined;
        try {
          answered = replayAnswer(namespace, method, input);
        } catch {
          // too deep to compare, or no memory left: the host decides, and replay ends
          replaying = false;
        }
        if (answered !== undefined) return deliver(answered);
      }
      if (inFlight >= spec.maxConcurrentCalls) return deliver(tooMany());
      // the host refuses it too: refused here, it costs the host nothing (a tuple of strings: no
      // toJSON the program put on Object.prototype is reached)
      if (charsInFlight + input.length > spec.maxInputCharsInFlight) {
        return deliver([
          "error",
          "RangeError",
          `${namespace}.${method} was not called: with the calls still in flight its input would make ${
            charsInFlight + input.length
          } characters of input waiting on the host, more than the ${spec.maxInputCharsInFlight} one run may have in flight. Await calls before sending more, or send less at once.`,
          "BUDGET_EXCEEDED",
          "",
        ]);
      }
      enqueue(namespace, method, input, deliver);
    },
    (line) => {
      if (typeof line !== "string") return;
      if (sentLines < spec.maxLogLines && sentChars < spec.maxLineChars) {
        sentLines++;
        sentChars += line.length;
        pendingText += (pendingCount > 0 ? "," : "") + quote(line);
        pendingCount++;
      } else droppedLines++;
    },
    end,
    // replies (replayed ones answered here at once too) and timers reach the program one at a
    // time, at idle: a yield of the program's ticks (its instrumented loops) is not idle
    (callback) => {
      const atIdle = () => {
        if (yielding()) startTimer(atIdle, 0);
        else callback();
      };
      startTimer(atIdle, 0);
    },
    (name) =>
      (name === "codec" ? createValueCodec : createRenderer) as (...args: never[]) => unknown,
    quote({ namespaces: spec.namespaces, timers: true, maxLineChars: spec.maxLineChars }),
    encoder,
    errors,
    tagged,
  );

  // The reply of evaluate (`HarnessReply`, which `readHarnessReply` reads on the host) is JSON text,
  // written without prototype methods the program may have replaced: a string cannot be hijacked by
  // a then or toJSON put on Object.prototype.
  function strings(list: readonly string[]): string {
    let out = "[";
    for (let index = 0; index < list.length; index++) {
      out += (index > 0 ? "," : "") + quote(StringType(list[index]));
    }
    return `${out}]`;
  }
  function reply(outcome: HarnessOutcome): string {
    const batch = logs();
    const logText = batch === undefined ? "" : `,"logs":${quote(batch)}`;
    return `{"outcome":${strings(outcome)}${logText},"replayed":${answeredHere()}}`;
  }

  const encode = api.encode;
  const decode = api.decode;

  // codemode.run: the host runs the saved program in a worker of its own, on the same namespaces. The
  // prelude takes this hook; it is removed before the program runs.
  async function evaluateHook(source: unknown, input: unknown, seed: unknown): Promise<unknown> {
    if (overdue() || hostEvaluate === null) {
      throw new ErrorType("The code has finished; nothing more runs.");
    }
    // the core prelude always draws one; a prelude of the host's own may leave it out ("": none)
    if (seed !== undefined && typeof seed !== "string") {
      throw new TypeErrorType("The evaluate hook's seed must be a string.");
    }
    if (inFlight >= spec.maxConcurrentCalls) throw new RangeErrorType(TOO_MANY_MESSAGE);
    const text = encode(input);
    // the recorded calls answered here are the run's first ones, made before any saved program: from
    // here on the host numbers every call (the saved program's worker is sent none to answer)
    replaying = false;
    // calls the program made before it in this turn reach the host before it
    flush();
    const call = hostEvaluate;
    const code = StringType(source);
    const drawn = seed ?? "";
    let result!: HostReply;
    await send(
      // the console lines and the replay count as of when it goes
      () => call(code, text, drawn, logs(), answeredHere()),
      (reply) => {
        result = reply;
      },
      true,
    );
    if (result[0] === "ok") return decode(result[1]);
    const name = result[1];
    const message = result[2];
    const failure = result[3];
    // the saved program ran until the pass's own deadline: the pass has timed out, caught or not
    if (failure === "TIMEOUT") end(["timeout"]);
    const error = new ErrorType(message) as Error & { code?: string };
    if (name !== "Error") error.name = name;
    if (failure) error.code = failure;
    throw error;
  }

  // fetch(), when the host has an outbound service: the request goes through the bridge, which
  // refuses it once the pass is over (the worker itself has no outbound at all).
  async function outboundFetch(input: unknown, init: unknown): Promise<unknown> {
    if (overdue() || hostFetch === null) {
      throw new TypeErrorType("The code has finished; the request was not sent.");
    }
    if (inFlight >= spec.maxConcurrentCalls) throw new RangeErrorType(TOO_MANY_MESSAGE);
    const request = new RequestType(input, init);
    flush();
    const call = hostFetch;
    inFlight++;
    // its response reaches the program in its turn among the calls' replies, and timers wait for
    // it, as for a call: how long the request took decides nothing the program does after
    let response: unknown;
    let failure: unknown;
    let failed = false;
    await api.wait((done) => {
      const settled = (atIdle: boolean) => {
        inFlight--;
        done(atIdle);
      };
      let pending: Promise<unknown>;
      try {
        pending = call(request);
      } catch (error) {
        failed = true;
        failure = error;
        settled(false);
        return;
      }
      pending.then(
        (value) => {
          response = value;
          settled(!yielding());
        },
        (error: unknown) => {
          failed = true;
          failure = error;
          settled(!yielding());
        },
      );
    });
    if (failed) throw failure;
    return response;
  }

  abstract class Harness extends WorkerEntrypoint implements HarnessEntrypoint {
    async evaluate(bridge: unknown, input?: string): Promise<string> {
      if (started) throw new ErrorType("This sandbox runs one pass.");
      started = true;
      const deadline = arm(spec.timeoutMs, spec.imports);
      expired = deadline.expired;
      halt = deadline.halt;
      yielding = deadline.yielding;
      // nothing of the pass has run yet: these lookups reach the stub itself
      let host = bridge as Bridge | null;
      hostCall = (host as Bridge).call;
      hostCalls = (host as Bridge).calls;
      hostReply = (host as Bridge).reply;
      hostEvaluate = (host as Bridge).evaluate;
      if (spec.outbound) hostFetch = (host as Bridge).fetch;
      host = null;
      bridge = null;
      if (api.problem) return reply(["problem", api.problem]);
      // the outcome is kept here; the promise settles with nothing (no `then` is looked up on it)
      let outcome!: HarnessOutcome;
      const done = new PromiseType<void>((resolve) => {
        settle = (ended) => {
          outcome = ended;
          resolve();
        };
      });
      const timer = startTimer(() => end(["timeout"]), spec.timeoutMs);
      if (spec.outbound) {
        define(globalThis, "fetch", {
          value: function fetch(input: unknown, init: unknown) {
            return outboundFetch(input, init);
          },
          writable: true,
          enumerable: true,
          configurable: true,
        });
      }
      let stage: "prelude" | "program" = "prelude";
      try {
        if (spec.prelude) {
          if (spec.seed !== null) {
            define(globalThis, seedHookName, {
              value: spec.seed,
              writable: false,
              enumerable: false,
              configurable: true,
            });
          }
          define(globalThis, evaluateHookName, {
            value: evaluateHook,
            writable: false,
            enumerable: false,
            configurable: true,
          });
          await load("prelude");
        }
        deleteProperty(globalThis, evaluateHookName);
        deleteProperty(globalThis, seedHookName);
        stage = "program";
        const program = (await load("program")).default as (input?: unknown) => unknown;
        api.run(input === undefined ? program : () => program(decode(input)));
      } catch (error) {
        const record = (
          typeof error === "object" && error !== null ? error : { message: StringType(error) }
        ) as { name?: unknown; message?: unknown; stack?: unknown };
        end([
          "load",
          stage,
          StringType(record.name ?? "Error"),
          StringType(record.message ?? ""),
          StringType(record.stack ?? ""),
        ]);
      }
      await done;
      stopTimer(timer);
      // nothing in this isolate can reach the host once the pass is over
      hostCall = null;
      hostCalls = null;
      hostReply = null;
      hostEvaluate = null;
      hostFetch = null;
      return reply(outcome);
    }
  }
  return Harness;
}
