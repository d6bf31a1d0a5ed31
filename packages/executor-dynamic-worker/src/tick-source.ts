/**
 * What the tick module tunes: how often it reads the clock and how often an async program yields.
 * Reading `Date.now()` costs about 0.1 µs in workerd and a tick about 2–3 ns, so the clock is read
 * once per `mostTicks` ticks at most; fewer when the code between ticks is slow, so that a reading
 * comes about every `sliceMs`.
 */
export const TICK_TUNING = {
  /** ticks between two readings of the clock when the code between ticks is fast */
  mostTicks: 1024,
  /** ticks before the first reading of a pass */
  firstTicks: 16,
  /** a reading comes about this often (ms) when the code between ticks is slow */
  sliceMs: 2,
  /** code in an async function yields to the event loop once this many ms have passed since the last yield */
  yieldMs: 25,
} as const;

/**
 * The tick module of a pass (`tick.js`), which the instrumented program imports (see
 * `instrumentProgram`). It exports three functions:
 *
 * - `tick()`, called at the start of every loop body and function body of the program: usually a
 *   counter decrement; every so often it reads the clock and throws once the deadline has passed.
 *   Once it has thrown, or the pass has ended, every later tick throws (sticky), so a program that
 *   catches the error cannot go on: its next iteration or next call throws again. It answers `true`
 *   when code in an async function should yield (`await pause()`) so the event loop can run.
 * - `pause()`: a promise settled by a macrotask (a timer), rejected once the ticks throw.
 * - `arm(timeoutMs)`: the harness's, called once per pass before any code of the pass runs; it
 *   starts the deadline and answers `{ expired, halt }` (whether the deadline has passed; make every
 *   later tick throw). Any later call throws, so a program that imports this module gains nothing.
 *
 * Built-ins are taken when the module is evaluated, which happens before any code of the pass runs
 * (the harness imports it statically), so a program that replaces `Date.now`, `Error` or
 * `setTimeout` changes nothing here. The module uses no property of a value the program could have
 * touched, calls nothing through `call`/`apply`, and throws errors it made before the program ran.
 */
export const TICK_SOURCE = `// built-ins, taken before any code of the pass runs
const clock = Date.now;
const ErrorType = Error;
const PromiseType = Promise;
const startTimer = setTimeout;
const define = Object.defineProperty;

const MOST_TICKS = ${TICK_TUNING.mostTicks};
const FIRST_TICKS = ${TICK_TUNING.firstTicks};
const SLICE_MS = ${TICK_TUNING.sliceMs};
const YIELD_MS = ${TICK_TUNING.yieldMs};

let armed = false;
let deadline = Infinity;
// set once a tick saw the deadline pass, or the pass ended: from then on every tick throws
let stopped = null;
let timedOut = false;
let budget = FIRST_TICKS;
let every = FIRST_TICKS;
let lastCheck = 0;
let lastYield = 0;
let timeoutFailure = null;
let endedFailure = null;

function failure(message) {
  const error = new ErrorType(message);
  define(error, "name", { value: "TimeoutError", writable: true, configurable: true });
  return error;
}

function check() {
  if (stopped !== null) throw stopped;
  const now = clock();
  if (now >= deadline) {
    timedOut = true;
    stopped = timeoutFailure;
    budget = 0;
    throw stopped;
  }
  const spent = now - lastCheck;
  lastCheck = now;
  if (spent > SLICE_MS) every = (every * SLICE_MS / spent) | 0 || 1;
  else if (every < MOST_TICKS) every = every * 2 > MOST_TICKS ? MOST_TICKS : every * 2;
  budget = every;
  return now - lastYield >= YIELD_MS;
}

export function tick() {
  if (--budget > 0) return false;
  return check();
}

export function pause() {
  return new PromiseType((resolve, reject) => {
    startTimer(() => {
      const now = clock();
      lastYield = now;
      lastCheck = now;
      if (stopped !== null) reject(stopped);
      else resolve();
    }, 0);
  });
}

export function arm(timeoutMs) {
  if (armed) throw new ErrorType("The deadline of this pass is set already.");
  armed = true;
  timeoutFailure = failure("The code ran longer than " + timeoutMs + " ms and was stopped.");
  endedFailure = failure("The run has ended; this code was stopped.");
  const now = clock();
  deadline = now + timeoutMs;
  lastCheck = now;
  lastYield = now;
  return {
    expired: () => timedOut || (stopped === null && clock() >= deadline),
    halt: () => {
      if (stopped === null) stopped = endedFailure;
      budget = 0;
    },
  };
}
`;
