import {
  type AbortSignalLike,
  CodemodeError,
  type ExecuteRequest,
  type ExecuteResult,
  type SandboxError,
} from "@codemode/core";
import {
  abortedError,
  callHost,
  decodeResult,
  type ErrorInfo,
  type ErrorReply,
  errorInfoOf,
  errorReply,
  type HostReply,
  hostTimers,
  LogSink,
  mebibytes,
  messageOf,
  timeoutError,
  tooManyCallsMessage,
  tooMuchInFlightMessage,
  unserializableResultError,
} from "@codemode/executor-kit";
import {
  Lifetime,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
} from "quickjs-emscripten-core";
import {
  classifyError,
  hostFault,
  memoryError,
  type PassLimits,
  readError,
  syntaxError,
  type ThrownInfo,
} from "./classify-error.ts";
import { describeError, errorsCall } from "./errors-part.ts";
import { consoleLine, decodeInSandbox, encodeInput, readPrimitive } from "./marshal.ts";
import { namespaceObject } from "./namespace-object.ts";
import {
  deliverReplayed,
  endReplay,
  type LoadedReplay,
  loadReplay,
  replayAdvance,
} from "./replay-rows.ts";
import { Sandbox } from "./sandbox.ts";
import { disposeTimer, SandboxTimers } from "./sandbox-timers.ts";
import type { SpareSandboxes } from "./spare-sandboxes.ts";
import type { InstanceSource, QuickJSInstance } from "./wasm-instances.ts";

/** How often a program that holds the host's thread calls `request.heartbeat`. */
const HEARTBEAT_EVERY_MS = 1_000;

/** A stalled program whose instance memory is this close to its cap most likely lost a job to OOM. */
const NEAR_LIMIT_BYTES = 2 * 1024 * 1024;

export interface PassConfig {
  request: ExecuteRequest;
  namespaces: Record<string, string[]>;
  source: InstanceSource;
  /** the spare sandboxes of the instance source, and the passes it still has to free */
  spares: SpareSandboxes;
  /** take a spare, and leave the end of the pass and making the next spare to the background */
  prewarm: boolean;
  timeoutMs: number;
  memoryBytes: number;
  stackBytes: number;
  timers: boolean;
  maxLogLines: number;
  maxLogChars: number;
  /** most host calls in flight at once; a call past it is refused in the sandbox */
  maxConcurrentCalls: number;
}

type Outcome =
  | { kind: "ok"; text: string }
  | { kind: "value"; value: unknown }
  | { kind: "error"; error: SandboxError };

/** The namespaces may not take these names: the sandbox has (or may get) globals of these names. */
const RESERVED = new Set(["console", "setTimeout", "clearTimeout"]);
const CONSOLE_LEVELS: [string, string][] = [
  ["log", ""],
  ["info", ""],
  ["warn", "[warn] "],
  ["error", "[error] "],
  ["debug", "[debug] "],
];

/**
 * One execution: owns a WebAssembly instance and a sandbox (a runtime and a context) until it ends.
 * This file is its lifecycle (acquire, set up, start, drive, end, tear down) and the host functions
 * the sandbox calls; the parts it uses are each in a file of their own: the namespace objects
 * (namespace-object.ts), the in-sandbox replay (replay-rows.ts), timers (sandbox-timers.ts), moving
 * values (marshal.ts), the errors part (errors-part.ts) and what a failure is (classify-error.ts).
 */
export class Pass {
  readonly #config: PassConfig;
  readonly #logs: LogSink;
  readonly #deadline: number;
  #outcome: Outcome | undefined;
  /** no host call is made and the VM is not driven any more */
  #closed = false;
  /** the program settled and its result is being read: calls made now (a getter's) are refused */
  #settling = false;
  #timedOut = false;
  #outOfMemory = false;
  #configProblem = "";
  #endPass!: () => void;
  readonly #ended = new Promise<void>((resolve) => {
    this.#endPass = resolve;
  });

  #instance: QuickJSInstance | undefined;
  #sandbox: Sandbox | undefined;
  #inflight = 0;
  /** characters of the inputs of the calls in flight (held on the host until each is answered) */
  #charsInFlight = 0;
  readonly #deferreds = new Set<QuickJSDeferredPromise>();
  readonly #timers = new SandboxTimers((id) => this.#onFire(id));
  /** the replay part, in a pass that answers recorded calls in the sandbox */
  #replay: LoadedReplay | undefined;
  /** how many calls answered in the sandbox the host told the hint of (`ReplayHint.advance`) */
  #reported = 0;
  /** what error classification needs of this pass */
  readonly #limits: PassLimits;

  constructor(config: PassConfig) {
    this.#config = config;
    this.#logs = new LogSink(config.maxLogLines, config.maxLogChars);
    this.#deadline = Date.now() + config.timeoutMs;
    const pass = this;
    this.#limits = {
      timeoutMs: config.timeoutMs,
      memoryBytes: config.memoryBytes,
      get timedOut() {
        return pass.#timedOut;
      },
      nearMemoryLimit: () => this.#nearMemoryLimit(),
      onOutOfMemory: () => {
        this.#outOfMemory = true;
      },
    };
  }

  async run(): Promise<ExecuteResult> {
    const signal = this.#config.request.signal;
    if (signal?.aborted) return { error: abortedError(signal), logs: [] };
    const onAbort = () =>
      this.#end({ kind: "error", error: abortedError(signal as AbortSignalLike) });
    signal?.addEventListener("abort", onAbort, { once: true });
    const timer = hostTimers.setTimeout(
      () => this.#end({ kind: "error", error: this.#timeoutError() }),
      this.#config.timeoutMs,
    );
    let result: ExecuteResult;
    try {
      const { spares, prewarm } = this.#config;
      const spare = prewarm ? spares.take(this.#config.memoryBytes) : undefined;
      if (spare) {
        // made ahead: a fresh runtime and context, the built-ins captured, the encoder compiled
        this.#instance = spare.instance;
        this.#sandbox = spare;
        if (!this.#outcome) this.#start(spare.instance);
      } else {
        // the instances of passes that ended moments ago go back to the pool first
        spares.flush();
        // An abort or the timeout while the module is still loading ends the pass at once.
        const acquiring = this.#acquire();
        const instance = await Promise.race([acquiring, this.#ended.then(() => undefined)]);
        if (instance) {
          this.#instance = instance;
          if (!this.#outcome) this.#start(instance);
        } else {
          acquiring.then(
            (late) => this.#config.source.release(late),
            () => {},
          );
        }
      }
      await this.#ended;
      result = this.#result();
    } finally {
      hostTimers.clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      this.#close();
      const instance = this.#instance;
      const cleanup = instance
        ? () => {
            this.#teardown(instance);
            this.#config.source.release(instance);
          }
        : undefined;
      // with `prewarm` the VM is freed after the caller has the result, then the next spare is made
      const { spares, prewarm, memoryBytes, stackBytes } = this.#config;
      if (prewarm) spares.afterPass(cleanup, memoryBytes, stackBytes);
      else cleanup?.();
    }
    // host misuse found while installing the namespaces (one hiding a built-in) is thrown, like any other
    if (this.#configProblem) throw new CodemodeError("INVALID_CONFIG", this.#configProblem);
    return result;
  }

  async #acquire(): Promise<QuickJSInstance> {
    try {
      return await this.#config.source.acquire(this.#config.memoryBytes);
    } catch (error) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `QuickJSExecutor could not load the QuickJS WebAssembly module: ${messageOf(error)}`,
        { cause: error },
      );
    }
  }

  // ---- setting up and starting -------------------------------------------------------------------

  #start(instance: QuickJSInstance): void {
    this.#guard(() => {
      // a spare brings its sandbox; the limits are this pass's own
      const sandbox = this.#sandbox ?? Sandbox.create(instance, this.#config.stackBytes);
      this.#sandbox = sandbox;
      const { runtime, context } = sandbox;
      // This build cannot measure allocation sizes (QuickJS counts 8 bytes per allocation), so its own
      // limit is only a fallback; a capped linear memory is the real one.
      if (!this.#config.source.capsMemory) runtime.setMemoryLimit(this.#config.memoryBytes);
      runtime.setMaxStackSize(this.#config.stackBytes);
      const heartbeat = this.#config.request.heartbeat;
      let beaten = Date.now();
      runtime.setInterruptHandler(() => {
        if (this.#closed) return true;
        const time = Date.now();
        if (time >= this.#deadline) {
          this.#timedOut = true;
          return true;
        }
        // a program that runs without yielding holds the host's thread: tell the host it lives
        if (heartbeat && time - beaten >= HEARTBEAT_EVERY_MS) {
          beaten = time;
          try {
            heartbeat();
          } catch {
            // the host's own affair
          }
        }
        return false;
      });
      sandbox.maxLineChars = this.#config.maxLogChars;
      if (!this.#install(sandbox)) return;
      if (!this.#prelude(context)) return;
      const program = this.#evaluate(context, `(${this.#config.request.code}\n)`, "codemode.js");
      if (!program.ok) {
        const info = program.error;
        this.#end({
          kind: "error",
          error:
            info.name === "SyntaxError" && !this.#timedOut
              ? syntaxError(info)
              : classifyError(info, this.#limits),
        });
        return;
      }
      try {
        this.#runProgram(sandbox, program.value);
      } finally {
        program.value.dispose();
      }
    });
    this.#drive();
  }

  /**
   * Installs the namespaces, `console` and (when granted) the timers as host functions, through the
   * API: nothing is compiled for them. Returns false when a namespace would hide a built-in.
   */
  #install(sandbox: Sandbox): boolean {
    const { context } = sandbox;
    this.#replay = loadReplay(sandbox, this.#config.request.replay, this.#config.memoryBytes);
    for (const [namespace, methods] of Object.entries(this.#config.namespaces)) {
      const name = context.newString(namespace);
      const taken = RESERVED.has(namespace) || sandbox.has(context.global, name);
      name.dispose();
      if (taken) {
        const problem = `The namespace "${namespace}" would hide the sandbox's built-in global of that name; rename it.`;
        this.#configProblem = problem;
        this.#end({ kind: "error", error: { name: "Error", message: problem, code: "THROWN" } });
        return false;
      }
      const object = namespaceObject(
        sandbox,
        namespace,
        methods,
        this.#replay,
        (method, input, answered) => this.#onCall(sandbox, namespace, method, input, answered),
      );
      // a new property defined with a value only: not writable, enumerable or configurable
      context.defineProp(context.global, namespace, { value: object });
    }
    const consoleObject = context.newObject();
    for (const [level, prefix] of CONSOLE_LEVELS) {
      const log = context.newFunction(level, (...args) => this.#onLog(sandbox, prefix, args));
      context.setProp(consoleObject, level, log);
      log.dispose();
    }
    const globals: [string, QuickJSHandle][] = [["console", consoleObject]];
    if (this.#config.timers) {
      globals.push(
        [
          "setTimeout",
          context.newFunction("setTimeout", (callback, delay, ...args) =>
            this.#timers.set(sandbox, callback, delay, args, this.#closed || this.#overdue()),
          ),
        ],
        [
          "clearTimeout",
          context.newFunction("clearTimeout", (id) => this.#timers.clear(context, id)),
        ],
      );
    }
    for (const [name, value] of globals) {
      try {
        sandbox.define(context.global, name, value, { writable: true, configurable: true });
      } finally {
        value.dispose();
      }
    }
    return true;
  }

  #prelude(context: QuickJSContext): boolean {
    const prelude = this.#config.request.prelude;
    if (!prelude) return true;
    const result = this.#evaluate(context, prelude, "prelude.js");
    if (result.ok) {
      result.value.dispose();
      return true;
    }
    const error =
      result.error.name === "SyntaxError"
        ? syntaxError(result.error)
        : classifyError(result.error, this.#limits);
    this.#end({
      kind: "error",
      error:
        error.code === "THROWN" || error.code === "SYNTAX_ERROR"
          ? { ...error, message: `The prelude failed: ${error.message}` }
          : error,
    });
    return false;
  }

  #evaluate(
    context: QuickJSContext,
    code: string,
    filename: string,
  ): { ok: true; value: QuickJSHandle } | { ok: false; error: ErrorInfo } {
    const result = context.evalCode(code, filename, { type: "global" });
    if (result.error) {
      const error = readError(context, result.error);
      result.dispose();
      return { ok: false, error };
    }
    return { ok: true, value: result.value };
  }

  /**
   * Calls the program and follows its promise (`Promise.resolve(program())`, or the rejection of what
   * it threw) with the captured `then`, as a job: what the program queued before it returned runs first.
   */
  #runProgram(sandbox: Sandbox, program: QuickJSHandle): void {
    const { context } = sandbox;
    const called = context.callFunction(program, context.undefined);
    let promise: QuickJSHandle;
    try {
      const settle = sandbox.intrinsic(called.error ? "Promise.reject" : "Promise.resolve");
      promise = sandbox.call(settle, sandbox.intrinsic("Promise"), called.error ?? called.value);
    } finally {
      called.dispose();
    }
    const onValue = context.newFunction("settled", (value) => this.#onResult(sandbox, value));
    const onError = context.newFunction("failed", (error) => this.#onThrown(sandbox, error));
    try {
      const then = sandbox.intrinsic("Promise.prototype.then");
      sandbox.call(then, promise, onValue, onError).dispose();
    } finally {
      for (const handle of [onValue, onError, promise]) handle.dispose();
    }
  }

  // ---- the replay part -----------------------------------------------------------------------------

  /**
   * Tells the hint how many more calls the sandbox answered from the record, unless the pass is over.
   * The count is the host's own: it moves only forward and never past the calls it loaded, whatever
   * total the sandbox gives (`replayAdvance`).
   */
  #report(total: unknown): void {
    const replay = this.#replay;
    if (this.#closed || !replay) return;
    const count = replayAdvance(this.#reported, total, replay.count);
    if (count === 0) return;
    // set first: an `advance` that ends the pass comes back here through `#end`
    this.#reported += count;
    this.#config.request.replay?.advance(count);
  }

  /** The pass ends: the replay part answers nothing more, and the hint hears of its last calls. */
  #endReplay(): void {
    const replay = this.#replay;
    const sandbox = this.#sandbox;
    if (!replay || !sandbox || this.#outOfMemory || this.#instance?.poisoned) return;
    const total = endReplay(sandbox, replay);
    if (total === undefined) {
      // the instance failed under us: it is not used again
      if (this.#instance) this.#instance.poisoned = true;
      return;
    }
    this.#report(total);
  }

  // ---- driving the VM ------------------------------------------------------------------------------

  /**
   * Runs the sandbox's pending jobs, and hands over the replayed answers that wait, one at a time,
   * each once those jobs have run (as live replies arrive); then ends the pass if nothing can ever
   * happen again.
   */
  #drive(): void {
    const sandbox = this.#sandbox;
    if (this.#closed || !sandbox) return;
    const { runtime, context } = sandbox;
    this.#guard(() => {
      for (;;) {
        const result = runtime.executePendingJobs();
        if (result.error) {
          const info = readError(context, result.error);
          result.dispose();
          this.#end({ kind: "error", error: classifyError(info, this.#limits) });
          return;
        }
        if (this.#closed || !this.#replay || !deliverReplayed(sandbox, this.#replay)) break;
      }
      // idle, and waiting on no host call: the next timer may fire (see sandbox-timers.ts)
      if (!this.#closed && this.#inflight === 0) this.#timers.armNext();
      if (
        !this.#closed &&
        this.#inflight === 0 &&
        this.#timers.size === 0 &&
        !runtime.hasPendingJob()
      ) {
        // An interrupt inside a promise job (reading the result in the settle callback) only
        // rejects that job's promise: the time limit, not a stalled program, ended it.
        if (this.#timedOut) {
          this.#end({ kind: "error", error: this.#timeoutError() });
          return;
        }
        // QuickJS drops a promise job it has no memory to queue; the program then waits forever.
        if (this.#nearMemoryLimit()) {
          this.#end({ kind: "error", error: memoryError(this.#limits) });
          return;
        }
        this.#end({
          kind: "error",
          error: {
            name: "Error",
            code: "THROWN",
            message:
              "The code is waiting for a promise that can never settle: no host call and no timer is pending. " +
              "Make sure every promise it awaits resolves or rejects.",
          },
        });
      }
    });
  }

  /**
   * Whether the pass's time is up by the wall clock (the sandbox's steps and the host's work alike);
   * from then on it has timed out. Every host function asks first, so a program whose steps each
   * cost the host much cannot hold it between two of QuickJS's interrupt checks.
   */
  #overdue(): boolean {
    if (!this.#timedOut && Date.now() >= this.#deadline) this.#timedOut = true;
    return this.#timedOut;
  }

  #nearMemoryLimit(): boolean {
    const instance = this.#instance;
    if (!instance?.memory || instance.maxBytes === undefined) return false;
    return instance.memory.buffer.byteLength + NEAR_LIMIT_BYTES >= instance.maxBytes;
  }

  /** Runs a VM operation; an exception from the host layer (not the sandbox) poisons the instance. */
  #guard(action: () => void): void {
    try {
      action();
    } catch (error) {
      if (error instanceof Lifetime) {
        // a value the sandbox threw where the host expected none (out of memory, the interrupt)
        const info = this.#sandbox ? readError(this.#sandbox.context, error) : errorInfoOf(error);
        if (error.alive) error.dispose();
        this.#end({ kind: "error", error: classifyError(info, this.#limits) });
        return;
      }
      if (this.#instance) this.#instance.poisoned = true;
      this.#end({ kind: "error", error: hostFault(error, this.#limits) });
    }
  }

  // ---- host functions the sandbox calls ----------------------------------------------------------

  /**
   * A namespace method: encodes the input, calls the host, returns a promise of the reply. Refused
   * without reaching the host once the pass ended (or its result is being read), and past the
   * limit of calls in flight.
   */
  #onCall(
    sandbox: Sandbox,
    namespace: string,
    method: string,
    input: QuickJSHandle | undefined,
    answered?: QuickJSHandle,
  ): QuickJSHandle {
    const { context } = sandbox;
    // calls answered in the sandbox since the last host call: the host hears of them first
    if (answered && context.typeof(answered) === "number") {
      this.#report(context.getNumber(answered));
    }
    let text = "";
    let refusal: QuickJSHandle | undefined;
    const most = this.#config.maxConcurrentCalls;
    if (this.#closed || this.#settling || this.#overdue()) {
      // the pass has ended and nobody drives the VM any more: refuse without reaching the host
      refusal = context.newError(`The run has ended; ${namespace}.${method} was not called.`);
    } else if (this.#inflight >= most) {
      refusal = errorsCall(sandbox, "fail", [
        "RangeError",
        tooManyCallsMessage(namespace, method, most),
        "BUDGET_EXCEEDED",
      ]);
    } else {
      try {
        text = encodeInput(sandbox, input);
      } catch (error) {
        // the interrupt (or the end of the pass) unwinds the sandbox; anything else rejects the call
        if (!(error instanceof Lifetime) || this.#timedOut || this.#closed) throw error;
        try {
          refusal = errorsCall(sandbox, "inputError", [namespace, method], error);
        } finally {
          error.dispose();
        }
      }
      // the inputs of the calls in flight are held on the host: at most half the sandbox's memory
      const budget = this.#config.memoryBytes / 2;
      if (!refusal && this.#charsInFlight + text.length > budget) {
        refusal = errorsCall(sandbox, "fail", [
          "RangeError",
          tooMuchInFlightMessage(
            namespace,
            method,
            this.#charsInFlight + text.length,
            Math.floor(budget),
          ),
          "BUDGET_EXCEEDED",
        ]);
      }
    }
    const deferred = context.newPromise();
    if (refusal) {
      deferred.reject(refusal);
      refusal.dispose();
      return deferred.handle;
    }
    // encoding the input may have run the program's code (a getter) that ended the pass
    if (this.#closed) {
      const ended = context.newError(`The run has ended; ${namespace}.${method} was not called.`);
      deferred.reject(ended);
      ended.dispose();
      return deferred.handle;
    }
    this.#deferreds.add(deferred);
    this.#inflight++;
    const size = text.length;
    this.#charsInFlight += size;
    const { memoryBytes } = this.#config;
    callHost(this.#config.request.globals, namespace, method, text, {
      chars: memoryBytes / 2,
      reason: `the sandbox's memory (${mebibytes(memoryBytes)}) can hold`,
    }).then(
      (reply) => this.#onReply(sandbox, deferred, reply, size),
      (error: unknown) => this.#onReply(sandbox, deferred, errorReply(errorInfoOf(error)), size),
    );
    return deferred.handle;
  }

  #onReply(
    sandbox: Sandbox,
    deferred: QuickJSDeferredPromise,
    reply: HostReply,
    size: number,
  ): void {
    this.#inflight--;
    this.#charsInFlight -= size;
    if (this.#closed) return;
    this.#deferreds.delete(deferred);
    this.#guard(() => {
      try {
        let value: QuickJSHandle;
        let rejected = reply[0] !== "ok";
        try {
          value =
            reply[0] === "ok"
              ? decodeInSandbox(sandbox, reply[1])
              : this.#hostError(sandbox, reply);
        } catch (error) {
          if (!(error instanceof Lifetime)) throw error;
          value = error;
          rejected = true;
        }
        try {
          if (rejected) deferred.reject(value);
          else deferred.resolve(value);
        } finally {
          value.dispose();
        }
      } finally {
        deferred.dispose();
      }
    });
    this.#drive();
  }

  /**
   * The error a failed host call rejects with in the sandbox: name, message and code of the reply,
   * made by the errors part, with the error's own data properties (`data`, value-codec text; "" when
   * it has none) decoded in the sandbox and assigned onto it.
   */
  #hostError(sandbox: Sandbox, reply: ErrorReply): QuickJSHandle {
    const [, name, message, code, data] = reply;
    const strings = [name, message, code];
    if (data === "") return errorsCall(sandbox, "fail", strings);
    const decoded = decodeInSandbox(sandbox, data);
    try {
      return errorsCall(sandbox, "fail", strings, decoded);
    } finally {
      decoded.dispose();
    }
  }

  /**
   * A console method: one line of its arguments, each rendered as the renderer would, at most the
   * line's limit of each read. Once the pass's lines are all kept (or its time is up) a line is only
   * counted: QuickJS asks its interrupt handler every so many steps whatever each costs, so a step
   * that costs the host much (rendering a long line) must cost it nothing once the line is not kept.
   */
  #onLog(sandbox: Sandbox, prefix: string, args: QuickJSHandle[]): void {
    if (this.#closed || this.#overdue()) return;
    if (this.#logs.full) {
      this.#logs.drop(1);
      return;
    }
    this.#logs.add(consoleLine(sandbox, prefix, args, this.#config.maxLogChars));
  }

  /** A host timer fired: calls the callback; what it throws is logged, as a runtime would. */
  #onFire(id: number): void {
    const timer = this.#timers.take(id);
    const sandbox = this.#sandbox;
    if (!timer || !sandbox) return;
    if (!this.#closed) {
      this.#guard(() => {
        const { context } = sandbox;
        const result = context.callFunction(timer.callback, context.undefined, ...timer.args);
        if (!result.error) {
          result.value.dispose();
          return;
        }
        const error = result.error;
        // the interrupt cannot be caught: it ends the pass
        if (this.#timedOut || this.#closed) throw error;
        const info = describeError(sandbox, error);
        this.#logs.add(`[error] Uncaught in a setTimeout callback: ${info.name}: ${info.message}`);
      });
    }
    disposeTimer(timer);
    this.#drive();
  }

  /** The program's promise fulfilled: numbers, booleans, null and undefined are read directly. */
  #onResult(sandbox: Sandbox, value: QuickJSHandle | undefined): void {
    if (this.#outcome) return;
    const { context } = sandbox;
    const primitive = value ? readPrimitive(context, value) : { value: undefined };
    if (primitive) {
      this.#end({ kind: "value", value: primitive.value });
      return;
    }
    let text: string;
    // the program has returned: what its getters and toJSON do while the result is read reaches
    // no host function
    this.#settling = true;
    try {
      text = sandbox.encode(value as QuickJSHandle);
    } catch (error) {
      if (!(error instanceof Lifetime) || this.#timedOut) throw error;
      const info: ThrownInfo = describeError(sandbox, error);
      this.#end({
        kind: "error",
        error:
          info.code === "NOT_SERIALIZABLE"
            ? unserializableResultError(info.message)
            : classifyError(info, this.#limits),
      });
      return;
    }
    this.#end({ kind: "ok", text });
  }

  /** The program's promise rejected (or it threw). */
  #onThrown(sandbox: Sandbox, error: QuickJSHandle | undefined): void {
    if (this.#outcome) return;
    const info = error ? describeError(sandbox, error) : { name: "Error", message: "undefined" };
    this.#end({ kind: "error", error: classifyError(info, this.#limits) });
  }

  // ---- ending ------------------------------------------------------------------------------------

  #end(outcome: Outcome): void {
    if (this.#outcome) return;
    // Past the deadline the pass has timed out, whatever the program returned or threw since: a
    // built-in call that ran long (indexOf over a huge array-like) is not interrupted, and the
    // host's timer cannot fire while it runs, so its result must not count.
    const aborted = outcome.kind === "error" && outcome.error.code === "ABORTED";
    this.#outcome =
      !aborted && this.#overdue() ? { kind: "error", error: this.#timeoutError() } : outcome;
    this.#endReplay();
    this.#close();
    this.#endPass();
  }

  #close(): void {
    this.#closed = true;
    this.#timers.cancel();
  }

  #result(): ExecuteResult {
    const logs = this.#logs.snapshot();
    const outcome = this.#outcome as Outcome;
    if (outcome.kind === "error") return { error: outcome.error, logs };
    if (outcome.kind === "value") return { result: outcome.value, logs };
    return decodeResult(outcome.text, logs);
  }

  /**
   * Frees every handle, the context and the runtime. If that fails, the instance is dropped: QuickJS
   * itself leaks objects on some out-of-memory paths (a promise job it could not queue), which makes
   * `JS_FreeRuntime` abort however carefully the handles were freed.
   */
  #teardown(instance: QuickJSInstance): void {
    // After an out-of-memory the runtime is likely to hold such leaks: drop the instance unfreed.
    if (this.#outOfMemory && instance.memory) instance.poisoned = true;
    if (instance.poisoned) return;
    try {
      for (const deferred of this.#deferreds) if (deferred.alive) deferred.dispose();
      this.#deferreds.clear();
      this.#timers.dispose();
      this.#sandbox?.dispose();
    } catch {
      instance.poisoned = true;
    }
  }

  #timeoutError(): SandboxError {
    return timeoutError(this.#config.timeoutMs);
  }
}
