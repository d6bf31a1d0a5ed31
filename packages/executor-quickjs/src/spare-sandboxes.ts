import { hostTimers, type TimerHandle } from "@codemode/executor-kit";
import { Sandbox } from "./sandbox.ts";
import type { InstanceSource, QuickJSInstance } from "./wasm-instances.ts";

/** A spare sandbox nobody takes is freed after this long. */
const SPARE_IDLE_MS = 30_000;

/**
 * A sandbox made ahead of a pass: a fresh runtime and context on a WebAssembly instance of its own,
 * with the built-ins captured and the value encoder compiled (most passes send or return an object).
 * Nothing else ran in it, and it serves exactly one pass, which sets its own limits and installs its
 * own globals.
 */
export type Spare = Sandbox;

/** A host timer that does not keep Node's process alive (workerd and browsers have no `unref`). */
function backgroundTimer(callback: () => void, ms: number): TimerHandle {
  const handle = hostTimers.setTimeout(callback, ms);
  const unref = (handle as { unref?: unknown } | null)?.unref;
  if (typeof unref === "function") unref.call(handle);
  return handle;
}

/**
 * The background work of the passes on one instance source, shared by every executor that uses it (so
 * executors made per request share it too), done on a timer soon after a pass returns so the caller
 * gets its result first: freeing the finished pass's runtime and context, then making at most one
 * spare sandbox, on an instance for that pass's memory limit. A pass with the same memory limit takes
 * the spare; a pass that finds none first frees what is still waiting, so its instance is back in the
 * pool.
 */
export class SpareSandboxes {
  /** how many spares were made, taken by a pass and freed unused (for tests and diagnostics) */
  readonly counts = { made: 0, taken: 0, freed: 0 };
  readonly #source: InstanceSource;
  #spare: { spare: Spare; memoryBytes: number; expiry: TimerHandle } | undefined;
  /** finished passes whose runtime, context and instance are still to be freed and released */
  readonly #cleanups: (() => void)[] = [];
  #timer: TimerHandle | undefined;
  /** the limits of the pass that ended last: the next spare is made for them */
  #next = { memoryBytes: 0, stackBytes: 0 };
  /** an instance for a spare is being acquired */
  #making = false;
  /** bumped by `dispose()`: a spare whose making started before it is freed at once */
  #generation = 0;

  constructor(source: InstanceSource) {
    this.#source = source;
  }

  /** whether a spare is ready (for tests and diagnostics) */
  get ready(): boolean {
    return this.#spare !== undefined;
  }

  /** The spare for a pass with this memory limit, which then owns it; undefined if there is none. */
  take(memoryBytes: number): Spare | undefined {
    const ready = this.#spare;
    if (!ready || ready.memoryBytes !== memoryBytes) return undefined;
    this.#spare = undefined;
    hostTimers.clearTimeout(ready.expiry);
    this.counts.taken++;
    return ready.spare;
  }

  /**
   * A pass ended: `cleanup` (freeing its runtime and context and releasing its instance) runs soon,
   * then a spare is made for these limits unless one exists (one with another memory limit stays
   * until it expires).
   */
  afterPass(cleanup: (() => void) | undefined, memoryBytes: number, stackBytes: number): void {
    if (cleanup) this.#cleanups.push(cleanup);
    this.#next = { memoryBytes, stackBytes };
    if (this.#timer !== undefined) return;
    this.#timer = backgroundTimer(() => {
      this.#timer = undefined;
      this.flush();
      if (!this.#spare && !this.#making)
        void this.#make(this.#next.memoryBytes, this.#next.stackBytes);
    }, 0);
  }

  /** Frees the finished passes now (a pass that found no spare needs their instances in the pool). */
  flush(): void {
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
  }

  /** Frees the spare and what finished passes left, and stops a spare being made. */
  dispose(): void {
    this.#generation++;
    this.#making = false;
    if (this.#timer !== undefined) hostTimers.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.flush();
    const ready = this.#spare;
    this.#spare = undefined;
    if (ready) {
      hostTimers.clearTimeout(ready.expiry);
      this.#free(ready.spare);
    }
  }

  async #make(memoryBytes: number, stackBytes: number): Promise<void> {
    const generation = this.#generation;
    this.#making = true;
    let instance: QuickJSInstance;
    try {
      instance = await this.#source.acquire(memoryBytes);
    } catch {
      if (generation === this.#generation) this.#making = false;
      return;
    }
    if (generation !== this.#generation) {
      // disposed meanwhile
      this.#source.release(instance);
      return;
    }
    this.#making = false;
    const spare = build(instance, stackBytes);
    if (!spare) {
      this.#source.release(instance);
      return;
    }
    this.counts.made++;
    // an executor nobody uses any more does not keep an instance forever
    const expiry = backgroundTimer(() => {
      if (this.#spare?.spare !== spare) return;
      this.#spare = undefined;
      this.#free(spare);
    }, SPARE_IDLE_MS);
    this.#spare = { spare, memoryBytes, expiry };
  }

  #free(spare: Spare): void {
    this.counts.freed++;
    try {
      spare.dispose();
    } catch {
      spare.instance.poisoned = true;
    }
    this.#source.release(spare.instance);
  }
}

/** A fresh sandbox with the encoder compiled; undefined if that failed (the instance is then dropped). */
function build(instance: QuickJSInstance, stackBytes: number): Spare | undefined {
  try {
    const sandbox = Sandbox.create(instance, stackBytes);
    sandbox.part("encoder");
    return sandbox;
  } catch {
    // a host exception unwound through the instance's WebAssembly frames, or QuickJS failed
    instance.poisoned = true;
    return undefined;
  }
}

const shared = new WeakMap<InstanceSource, SpareSandboxes>();

/** The spare sandboxes of an instance source, shared by every executor that uses it. */
export function spareSandboxes(source: InstanceSource): SpareSandboxes {
  let spares = shared.get(source);
  if (!spares) {
    spares = new SpareSandboxes(source);
    shared.set(source, spares);
  }
  return spares;
}
