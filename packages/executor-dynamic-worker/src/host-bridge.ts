import { RpcTarget } from "cloudflare:workers";
import type { HostNamespaces, SandboxError } from "@codemode/core";
import {
  callHost,
  errorReply,
  type HostReply,
  type LogSink,
  type ReplyLimit,
  type RpcReply,
  rpcReply,
  tooMuchInFlightMessage,
} from "@codemode/executor-kit";
import type { BridgeProtocol } from "./worker-harness.ts";

/** The outbound service a pass may reach (a `Fetcher`), as far as the bridge uses it. */
export interface OutboundService {
  fetch(request: unknown): Promise<unknown>;
}

/** `Request` of the runtime (workerd), looked up when used: this module also type-checks without it. */
const requestClass = (): (abstract new (...args: never[]) => object) | undefined =>
  (globalThis as { Request?: abstract new (...args: never[]) => object }).Request;

/** What one pass shares between its sandbox workers: the first and every nested one (`codemode.run`). */
export interface PassOptions {
  globals: HostNamespaces;
  /** namespace → the methods the sandbox was given (an own, enumerable function each); no other is served */
  namespaces: Record<string, string[]>;
  logs: LogSink;
  replyLimit: ReplyLimit;
  /** most host calls (namespace calls, nested runs, outbound requests) in flight at once */
  maxConcurrentCalls: number;
  /** most nested runs per pass, and how deep they may nest */
  maxNestedRuns: number;
  maxNestedDepth: number;
  /** most characters of a nested run's source, of a call's input, and of one message's console lines */
  maxSourceChars: number;
  maxInputChars: number;
  /** most characters of the inputs of all calls in flight at once (held on the host meanwhile) */
  maxInputCharsInFlight: number;
  maxLogChars: number;
  /** most characters of one batch of calls (`HostBridge.calls`); a larger call goes on its own */
  maxBatchChars: number;
  /** where the sandbox's `fetch()` goes; null: nowhere */
  outbound: OutboundService | null;
  /** the sandbox answered this many more recorded calls itself (see `ReplayHint`) */
  advance?(count: number): void;
  /**
   * runs a nested program's source in a worker of its own, talking to `bridge`, its prelude drawing
   * from `seed`; answers its reply
   */
  evaluate(
    source: string,
    input: string,
    seed: string,
    bridge: HostBridge,
    scope: BridgeScope,
  ): Promise<HostReply>;
}

const LATE = errorReply({
  name: "Error",
  code: "ABORTED",
  message:
    "The run ended before this call finished; its result was dropped. Await every call before returning.",
});
const ended = (what: string): HostReply =>
  errorReply({
    name: "Error",
    code: "ABORTED",
    message: `The run has ended; ${what} was not run.`,
  });
/** Characters of the seed the prelude draws for a saved program (three base-36 draws, about 33). */
const MAX_SEED_CHARS = 100;
const badMessage = (what: string): HostReply =>
  errorReply({ name: "TypeError", message: `The sandbox sent an unreadable ${what}.` });

/**
 * The host's state of one pass. It is never handed to the sandbox: the sandbox gets `HostBridge`s,
 * whose only members are the protocol's methods. Once the pass is over (`close`), or the sandbox
 * broke the protocol (`violation`), nothing a worker of the pass left running reaches a host method,
 * the outbound service or the logs; calls still in flight are answered at once.
 */
export class Pass {
  readonly options: PassOptions;
  readonly #allowed = new Map<string, Set<string>>();
  #closed = false;
  #inFlight = 0;
  #charsInFlight = 0;
  #nestedRuns = 0;
  #close!: () => void;
  readonly closing = new Promise<HostReply>((resolve) => {
    this.#close = () => resolve(LATE);
  });
  #fail!: (error: SandboxError) => void;
  #failed: SandboxError | undefined;
  /**
   * Settles when the pass must fail from the host's side: the sandbox sent what the protocol does
   * not allow, or a worker of the pass died.
   */
  readonly failure = new Promise<SandboxError>((resolve) => {
    this.#fail = resolve;
  });

  constructor(options: PassOptions) {
    this.options = options;
    for (const [namespace, methods] of Object.entries(options.namespaces)) {
      this.#allowed.set(namespace, new Set(methods));
    }
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The error the pass failed with from the host's side, if it did. */
  get failed(): SandboxError | undefined {
    return this.#failed;
  }

  /** A bridge for a worker of this pass at `depth` (0: the first), which was sent `replayCalls` recorded calls. */
  open(depth: number, replayCalls: number): { bridge: HostBridge; scope: BridgeScope } {
    const scope = new BridgeScope(this, depth, replayCalls);
    return { bridge: new HostBridge(this, scope), scope };
  }

  allows(namespace: string, method: string): boolean {
    return this.#allowed.get(namespace)?.has(method) === true;
  }

  /** Counts a host call in; false past the limit. `done` must follow every true. */
  enter(): boolean {
    if (this.#inFlight >= this.options.maxConcurrentCalls) return false;
    this.#inFlight++;
    return true;
  }

  done(): void {
    this.#inFlight--;
  }

  /**
   * Counts the characters of a call's input in, while it is in flight; the total in flight it would
   * make, refused, past the budget. `release` must follow every undefined.
   */
  hold(chars: number): number | undefined {
    const total = this.#charsInFlight + chars;
    if (total > this.options.maxInputCharsInFlight) return total;
    this.#charsInFlight = total;
    return undefined;
  }

  release(chars: number): void {
    this.#charsInFlight -= chars;
  }

  /** Counts a nested run in; an error message past a limit. */
  nest(depth: number): string | undefined {
    if (depth >= this.options.maxNestedDepth) {
      return `codemode.run may nest ${this.options.maxNestedDepth} deep at most; a saved program runs saved programs too deeply here.`;
    }
    if (this.#nestedRuns >= this.options.maxNestedRuns) {
      return `A run may start ${this.options.maxNestedRuns} saved programs (codemode.run) at most; run fewer, or do the work in the code itself.`;
    }
    this.#nestedRuns++;
    return undefined;
  }

  /** Ends the pass because the sandbox sent what the protocol does not allow. */
  violate(what: string): void {
    this.fail({
      name: "Error",
      code: "THROWN",
      message: `The sandbox broke the executor's protocol (${what}); the run was stopped.`,
    });
  }

  /** Ends the pass with `error`, unless it is over already. */
  fail(error: SandboxError): void {
    if (this.#closed) return;
    this.#failed = error;
    this.#fail(error);
    this.close();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#close();
  }
}

/**
 * One worker's share of a pass: its nesting depth, and the replay bookkeeping the host owns. The
 * sandbox reports how many recorded calls it answered itself; the host accepts a count only while no
 * call of this worker has reached the host yet, and never more than the recorded calls it was sent.
 */
export class BridgeScope {
  readonly pass: Pass;
  readonly depth: number;
  #replayLeft: number;
  #replayOpen: boolean;
  #closed = false;
  /**
   * A saved program this worker started (`codemode.run`) runs now. Its harness sends nothing else
   * meanwhile (one ordering domain per pass, see `workerHarness`); a call or a run that comes anyway
   * breaks the protocol.
   */
  nesting = false;

  constructor(pass: Pass, depth: number, replayCalls: number) {
    this.pass = pass;
    this.depth = depth;
    this.#replayLeft = replayCalls;
    this.#replayOpen = replayCalls > 0;
  }

  get closed(): boolean {
    return this.#closed || this.pass.closed;
  }

  /**
   * Takes what travels with every message from the sandbox: console lines (JSON text of
   * `[lines, dropped]`) and the replay count. False when it broke the protocol (the pass then ends).
   * A `live` message (a call, a batch, a run) while this worker's saved program runs breaks it too:
   * the host would number its calls by which worker happened to be faster.
   */
  take(logs: unknown, replayed: unknown, live: boolean): boolean {
    if (this.closed) return false;
    if (live && this.nesting) {
      this.pass.violate("a call while a saved program it started was running");
      return false;
    }
    if (!this.#takeReplayed(replayed)) return false;
    if (live) this.#replayOpen = false;
    return this.#takeLogs(logs);
  }

  #takeReplayed(count: unknown): boolean {
    if (count === undefined || count === 0) return true;
    if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 0) {
      this.pass.violate("a replay count that is not a whole number");
      return false;
    }
    if (!this.#replayOpen || count > this.#replayLeft) {
      this.pass.violate(
        "more recorded calls answered in the sandbox than it was sent, or after a call reached the host",
      );
      return false;
    }
    this.#replayLeft -= count;
    this.pass.options.advance?.(count);
    return true;
  }

  #takeLogs(batch: unknown): boolean {
    if (batch === undefined) return true;
    const { logs, maxLogChars } = this.pass.options;
    if (typeof batch !== "string" || batch.length > maxLogChars * 2 + 1_000) {
      this.pass.violate("console lines that are not text, or too many of them");
      return false;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(batch);
    } catch {
      this.pass.violate("unreadable console lines");
      return false;
    }
    if (!Array.isArray(parsed) || !Array.isArray(parsed[0])) {
      this.pass.violate("unreadable console lines");
      return false;
    }
    // host values parsed from text: reading them runs no code of the sandbox
    for (const line of parsed[0] as unknown[]) if (typeof line === "string") logs.add(line);
    const dropped = parsed[1];
    if (typeof dropped === "number") logs.drop(dropped);
    return true;
  }

  close(): void {
    this.#closed = true;
  }
}

/**
 * The one host object a sandbox worker holds, passed to it as an RPC argument. Its only members are
 * the protocol's methods (every public method of an RpcTarget is callable from the sandbox);
 * each takes primitive strings and numbers only, checks them, and never calls back into a value the
 * sandbox supplied. Host bookkeeping lives in `Pass` and `BridgeScope`, out of the sandbox's reach.
 */
export class HostBridge extends RpcTarget implements BridgeProtocol {
  readonly #pass: Pass;
  readonly #scope: BridgeScope;
  /** replies of batched calls not asked for yet, by ticket */
  readonly #held = new Map<number, Promise<HostReply> | HostReply>();
  #nextTicket = 0;

  constructor(pass: Pass, scope: BridgeScope) {
    super();
    this.#pass = pass;
    this.#scope = scope;
  }

  /** `namespace.method(input)`: its reply. */
  call(
    namespace: unknown,
    method: unknown,
    input: unknown,
    logs?: unknown,
    replayed?: unknown,
  ): Promise<RpcReply> | RpcReply {
    if (!this.#scope.take(logs, replayed, true)) return rpcReply(ended("this call"));
    return enveloped(this.#one(namespace, method, input));
  }

  /**
   * The calls the program made in one turn, as JSON text of `[[namespace, method, input], ...]`.
   * Each is started, in order, before any is answered, as calls made at once are in-process: the
   * host numbers and decides them together, so a `Promise.all` of gated calls pauses with all of
   * them waiting. Answers the ticket of the first call; `reply(ticket + i)` answers the i-th, each
   * on its own (one message of every reply could be more than Workers RPC carries, and a fast call
   * would wait for its slowest sibling).
   */
  calls(batch: unknown, logs?: unknown, replayed?: unknown): number {
    const { maxConcurrentCalls, maxBatchChars } = this.#pass.options;
    let list: unknown;
    try {
      if (typeof batch !== "string" || batch.length > maxBatchChars) throw new TypeError();
      list = JSON.parse(batch);
    } catch {
      list = undefined;
    }
    // replies not taken yet are bounded too (the harness asks for each at once; room for twice the
    // calls in flight): a sandbox that never asks holds no more host memory than that
    if (
      !Array.isArray(list) ||
      list.length < 2 ||
      list.length > maxConcurrentCalls ||
      this.#held.size + list.length > 2 * maxConcurrentCalls
    ) {
      this.#pass.violate("an unreadable batch of calls");
      return -1;
    }
    const live = this.#scope.take(logs, replayed, true);
    const first = this.#nextTicket;
    // host values parsed from text: reading them runs no code of the sandbox
    for (const item of list as unknown[]) {
      let reply: Promise<HostReply> | HostReply;
      if (!live) reply = ended("this call");
      else if (!Array.isArray(item) || item.length !== 3) reply = badMessage("call");
      else reply = this.#one(item[0], item[1], item[2]);
      this.#held.set(this.#nextTicket++, reply);
    }
    return first;
  }

  /** The reply of the call a batch gave `ticket` to, once. */
  reply(ticket: unknown): Promise<RpcReply> | RpcReply {
    const held = typeof ticket === "number" ? this.#held.get(ticket) : undefined;
    if (held === undefined) {
      this.#pass.violate("a reply asked for twice, or of no call");
      return rpcReply(ended("this call"));
    }
    this.#held.delete(ticket as number);
    return enveloped(held);
  }

  #one(namespace: unknown, method: unknown, input: unknown): Promise<HostReply> | HostReply {
    if (typeof namespace !== "string" || typeof method !== "string") {
      return badMessage("method name");
    }
    const options = this.#pass.options;
    if (typeof input !== "string" || input.length > options.maxInputChars) {
      return errorReply({
        name: "RangeError",
        code: "TOO_LARGE",
        message: `The input of ${namespace}.${method} is unreadable or larger than ${options.maxInputChars} characters.`,
      });
    }
    if (!this.#pass.allows(namespace, method)) {
      return errorReply({
        name: "TypeError",
        message: `${namespace}.${method} is not a host method.`,
        code: "UNKNOWN_METHOD",
      });
    }
    const refused = this.#pass.hold(input.length);
    if (refused !== undefined) {
      return errorReply({
        name: "RangeError",
        code: "BUDGET_EXCEEDED",
        message: tooMuchInFlightMessage(namespace, method, refused, options.maxInputCharsInFlight),
      });
    }
    const served = this.#serve(() =>
      callHost(options.globals, namespace, method, input, options.replyLimit),
    );
    if (!(served instanceof Promise)) {
      this.#pass.release(input.length);
      return served;
    }
    return served.finally(() => this.#pass.release(input.length));
  }

  /** `codemode.run`: a saved program's source, its encoded input and the prelude's seed for it; its reply. */
  evaluate(
    source: unknown,
    input: unknown,
    seed: unknown,
    logs?: unknown,
    replayed?: unknown,
  ): Promise<RpcReply> | RpcReply {
    return enveloped(this.#evaluate(source, input, seed, logs, replayed));
  }

  #evaluate(
    source: unknown,
    input: unknown,
    seed: unknown,
    logs: unknown,
    replayed: unknown,
  ): Promise<HostReply> | HostReply {
    if (!this.#scope.take(logs, replayed, true)) return ended("codemode.run");
    const options = this.#pass.options;
    if (typeof source !== "string" || source.length > options.maxSourceChars) {
      return badMessage("saved program");
    }
    if (typeof input !== "string" || input.length > options.maxInputChars) {
      return badMessage("input of codemode.run");
    }
    if (typeof seed !== "string" || seed.length > MAX_SEED_CHARS) {
      return badMessage("seed of codemode.run");
    }
    const refused = this.#pass.nest(this.#scope.depth);
    if (refused)
      return errorReply({ name: "RangeError", code: "BUDGET_EXCEEDED", message: refused });
    // The saved program's worker answers none of the recorded calls itself (the caller's harness
    // stopped answering them at this run too): the host numbers and replays every call from here on.
    const child = this.#pass.open(this.#scope.depth + 1, 0);
    const scope = this.#scope;
    return this.#serve(() => {
      // until it ends, its caller sends nothing more (one ordering domain per pass)
      scope.nesting = true;
      return options.evaluate(source, input, seed, child.bridge, child.scope).finally(() => {
        scope.nesting = false;
        child.scope.close();
      });
    });
  }

  /** The sandbox's `fetch()`, when the executor was given an outbound service. */
  async fetch(request: unknown): Promise<unknown> {
    const outbound = this.#pass.options.outbound;
    if (this.#scope.closed) throw new Error("The run has ended; the request was not sent.");
    if (!outbound) throw new Error("Outbound requests are not permitted in this sandbox.");
    const RequestClass = requestClass();
    if (!RequestClass || !(request instanceof RequestClass)) {
      throw new TypeError("fetch() needs a Request.");
    }
    if (!this.#pass.enter()) throw new RangeError(tooMany(this.#pass.options.maxConcurrentCalls));
    try {
      return await outbound.fetch(request);
    } finally {
      this.#pass.done();
    }
  }

  /** Runs host work of a call unless the pass is over or too many calls are in flight. */
  #serve(work: () => Promise<HostReply>): Promise<HostReply> | HostReply {
    if (this.#scope.closed) return ended("this call");
    if (!this.#pass.enter()) {
      return errorReply({
        name: "RangeError",
        code: "BUDGET_EXCEEDED",
        message: tooMany(this.#pass.options.maxConcurrentCalls),
      });
    }
    const running = work().finally(() => this.#pass.done());
    return Promise.race([running, this.#pass.closing]);
  }
}

/** A reply as an RPC method of the bridge returns it (see `RpcReply`). */
function enveloped(reply: Promise<HostReply> | HostReply): Promise<RpcReply> | RpcReply {
  return reply instanceof Promise ? reply.then(rpcReply) : rpcReply(reply);
}

function tooMany(limit: number): string {
  return `More than ${limit} host calls are in flight at once; await some before making more (batch them, e.g. ${limit} at a time).`;
}
