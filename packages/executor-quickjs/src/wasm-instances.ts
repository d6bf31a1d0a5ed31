import releaseSyncVariant from "@jitl/quickjs-wasmfile-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";

/** The part of `WebAssembly.Memory` used here (the package compiles without platform type libraries). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

interface WasmGlobal {
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
}

const PAGE = 64 * 1024;
/** The release-sync build's declared initial memory (16 MiB); a smaller imported memory fails to link. */
const INITIAL_PAGES = 256;
/** What the runtime, the context, the sandbox code and the allocator need besides the program's values. */
const HEADROOM_BYTES = 4 * 1024 * 1024;
/** An instance whose memory grew past this is dropped after its pass, so the host gets the memory back. */
const KEEP_BYTES = 32 * 1024 * 1024;
/** Idle instances kept per memory size. */
const MAX_IDLE = 4;

/**
 * One instantiated QuickJS WebAssembly module. A pass owns it while it runs, so the pass's memory
 * limit is the instance's own linear memory and a fault cannot touch another pass.
 */
export interface QuickJSInstance {
  readonly module: QuickJSWASMModule;
  /** the instance's linear memory when this package created it; undefined for an injected module */
  readonly memory: WasmMemory | undefined;
  /** the most that memory can grow to */
  readonly maxBytes: number | undefined;
  /** the instance must not be used again (a host exception unwound through its WebAssembly frames) */
  poisoned: boolean;
}

/** Where passes get their instances from. */
export interface InstanceSource {
  /** true when the memory limit is enforced by the instance's own capped linear memory */
  readonly capsMemory: boolean;
  acquire(memoryBytes: number): Promise<QuickJSInstance>;
  release(instance: QuickJSInstance): void;
}

/** How to obtain the WebAssembly code: the variant and, for workerd or the browser, the module or its URL. */
export interface VariantOptions {
  variant?: QuickJSSyncVariant | undefined;
  wasmModule?: unknown;
  wasmLocation?: string | undefined;
}

/** Whether `value` is a promise (or another thenable). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * A module given as a promise may reject before any pass asks for it (a download that failed): its
 * rejection is heard as it is handed over, and each pass that asks for it reports it (`INVALID_CONFIG`).
 */
function heardNow(given: unknown): void {
  if (isThenable(given)) Promise.resolve(given).then(undefined, () => {});
}

/** How many instances were created and dropped in this process (for tests and diagnostics). */
export const instanceCounts = { created: 0, dropped: 0 };

function pagesFor(memoryBytes: number): number {
  return Math.max(INITIAL_PAGES, Math.ceil((memoryBytes + HEADROOM_BYTES) / PAGE));
}

/**
 * Instances of one variant with capped memories, pooled per memory size. The compiled code is cached
 * by the engine (or given as `wasmModule`), so a new instance costs a few milliseconds; an idle one
 * costs nothing.
 */
class VariantSource implements InstanceSource {
  readonly capsMemory = true;
  readonly #variant: QuickJSSyncVariant;
  readonly #options: VariantOptions;
  readonly #idle = new Map<number, QuickJSInstance[]>();
  readonly #pages = new WeakMap<QuickJSInstance, number>();

  constructor(variant: QuickJSSyncVariant, options: VariantOptions) {
    this.#variant = variant;
    this.#options = options;
    heardNow(options.wasmModule);
  }

  async acquire(memoryBytes: number): Promise<QuickJSInstance> {
    const pages = pagesFor(memoryBytes);
    const idle = this.#idle.get(pages)?.pop();
    if (idle) return idle;
    const wasmModule = await this.#wasmModule();
    const wasm = (globalThis as unknown as { WebAssembly: WasmGlobal }).WebAssembly;
    const memory = new wasm.Memory({ initial: INITIAL_PAGES, maximum: pages });
    const customized = newVariant(this.#variant, {
      wasmMemory: memory as never,
      ...(wasmModule === undefined ? {} : { wasmModule: wasmModule as never }),
      ...(this.#options.wasmLocation === undefined
        ? {}
        : { wasmLocation: this.#options.wasmLocation }),
    });
    const module = await newQuickJSWASMModuleFromVariant(customized);
    const instance: QuickJSInstance = { module, memory, maxBytes: pages * PAGE, poisoned: false };
    this.#pages.set(instance, pages);
    instanceCounts.created++;
    return instance;
  }

  /**
   * The compiled module given as `wasmModule` (a promise of one, or a function that returns either),
   * awaited here rather than by quickjs-emscripten: its loader awaits it in a callback whose
   * rejection nobody hears, which left an unhandled rejection for every instance made. Here a
   * module that fails to load fails the acquire.
   */
  async #wasmModule(): Promise<unknown> {
    const given = this.#options.wasmModule;
    if (given === undefined) return undefined;
    const module = await (typeof given === "function" ? (given as () => unknown)() : given);
    if (!module) throw new Error(`wasmModule gave ${String(module)}, not a WebAssembly.Module`);
    return module;
  }

  release(instance: QuickJSInstance): void {
    const pages = this.#pages.get(instance);
    if (pages === undefined) return;
    if (instance.poisoned || (instance.memory?.buffer.byteLength ?? 0) > KEEP_BYTES) {
      instanceCounts.dropped++;
      return;
    }
    let idle = this.#idle.get(pages);
    if (!idle) {
      idle = [];
      this.#idle.set(pages, idle);
    }
    if (idle.length < MAX_IDLE) idle.push(instance);
  }
}

/** A module the application made: shared by every pass, memory limited only by QuickJS's own count. */
class InjectedSource implements InstanceSource {
  readonly capsMemory = false;
  readonly #module: QuickJSWASMModule | Promise<QuickJSWASMModule>;

  constructor(module: QuickJSWASMModule | Promise<QuickJSWASMModule>) {
    this.#module = module;
    heardNow(module);
  }

  async acquire(): Promise<QuickJSInstance> {
    return { module: await this.#module, memory: undefined, maxBytes: undefined, poisoned: false };
  }

  release(): void {}
}

const sources = new WeakMap<object, Map<string, VariantSource>>();

/**
 * The instance source for these options, shared by every executor that names the same code, so
 * executors created per request still find warm instances.
 */
export function instanceSource(
  options: VariantOptions & { module?: QuickJSWASMModule | Promise<QuickJSWASMModule> | undefined },
): InstanceSource {
  if (options.module !== undefined) return new InjectedSource(options.module);
  const variant = options.variant ?? (releaseSyncVariant as QuickJSSyncVariant);
  const key = (
    typeof options.wasmModule === "object" || typeof options.wasmModule === "function"
      ? options.wasmModule
      : variant
  ) as object;
  let byLocation = sources.get(key);
  if (!byLocation) {
    byLocation = new Map();
    sources.set(key, byLocation);
  }
  const location = options.wasmLocation ?? "";
  let source = byLocation.get(location);
  if (!source) {
    source = new VariantSource(variant, options);
    byLocation.set(location, source);
  }
  return source;
}
