import {
  CodemodeError,
  type ExecuteRequest,
  type ExecuteResult,
  type Executor,
  type HostNamespaces,
  type SandboxError,
} from "@codemode/core";
import {
  abortedError,
  decodeResult,
  describeNamespaces,
  errorReply,
  type HostReply,
  hostTimers,
  LogSink,
  okReply,
  positive,
  positiveInteger,
  type TimerHandle,
  timeoutError,
} from "@codemode/executor-kit";
import { crashError, isolateDied, passError, programSyntaxError } from "./classify-error.ts";
import { clockMovesDuringCode } from "./clock-moves.ts";
import {
  type HarnessSpec,
  harnessSource,
  MODULE_NAMES,
  PROGRAM_PREFIX,
  programModule,
} from "./harness-source.ts";
import { type BridgeScope, type HostBridge, type OutboundService, Pass } from "./host-bridge.ts";
import { instrumentProgram } from "./instrument-program.ts";
import { TICK_SOURCE } from "./tick-source.ts";
import { type HarnessEntrypoint, type HarnessReply, readHarnessReply } from "./worker-harness.ts";

/** The code of a worker to load; the shape of `WorkerLoaderWorkerCode` this executor uses. */
export interface DynamicWorkerCode {
  compatibilityDate: string;
  compatibilityFlags?: string[];
  mainModule: string;
  modules: Record<string, unknown>;
  globalOutbound?: object | null;
  env?: Record<string, unknown>;
}

/** The Worker Loader binding (`worker_loaders` in wrangler.jsonc), as far as this executor uses it. */
export interface WorkerLoaderLike {
  load(code: DynamicWorkerCode): { getEntrypoint(name?: string): unknown };
}

export interface DynamicWorkerExecutorOptions {
  /** the Worker Loader binding, e.g. `env.LOADER` */
  loader: WorkerLoaderLike;
  /** wall time of a pass in ms, watched in the sandbox and on the host; default 30,000 */
  timeout?: number;
  /**
   * Where the sandbox's `fetch()` goes: `null` (the default) blocks it; a `Fetcher` (a service
   * binding, or `ctx.exports.X(...)`) receives every outbound request instead, through the host, which
   * refuses requests once the pass has ended. `connect()` is blocked either way.
   */
  globalOutbound?: object | null;
  /**
   * more modules of the loaded worker (name → ES module source); the program may `import()` only
   * those named in `programImports`
   */
  modules?: Record<string, string>;
  /**
   * the loaded worker's `env`; values must be serializable or bindings. Your `modules` read them
   * through `import { env } from "cloudflare:workers"`; the program only if `programImports` names
   * `"cloudflare:workers"`
   */
  bindings?: Record<string, unknown>;
  /**
   * What the program itself may `import()`, by name: names of `modules` (as `"x.js"` or `"./x.js"`)
   * and built-in modules such as `"cloudflare:workers"` (which hands over `env`, your `bindings`).
   * Any other `import()` of the program (and of a saved program run with `codemode.run`) fails.
   * Default none.
   */
  programImports?: readonly string[];
  /** the loaded worker's compatibility date; default "2026-04-20" */
  compatibilityDate?: string;
  /** the loaded worker's compatibility flags; default none (no `nodejs_compat`: no `process` or `Buffer`) */
  compatibilityFlags?: string[];
  /** most console lines kept per pass; default 1,000 */
  maxLogLines?: number;
  /** most console characters kept per pass; default 100,000 */
  maxLogChars?: number;
  /**
   * most host calls (namespace calls, `codemode.run`, outbound requests) one pass may have in flight
   * at once; beyond it a call fails at once with `BUDGET_EXCEEDED`; default 256
   */
  maxConcurrentCalls?: number;
  /**
   * most characters of the inputs of one pass's calls in flight at once, which the host holds until
   * each call is answered; a call that would pass it fails at once with `BUDGET_EXCEEDED`. Default
   * 32 Mi (an isolate has 128 MB; one input may have 15 Mi characters).
   */
  maxInputCharsInFlight?: number;
  /**
   * Whether a deadline check (a tick) goes into every loop and function body of the program, so
   * code that never yields ends at the time limit. The ticks can only see the deadline where the
   * clock moves while code runs: local workerd (`wrangler dev`, tests), which has no CPU limit. On
   * Cloudflare the clock stands still during code and the platform's CPU limit ends such code
   * instead, so there they would cost time for nothing. `"auto"` (the default) probes the clock
   * once per isolate, at the first pass (a few ms on Cloudflare, under one locally); `true` and
   * `false` decide without probing.
   */
  interruptRunaway?: "auto" | boolean;
}

const DEFAULTS = {
  timeout: 30_000,
  compatibilityDate: "2026-04-20",
  maxLogLines: 1_000,
  maxLogChars: 100_000,
  maxConcurrentCalls: 256,
  maxInputCharsInFlight: 32 * 1024 * 1024,
};
/** `codemode.run` inside a pass: how deep saved programs may run saved programs, and how many per pass. */
const MAX_NESTED_DEPTH = 4;
const MAX_NESTED_RUNS = 16;
/** Characters of a saved program's source that `codemode.run` may hand over (the journal's value limit). */
const MAX_SOURCE_CHARS = 1_000_000;
/** The host's watchdog fires this long after the sandbox's own timer should have. */
const WATCHDOG_GRACE_MS = 100;
/** A sandbox still running when its pass was ended is released at the latest this long after. */
const DISPOSE_AFTER_MS = 30_000;
/** Recorded calls answered in the sandbox are sent with its code, up to this much text. */
const MAX_REPLAY_CHARS = 2 * 1024 * 1024;
/**
 * Workers RPC carries messages up to 32 MiB, and a string with a character past U+00FF takes two
 * bytes a character there: a reply (or an input) of this many characters always fits, so a call
 * that ran is never told its reply was lost for its size.
 */
const MAX_REPLY_CHARS = 15 * 1024 * 1024;
/** Calls made at once go to the host together while their text stays within this (else apart). */
const MAX_BATCH_CHARS = 8 * 1024 * 1024;
const RESERVED_MODULES = new Set<string>(Object.values(MODULE_NAMES));
const disposeSymbol = (Symbol as { dispose?: symbol }).dispose;

/** One pass, as `execute` prepared it: what its stages share. */
interface PassPlan {
  /** what the harness is told (written into its module) */
  spec: HarnessSpec;
  globals: HostNamespaces;
  /** the pass's limit, in ms */
  timeoutMs: number;
  /** whether the program, and a saved program it runs, gets the runaway ticks */
  ticks: boolean;
  /** the program module, instrumented */
  program: string;
  prelude: string | undefined;
  logs: LogSink;
  signal: ExecuteRequest["signal"];
  replay: ExecuteRequest["replay"];
}

/** A worker loaded for one run: its harness, and how to let go of it. */
interface LoadedWorker {
  harness: HarnessEntrypoint;
  dispose(): void;
}

/** How a run in a loaded worker ended for the host: the harness's reply, or the error of its RPC. */
type Evaluated = { reply: HarnessReply } | { crash: unknown };

/** A run in a loaded worker: how it ends, and whether it has. */
interface Evaluation {
  ended: Promise<Evaluated>;
  settled(): boolean;
}

/**
 * Runs Code Mode programs in Cloudflare Workers isolates loaded for one pass each through the Worker
 * Loader binding. The program is a module of its own beside a harness module; namespaces and the
 * `codemode` SDK reach the host over Workers RPC (a `HostBridge` passed as an argument); outbound
 * network is blocked unless a `Fetcher` is given; a timer in the sandbox and a watchdog on the host
 * end a pass on time; calls still in flight when a pass ends are answered at once, so the isolate can
 * exit. workerd only: it imports `cloudflare:workers`.
 */
export class DynamicWorkerExecutor implements Executor {
  readonly specificationVersion = "v1" as const;
  readonly #loader: WorkerLoaderLike;
  readonly #timeout: number;
  readonly #globalOutbound: object | null;
  readonly #modules: Record<string, string>;
  readonly #bindings: Record<string, unknown> | undefined;
  readonly #imports: string[];
  readonly #compatibilityDate: string;
  readonly #compatibilityFlags: string[];
  readonly #maxLogLines: number;
  readonly #maxLogChars: number;
  readonly #maxConcurrentCalls: number;
  readonly #maxInputCharsInFlight: number;
  readonly #interruptRunaway: "auto" | boolean;

  constructor(options: DynamicWorkerExecutorOptions) {
    const loader = options?.loader as Partial<WorkerLoaderLike> | undefined;
    if (!loader || typeof loader.load !== "function") {
      throw new CodemodeError(
        "INVALID_CONFIG",
        'DynamicWorkerExecutor needs a Worker Loader binding as `loader` (wrangler.jsonc: "worker_loaders": [{ "binding": "LOADER" }], then `loader: env.LOADER`).',
      );
    }
    this.#loader = options.loader;
    this.#timeout = positive(options.timeout ?? DEFAULTS.timeout, "timeout");
    this.#globalOutbound = options.globalOutbound ?? null;
    const modules = options.modules ?? {};
    for (const [name, source] of Object.entries(modules)) {
      if (RESERVED_MODULES.has(name)) {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `The module name "${name}" is reserved by DynamicWorkerExecutor; choose another.`,
        );
      }
      if (typeof source !== "string") {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `The module "${name}" must be ES module source text.`,
        );
      }
    }
    this.#modules = { ...modules };
    this.#imports = programImports(options.programImports, this.#modules);
    this.#bindings = options.bindings;
    this.#compatibilityDate = options.compatibilityDate ?? DEFAULTS.compatibilityDate;
    this.#compatibilityFlags = [...(options.compatibilityFlags ?? [])];
    this.#maxLogLines = positive(options.maxLogLines ?? DEFAULTS.maxLogLines, "maxLogLines");
    this.#maxLogChars = positive(options.maxLogChars ?? DEFAULTS.maxLogChars, "maxLogChars");
    this.#maxConcurrentCalls = positiveInteger(
      options.maxConcurrentCalls ?? DEFAULTS.maxConcurrentCalls,
      "maxConcurrentCalls",
    );
    this.#maxInputCharsInFlight = positiveInteger(
      options.maxInputCharsInFlight ?? DEFAULTS.maxInputCharsInFlight,
      "maxInputCharsInFlight",
    );
    const interrupt = options.interruptRunaway ?? "auto";
    if (interrupt !== "auto" && typeof interrupt !== "boolean") {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `interruptRunaway must be "auto", true or false, got ${String(interrupt)}.`,
      );
    }
    this.#interruptRunaway = interrupt;
  }

  /** Whether the program gets ticks: decided by the option, or by the clock (probed once). */
  #ticks(): boolean {
    return this.#interruptRunaway === "auto" ? clockMovesDuringCode() : this.#interruptRunaway;
  }

  /**
   * One pass, in stages: `#prepare` (the request checked, the spec, the program instrumented),
   * `#openPass` (the host's side of the pass), `watchPass` (the watchdog and the abort signal),
   * `#load` and `evaluate` (a fresh worker runs the program), `collect` (the result from how it
   * ended), then the pass is closed and its worker released (`release`).
   */
  async execute(request: ExecuteRequest): Promise<ExecuteResult> {
    const plan = this.#prepare(request);
    if ("error" in plan) return plan;
    const pass = this.#openPass(plan);
    const root = pass.open(0, plan.spec.replay.length);
    const watch = watchPass(pass, plan.timeoutMs, plan.signal);
    const loaded = this.#load(plan.spec, plan.prelude, plan.program);
    const run = evaluate(loaded.harness, root.bridge);
    try {
      const ended = await Promise.race([
        run.ended,
        watch.stopped.then((error) => ({ stopped: error })),
      ]);
      return collect(ended, plan, pass, root.scope);
    } finally {
      watch.stop();
      // from here on nothing the pass left running (a timer, `waitUntil`, a nested worker) reaches a
      // host method, the outbound service or the logs
      pass.close();
      release(loaded, run);
    }
  }

  /**
   * What the pass needs before anything is loaded: the harness's spec, the log sink and the
   * instrumented program. A signal aborted already, or a program that does not parse, ends the pass
   * here (its result); a request the executor cannot take throws `INVALID_CONFIG`.
   */
  #prepare(request: ExecuteRequest): PassPlan | { error: SandboxError; logs: string[] } {
    if (typeof request?.code !== "string") {
      throw new CodemodeError("INVALID_CONFIG", "execute() needs request.code as a string.");
    }
    const globals = request.globals ?? {};
    const timeoutMs = positive(request.limits?.timeoutMs ?? this.#timeout, "limits.timeoutMs");
    const spec: HarnessSpec = {
      namespaces: describeNamespaces(globals),
      timeoutMs,
      maxLogLines: this.#maxLogLines,
      maxLineChars: this.#maxLogChars,
      maxConcurrentCalls: this.#maxConcurrentCalls,
      maxInputCharsInFlight: this.#maxInputCharsInFlight,
      maxBatchChars: MAX_BATCH_CHARS,
      prelude: typeof request.prelude === "string" && request.prelude.length > 0,
      seed: null,
      outbound: this.#globalOutbound !== null,
      imports: this.#imports,
      replay: replayable(request.replay),
    };
    const logs = new LogSink(this.#maxLogLines, this.#maxLogChars);
    const signal = request.signal;
    if (signal?.aborted) return { error: abortedError(signal), logs: [] };
    const ticks = this.#ticks();
    const program = instrumentedProgram(request.code, ticks);
    if (typeof program !== "string") return { error: program, logs: [] };
    return {
      spec,
      globals,
      timeoutMs,
      ticks,
      program,
      prelude: request.prelude,
      logs,
      signal,
      replay: request.replay,
    };
  }

  /**
   * The host's side of the pass (`Pass`, which the sandbox's bridges talk to): its limits, the logs,
   * the outbound service, the replay's advance, and how it runs a saved program (`codemode.run`).
   */
  #openPass(plan: PassPlan): Pass {
    const replay = plan.replay;
    // a saved program run with codemode.run gets the time the pass has left, not a limit of its own
    const deadline = Date.now() + plan.timeoutMs;
    return new Pass({
      globals: plan.globals,
      namespaces: plan.spec.namespaces,
      logs: plan.logs,
      replyLimit: { chars: MAX_REPLY_CHARS, reason: "Workers RPC can carry" },
      maxConcurrentCalls: this.#maxConcurrentCalls,
      maxNestedRuns: MAX_NESTED_RUNS,
      maxNestedDepth: MAX_NESTED_DEPTH,
      maxSourceChars: MAX_SOURCE_CHARS,
      maxInputChars: MAX_REPLY_CHARS,
      maxInputCharsInFlight: this.#maxInputCharsInFlight,
      maxBatchChars: MAX_BATCH_CHARS,
      maxLogChars: this.#maxLogChars,
      outbound: this.#globalOutbound as OutboundService | null,
      evaluate: (source, input, seed, bridge, scope) =>
        this.#evaluateSaved(plan, deadline, bridge, scope, { source, input, seed }),
      ...(replay ? { advance: (count: number) => replay.advance(count) } : {}),
    });
  }

  /**
   * Loads a fresh worker: the harness with the pass's spec, the tick module, the prelude, the
   * instrumented program, and the user's modules.
   */
  #load(spec: HarnessSpec, prelude: string | undefined, program: string): LoadedWorker {
    const modules: Record<string, string> = {
      ...this.#modules,
      [MODULE_NAMES.harness]: harnessSource(spec),
      [MODULE_NAMES.tick]: TICK_SOURCE,
      [MODULE_NAMES.program]: program,
    };
    if (spec.prelude && prelude) modules[MODULE_NAMES.prelude] = prelude;
    const code: DynamicWorkerCode = {
      compatibilityDate: this.#compatibilityDate,
      compatibilityFlags: this.#compatibilityFlags,
      mainModule: MODULE_NAMES.harness,
      modules,
      // outbound requests go through the host bridge, which refuses them once the pass has ended
      globalOutbound: null,
    };
    if (this.#bindings && Object.keys(this.#bindings).length > 0) code.env = this.#bindings;
    const worker = this.#loader.load(code);
    const harness = worker.getEntrypoint() as HarnessEntrypoint;
    return {
      harness,
      dispose() {
        for (const stub of [harness, worker]) {
          const dispose = disposeSymbol && (stub as Record<symbol, unknown>)[disposeSymbol];
          if (typeof dispose === "function") {
            try {
              dispose.call(stub);
            } catch {
              // already gone
            }
          }
        }
      },
    };
  }

  /**
   * `codemode.run`: a saved program's source, run in a worker of its own on a bridge of the same pass
   * (the pass counts and bounds them), until the pass's `deadline`. A worker that dies fails the
   * whole pass. Its caller's worker sends nothing while it runs (see `workerHarness`), so the pass
   * has one ordering domain: the host numbers the saved program's calls where its `codemode.run`
   * stands among the caller's, the same on every pass.
   */
  async #evaluateSaved(
    plan: PassPlan,
    deadline: number,
    bridge: HostBridge,
    scope: BridgeScope,
    { source, input, seed }: { source: string; input: string; seed: string },
  ): Promise<HostReply> {
    // the recorded calls the sandbox answers itself are the run's first, made before any saved
    // program (its caller's harness answers none after a `codemode.run`): the host numbers and
    // replays every call of a saved program. Its prelude draws from the seed the caller's prelude
    // drew for it, not the caller's numbers again
    const spec = {
      ...plan.spec,
      replay: [],
      timeoutMs: Math.max(1, deadline - Date.now()),
      seed: seed === "" ? null : seed,
    };
    const program = instrumentedProgram(source, plan.ticks);
    if (typeof program !== "string") return failureReply(program);
    const loaded = this.#load(spec, plan.prelude, program);
    try {
      let text: unknown;
      try {
        text = await loaded.harness.evaluate(bridge, input);
      } catch (error) {
        const failure = crashError(error);
        if (failure.code === "MEMORY" || isolateDied(error)) scope.pass.fail(failure);
        return failureReply(failure);
      }
      const reply = readHarnessReply(text);
      if (!scope.take(reply.logs, reply.replayed, false)) {
        return errorReply({ name: "Error", code: "ABORTED", message: "The run has ended." });
      }
      const outcome = reply.outcome;
      if (outcome[0] === "ok") return okReply(outcome[1]);
      // a saved program runs on the namespaces of its pass, which had no problem with them
      if (outcome[0] === "problem") {
        return errorReply({ name: "Error", message: outcome[1], code: "INVALID_CONFIG" });
      }
      return failureReply(passError(outcome, plan.timeoutMs));
    } catch (error) {
      return failureReply(crashError(error));
    } finally {
      loaded.dispose();
    }
  }
}

/**
 * What ends a pass from the host's side, whatever its sandbox does: the watchdog (it fires
 * `WATCHDOG_GRACE_MS` after the sandbox's own timer should have), the caller's abort signal, and a
 * failure of the pass (the sandbox broke the protocol, or a nested worker died). `stopped` settles
 * with the error of the first; `stop` disarms the watchdog and lets go of the signal.
 */
function watchPass(
  pass: Pass,
  timeoutMs: number,
  signal: ExecuteRequest["signal"],
): { stopped: Promise<SandboxError>; stop(): void } {
  let watchdog: TimerHandle | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<SandboxError>((resolve) => {
    // the pass closes at once, so no call of this pass reaches globals after it is stopped (an
    // `advance` that aborts the pass comes back here before the call that carried it is served)
    watchdog = hostTimers.setTimeout(() => {
      pass.close();
      resolve(timeoutError(timeoutMs));
    }, timeoutMs + WATCHDOG_GRACE_MS);
    if (signal) {
      onAbort = () => {
        pass.close();
        resolve(abortedError(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
    }
    // the sandbox broke the protocol, or a nested worker died
    void pass.failure.then(resolve);
  });
  return {
    stopped,
    stop() {
      hostTimers.clearTimeout(watchdog);
      if (signal && onAbort) signal.removeEventListener("abort", onAbort);
    },
  };
}

/** Runs the pass in the loaded worker, on the host's `bridge`: its reply, or how its RPC failed. */
function evaluate(harness: HarnessEntrypoint, bridge: HostBridge): Evaluation {
  let settled = false;
  const ended = harness.evaluate(bridge).then(
    (text): Evaluated => {
      settled = true;
      try {
        return { reply: readHarnessReply(text) };
      } catch (error) {
        return { crash: error };
      }
    },
    (error: unknown): Evaluated => {
      settled = true;
      return { crash: error };
    },
  );
  return { ended, settled: () => settled };
}

/**
 * The pass's result from how it ended: stopped from the host's side, its worker crashed, or the
 * harness's reply, whose console lines and replay count are taken first (a reply that breaks the
 * protocol fails the pass). A `problem` outcome is the configuration's: `INVALID_CONFIG`, thrown.
 */
function collect(
  ended: Evaluated | { stopped: SandboxError },
  plan: PassPlan,
  pass: Pass,
  scope: BridgeScope,
): ExecuteResult {
  const logs = plan.logs;
  if ("stopped" in ended) return { error: ended.stopped, logs: logs.snapshot() };
  if ("crash" in ended) return { error: crashError(ended.crash), logs: logs.snapshot() };
  if (!scope.take(ended.reply.logs, ended.reply.replayed, false)) {
    const error = pass.failed ?? {
      name: "Error",
      code: "ABORTED",
      message: "The run was stopped.",
    };
    return { error, logs: logs.snapshot() };
  }
  const outcome = ended.reply.outcome;
  if (outcome[0] === "problem") throw new CodemodeError("INVALID_CONFIG", outcome[1]);
  if (outcome[0] === "ok") return decodeResult(outcome[1], logs.snapshot());
  return { error: passError(outcome, plan.timeoutMs), logs: logs.snapshot() };
}

/**
 * Releases the pass's worker: at once when its run has settled. A pass ended from outside while the
 * sandbox still runs has its calls answered at once now and its own timer fires, so the worker is let
 * finish before its stubs are released, and given up on after `DISPOSE_AFTER_MS`. (Releasing means
 * Symbol.dispose where the stubs have it; workerd 1.20260426 gives them none, and inside a Durable
 * Object SandboxLoader is what ends them safely.)
 */
function release(loaded: LoadedWorker, run: Evaluation): void {
  if (run.settled()) {
    loaded.dispose();
    return;
  }
  const fallback = hostTimers.setTimeout(() => loaded.dispose(), DISPOSE_AFTER_MS);
  void run.ended.then(() => {
    hostTimers.clearTimeout(fallback);
    loaded.dispose();
  });
}

/** The reply to a `codemode.run` that failed: its error's name, message and code. */
function failureReply(error: SandboxError): HostReply {
  return errorReply({ name: error.name, message: error.message, code: error.code });
}

/**
 * The program module, instrumented (see `instrumentProgram`): its `import()`s checked, and with
 * `ticks` a deadline check at the start of every loop body and function body; `SYNTAX_ERROR` with the
 * program's own line and column when acorn cannot parse it or it is not one function expression
 * (code that was not parsed never runs).
 */
function instrumentedProgram(code: string, ticks: boolean): string | SandboxError {
  const start = PROGRAM_PREFIX.length;
  const instrumented = instrumentProgram(programModule(code), `./${MODULE_NAMES.tick}`, {
    ticks,
    body: { start, end: start + code.length },
  });
  return instrumented.ok ? instrumented.source : programSyntaxError(code, instrumented);
}

/**
 * The specifiers the program may `import()`: each name given, and for a module of `modules` also its
 * `./` form; `INVALID_CONFIG` for a reserved name or one that is not a string.
 */
function programImports(names: unknown, modules: Record<string, string>): string[] {
  if (names === undefined) return [];
  if (!Array.isArray(names)) {
    throw new CodemodeError("INVALID_CONFIG", "programImports must be an array of module names.");
  }
  const specifiers = new Set<string>();
  for (const name of names as unknown[]) {
    const bare = typeof name === "string" && name.startsWith("./") ? name.slice(2) : name;
    if (typeof bare !== "string" || bare === "" || RESERVED_MODULES.has(bare)) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `programImports cannot name ${JSON.stringify(name)}: give names of your modules or built-in modules such as "cloudflare:workers".`,
      );
    }
    specifiers.add(bare);
    if (Object.hasOwn(modules, bare)) specifiers.add(`./${bare}`);
  }
  return [...specifiers];
}

/** The recorded calls the sandbox answers itself: a prefix of them, at most `MAX_REPLAY_CHARS` of text. */
function replayable(hint: ExecuteRequest["replay"]): HarnessSpec["replay"] {
  const calls: HarnessSpec["replay"] = [];
  let chars = 0;
  for (const { namespace, method, input, result } of hint?.calls ?? []) {
    chars += input.length + result.length;
    if (chars > MAX_REPLAY_CHARS) break;
    calls.push({ namespace, method, input, result });
  }
  return calls;
}
