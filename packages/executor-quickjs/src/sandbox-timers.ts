// `setTimeout` / `clearTimeout` of a sandbox that was granted timers. A timer is an event of the
// program like a call's reply, and it fires at the same point live and on replay: only once the
// program is idle and waits on no host call, the earliest first by a clock of its own (each timer's
// due time is that clock at `setTimeout` plus its delay, and the clock moves to a timer's due time
// when it fires), and not before its delay has passed in real time. So a timer never races a call
// (`Promise.race` of a call and a timer settles with the call), and a pass that replays recorded
// answers meets its timers in the same order as the pass that recorded them.
import { hostTimers, type TimerHandle } from "@codemode/executor-kit";
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { errorsCall } from "./errors-part.ts";
import type { Sandbox } from "./sandbox.ts";

const MAX_TIMERS = 1_000;
const MAX_TIMER_DELAY = 2 ** 31 - 1;

/** A pending `setTimeout` of the sandbox: when it is due, the callback and its arguments. */
export interface SandboxTimer {
  id: number;
  /** on the timers' own clock */
  due: number;
  /** by the host's clock: it fires no earlier */
  notBefore: number;
  callback: QuickJSHandle;
  args: QuickJSHandle[];
}

/** The pending timers of one pass. `fire` runs when the armed timer fires (the pass calls back). */
export class SandboxTimers {
  readonly #timers = new Map<number, SandboxTimer>();
  readonly #fire: (id: number) => void;
  readonly #now: () => number;
  #nextTimer = 1;
  /** the timers' clock: the due time of the last timer that fired */
  #clock = 0;
  #armed: { id: number; handle: TimerHandle } | undefined;

  constructor(fire: (id: number) => void, now: () => number = Date.now) {
    this.#fire = fire;
    this.#now = now;
  }

  get size(): number {
    return this.#timers.size;
  }

  /** `setTimeout(callback, delay, ...args)`: nothing is kept once the pass is `closed`. */
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
    ms = Math.min(ms, MAX_TIMER_DELAY);
    const id = this.#nextTimer++;
    if (closed) return context.newNumber(id);
    if (this.#timers.size >= MAX_TIMERS) {
      throw new Error(`Too many pending timers (at most ${MAX_TIMERS}).`);
    }
    this.#timers.set(id, {
      id,
      due: this.#clock + ms,
      notBefore: this.#now() + ms,
      callback: callback.dup(),
      args: args.map((arg) => arg.dup()),
    });
    return context.newNumber(id);
  }

  /** `clearTimeout(id)`. */
  clear(context: QuickJSContext, id: QuickJSHandle | undefined): void {
    if (!id || context.typeof(id) !== "number") return;
    const key = context.getNumber(id);
    const timer = this.#timers.get(key);
    if (!timer) return;
    if (this.#armed?.id === key) this.#disarm();
    this.#timers.delete(key);
    disposeTimer(timer);
  }

  /**
   * The program is idle and waits on no host call: the next timer (earliest due, then first set) is
   * armed to fire once its delay has passed in real time. Nothing else can happen to the program
   * before it fires, so one armed timer at a time is enough.
   */
  armNext(): void {
    if (this.#armed) return;
    let next: SandboxTimer | undefined;
    for (const timer of this.#timers.values()) {
      if (!next || timer.due < next.due) next = timer;
    }
    if (!next) return;
    const { id } = next;
    const wait = Math.max(0, next.notBefore - this.#now());
    this.#armed = { id, handle: hostTimers.setTimeout(() => this.#fire(id), wait) };
  }

  /** The timer that fired, no longer pending (the caller disposes it); the clock moves to its due time. */
  take(id: number): SandboxTimer | undefined {
    if (this.#armed?.id === id) this.#armed = undefined;
    const timer = this.#timers.get(id);
    this.#timers.delete(id);
    if (timer && timer.due > this.#clock) this.#clock = timer.due;
    return timer;
  }

  /** The end of the pass: no timer fires any more (the handles stay until `dispose`). */
  cancel(): void {
    this.#disarm();
  }

  dispose(): void {
    this.#disarm();
    for (const timer of this.#timers.values()) disposeTimer(timer);
    this.#timers.clear();
  }

  #disarm(): void {
    if (this.#armed) hostTimers.clearTimeout(this.#armed.handle);
    this.#armed = undefined;
  }
}

export function disposeTimer(timer: SandboxTimer): void {
  if (timer.callback.alive) timer.callback.dispose();
  for (const arg of timer.args) if (arg.alive) arg.dispose();
}
