import {
  type AbortSignalLike,
  CodemodeError,
  createValueCodec,
  type ExecuteRequest,
  type ExecuteResult,
  type Executor,
  type SandboxError,
} from "@codemode/core";
import {
  abortedError,
  type BootstrapSpec,
  callHost,
  createRenderer,
  decodeResult,
  describeNamespaces,
  type ErrorInfo,
  errorInfoOf,
  errorReply,
  hostTimers,
  LogSink,
  mebibytes,
  messageOf,
  positive,
  sandboxSource,
  stackError,
  type TimerHandle,
  timeoutError,
  unserializableResultError,
} from "@codemode/executor-kit";
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSSyncVariant,
  QuickJSWASMModule,
} from "quickjs-emscripten-core";
import {
  BOOTSTRAP_FILE,
  BOOTSTRAP_SOURCE,
  type SpareSandboxes,
  spareSandboxes,
} from "./spare-sandboxes.ts";
import { type InstanceSource, instanceSource, type QuickJSInstance } from "./wasm-instances.ts";

/** Options of {@link QuickJSExecutor}; `request.limits` overrides the three limits per pass. */
export interface QuickJSExecutorOptions {
  /** wall time of a pass, enforced inside QuickJS (interrupts) and on the host (a timer); default 30,000 */
  timeoutMs?: number;
  /** memory of the sandbox in bytes; default 64 MiB */
  memoryLimitBytes?: number;
  /**
   * QuickJS's stack limit in bytes; default 256 KiB. QuickJS measures WebAssembly's shadow stack,
   * while every QuickJS call also uses the host's native stack, so above roughly 300 KiB deep
   * recursion can exhaust the host's stack first. The pass then still ends with `MEMORY` (and its
   * WebAssembly instance is replaced), but the code cannot catch the error.
   */
  maxStackSizeBytes?: number;
  /** grant `setTimeout` / `clearTimeout` inside the sandbox (host timers, cancelled at the end of the pass) */
  timers?: boolean;
  /** most console lines kept per pass; default 1,000 */
  maxLogLines?: number;
  /** most console characters kept per pass; default 100,000 */
  maxLogChars?: number;
  /** the QuickJS build; default `@jitl/quickjs-wasmfile-release-sync` (must be a sync variant) */
  variant?: QuickJSSyncVariant;
  /**
   * The compiled `.wasm` of the variant (a `WebAssembly.Module`, a promise of one, or a function that
   * returns either), for runtimes that cannot compile from bytes, such as workerd.
   */
  wasmModule?: unknown;
  /** where the variant's `.wasm` file is served (browser) */
  wasmLocation?: string;
  /**
   * A ready QuickJS module, shared by every pass. With it the memory limit is only QuickJS's own
   * allocation count (this build cannot measure allocation sizes), so prefer `variant`/`wasmModule`.
   */
  module?: QuickJSWASMModule | Promise<QuickJSWASMModule>;
  /**
   * Keep the next pass's sandbox ready: soon after a pass returns, a fresh runtime and context with
   * the bootstrap compiled (evaluating it is most of a warm pass's cost). It has run nothing, serves
   * exactly one pass with the same memory limit, and is shared by the executors on the same QuickJS
   * build; unused, it is freed after 30 s or by `dispose()`. Default true.
   */
  prewarm?: boolean;
}

const DEFAULTS = {
  timeoutMs: 30_000,
  memoryLimitBytes: 64 * 1024 * 1024,
  maxStackSizeBytes: 256 * 1024,
  maxLogLines: 1_000,
  maxLogChars: 100_000,
};
const MAX_TIMERS = 1_000;
/** A stalled program whose instance memory is this close to its cap most likely lost a job to OOM. */
const NEAR_LIMIT_BYTES = 2 * 1024 * 1024;
const MAX_TIMER_DELAY = 2 ** 31 - 1;

const CODEC_SOURCE = sandboxSource(createValueCodec);
const RENDERER_SOURCE = sandboxSource(createRenderer);

/**
 * Runs Code Mode programs in QuickJS compiled to WebAssembly (the synchronous build; host calls are
 * bridged through QuickJS promises). Every pass gets a fresh runtime and context on a WebAssembly
 * instance of its own (pooled between passes), with hard limits on time, memory and stack; with
 * `prewarm` that runtime and context are made, and the bootstrap compiled, just after the previous
 * pass returned. Runs in Node, workerd and the browser: the entry point uses no Node API.
 */
export class QuickJSExecutor implements Executor {
  readonly specificationVersion = "v1" as const;
  readonly #options: Required<
    Omit<QuickJSExecutorOptions, "variant" | "wasmModule" | "wasmLocation" | "module">
  >;
  readonly #source: InstanceSource;
  readonly #spares: SpareSandboxes;

  constructor(options: QuickJSExecutorOptions = {}) {
    this.#options = {
      timeoutMs: positive(options.timeoutMs ?? DEFAULTS.timeoutMs, "timeoutMs"),
      memoryLimitBytes: positive(
        options.memoryLimitBytes ?? DEFAULTS.memoryLimitBytes,
        "memoryLimitBytes",
      ),
      maxStackSizeBytes: positive(
        options.maxStackSizeBytes ?? DEFAULTS.maxStackSizeBytes,
        "maxStackSizeBytes",
      ),
      timers: options.timers === true,
      maxLogLines: positive(options.maxLogLines ?? DEFAULTS.maxLogLines, "maxLogLines"),
      maxLogChars: positive(options.maxLogChars ?? DEFAULTS.maxLogChars, "maxLogChars"),
      prewarm: options.prewarm !== false,
    };
    if (options.variant !== undefined && options.variant.type !== "sync") {
      throw new CodemodeError(
        "INVALID_CONFIG",
        "QuickJSExecutor needs a sync QuickJS variant (not asyncify).",
      );
    }
    this.#source = instanceSource(options);
    this.#spares = spareSandboxes(this.#source);
  }

  async execute(request: ExecuteRequest): Promise<ExecuteResult> {
    if (typeof request?.code !== "string") {
      throw new CodemodeError("INVALID_CONFIG", "execute() needs request.code as a string.");
    }
    const namespaces = describeNamespaces(request.globals ?? {});
    const limits = request.limits ?? {};
    const memoryBytes = positive(
      limits.memoryBytes ?? this.#options.memoryLimitBytes,
      "limits.memoryBytes",
    );
    const stackBytes = positive(
      limits.stackBytes ?? this.#options.maxStackSizeBytes,
      "limits.stackBytes",
    );
    const pass = new Pass({
      request,
      namespaces,
      source: this.#source,
      spares: this.#spares,
      prewarm: this.#options.prewarm,
      timeoutMs: positive(limits.timeoutMs ?? this.#options.timeoutMs, "limits.timeoutMs"),
      memoryBytes,
      stackBytes,
      timers: this.#options.timers,
      maxLogLines: this.#options.maxLogLines,
      maxLogChars: this.#options.maxLogChars,
    });
    return pass.run();
  }

  /**
   * Frees the sandbox kept ready for the next pass (with `prewarm`), which holds a WebAssembly
   * instance. It is shared by the executors on the same QuickJS build; a later pass makes a new one.
   */
  dispose(): void {
    this.#spares.dispose();
  }
}

interface PassConfig {
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

type Outcome = { kind: "ok"; text: string } | { kind: "error"; error: SandboxError };

/** One execution: owns a WebAssembly instance, a runtime and a context until it ends. */
class Pass {
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
  #runtime: QuickJSRuntime | undefined;
  #context: QuickJSContext | undefined;
  /** the evaluated bootstrap function, until it is called */
  #boot: QuickJSHandle | undefined;
  #fire: QuickJSHandle | undefined;
  #inflight = 0;
  readonly #deferreds = new Set<QuickJSDeferredPromise>();
  readonly #timers = new Map<number, TimerHandle>();

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
        // made ahead: a fresh runtime and context, the bootstrap evaluated and not yet called
        this.#instance = spare.instance;
        this.#runtime = spare.runtime;
        this.#context = spare.context;
        this.#boot = spare.boot;
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
    // host misuse found inside the sandbox (a namespace hiding a built-in) is thrown, like any other
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
      // a spare sandbox brings its runtime, context and bootstrap; the limits are this pass's own
      const runtime = this.#runtime ?? instance.module.newRuntime();
      this.#runtime = runtime;
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
      const context = this.#context ?? runtime.newContext();
      this.#context = context;
      const run = this.#bootstrap(context);
      if (!run) return;
      try {
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
          const result = context.callFunction(run, context.undefined, program.value);
          this.#settleCall(context, result);
        } finally {
          program.value.dispose();
        }
      } finally {
        run.dispose();
      }
    });
    this.#drive();
  }

  /** Installs console, namespaces and timers; returns the sandbox's `run` function. */
  #bootstrap(context: QuickJSContext): QuickJSHandle | undefined {
    let boot = this.#boot;
    if (!boot) {
      const evaluated = this.#evaluate(context, BOOTSTRAP_SOURCE, BOOTSTRAP_FILE);
      if (!evaluated.ok) {
        this.#end({ kind: "error", error: this.#classify(evaluated.error) });
        return undefined;
      }
      boot = evaluated.value;
      this.#boot = boot;
    }
    const spec: BootstrapSpec = {
      namespaces: this.#config.namespaces,
      timers: this.#config.timers,
      maxLineChars: this.#config.maxLogChars,
    };
    const handles = [
      context.newFunction("call", (namespace, method, input) =>
        this.#onCall(context, namespace, method, input),
      ),
      context.newFunction("log", (line) => this.#onLog(context, line)),
      context.newFunction("settle", (...args) => this.#onSettle(context, args)),
      context.newFunction("timer", (id, delay) => this.#onTimer(context, id, delay)),
      context.newFunction("source", (name) =>
        context.newString(readString(context, name) === "codec" ? CODEC_SOURCE : RENDERER_SOURCE),
      ),
      context.newString(JSON.stringify(spec)),
    ];
    let api: QuickJSHandle;
    try {
      const result = context.callFunction(boot, context.undefined, handles);
      if (result.error) {
        const info = this.#read(context, result.error);
        result.dispose();
        this.#end({ kind: "error", error: this.#classify(info) });
        return undefined;
      }
      api = result.value;
    } finally {
      for (const handle of handles) handle.dispose();
      boot.dispose();
      this.#boot = undefined;
    }
    try {
      const problem = context.getProp(api, "problem");
      const text = context.typeof(problem) === "string" ? context.getString(problem) : "";
      problem.dispose();
      if (text) {
        this.#configProblem = text;
        this.#end({ kind: "error", error: { name: "Error", message: text, code: "THROWN" } });
        return undefined;
      }
      this.#fire = context.getProp(api, "fire");
      return context.getProp(api, "run");
    } finally {
      api.dispose();
    }
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

  /** Handles the result of a call into the VM: an exception escaping it ends the pass. */
  #settleCall(context: QuickJSContext, result: ReturnType<QuickJSContext["callFunction"]>): void {
    if (result.error) {
      const info = this.#read(context, result.error);
      result.dispose();
      this.#end({ kind: "error", error: this.#classify(info) });
      return;
    }
    result.value.dispose();
  }

  // ---- driving the VM ------------------------------------------------------------------------------

  /** Runs the sandbox's pending jobs, then ends the pass if nothing can ever happen again. */
  #drive(): void {
    const runtime = this.#runtime;
    const context = this.#context;
    if (this.#closed || !runtime || !context) return;
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
      if (this.#instance) this.#instance.poisoned = true;
      this.#end({ kind: "error", error: this.#hostFault(error) });
    }
  }

  // ---- host functions the sandbox calls ----------------------------------------------------------

  #onCall(
    context: QuickJSContext,
    namespaceHandle: QuickJSHandle | undefined,
    methodHandle: QuickJSHandle | undefined,
    inputHandle: QuickJSHandle | undefined,
  ): QuickJSHandle {
    const namespace = readString(context, namespaceHandle);
    const method = readString(context, methodHandle);
    if (this.#closed) {
      return context.newString(
        errorReply({
          name: "Error",
          message: `The run has ended; ${namespace}.${method} was not called.`,
          code: "ABORTED",
        }),
      );
    }
    const deferred = context.newPromise();
    this.#deferreds.add(deferred);
    this.#inflight++;
    const { memoryBytes } = this.#config;
    callHost(this.#config.request.globals, namespace, method, readString(context, inputHandle), {
      chars: memoryBytes / 2,
      reason: `the sandbox's memory (${mebibytes(memoryBytes)}) can hold`,
    }).then((reply) => this.#onReply(context, deferred, reply));
    return deferred.handle;
  }

  #onReply(context: QuickJSContext, deferred: QuickJSDeferredPromise, reply: string): void {
    this.#inflight--;
    if (this.#closed) return;
    this.#deferreds.delete(deferred);
    this.#guard(() => {
      const text = context.newString(reply);
      try {
        deferred.resolve(text);
      } finally {
        text.dispose();
        deferred.dispose();
      }
    });
    this.#drive();
  }

  #onLog(context: QuickJSContext, line: QuickJSHandle | undefined): void {
    if (this.#closed) return;
    this.#logs.add(readString(context, line));
  }

  #onSettle(context: QuickJSContext, args: QuickJSHandle[]): void {
    if (this.#outcome) return;
    const [kind, a, b, c, d] = args.map((handle) => readString(context, handle));
    if (kind === "ok") {
      this.#end({ kind: "ok", text: a ?? "" });
      return;
    }
    const info: ErrorInfo = {
      name: a || "Error",
      message: b ?? "",
      stack: c || undefined,
      code: d || undefined,
    };
    if (kind === "unserializable") {
      const error = this.#classify(info);
      this.#end({
        kind: "error",
        error: info.code === "NOT_SERIALIZABLE" ? unserializableResultError(info.message) : error,
      });
      return;
    }
    this.#end({ kind: "error", error: this.#classify(info) });
  }

  #onTimer(
    context: QuickJSContext,
    idHandle: QuickJSHandle | undefined,
    delayHandle: QuickJSHandle | undefined,
  ): void {
    const id = readNumber(context, idHandle);
    const delay = readNumber(context, delayHandle);
    if (delay < 0) {
      const handle = this.#timers.get(id);
      if (handle !== undefined) hostTimers.clearTimeout(handle);
      this.#timers.delete(id);
      return;
    }
    if (this.#closed) return;
    if (this.#timers.size >= MAX_TIMERS) {
      throw new Error(`Too many pending timers (at most ${MAX_TIMERS}).`);
    }
    const handle = hostTimers.setTimeout(
      () => {
        this.#timers.delete(id);
        this.#onFire(id);
      },
      Math.min(delay, MAX_TIMER_DELAY),
    );
    this.#timers.set(id, handle);
  }

  #onFire(id: number): void {
    const context = this.#context;
    const fire = this.#fire;
    if (this.#closed || !context || !fire) return;
    this.#guard(() => {
      const idHandle = context.newNumber(id);
      try {
        this.#settleCall(context, context.callFunction(fire, context.undefined, idHandle));
      } finally {
        idHandle.dispose();
      }
    });
    this.#drive();
  }

  // ---- ending ------------------------------------------------------------------------------------

  #end(outcome: Outcome): void {
    if (this.#outcome) return;
    this.#outcome = outcome;
    this.#close();
    this.#endPass();
  }

  #close(): void {
    this.#closed = true;
    for (const handle of this.#timers.values()) hostTimers.clearTimeout(handle);
    this.#timers.clear();
  }

  #result(): ExecuteResult {
    const logs = this.#logs.snapshot();
    const outcome = this.#outcome as Outcome;
    if (outcome.kind === "error") return { error: outcome.error, logs };
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
      if (this.#boot?.alive) this.#boot.dispose();
      if (this.#fire?.alive) this.#fire.dispose();
      if (this.#context?.alive) this.#context.dispose();
      if (this.#runtime?.alive) this.#runtime.dispose();
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

function readString(context: QuickJSContext, handle: QuickJSHandle | undefined): string {
  return handle && context.typeof(handle) === "string" ? context.getString(handle) : "";
}

function readNumber(context: QuickJSContext, handle: QuickJSHandle | undefined): number {
  return handle && context.typeof(handle) === "number" ? context.getNumber(handle) : 0;
}
