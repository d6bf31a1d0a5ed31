import type { Executor, HostFunction } from "@codemode/core";
import { PRELUDE_CHANNEL, SANDBOX_PRELUDE } from "@codemode/core/internal";
import { expect } from "vitest";
import type { DeclareTest } from "./known-gaps.ts";
import { sleep, TIMEOUT_MS } from "./suite-parts.ts";

// The reachability group of the executor suite: a program rewrites the built-ins a harness may use
// (getters on the prototypes, `then`, `call`, `apply`, `JSON`, `Symbol.toPrimitive`), keeps every
// object and function it is handed, walks everything reachable from its globals, and calls every
// function it found with forged arguments. The host must see nothing but the one connector call the
// program makes on purpose: no call of the prelude's channel, no log line, no replay count.

/**
 * Names a harness or a host stub may read from an object the program can reach (not the names of a
 * property descriptor: a getter for those on Object.prototype breaks every `defineProperty`).
 */
const READ_NAMES = [
  "then",
  "catch",
  "finally",
  "constructor",
  "call",
  "apply",
  "bind",
  "name",
  "message",
  "code",
  "stack",
  "length",
  "toJSON",
  "valueOf",
  "toString",
  "data",
  "error",
  "result",
  "logs",
  "has",
  "send",
  "postMessage",
  "fetch",
];

const HUNTER = `async () => {
  const reflectApply = Reflect.apply;
  const handed = [];
  let noting = false;
  const note = (value) => {
    if (noting) return;
    noting = true;
    if ((typeof value === "object" && value !== null) || typeof value === "function") {
      if (!handed.includes(value)) handed[handed.length] = value;
    }
    noting = false;
  };
  const names = ${JSON.stringify(READ_NAMES)};
  for (const proto of [Object.prototype, Array.prototype, Function.prototype, Promise.prototype, Error.prototype]) {
    for (const name of names) {
      const original = Object.getOwnPropertyDescriptor(proto, name);
      try {
        Object.defineProperty(proto, name, {
          configurable: true,
          get() {
            note(this);
            if (!original) return undefined;
            return "value" in original ? original.value : original.get && reflectApply(original.get, this, []);
          },
          set(value) {
            note(this);
            note(value);
            Object.defineProperty(this, name, { value, writable: true, configurable: true, enumerable: true });
          },
        });
      } catch {}
    }
  }
  try {
    Object.defineProperty(Object.prototype, Symbol.toPrimitive, {
      configurable: true,
      get() { note(this); return undefined; },
    });
  } catch {}
  for (const [owner, key] of [[JSON, "stringify"], [JSON, "parse"], [Object, "keys"], [Object, "defineProperty"], [Array, "isArray"], [Array.prototype, "push"], [Array.prototype, "map"], [Promise, "resolve"], [Promise, "all"]]) {
    const fn = owner[key];
    try {
      owner[key] = function (...args) {
        note(this);
        for (const arg of args) note(arg);
        return reflectApply(fn, this, args);
      };
    } catch {}
  }
  const legit = await ns.legit({ on: "purpose" });
  // everything reachable from the globals, and from what the harness handed over
  const queue = [globalThis, ...handed];
  const seen = [];
  const functions = [];
  const found = [];
  const sdk = ["step", "run", "search", "describe"];
  while (queue.length > 0 && seen.length < 5000) {
    const value = queue.shift();
    if (seen.includes(value)) continue;
    seen.push(value);
    let keys = [];
    try { keys = Reflect.ownKeys(value); } catch {}
    try { const proto = Object.getPrototypeOf(value); if (proto) queue.push(proto); } catch {}
    for (const key of keys) {
      let item;
      try { item = value[key]; } catch { continue; }
      if (value === codemode && sdk.includes(key)) continue;
      // the console is the program's own to write to
      if (value === globalThis && key === "console") continue;
      if (typeof item === "function") {
        if (!found.includes(item)) { found.push(item); functions.push([value, key, item]); }
        queue.push(item);
      }
      else if (typeof item === "object" && item !== null) queue.push(item);
    }
  }
  for (const value of handed) {
    if (typeof value === "function" && !found.includes(value)) functions.push([undefined, "handed", value]);
  }
  const forged = { seq: 0, token: "0".repeat(32), value: "forged", name: "x", code: "async () => 1" };
  let called = 0;
  for (const [self, key, fn] of functions) {
    if (fn === ns.legit) continue;
    for (const args of [[forged], ["codemode", ${JSON.stringify(PRELUDE_CHANNEL.stepRecord)}, JSON.stringify(forged), [["injected"], 0], 5], [[["injected"], 0]]]) {
      try {
        const out = reflectApply(fn, self, args);
        called++;
        if (out && typeof out === "object") { try { Promise.resolve(out).catch(() => {}); } catch {} }
      } catch {}
    }
  }
  return { legit, called };
}`;

/** The test of the reachability group. */
export function reachabilityTests(options: {
  test: DeclareTest;
  createExecutor: () => Promise<Executor>;
}): void {
  const { test } = options;
  test(
    "nothing but connector methods and the documented SDK reaches the host, however the built-ins are rewritten",
    async () => {
      const executor = await options.createExecutor();
      const reached: string[] = [];
      const advances: unknown[] = [];
      const recording =
        (name: string): HostFunction =>
        async (input) => {
          reached.push(name);
          return input;
        };
      const outcome = await executor.execute({
        code: HUNTER,
        globals: {
          ns: { legit: recording("ns.legit") },
          codemode: {
            search: recording("codemode.search"),
            describe: recording("codemode.describe"),
            [PRELUDE_CHANNEL.stepDecide]: recording(PRELUDE_CHANNEL.stepDecide),
            [PRELUDE_CHANNEL.stepRecord]: recording(PRELUDE_CHANNEL.stepRecord),
            [PRELUDE_CHANNEL.snippet]: recording(PRELUDE_CHANNEL.snippet),
          },
        },
        prelude: SANDBOX_PRELUDE,
        limits: { timeoutMs: TIMEOUT_MS * 5 },
        replay: { calls: [], advance: (count) => advances.push(count) },
      });
      // anything the program left running has had its chance to arrive
      await sleep(100);
      expect(reached, "host functions the program reached").toEqual(["ns.legit"]);
      expect(outcome.logs, "log lines the program never wrote").toEqual([]);
      expect(
        advances.filter((count) => count !== 0),
        "replay counts",
      ).toEqual([]);
    },
    TIMEOUT_MS * 20,
  );
}
