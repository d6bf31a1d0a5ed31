import {
  CodemodeError,
  type ExecuteRequest,
  type ExecuteResult,
  type Executor,
} from "@codemode/core";
import { describeNamespaces, positive, positiveInteger } from "@codemode/executor-kit";
import type { QuickJSSyncVariant, QuickJSWASMModule } from "quickjs-emscripten-core";
import { Pass } from "./pass.ts";
import { type SpareSandboxes, spareSandboxes } from "./spare-sandboxes.ts";
import { type InstanceSource, instanceSource } from "./wasm-instances.ts";
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
  /**
   * grant `setTimeout` / `clearTimeout` inside the sandbox: a timer fires once the program waits on
   * no call, earliest due first by the timers' own clock, not before its delay (the same order on
   * replay as live; see sandbox-timers.ts); pending ones are cancelled at the end of the pass
   */
  timers?: boolean;
  /** most console lines kept per pass; default 1,000 */
  maxLogLines?: number;
  /** most console characters kept per pass; default 100,000 */
  maxLogChars?: number;
  /**
   * most host calls a pass may have in flight (made and not answered) at once; a call past it fails
   * in the sandbox at once with a `BUDGET_EXCEEDED` error and never reaches the host. Default 256.
   */
  maxConcurrentCalls?: number;
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
   * the built-ins captured and the value encoder compiled (about half of an empty pass's cost). It
   * has run nothing, serves exactly one pass with the same memory limit, and is shared by the
   * executors on the same QuickJS build; unused, it is freed after 30 s or by `dispose()`. Default true.
   */
  prewarm?: boolean;
}

const DEFAULTS = {
  timeoutMs: 30_000,
  memoryLimitBytes: 64 * 1024 * 1024,
  maxStackSizeBytes: 256 * 1024,
  maxLogLines: 1_000,
  maxLogChars: 100_000,
  maxConcurrentCalls: 256,
};

/**
 * Runs Code Mode programs in QuickJS compiled to WebAssembly (the synchronous build; host calls are
 * bridged through QuickJS promises). Every pass gets a fresh runtime and context on a WebAssembly
 * instance of its own (pooled between passes), with hard limits on time, memory and stack. The
 * namespaces, `console` and timers are host functions installed through the QuickJS API; sandbox
 * code is compiled only for what a pass uses (see sandbox.ts). With `prewarm` the next runtime and
 * context are made just after a pass returned. Runs in Node, workerd and the browser: the entry
 * point uses no Node API.
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
      maxConcurrentCalls: positiveInteger(
        options.maxConcurrentCalls ?? DEFAULTS.maxConcurrentCalls,
        "maxConcurrentCalls",
      ),
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
      maxConcurrentCalls: this.#options.maxConcurrentCalls,
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
