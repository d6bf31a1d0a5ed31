import type { sandboxEncoder } from "./sandbox-encoder.ts";
import type { sandboxErrors } from "./sandbox-parts.ts";
import type { SandboxRenderer } from "./sandbox-renderer.ts";
import type { sandboxTaggedWriter } from "./sandbox-tagged-writer.ts";
import type { HostReply, OkOutcome, ThrownOutcome, UnserializableOutcome } from "./sandbox-wire.ts";

/** The value codec's shape, as the sandbox sees it. */
interface SandboxCodec {
  encode(value: unknown): string;
  decode(text: string): unknown;
}

/** What the host tells the bootstrap (passed as JSON text). */
export interface BootstrapSpec {
  /** namespace name → its host method names */
  namespaces: Record<string, string[]>;
  /**
   * whether the sandbox's own `setTimeout` / `setInterval` (and their `clear…`) become events of the
   * program (needs `hostIdle`): a timer fires only once the program waits on no call (nor on host
   * work it waits for through `SandboxApi.wait`), the earliest
   * due first by a clock of the timers' own, and not before its delay has passed, so it fires at the
   * same point live and on replay
   */
  timers: boolean;
  /** a rendered console line is cut at this many characters */
  maxLineChars: number;
}

/** What the bootstrap hands back to the host. */
export interface SandboxApi {
  /** calls the program and reports how it ended through `settle` */
  run(program: unknown): void;
  /** a reason the configuration cannot work (a namespace shadows a built-in), or "" */
  problem: string;
  /** the value codec the namespaces use, for values the sandbox's own host code moves */
  encode(value: unknown): string;
  decode(text: string): unknown;
  /**
   * Host work of the program's that is not a namespace call (a saved program run in a sandbox of its
   * own, an outbound request), waited for as a call is: `start` is handed `done`, which the host
   * calls once the work has ended (`atIdle` as in `hostCall`'s `answer`; later calls count for
   * nothing). It takes a reply slot after the calls made before it: it resolves (with nothing) in
   * its turn, once the program is idle, and no timer fires while it waits, so the program goes on
   * at the same point whether the work took a second (live) or no time (a replay).
   */
  wait(start: (done: (atIdle?: boolean) => void) => void): Promise<void>;
}

/**
 * Runs INSIDE the sandbox: the host evaluates this function's source text there and calls it once per
 * pass with its host functions, the spec and the parts it is made of. It must stay self-contained (no imports, no references
 * outside its body) and plain JavaScript once types are stripped.
 *
 * It installs `console`, one global per namespace (a Proxy that names the available methods when the
 * code asks for one that does not exist), optionally timers that are events of the program, and returns `run`. The
 * host functions stay in this closure: the program, evaluated at global scope, cannot see them.
 * The value codec and the console renderer are compiled on first use; plain JSON replies and
 * primitive results do not need the codec (its encoding of them is plain JSON too).
 *
 * Host protocol (sandbox-wire.ts): `hostCall(namespace, method, encodedInput, answer)` answers the
 * call once with its `HostReply` through `answer` (at once, or later), `["ok", encodedResult]` or
 * `["error", name, message, code, data]`; `hostSettle(outcome)` ends the pass with an `OkOutcome`
 * (the encoded result), or a `ThrownOutcome` or `UnserializableOutcome` (name, message, stack, code,
 * and for `thrown` the `[namespace, method]` JSON of an unknown method, see `thrownError`). Replies
 * are read by index only and never settle a promise (a promise settled with an array looks up `then`
 * on it, which a program can put on `Array.prototype`), and outcomes are made as array literals: no
 * accessor or method a program put on a prototype is reached.
 */
export function sandboxBootstrap(
  hostCall: (
    namespace: string,
    method: string,
    input: string,
    /**
     * `atIdle`: the host answers from a task of its own in which nothing of the program has run
     * (a reply that just arrived, not one given at once): the reply may then reach the program at
     * once if it is its turn, saving a task
     */
    answer: (reply: HostReply, atIdle?: boolean) => void,
  ) => void,
  hostLog: (line: string) => void,
  hostSettle: (outcome: OkOutcome | ThrownOutcome | UnserializableOutcome) => void,
  /**
   * Runs a callback in a task of its own, once the sandbox's microtasks have all run (a macrotask
   * the program cannot reach or delay). Given, every reply reaches the program through it: in the
   * order the calls were made, one at a time, each once the program is idle. A reply `hostCall`
   * gives at once (a replayed answer) then resumes the program at the same point as one that took a
   * round trip. Null: each reply settles the call when it comes (the host delivers them that way).
   */
  hostIdle: ((callback: () => void) => void) | null,
  /**
   * `"codec"` (`createValueCodec`) or `"renderer"` (`createRenderer`), asked for on first use: the
   * factory itself, or its source text, which is then compiled with an indirect `eval` (so a pass that
   * never needs it does not pay for it; a sandbox that forbids `eval` hands over the factory)
   */
  hostHelper: (name: "codec" | "renderer") => string | ((...args: never[]) => unknown),
  specText: string,
  /** `sandboxEncoder` of this package, pasted into the sandbox beside the bootstrap */
  createEncoder: typeof sandboxEncoder,
  /** `sandboxErrors` of this package, pasted the same way */
  createErrors: typeof sandboxErrors,
  /** `sandboxTaggedWriter` of this package, pasted the same way */
  createTagged: typeof sandboxTaggedWriter,
): SandboxApi {
  const spec = JSON.parse(specText) as BootstrapSpec;
  const global = globalThis as unknown as Record<string, unknown>;
  // An indirect eval evaluates at global scope: the compiled helpers see none of this closure.
  const evaluate = global.eval as (source: string) => unknown;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const keysOf = Object.keys;
  const define = Object.defineProperty;
  const then = Promise.prototype.then;
  const resolved = Promise.resolve.bind(Promise);
  const rejected = Promise.reject.bind(Promise);
  const ErrorType = Error;
  const TypeErrorType = TypeError;
  const RangeErrorType = RangeError;
  const ProxyType = Proxy;
  const PromiseType = Promise;

  function helper(name: "codec" | "renderer"): unknown {
    const found = hostHelper(name);
    return typeof found === "string" ? evaluate(found) : found;
  }
  let codecInstance: SandboxCodec | undefined;
  let rendererInstance: SandboxRenderer | undefined;
  function codec(): SandboxCodec {
    if (!codecInstance) codecInstance = (helper("codec") as () => SandboxCodec)();
    return codecInstance;
  }
  function renderer(): SandboxRenderer {
    if (!rendererInstance) {
      rendererInstance = (helper("renderer") as (max: number) => SandboxRenderer)(
        spec.maxLineChars,
      );
    }
    return rendererInstance;
  }
  // the encoder takes its built-ins now, before any code of the pass runs
  const builtin = (path: string): unknown => {
    let found: unknown = global;
    const names = path.split(".");
    for (let index = 0; index < names.length; index++) {
      found = (found as Record<string, unknown>)[names[index] as string];
    }
    return found;
  };
  const tagged = createTagged(builtin);
  const encode = createEncoder(builtin, () => tagged);
  function decode(text: string): unknown {
    // Tagged values always carry the key "$codemode"; without it the text is plain JSON.
    return text.includes('"$codemode"') ? codec().decode(text) : parse(text);
  }

  const { describe, fail, inputError, unknownMethod } = createErrors(
    (name) => (name === "codec" ? codec() : renderer()),
    ErrorType,
    TypeErrorType,
    keysOf,
    (namespace, method) => stringify([namespace, method]),
  );

  // ---- console -----------------------------------------------------------------------------------

  const consoleObject: Record<string, unknown> = {};
  const levels: [string, string][] = [
    ["log", ""],
    ["info", ""],
    ["warn", "[warn] "],
    ["error", "[error] "],
    ["debug", "[debug] "],
  ];
  for (const [level, prefix] of levels) {
    define(consoleObject, level, {
      value: (...args: unknown[]) => {
        hostLog(renderer().line(prefix, args));
      },
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }

  // ---- replies, one at a time at idle (when the host gives `hostIdle`) ---------------------------

  /** A call's reply slot, in call order; object literals only, so no prototype setter is reached. */
  interface Slot {
    ready: boolean;
    /** hands the reply over to the call */
    settle: () => void;
    next: Slot | null;
  }
  let firstSlot: Slot | null = null;
  let lastSlot: Slot | null = null;
  let waking = false;
  // a reply was handed over at once in this task: the next one waits for a task of its own
  let direct = false;
  function wake(): void {
    if (!waking && firstSlot !== null && firstSlot.ready && hostIdle !== null) {
      waking = true;
      hostIdle(deliver);
    }
  }
  function deliver(): void {
    waking = false;
    const slot = firstSlot;
    if (slot === null || !slot.ready) return;
    firstSlot = slot.next;
    if (firstSlot === null) lastSlot = null;
    slot.settle();
    wake();
    // no call left waiting: a timer may be next
    if (firstSlot === null) considerTimers();
  }
  /**
   * A slot for the reply of one call, after the slots of the calls made before it: `settle` runs in
   * its turn, once the function answered is called (the reply came).
   */
  function inTurn(settle: () => void): (atIdle: boolean) => void {
    const slot: Slot = { ready: false, settle, next: null };
    if (lastSlot === null) firstSlot = slot;
    else lastSlot.next = slot;
    lastSlot = slot;
    return (atIdle) => {
      slot.ready = true;
      // its turn, and the program idle in a task of the reply's own: handed over now
      if (atIdle && !direct && !waking && firstSlot === slot && hostIdle !== null) {
        direct = true;
        hostIdle(() => {
          direct = false;
        });
        deliver();
        return;
      }
      wake();
    };
  }

  /**
   * Settles (with nothing) once `start`'s work has called `done`: then, or (with `hostIdle`) in its
   * turn among the calls' replies. The first `done` counts.
   */
  function wait(start: (done: (atIdle?: boolean) => void) => void): Promise<void> {
    let ended = false;
    let ready: ((atIdle: boolean) => void) | undefined;
    start((atIdle) => {
      if (ended) return;
      ended = true;
      if (ready !== undefined) ready(atIdle === true);
    });
    return new PromiseType<void>((resolve) => {
      const take = hostIdle === null ? () => resolve() : inTurn(resolve);
      ready = take;
      // done at once (a replayed answer): the program is running, not idle
      if (ended) take(false);
    });
  }

  // ---- namespaces --------------------------------------------------------------------------------

  // set once the program's promise settled: what runs after (a getter on the returned value read
  // while it is encoded, a timer) calls no host method
  let returned = false;
  async function invoke(namespace: string, method: string, input: unknown): Promise<unknown> {
    if (returned) {
      throw fail(
        "Error",
        `The code has returned; ${namespace}.${method} was not called. Await every call before returning.`,
        "ABORTED",
      );
    }
    let text: string;
    try {
      text = encode(input);
    } catch (error) {
      throw inputError(namespace, method, error);
    }
    // The reply is kept here, and the promise awaited settles with nothing (no `then` is looked up
    // on the reply). The first answer counts.
    let reply: HostReply | undefined;
    await wait((done) =>
      hostCall(namespace, method, text, (answer, atIdle) => {
        if (reply !== undefined) return;
        reply = answer;
        done(atIdle);
      }),
    );
    const given = reply as unknown as HostReply;
    if (given[0] === "ok") return decode(given[1]);
    // ["error", name, message, code, data]: "" for a code or data the error does not have
    const data = given[4] !== "" ? decode(given[4]) : undefined;
    throw fail(given[1], given[2], given[3], data);
  }

  let problem = "";
  const reserved = ["console", "setTimeout", "clearTimeout", "setInterval", "clearInterval"];
  for (const namespace of keysOf(spec.namespaces)) {
    if (namespace in global || reserved.includes(namespace)) {
      problem = `The namespace "${namespace}" would hide the sandbox's built-in global of that name; rename it.`;
      break;
    }
    const target: Record<string, unknown> = {};
    for (const method of spec.namespaces[namespace] ?? []) {
      // a computed key names the function after the method
      const named = { [method]: (input: unknown) => invoke(namespace, method, input) };
      define(target, method, {
        value: named[method],
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    const proxy = new ProxyType(target, {
      get(object, key, receiver) {
        if (typeof key === "symbol" || key in object || key === "then" || key === "toJSON") {
          return Reflect.get(object, key, receiver);
        }
        throw unknownMethod(namespace, key, object);
      },
    });
    define(global, namespace, {
      value: proxy,
      writable: false,
      enumerable: false,
      configurable: false,
    });
  }
  define(global, "console", {
    value: consoleObject,
    writable: true,
    enumerable: false,
    configurable: true,
  });

  // ---- timers: events of the program (`spec.timers`, with `hostIdle`) -------------------------

  // the sandbox's own, and the real clock, taken before the prelude or the program runs
  const nativeSetTimeout = global.setTimeout as
    | ((callback: () => void, ms: number) => unknown)
    | undefined;
  const nativeClearTimeout = global.clearTimeout as ((handle: unknown) => void) | undefined;
  const realNow = Date.now;
  const toNumber = Number;
  const largest = Math.max;
  const smallest = Math.min;
  const MAX_TIMERS = 1000;
  const MAX_DELAY = 2147483647;
  /** A pending timer; object literals only, in a list sorted by `due`, then by `id`. */
  interface Timer {
    id: number;
    /** on the timers' own clock */
    due: number;
    /** by the real clock: it fires no earlier */
    notBefore: number;
    /** `setInterval`'s delay, or -1 */
    every: number;
    run: () => void;
    next: Timer | null;
  }
  let timers: Timer | null = null;
  let timerCount = 0;
  let nextTimer = 1;
  let timerClock = 0;
  let armed: { id: number; handle: unknown } | null = null;
  let considering = false;
  function insertTimer(timer: Timer): void {
    if (timers === null || timer.due < timers.due) {
      timer.next = timers;
      timers = timer;
    } else {
      let at = timers;
      while (at.next !== null && at.next.due <= timer.due) at = at.next;
      timer.next = at.next;
      at.next = timer;
    }
    timerCount++;
  }
  function removeTimer(id: number): boolean {
    let before: Timer | null = null;
    for (let at = timers; at !== null; before = at, at = at.next) {
      if (at.id !== id) continue;
      if (before === null) timers = at.next;
      else before.next = at.next;
      timerCount--;
      return true;
    }
    return false;
  }
  /**
   * At an idle point: once the program waits on no call, the first timer is armed to fire when its
   * delay has passed. Nothing else happens to the program meanwhile but a call it makes, which the
   * firing checks for.
   */
  function considerTimers(): void {
    if (considering || hostIdle === null) return;
    considering = true;
    hostIdle(() => {
      considering = false;
      const first = timers;
      if (armed !== null || first === null || firstSlot !== null || returned) return;
      const wait = first.notBefore - realNow();
      const id = first.id;
      armed = {
        id,
        handle: (nativeSetTimeout as (callback: () => void, ms: number) => unknown)(
          () => (hostIdle as (callback: () => void) => void)(() => fire(id)),
          largest(wait, 0),
        ),
      };
    });
  }
  function fire(id: number): void {
    if (armed === null || armed.id !== id) return;
    armed = null;
    const timer = timers;
    if (timer === null || timer.id !== id || firstSlot !== null || returned) {
      considerTimers();
      return;
    }
    timers = timer.next;
    timerCount--;
    if (timer.due > timerClock) timerClock = timer.due;
    if (timer.every >= 0) {
      insertTimer({
        id,
        due: timerClock + timer.every,
        notBefore: realNow() + timer.every,
        every: timer.every,
        run: timer.run,
        next: null,
      });
    }
    try {
      timer.run();
    } catch (error) {
      const info = describe(error);
      hostLog(`[error] Uncaught in a timer callback: ${info[0]}: ${info[1]}`);
    }
    considerTimers();
  }
  function schedule(name: string, every: boolean) {
    return function timer(callback: unknown, delay?: unknown, ...args: unknown[]): number {
      if (typeof callback !== "function") {
        throw new TypeErrorType(`${name} needs a function as its first argument.`);
      }
      if (timerCount >= MAX_TIMERS) {
        throw new RangeErrorType(`Too many pending timers (at most ${MAX_TIMERS}).`);
      }
      const given = toNumber(delay);
      // NaN and negative delays are 0, as the platform's
      const ms = given > 0 ? smallest(given, MAX_DELAY) : 0;
      const id = nextTimer++;
      insertTimer({
        id,
        due: timerClock + ms,
        notBefore: realNow() + ms,
        every: every ? ms : -1,
        run: () => callback(...args),
        next: null,
      });
      considerTimers();
      return id;
    };
  }
  function clear(id: unknown): void {
    if (typeof id !== "number" || !removeTimer(id)) return;
    if (armed !== null && armed.id === id) {
      (nativeClearTimeout as (handle: unknown) => void)(armed.handle);
      armed = null;
      considerTimers();
    }
  }
  if (
    spec.timers &&
    hostIdle !== null &&
    typeof nativeSetTimeout === "function" &&
    typeof nativeClearTimeout === "function"
  ) {
    const globals: [string, unknown][] = [
      ["setTimeout", schedule("setTimeout", false)],
      ["setInterval", schedule("setInterval", true)],
      ["clearTimeout", clear],
      ["clearInterval", clear],
    ];
    for (const [name, value] of globals) {
      define(global, name, { value, writable: true, enumerable: true, configurable: true });
    }
  }

  return {
    problem,
    encode,
    decode,
    wait,
    run(program: unknown) {
      let promise: Promise<unknown>;
      try {
        promise = resolved((program as () => unknown)());
      } catch (error) {
        promise = rejected(error);
      }
      then.call(
        promise,
        (value: unknown) => {
          returned = true;
          let text: string;
          try {
            text = encode(value);
          } catch (error) {
            const info = describe(error);
            hostSettle(["unserializable", info[0], info[1], info[2], info[3]]);
            return;
          }
          hostSettle(["ok", text]);
        },
        (error: unknown) => {
          returned = true;
          const info = describe(error);
          hostSettle(["thrown", info[0], info[1], info[2], info[3], info[4]]);
        },
      );
    },
  };
}
