import {
  type AbortSignalLike,
  CodemodeError,
  createValueCodec,
  type ExecuteRequest,
  type ExecuteResult,
  type RecordedCall,
  type SandboxError,
} from "@codemode/core";
import {
  abortedError,
  callHost,
  decodeResult,
  type ErrorInfo,
  errorInfoOf,
  hostTimers,
  LogSink,
  mebibytes,
  messageOf,
  stackError,
  type TimerHandle,
  timeoutError,
  unserializableResultError,
} from "@codemode/executor-kit";
import {
  Lifetime,
  type QuickJSContext,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
} from "quickjs-emscripten-core";
import { Sandbox } from "./sandbox.ts";
import { REPLAY_KIND } from "./sandbox-replay.ts";
import type { SpareSandboxes } from "./spare-sandboxes.ts";
import type { InstanceSource, QuickJSInstance } from "./wasm-instances.ts";

const MAX_TIMERS = 1_000;
/** A stalled program whose instance memory is this close to its cap most likely lost a job to OOM. */
const NEAR_LIMIT_BYTES = 2 * 1024 * 1024;
const MAX_TIMER_DELAY = 2 ** 31 - 1;

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
/** A tagged reply this short may be a lone primitive (`{"$codemode":"bigint","value":"…"}`). */
const SHORT_TAGGED_CHARS = 64;
/**
 * A hint with fewer recorded calls is left to the host: compiling the replay part (about 1 ms) costs
 * more than the round trips it saves below this many.
 */
const MIN_REPLAY_CALLS = 16;
/** Recorded calls answered in the sandbox are loaded into it up to this much text… */
const MAX_REPLAY_CHARS = 2 * 1024 * 1024;
/** …and at most this share of the sandbox's memory limit. */
const REPLAY_MEMORY_SHARE = 1 / 16;
/** Encodes inputs the host reads directly (numbers, booleans, null, undefined), as the sandbox would. */
const hostCodec = createValueCodec();

/** A pending `setTimeout` of the sandbox: the host timer, the callback and its arguments. */
interface SandboxTimer {
  handle: TimerHandle;
  callback: QuickJSHandle;
  args: QuickJSHandle[];
}

/** One execution: owns a WebAssembly instance and a sandbox (a runtime and a context) until it ends. */
export class Pass {
  readonly #config: PassConfig;
  readonly #logs: LogSink;
  readonly #deadline: number;
  #outcome: Outcome | undefined;
  /** no host call is made and the VM is not driven any more */
  #closed = false;
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
  readonly #deferreds = new Set<QuickJSDeferredPromise>();
  readonly #timers = new Map<number, SandboxTimer>();
  #nextTimer = 1;
  /** the replay part, in a pass that answers recorded calls in the sandbox */
  #replay: QuickJSHandle | undefined;
  /** namespace → method → the id the replay part's rows give it */
  #replayIds: ReplayIds = new Map();
  /** how many calls answered in the sandbox the host was told of (`ReplayHint.advance`) */
  #reported = 0;

  constructor(config: PassConfig) {
    this.#config = config;
    this.#logs = new LogSink(config.maxLogLines, config.maxLogChars);
    this.#deadline = Date.now() + config.timeoutMs;
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
      runtime.setInterruptHandler(() => {
        if (this.#closed) return true;
        if (Date.now() >= this.#deadline) {
          this.#timedOut = true;
          return true;
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
              : this.#classify(info),
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
    this.#replay = this.#loadReplay(sandbox);
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
      // a new property defined with a value only: not writable, enumerable or configurable
      context.defineProp(context.global, namespace, {
        value: this.#namespace(sandbox, namespace, methods),
      });
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
            this.#onSetTimeout(sandbox, callback, delay, args),
          ),
        ],
        [
          "clearTimeout",
          context.newFunction("clearTimeout", (id) => this.#onClearTimeout(context, id)),
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

  /**
   * A namespace object: its methods are host functions, its prototype a Proxy of `Object.prototype`
   * that turns reading a method it does not have into a TypeError naming the methods it has (only a
   * miss reaches the Proxy, so calling a method costs nothing extra).
   */
  #namespace(sandbox: Sandbox, namespace: string, methods: string[]): QuickJSHandle {
    const { context } = sandbox;
    let object: QuickJSHandle | undefined;
    const missing = context.newFunction("get", (target, key, receiver) =>
      this.#onMissing(sandbox, namespace, object as QuickJSHandle, target, key, receiver),
    );
    const handler = context.newObject();
    let prototype: QuickJSHandle;
    try {
      context.setProp(handler, "get", missing);
      prototype = sandbox.construct("Proxy", sandbox.intrinsic("Object.prototype"), handler);
    } finally {
      handler.dispose();
      missing.dispose();
    }
    try {
      object = sandbox.own(context.newObject(prototype));
    } finally {
      prototype.dispose();
    }
    const replay = this.#replay;
    for (const method of methods) {
      // in a replay pass the host function is reached only through the replay part's wrapper,
      // which alone passes the second argument (how many calls it answered)
      const fn = replay
        ? context.newFunction(method, (input, answered) =>
            this.#onCall(sandbox, namespace, method, input, answered),
          )
        : context.newFunction(method, (input) => this.#onCall(sandbox, namespace, method, input));
      let visible = fn;
      try {
        if (replay) visible = this.#wrap(sandbox, replay, namespace, method, fn);
        // An assignment makes the same writable, enumerable, configurable property in one step (no
        // program has run yet, and the prototype's Proxy traps only reads), except for the one name
        // Object.prototype has an accessor for.
        if (method === "__proto__") {
          sandbox.define(object, method, visible, {
            writable: true,
            enumerable: true,
            configurable: true,
          });
        } else context.setProp(object, method, visible);
      } finally {
        fn.dispose();
        if (visible !== fn) visible.dispose();
      }
    }
    return object;
  }

  /**
   * A pass with a replay hint: the recorded calls, as one JSON text, go into the replay part, which
   * answers the program's first calls while they match (see sandbox-replay.ts). Returns the part, or
   * undefined when nothing is to be answered in the sandbox (fewer than `MIN_REPLAY_CALLS`): every
   * call then reaches the host, whose globals replay from the journal themselves.
   */
  #loadReplay(sandbox: Sandbox): QuickJSHandle | undefined {
    const hint = this.#config.request.replay;
    if (!hint) return undefined;
    let rows: ReplayRows;
    try {
      const limit = Math.min(MAX_REPLAY_CHARS, this.#config.memoryBytes * REPLAY_MEMORY_SHARE);
      rows = replayRows(hint.calls, limit);
    } catch {
      // a hint that cannot be read is ignored: it is optional to use
      return undefined;
    }
    if (rows.count < MIN_REPLAY_CALLS) return undefined;
    this.#replayIds = rows.ids;
    const { context } = sandbox;
    const part = sandbox.part("replay");
    const text = context.newString(rows.text);
    try {
      sandbox.call(sandbox.member("replay", "load"), part, text).dispose();
    } finally {
      text.dispose();
    }
    return part;
  }

  /** `replay.wrap(method, id, fn)`: the method the program sees in a replay pass. */
  #wrap(
    sandbox: Sandbox,
    replay: QuickJSHandle,
    namespace: string,
    method: string,
    fn: QuickJSHandle,
  ): QuickJSHandle {
    const { context } = sandbox;
    const name = context.newString(method);
    const id = context.newNumber(this.#replayIds.get(namespace)?.get(method) ?? -1);
    try {
      return sandbox.call(sandbox.member("replay", "wrap"), replay, name, id, fn);
    } finally {
      name.dispose();
      id.dispose();
    }
  }

  /**
   * Tells the host how many calls the sandbox answered from the record (a running total from the
   * sandbox; the hint hears the difference), unless the pass is over.
   */
  #report(total: number): void {
    const count = total - this.#reported;
    if (this.#closed || !(count > 0)) return;
    // set first: an `advance` that ends the pass comes back here through `#end`
    this.#reported = total;
    this.#config.request.replay?.advance(count);
  }

  /**
   * The pass ends: the replay part answers nothing more, and the host hears how many it answered
   * since the last host call. Reads and sets data properties only: no sandbox code runs.
   */
  #endReplay(): void {
    const replay = this.#replay;
    const sandbox = this.#sandbox;
    if (!replay || !sandbox || this.#outOfMemory || this.#instance?.poisoned) return;
    const { context } = sandbox;
    let total = 0;
    try {
      context.setProp(replay, "ended", context.true);
      const answered = context.getProp(replay, "answered");
      if (context.typeof(answered) === "number") total = context.getNumber(answered);
      answered.dispose();
    } catch {
      // the instance failed under us: it is not used again
      if (this.#instance) this.#instance.poisoned = true;
      return;
    }
    this.#report(total);
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
        : this.#classify(result.error);
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
      const error = this.#read(context, result.error);
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

  // ---- driving the VM ------------------------------------------------------------------------------

  /** Runs the sandbox's pending jobs, then ends the pass if nothing can ever happen again. */
  #drive(): void {
    const sandbox = this.#sandbox;
    if (this.#closed || !sandbox) return;
    const { runtime, context } = sandbox;
    this.#guard(() => {
      const result = runtime.executePendingJobs();
      if (result.error) {
        const info = this.#read(context, result.error);
        result.dispose();
        this.#end({ kind: "error", error: this.#classify(info) });
        return;
      }
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
          this.#end({ kind: "error", error: this.#memoryError() });
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
        const info = this.#sandbox ? this.#read(this.#sandbox.context, error) : errorInfoOf(error);
        if (error.alive) error.dispose();
        this.#end({ kind: "error", error: this.#classify(info) });
        return;
      }
      if (this.#instance) this.#instance.poisoned = true;
      this.#end({ kind: "error", error: this.#hostFault(error) });
    }
  }

  // ---- host functions the sandbox calls ----------------------------------------------------------

  /** A namespace method: encodes the input, calls the host, returns a promise of the reply. */
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
    if (this.#closed) {
      // the pass has ended and nobody drives the VM any more: refuse without reaching the host
      refusal = context.newError(`The run has ended; ${namespace}.${method} was not called.`);
    } else {
      try {
        text = this.#encodeInput(sandbox, input);
      } catch (error) {
        // the interrupt (or the end of the pass) unwinds the sandbox; anything else rejects the call
        if (!(error instanceof Lifetime) || this.#timedOut || this.#closed) throw error;
        try {
          refusal = this.#errorsCall(sandbox, "inputError", [namespace, method], error);
        } finally {
          error.dispose();
        }
      }
    }
    const deferred = context.newPromise();
    if (refusal) {
      deferred.reject(refusal);
      refusal.dispose();
      return deferred.handle;
    }
    this.#deferreds.add(deferred);
    this.#inflight++;
    const { memoryBytes } = this.#config;
    callHost(this.#config.request.globals, namespace, method, text, {
      chars: memoryBytes / 2,
      reason: `the sandbox's memory (${mebibytes(memoryBytes)}) can hold`,
    }).then((reply) => this.#onReply(sandbox, deferred, reply));
    return deferred.handle;
  }

  /** The input as codec text: numbers, booleans, null and undefined are read directly. */
  #encodeInput(sandbox: Sandbox, input: QuickJSHandle | undefined): string {
    const primitive = input ? readPrimitive(sandbox.context, input) : { value: undefined };
    return primitive ? hostCodec.encode(primitive.value) : sandbox.encode(input as QuickJSHandle);
  }

  #onReply(sandbox: Sandbox, deferred: QuickJSDeferredPromise, reply: string): void {
    this.#inflight--;
    if (this.#closed) return;
    this.#deferreds.delete(deferred);
    this.#guard(() => {
      try {
        let value: QuickJSHandle;
        let rejected = reply[0] !== "r";
        try {
          if (rejected) {
            const { name, message, code } = JSON.parse(reply.slice(1)) as ErrorInfo;
            value = this.#errorsCall(sandbox, "fail", [name, message, code ?? ""]);
          } else {
            value = this.#decode(sandbox, reply.slice(1));
          }
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
   * A reply's value in the sandbox: plain JSON with the captured `JSON.parse`, tagged values with the
   * codec, except a lone tagged primitive (`undefined`, `NaN`, a bigint), which the host makes.
   */
  #decode(sandbox: Sandbox, text: string): QuickJSHandle {
    const { context } = sandbox;
    const tagged = text.includes('"$codemode"');
    if (tagged && text.length <= SHORT_TAGGED_CHARS) {
      const handle = primitiveHandle(context, hostCodec.decode(text));
      if (handle) return handle;
    }
    const decode = tagged ? sandbox.member("codec", "decode") : sandbox.intrinsic("JSON.parse");
    const self = tagged ? sandbox.part("codec") : context.undefined;
    const textHandle = context.newString(text);
    try {
      return sandbox.call(decode, self, textHandle);
    } finally {
      textHandle.dispose();
    }
  }

  /**
   * Reading a method a namespace lacks: the Proxy's `get`. Symbols, `then`, `toJSON` and what
   * `Object.prototype` has are read as usual; anything else throws a TypeError naming the methods.
   */
  #onMissing(
    sandbox: Sandbox,
    namespace: string,
    object: QuickJSHandle,
    target: QuickJSHandle | undefined,
    key: QuickJSHandle | undefined,
    receiver: QuickJSHandle | undefined,
  ): QuickJSHandle {
    const { context } = sandbox;
    if (!target || !key || !receiver) return context.undefined;
    const name = context.typeof(key) === "string" ? context.getString(key) : undefined;
    if (name === undefined || name === "then" || name === "toJSON" || sandbox.has(target, key)) {
      return sandbox.call(
        sandbox.intrinsic("Reflect.get"),
        context.undefined,
        target,
        key,
        receiver,
      );
    }
    throw this.#errorsCall(sandbox, "unknownMethod", [namespace, name], object);
  }

  /** A console method: one line of its arguments, each rendered as the renderer would. */
  #onLog(sandbox: Sandbox, prefix: string, args: QuickJSHandle[]): void {
    if (this.#closed) return;
    const max = this.#config.maxLogChars;
    let line = prefix;
    for (let index = 0; index < args.length && line.length <= max; index++) {
      line +=
        (index > 0 ? " " : "") + cut(this.#render(sandbox, args[index] as QuickJSHandle), max);
    }
    this.#logs.add(cut(line, max));
  }

  /** Strings as they are and other primitives as text on the host; objects through the renderer. */
  #render(sandbox: Sandbox, value: QuickJSHandle): string {
    const { context } = sandbox;
    if (context.typeof(value) === "string") return context.getString(value);
    const primitive = readPrimitive(context, value);
    if (primitive) return Object.is(primitive.value, -0) ? "-0" : String(primitive.value);
    const renderer = sandbox.part("renderer");
    const rendered = sandbox.call(sandbox.member("renderer", "render"), renderer, value);
    try {
      return readString(context, rendered);
    } finally {
      rendered.dispose();
    }
  }

  #onSetTimeout(
    sandbox: Sandbox,
    callback: QuickJSHandle | undefined,
    delay: QuickJSHandle | undefined,
    args: QuickJSHandle[],
  ): QuickJSHandle {
    const { context } = sandbox;
    if (!callback || context.typeof(callback) !== "function") {
      throw this.#errorsCall(sandbox, "fail", [
        "TypeError",
        "setTimeout needs a function as its first argument.",
        "",
      ]);
    }
    let ms = 0;
    if (delay && context.typeof(delay) !== "undefined") {
      const number = sandbox.call(sandbox.intrinsic("Number"), context.undefined, delay);
      ms = Math.max(context.getNumber(number) || 0, 0);
      number.dispose();
    }
    const id = this.#nextTimer++;
    if (this.#closed) return context.newNumber(id);
    if (this.#timers.size >= MAX_TIMERS) {
      throw new Error(`Too many pending timers (at most ${MAX_TIMERS}).`);
    }
    const handle = hostTimers.setTimeout(
      () => this.#onFire(sandbox, id),
      Math.min(ms, MAX_TIMER_DELAY),
    );
    this.#timers.set(id, { handle, callback: callback.dup(), args: args.map((arg) => arg.dup()) });
    return context.newNumber(id);
  }

  #onClearTimeout(context: QuickJSContext, id: QuickJSHandle | undefined): void {
    if (!id || context.typeof(id) !== "number") return;
    const timer = this.#timers.get(context.getNumber(id));
    if (!timer) return;
    hostTimers.clearTimeout(timer.handle);
    this.#timers.delete(context.getNumber(id));
    disposeTimer(timer);
  }

  /** A host timer fired: calls the callback; what it throws is logged, as a runtime would. */
  #onFire(sandbox: Sandbox, id: number): void {
    const timer = this.#timers.get(id);
    this.#timers.delete(id);
    if (!timer) return;
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
        const info = this.#describe(sandbox, error);
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
    try {
      text = sandbox.encode(value as QuickJSHandle);
    } catch (error) {
      if (!(error instanceof Lifetime) || this.#timedOut) throw error;
      const info = this.#describe(sandbox, error);
      this.#end({
        kind: "error",
        error:
          info.code === "NOT_SERIALIZABLE"
            ? unserializableResultError(info.message)
            : this.#classify(info),
      });
      return;
    }
    this.#end({ kind: "ok", text });
  }

  /** The program's promise rejected (or it threw). */
  #onThrown(sandbox: Sandbox, error: QuickJSHandle | undefined): void {
    if (this.#outcome) return;
    const info = error ? this.#describe(sandbox, error) : { name: "Error", message: "undefined" };
    this.#end({ kind: "error", error: this.#classify(info) });
  }

  // ---- the sandbox's errors ------------------------------------------------------------------------

  /**
   * Calls a function of the errors part with string arguments (and a value, which stays the
   * caller's); returns its result. A value thrown is thrown as its handle.
   */
  #errorsCall(
    sandbox: Sandbox,
    name: "fail" | "inputError" | "unknownMethod",
    strings: string[],
    value?: QuickJSHandle,
  ): QuickJSHandle {
    const { context } = sandbox;
    const args = strings.map((text) => context.newString(text));
    try {
      return sandbox.call(
        sandbox.member("errors", name),
        sandbox.part("errors"),
        ...args,
        ...(value ? [value] : []),
      );
    } finally {
      for (const arg of args) arg.dispose();
    }
  }

  /** What a thrown value says (through the errors part; its own description if that fails). Disposes it. */
  #describe(sandbox: Sandbox, error: QuickJSHandle): ErrorInfo {
    const { context } = sandbox;
    try {
      const described = sandbox.call(
        sandbox.member("errors", "describe"),
        sandbox.part("errors"),
        error,
      );
      try {
        const [name, message, stack, code] = [0, 1, 2, 3].map((index) => {
          const item = context.getProp(described, index);
          const text = readString(context, item);
          item.dispose();
          return text;
        }) as [string, string, string, string];
        return { name, message, stack: stack || undefined, code: code || undefined };
      } finally {
        described.dispose();
      }
    } catch (failure) {
      if (!(failure instanceof Lifetime)) throw failure;
      failure.dispose();
      return this.#read(context, error);
    } finally {
      if (error.alive) error.dispose();
    }
  }

  // ---- ending ------------------------------------------------------------------------------------

  #end(outcome: Outcome): void {
    if (this.#outcome) return;
    this.#outcome = outcome;
    this.#endReplay();
    this.#close();
    this.#endPass();
  }

  #close(): void {
    this.#closed = true;
    for (const timer of this.#timers.values()) hostTimers.clearTimeout(timer.handle);
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
      for (const timer of this.#timers.values()) disposeTimer(timer);
      this.#timers.clear();
      this.#sandbox?.dispose();
    } catch {
      instance.poisoned = true;
    }
  }

  // ---- errors --------------------------------------------------------------------------------------

  #read(context: QuickJSContext, handle: QuickJSHandle): ErrorInfo {
    try {
      const value: unknown = context.dump(handle);
      if (typeof value === "object" && value !== null) {
        const record = value as Record<string, unknown>;
        return {
          name: typeof record.name === "string" ? record.name : "Error",
          message:
            typeof record.message === "string" ? record.message : String(record.message ?? ""),
          stack: typeof record.stack === "string" ? record.stack : undefined,
        };
      }
      // QuickJS throws `null` when it cannot even allocate the error object.
      if (value === null) return { name: "InternalError", message: "out of memory" };
      return { name: "Error", message: String(value) };
    } catch (error) {
      return { name: "Error", message: `An unreadable error was thrown (${messageOf(error)}).` };
    }
  }

  #classify(info: ErrorInfo): SandboxError {
    if (this.#timedOut) return this.#timeoutError();
    if (info.name === "InternalError" && info.message === "out of memory")
      return this.#memoryError();
    if (
      (info.name === "InternalError" && info.message === "stack overflow") ||
      (info.name === "RangeError" && /call stack/i.test(info.message))
    ) {
      return stackError();
    }
    if (info.name === "InternalError" && info.message === "interrupted")
      return this.#timeoutError();
    if (info.code === "NULL" && this.#nearMemoryLimit()) return this.#memoryError();
    return {
      name: info.name,
      message: info.message,
      ...(info.stack ? { stack: info.stack } : {}),
      code: "THROWN",
    };
  }

  #hostFault(error: unknown): SandboxError {
    const info = errorInfoOf(error);
    if (info.name === "RangeError" && /call stack/i.test(info.message)) return stackError();
    if (/out of memory|\bOOM\b|Cannot enlarge memory/i.test(info.message))
      return this.#memoryError();
    if (this.#timedOut) return this.#timeoutError();
    return {
      name: "InternalError",
      code: "THROWN",
      message: `The QuickJS sandbox failed and the run was stopped: ${info.name}: ${info.message}`,
    };
  }

  #timeoutError(): SandboxError {
    return timeoutError(this.#config.timeoutMs);
  }

  #memoryError(): SandboxError {
    this.#outOfMemory = true;
    return {
      name: "RangeError",
      code: "MEMORY",
      message:
        `The code ran out of memory (limit ${mebibytes(this.#config.memoryBytes)}) and was stopped. ` +
        "Keep less in memory: page through results and keep only the fields you need.",
    };
  }
}

/** The codec's text of `undefined`, which the rows write as null. */
const UNDEFINED_TEXT = hostCodec.encode(undefined);

/** namespace → method → its id in the rows */
type ReplayIds = Map<string, Map<string, number>>;

interface ReplayRows {
  /** the flat JSON array `REPLAY_KIND` describes */
  text: string;
  ids: ReplayIds;
  /** how many calls the text holds */
  count: number;
}

/**
 * The recorded calls the sandbox answers itself, and the id of each recorded namespace and method: a
 * prefix of the calls, at most `maxChars` of input and result text. Inputs and plain results are
 * codec text (JSON), embedded as they are.
 */
function replayRows(calls: readonly RecordedCall[], maxChars: number): ReplayRows {
  const ids: ReplayIds = new Map();
  let text = "";
  let chars = 0;
  let count = 0;
  let nextId = 0;
  for (const { namespace, method, input, result } of calls) {
    if (typeof input !== "string" || typeof result !== "string") break;
    chars += input.length + result.length;
    if (chars > maxChars) break;
    let methods = ids.get(namespace);
    if (!methods) {
      methods = new Map();
      ids.set(namespace, methods);
    }
    let id = methods.get(method);
    if (id === undefined) {
      id = nextId++;
      methods.set(method, id);
    }
    let kind: number;
    let resultText: string;
    if (!result.includes('"$codemode"')) {
      kind = REPLAY_KIND.plainResult;
      resultText = result;
    } else if (result === UNDEFINED_TEXT) {
      kind = REPLAY_KIND.undefinedResult;
      resultText = "null";
    } else {
      kind = REPLAY_KIND.taggedResult;
      resultText = JSON.stringify(result);
    }
    const inputText = input === UNDEFINED_TEXT ? "null" : input;
    if (input === UNDEFINED_TEXT) kind += REPLAY_KIND.undefinedInput;
    text += `${text ? "," : ""}${id},${kind},${inputText},${resultText}`;
    count++;
  }
  return { text: `[${text}]`, ids, count };
}

function syntaxError(info: ErrorInfo): SandboxError {
  const where = /codemode\.js:(\d+)(?::(\d+))?/.exec(info.stack ?? "");
  let location = "";
  if (where) {
    const line = Number(where[1]);
    // the program is evaluated as `(${code}\n)`: the first line is shifted by the parenthesis
    const column = where[2] === undefined ? undefined : Number(where[2]) - (line === 1 ? 1 : 0);
    location = column === undefined ? ` (line ${line})` : ` (line ${line}, column ${column})`;
  }
  return { name: "SyntaxError", code: "SYNTAX_ERROR", message: `${info.message}${location}` };
}

/** A console line or value cut at the line limit, as the renderer cuts it. */
function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Numbers, booleans, null and undefined, read without a trip through the codec. */
function readPrimitive(
  context: QuickJSContext,
  handle: QuickJSHandle,
): { value: unknown } | undefined {
  switch (context.typeof(handle)) {
    case "number":
      return { value: context.getNumber(handle) };
    case "boolean":
      return { value: context.sameValue(handle, context.true) };
    case "undefined":
      return { value: undefined };
    case "object":
      return context.sameValue(handle, context.null) ? { value: null } : undefined;
    default:
      return undefined;
  }
}

/** A primitive the codec decoded on the host, as a sandbox value; undefined for anything else. */
function primitiveHandle(context: QuickJSContext, value: unknown): QuickJSHandle | undefined {
  switch (typeof value) {
    case "undefined":
      return context.undefined;
    case "boolean":
      return value ? context.true : context.false;
    case "number":
      return context.newNumber(value);
    case "bigint":
      return context.newBigInt(value);
    default:
      return value === null ? context.null : undefined;
  }
}

function readString(context: QuickJSContext, handle: QuickJSHandle | undefined): string {
  return handle && context.typeof(handle) === "string" ? context.getString(handle) : "";
}

function disposeTimer(timer: SandboxTimer): void {
  if (timer.callback.alive) timer.callback.dispose();
  for (const arg of timer.args) if (arg.alive) arg.dispose();
}
