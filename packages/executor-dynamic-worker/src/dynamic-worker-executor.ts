import {
  CodemodeError,
  type ExecuteRequest,
  type ExecuteResult,
  type Executor,
  type SandboxError,
} from "@codemode/core";
import {
  abortedError,
  decodeResult,
  describeNamespaces,
  type ErrorInfo,
  errorReply,
  type HostReply,
  hostTimers,
  LogSink,
  messageOf,
  type OkOutcome,
  okReply,
  outcomeError,
  type ProblemOutcome,
  positive,
  positiveInteger,
  readPassOutcome,
  type TimerHandle,
  timeoutError,
} from "@codemode/executor-kit";
import { clockMovesDuringCode } from "./clock-moves.ts";
import {
  type HarnessOutcome,
  type HarnessSpec,
  harnessSource,
  MODULE_NAMES,
  PROGRAM_LINE_OFFSET,
  PROGRAM_PREFIX,
  programModule,
} from "./harness-source.ts";
import { type BridgeScope, type HostBridge, type OutboundService, Pass } from "./host-bridge.ts";
import { instrumentProgram } from "./instrument-program.ts";
import { TICK_SOURCE } from "./tick-source.ts";
import { type HarnessEntrypoint, OUTCOME_KINDS } from "./worker-harness.ts";

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

interface HarnessReply {
  outcome: HarnessOutcome;
  /** console lines since the last message: JSON text of `[lines, dropped]` */
  logs?: unknown;
  /** recorded calls answered in the sandbox since the last host call */
  replayed?: unknown;
}

/**
 * The harness's reply, read on the host (JSON text: nothing in it can run code of the sandbox). An
 * outcome that is not one the harness reports, of its shape (`readPassOutcome`), is a reply the host
 * cannot read: the pass fails.
 */
function parseReply(text: unknown): HarnessReply {
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

  async execute(request: ExecuteRequest): Promise<ExecuteResult> {
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

    const replay = request.replay;
    // a saved program run with codemode.run gets the time the pass has left, not a limit of its own
    const deadline = Date.now() + timeoutMs;
    const pass = new Pass({
      globals,
      namespaces: spec.namespaces,
      logs,
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
      // a saved program's calls come after the run's recorded ones: none of them replays there
      evaluate: (source, input, bridge, scope) =>
        this.#evaluateSaved(
          { ...spec, replay: [], timeoutMs: Math.max(1, deadline - Date.now()) },
          ticks,
          timeoutMs,
          request.prelude,
          bridge,
          scope,
          source,
          input,
        ),
      ...(replay ? { advance: (count: number) => replay.advance(count) } : {}),
    });
    const root = pass.open(0, spec.replay.length);
    const watchdog: { timer?: TimerHandle } = {};
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<SandboxError>((resolve) => {
      // the pass closes at once, so no call of this pass reaches globals after it is stopped (an
      // `advance` that aborts the pass comes back here before the call that carried it is served)
      watchdog.timer = hostTimers.setTimeout(() => {
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

    const loaded = this.#load(spec, request.prelude, program);
    let settled = false;
    const evaluation = loaded.harness.evaluate(root.bridge).then(
      (text) => {
        settled = true;
        try {
          return { reply: parseReply(text) };
        } catch (error) {
          return { crash: error };
        }
      },
      (error: unknown) => {
        settled = true;
        return { crash: error };
      },
    );
    try {
      const ended = await Promise.race([evaluation, stopped.then((error) => ({ stopped: error }))]);
      if ("stopped" in ended) return { error: ended.stopped, logs: logs.snapshot() };
      if ("crash" in ended) return { error: crashError(ended.crash), logs: logs.snapshot() };
      if (!root.scope.take(ended.reply.logs, ended.reply.replayed, false)) {
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
      return { error: passError(outcome, timeoutMs), logs: logs.snapshot() };
    } finally {
      hostTimers.clearTimeout(watchdog.timer);
      if (signal && onAbort) signal.removeEventListener("abort", onAbort);
      // from here on nothing the pass left running (a timer, `waitUntil`, a nested worker) reaches a
      // host method, the outbound service or the logs
      pass.close();
      if (settled) loaded.dispose();
      else {
        // Ended from outside while the sandbox still runs: its calls are now answered at once and its
        // own timer fires, so let it finish before its stubs are released; give up waiting after a
        // while. (Releasing means Symbol.dispose where the stubs have it; workerd 1.20260426 gives
        // them none, and inside a Durable Object SandboxLoader is what ends them safely.)
        const fallback = hostTimers.setTimeout(() => loaded.dispose(), DISPOSE_AFTER_MS);
        void evaluation.then(() => {
          hostTimers.clearTimeout(fallback);
          loaded.dispose();
        });
      }
    }
  }

  /**
   * Loads a fresh worker: the harness with the pass's spec, the tick module, the prelude, the
   * instrumented program, and the user's modules.
   */
  #load(
    spec: HarnessSpec,
    prelude: string | undefined,
    program: string,
  ): { harness: HarnessEntrypoint; dispose(): void } {
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
   * (the pass counts and bounds them), until the pass's deadline (`spec.timeoutMs` is the time left;
   * `timeoutMs` the pass's limit, for the message). A worker that dies fails the whole pass.
   */
  async #evaluateSaved(
    spec: HarnessSpec,
    ticks: boolean,
    timeoutMs: number,
    prelude: string | undefined,
    bridge: HostBridge,
    scope: BridgeScope,
    source: string,
    input: string,
  ): Promise<HostReply> {
    const program = instrumentedProgram(source, ticks);
    if (typeof program !== "string") {
      return errorReply({ name: program.name, message: program.message, code: program.code });
    }
    const loaded = this.#load(spec, prelude, program);
    try {
      let text: unknown;
      try {
        text = await loaded.harness.evaluate(bridge, input);
      } catch (error) {
        const failure = crashError(error);
        if (failure.code === "MEMORY" || isolateDied(error)) scope.pass.fail(failure);
        return errorReply({ name: failure.name, message: failure.message, code: failure.code });
      }
      const reply = parseReply(text);
      if (!scope.take(reply.logs, reply.replayed, false)) {
        return errorReply({ name: "Error", code: "ABORTED", message: "The run has ended." });
      }
      const outcome = reply.outcome;
      if (outcome[0] === "ok") return okReply(outcome[1]);
      // a saved program runs on the namespaces of its pass, which had no problem with them
      const error =
        outcome[0] === "problem"
          ? { name: "Error", message: outcome[1], code: "INVALID_CONFIG" }
          : passError(outcome, timeoutMs);
      return errorReply({ name: error.name, message: error.message, code: error.code });
    } catch (error) {
      const failure = crashError(error);
      return errorReply({ name: failure.name, message: failure.message, code: failure.code });
    } finally {
      loaded.dispose();
    }
  }
}

/**
 * The program module, instrumented (see `instrumentProgram`): its `import()`s checked, and with
 * `ticks` a deadline check at the start of every loop body and function body; `SYNTAX_ERROR` with the
 * program's own line and column when acorn cannot parse it or it is not one function expression
 * (code that was not parsed never runs).
 */
function instrumentedProgram(code: string, ticks: boolean): string | SandboxError {
  const module = programModule(code);
  const start = PROGRAM_PREFIX.length;
  const instrumented = instrumentProgram(module, `./${MODULE_NAMES.tick}`, {
    ticks,
    body: { start, end: start + code.length },
  });
  if (instrumented.ok) return instrumented.source;
  const lines = code.split("\n");
  const line = Math.min(Math.max(instrumented.line - PROGRAM_LINE_OFFSET, 1), lines.length);
  // a position past the program's own lines (the closing of the module) is its end
  const column =
    instrumented.line - PROGRAM_LINE_OFFSET > lines.length
      ? (lines[line - 1] ?? "").length + 1
      : instrumented.column + 1;
  const text = (lines[line - 1] ?? "").trim();
  const excerpt =
    text.length > 0 ? `: ${text.length > 120 ? `${text.slice(0, 117)}...` : text}` : "";
  return {
    name: "SyntaxError",
    code: "SYNTAX_ERROR",
    message: `${instrumented.message} (line ${line}, column ${column})${excerpt}`,
  };
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

/** The error of a pass that did not return. */
function passError(
  outcome: Exclude<HarnessOutcome, OkOutcome | ProblemOutcome>,
  timeoutMs: number,
): SandboxError {
  if (outcome[0] === "timeout") return timeoutError(timeoutMs);
  if (outcome[0] !== "load") return outcomeError(outcome);
  const [, stage, name, message, stack] = outcome;
  return loadError(stage, { name, message, stack });
}

/** The prelude or the program failed to load: a syntax error, with the program's own line numbers. */
function loadError(stage: "prelude" | "program", info: ErrorInfo): SandboxError {
  if (info.name !== "SyntaxError") {
    return {
      name: info.name,
      code: "THROWN",
      message: stage === "prelude" ? `The prelude failed: ${info.message}` : info.message,
    };
  }
  let location = "";
  const where = new RegExp(`${stage}\\.js:(\\d+)(?::(\\d+))?`).exec(info.stack ?? "");
  if (where) {
    const line = Number(where[1]) - (stage === "program" ? PROGRAM_LINE_OFFSET : 0);
    location = where[2] ? ` (line ${line}, column ${where[2]})` : ` (line ${line})`;
  }
  const message = `${info.message}${location}`;
  return {
    name: "SyntaxError",
    code: "SYNTAX_ERROR",
    message: stage === "prelude" ? `The prelude failed: ${message}` : message,
  };
}

/** The loaded worker failed outside the program (it could not start, or its isolate died). */
function crashError(error: unknown): SandboxError {
  const message = messageOf(error);
  const syntax = /SyntaxError: ([^\n]*)(?:\n\s*at (program|prelude)\.js:(\d+):(\d+))?/.exec(
    message,
  );
  if (syntax) {
    const stage = syntax[2] === "prelude" ? "prelude" : "program";
    return loadError(stage, {
      name: "SyntaxError",
      message: syntax[1] ?? message,
      stack: syntax[3] ? `${stage}.js:${syntax[3]}:${syntax[4]}` : undefined,
    });
  }
  // on Cloudflare, code that never yields runs until the platform's CPU limit ends its isolate
  if (/exceeded (?:its )?cpu|cpu time limit/i.test(message)) {
    return {
      name: "TimeoutError",
      code: "TIMEOUT",
      message:
        `The code used more CPU time than the platform allows and was stopped (${message}). ` +
        "Do less in one run (smaller loops) and make sure every loop ends.",
    };
  }
  if (/memory limit|out of memory|exceeded memory|allocation failed/i.test(message)) {
    return {
      name: "RangeError",
      code: "MEMORY",
      message:
        `The sandbox ran out of memory and was stopped (${message}). ` +
        "Hold less at once: process data in pages and keep only what the result needs.",
    };
  }
  if (/had hung and would never generate a response/.test(message)) {
    return {
      name: "Error",
      code: "THROWN",
      message:
        "The code is waiting for a promise that can never settle: no host call and no timer is pending. " +
        "Make sure every promise it awaits resolves or rejects.",
    };
  }
  return {
    name: "Error",
    code: "THROWN",
    message: isolateDied(error)
      ? `The sandbox worker died and the run was stopped: ${message}`
      : `The sandbox worker failed and the run was stopped: ${message}`,
  };
}

/** Whether an error of a worker's RPC says that its isolate is gone (crashed, killed, out of resources). */
function isolateDied(error: unknown): boolean {
  return /memory limit|out of memory|exceeded (?:memory|cpu)|network connection lost|isolate|worker (?:was )?(?:killed|terminated|died)|internal error/i.test(
    messageOf(error),
  );
}
