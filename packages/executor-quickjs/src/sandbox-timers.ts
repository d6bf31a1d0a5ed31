// `setTimeout` / `clearTimeout` of a sandbox that was granted timers: host timers, each holding the
// callback and its arguments as handles until it fires, is cleared, or the pass ends.
import { hostTimers, type TimerHandle } from "@codemode/executor-kit";
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { errorsCall } from "./errors-part.ts";
import type { Sandbox } from "./sandbox.ts";

const MAX_TIMERS = 1_000;
const MAX_TIMER_DELAY = 2 ** 31 - 1;

/** A pending `setTimeout` of the sandbox: the host timer, the callback and its arguments. */
export interface SandboxTimer {
  handle: TimerHandle;
  callback: QuickJSHandle;
  args: QuickJSHandle[];
}

/** The pending timers of one pass. `fire` runs when a host timer fires (the pass calls back). */
export class SandboxTimers {
  readonly #timers = new Map<number, SandboxTimer>();
  readonly #fire: (id: number) => void;
  #nextTimer = 1;

  constructor(fire: (id: number) => void) {
    this.#fire = fire;
  }

  get size(): number {
    return this.#timers.size;
  }

  /** `setTimeout(callback, delay, ...args)`: no host timer once the pass is `closed`. */
  set(
    sandbox: Sandbox,
    callback: QuickJSHandle | undefined,
    delay: QuickJSHandle | undefined,
    args: QuickJSHandle[],
    closed: boolean,
  ): QuickJSHandle {
    const { context } = sandbox;
    if (!callback || context.typeof(callback) !== "function") {
      throw errorsCall(sandbox, "fail", [
        "TypeError",
        "setTimeout needs a function as its first argument.",
        "",
      ]);
    }
    let ms = 0;
    if (delay && context.typeof(delay) !== "undefined") {
      // the sandbox's own Number(): whatever `valueOf` the program gave runs in the sandbox
      const number = sandbox.call(sandbox.intrinsic("Number"), context.undefined, delay);
      ms = Math.max(context.typeof(number) === "number" ? context.getNumber(number) || 0 : 0, 0);
      number.dispose();
    }
    const id = this.#nextTimer++;
    if (closed) return context.newNumber(id);
    if (this.#timers.size >= MAX_TIMERS) {
      throw new Error(`Too many pending timers (at most ${MAX_TIMERS}).`);
    }
    const handle = hostTimers.setTimeout(() => this.#fire(id), Math.min(ms, MAX_TIMER_DELAY));
    this.#timers.set(id, { handle, callback: callback.dup(), args: args.map((arg) => arg.dup()) });
    return context.newNumber(id);
  }

  /** `clearTimeout(id)`. */
  clear(context: QuickJSContext, id: QuickJSHandle | undefined): void {
    if (!id || context.typeof(id) !== "number") return;
    const key = context.getNumber(id);
    const timer = this.#timers.get(key);
    if (!timer) return;
    hostTimers.clearTimeout(timer.handle);
    this.#timers.delete(key);
    disposeTimer(timer);
  }

  /** The timer that fired, no longer pending; the caller disposes it. */
  take(id: number): SandboxTimer | undefined {
    const timer = this.#timers.get(id);
    this.#timers.delete(id);
    return timer;
  }

  /** The end of the pass: no host timer fires any more (the handles stay until `dispose`). */
  cancel(): void {
    for (const timer of this.#timers.values()) hostTimers.clearTimeout(timer.handle);
  }

  dispose(): void {
    for (const timer of this.#timers.values()) disposeTimer(timer);
    this.#timers.clear();
  }
}

export function disposeTimer(timer: SandboxTimer): void {
  if (timer.callback.alive) timer.callback.dispose();
  for (const arg of timer.args) if (arg.alive) arg.dispose();
}
