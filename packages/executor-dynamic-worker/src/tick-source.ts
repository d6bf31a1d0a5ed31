import { sandboxSource } from "@codemode/executor-kit";

/**
 * What the tick module tunes: how often the program's ticks read the clock and how often an async
 * program yields. Reading `Date.now()` costs about 0.1 µs in workerd and a tick under 1 ns, so the
 * clock is read once per `mostTicks` ticks at most; fewer when the code between ticks is slow, so
 * that a reading comes about every `sliceMs`.
 *
 * Where async code yields is a count of its ticks, never the clock: a yield lets the rest of the
 * turn run first (the caller of an async function the tick is in, other promise jobs), so it decides
 * in which order the program makes its calls, and a replay must make them in the order the live pass
 * did, whatever the machine's load. Counted, the same program yields at the same ticks on every pass.
 */
export const TICK_TUNING = {
  /** ticks between two readings of the clock when the code between ticks is fast */
  mostTicks: 1024,
  /** ticks between the first readings of a pass */
  firstTicks: 16,
  /** a reading comes about this often (ms) when the code between ticks is slow */
  sliceMs: 2,
  /**
   * code in an async function yields to the event loop at every this many ticks of async code
   * (about 25 ms of a tight async loop, whose tick keeps its numbers boxed: about 12 ns an iteration)
   */
  yieldTicks: 2 ** 21,
} as const;

/** What `arm` answers the harness: the pass's deadline, as the harness watches it. */
export interface ArmedDeadline {
  /** whether the deadline has passed and the pass has not ended yet */
  expired(): boolean;
  /** ends the pass for the ticks: every later tick throws */
  halt(): void;
  /** whether a `pause()` has not resumed yet (the program is yielding, not idle) */
  yielding(): boolean;
}

/** What the tick module exports (`instrumentProgram` imports all but `arm`, which is the harness's). */
export interface TickModule {
  stopped: Error;
  tick(): number;
  tickAsync(): number;
  pause(): Promise<void>;
  stop(): never;
  importable(specifier: unknown): string;
  arm(timeoutMs: number, allowed: readonly string[]): ArmedDeadline;
}

/**
 * The tick module of a pass (`tick.js`), which the instrumented program imports (see
 * `instrumentProgram`): runs INSIDE the loaded worker, where `TICK_SOURCE` calls it once when the
 * module is evaluated and exports what it answers. It must stay self-contained (no imports, no
 * references outside its body) and plain JavaScript once types are stripped. The program keeps two
 * countdowns of its own, module variables it cannot name, one for the ticks of synchronous code and
 * one for those of async code: each tick (at the start of every loop body and function body)
 * decrements its own, and when it runs out calls one of these, which read the clock and answer how
 * many ticks to count down until the next reading, or a negative number:
 *
 * - `tick()`: -2 once the deadline has passed or the pass has ended; the program then throws
 *   `stopped`. The countdown stays run out, so from then on every tick throws (sticky): a program
 *   that catches the error cannot go on, its next iteration or next call throws again.
 * - `tickAsync()`: the same, for code in an async function; -1 when that code should yield
 *   (`await pause()`) so the event loop can run: at every `yieldTicks`-th tick of async code, and
 *   at no other. It knows exactly how many async ticks ran since its last call (the countdown it
 *   answered, plus one), and answers no countdown that runs past the next yield: where the program
 *   yields is a function of what it ran, the same on every pass, whatever the clock read (a yield
 *   by the clock came, on a loaded machine, between two calls in one pass and not in the next,
 *   and the replay made its calls in another order).
 * - `pause()`: a promise settled by a macrotask (a timer); rejected with `stopped` once the ticks
 *   answer -2. `stop()` throws `stopped` (for arrows with an expression body).
 * - `importable(specifier)`: every `import()` of the program goes through it; it answers the
 *   specifier when it is a string the host let the program import, and throws otherwise (so the
 *   program reaches neither `cloudflare:workers`, whose `env` holds the worker's bindings, nor the
 *   host's `modules`, nor this module, unless the host named them).
 * - `arm(timeoutMs, imports)`: the harness's, called once per pass before any code of the pass runs;
 *   it starts the deadline, sets the specifiers `importable` lets through, and answers
 *   `{ expired, halt, yielding }` (whether the deadline has passed; make every later tick answer -2;
 *   whether a `pause()` has not resumed yet, so the program is yielding, not idle). Any later call
 *   throws, so a program that imports this module gains nothing.
 *
 * Built-ins are taken when the module is evaluated, which happens before any code of the pass runs
 * (the harness imports it statically), so a program that replaces `Date.now`, `Error` or
 * `setTimeout` changes nothing here; `stopped` is frozen before the program runs. The module uses no
 * property of a value the program could have touched and calls nothing through `call`/`apply`.
 *
 * `tick` and `tickAsync` are small on purpose: V8 inlines them into the program's loops. They store
 * only numbers, and nothing in a branch: a store or a call in a rarely taken branch of an inlined tick
 * made V8 keep a loop's numbers boxed, five times slower per iteration.
 */
export function tickModule(tuning: typeof TICK_TUNING): TickModule {
  // built-ins, taken before any code of the pass runs
  const scope = globalThis as unknown as {
    setTimeout(callback: () => void, ms: number): unknown;
  };
  const clock = Date.now;
  const ErrorType = Error;
  const TypeErrorType = TypeError;
  const PromiseType = Promise;
  const startTimer = scope.setTimeout;
  const define = Object.defineProperty;
  const freeze = Object.freeze;
  const quote = JSON.stringify;

  const MOST_TICKS = tuning.mostTicks;
  const SLICE_MS = tuning.sliceMs;
  const YIELD_TICKS = tuning.yieldTicks;

  // One object of numbers (own properties, made before the program runs), read and written by the
  // ticks inlined in the program's loops.
  const state = {
    armed: 0,
    // 1 once the pass has ended; the deadline has passed when the clock says so
    ended: 0,
    deadline: Infinity,
    // ticks of synchronous code the program counts down before it calls again
    every: tuning.firstTicks as number,
    lastCheck: 0,
    // the same for async code, which counts down on its own
    everyAsync: tuning.firstTicks as number,
    lastCheckAsync: 0,
    // async ticks since the last yield, as of the last call of tickAsync, and the countdown it answered
    asyncTicks: 0,
    asyncAnswered: 0,
    // pauses whose timer has not fired yet: the program is not idle, only yielding
    pausing: 0,
  };

  // the specifiers the program may import (own properties of an object without a prototype)
  const imports = { __proto__: null } as unknown as Record<string, true | undefined>;

  const stopped = new ErrorType("The code was stopped.");
  define(stopped, "name", { value: "TimeoutError", writable: true, configurable: true });

  // fewer ticks between readings when the code between ticks is slow, more when it is fast
  function rate(spent: number, every: number): number {
    return spent > SLICE_MS
      ? ((every * SLICE_MS) / spent) | 0 || 1
      : // biome-ignore lint/complexity/useMathMinMax: Math is the program's to replace
        every * 2 > MOST_TICKS
        ? MOST_TICKS
        : every * 2;
  }

  function tick(): number {
    if (state.ended !== 0) return -2;
    const now = clock();
    if (now >= state.deadline) return -2;
    const next = rate(now - state.lastCheck, state.every);
    state.lastCheck = now;
    state.every = next;
    return next;
  }

  function tickAsync(): number {
    // this call's tick is the one after the countdown answered last ran out (-1 counts down to -2
    // at the next tick: one tick)
    const answered = state.asyncAnswered;
    // biome-ignore lint/complexity/useMathMinMax: Math is the program's to replace
    const ticks = state.asyncTicks + (answered > 0 ? answered : 0) + 1;
    if (state.ended !== 0) return -2;
    const now = clock();
    if (now >= state.deadline) return -2;
    const next = rate(now - state.lastCheckAsync, state.everyAsync);
    state.lastCheckAsync = now;
    state.everyAsync = next;
    const left = YIELD_TICKS - ticks;
    // the yield's tick: the count starts again (the countdown of -1 answered runs out at the next tick)
    const answer = left > 0 ? (next < left ? next : left - 1) : -1;
    state.asyncTicks = left > 0 ? ticks : 0;
    state.asyncAnswered = answer;
    return answer;
  }

  function over(): boolean {
    return state.ended !== 0 || clock() >= state.deadline;
  }

  function stop(): never {
    throw stopped;
  }

  function pause(): Promise<void> {
    if (over()) return new PromiseType<void>((_resolve, reject) => reject(stopped));
    state.pausing++;
    return new PromiseType<void>((resolve, reject) => {
      startTimer(() => {
        state.pausing--;
        // the time the program spent paused is not the time its code between ticks took
        state.lastCheckAsync = clock();
        if (over()) reject(stopped);
        else resolve();
      }, 0);
    });
  }

  function importable(specifier: unknown): string {
    if (typeof specifier === "string" && imports[specifier] === true) return specifier;
    throw new TypeErrorType(
      `The code may not import ${typeof specifier === "string" ? quote(specifier) : "that"}: it has only the namespaces it was given.`,
    );
  }

  function arm(timeoutMs: number, allowed: readonly string[]): ArmedDeadline {
    if (state.armed !== 0) throw new ErrorType("The deadline of this pass is set already.");
    state.armed = 1;
    for (let index = 0; index < allowed.length; index++) imports[allowed[index] as string] = true;
    define(stopped, "message", {
      value: `The code was stopped: it ran longer than ${timeoutMs} ms, or its run had ended.`,
      writable: true,
      configurable: true,
    });
    freeze(stopped);
    const now = clock();
    state.deadline = now + timeoutMs;
    state.lastCheck = now;
    state.lastCheckAsync = now;
    return {
      expired: () => state.ended === 0 && clock() >= state.deadline,
      halt: () => {
        state.ended = 1;
      },
      yielding: () => state.pausing > 0,
    };
  }

  return { stopped, tick, tickAsync, pause, stop, importable, arm };
}

/**
 * The tick module's text: `tickModule` as source, called once with the tuning when the module is
 * evaluated, and its members exported under the names the instrumented program and the harness import.
 */
export const TICK_SOURCE = `const ticks = (${sandboxSource(tickModule)})(${JSON.stringify(TICK_TUNING)});
export const { stopped, tick, tickAsync, pause, stop, importable, arm } = ticks;
`;
