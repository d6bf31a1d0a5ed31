import type { ExecuteRequest, ExecuteResult, HostNamespaces } from "@codemode/core";
import { expect } from "vitest";
import type { ExecutorCapability } from "./executor-conformance.ts";
import {
  errorOf,
  HOST_GLOBALS,
  MARKER,
  MEMORY_BYTES,
  recorder,
  resultOf,
  sleep,
} from "./suite-parts.ts";

// The attack corpus of the executor suite: hostile programs, each with the outcomes it may end in.
// The suite runs each with a marker on the host's globalThis, then checks that the host's
// prototypes are untouched and that the next pass works.

export interface AttackRun {
  outcome: ExecuteResult;
  /** inputs the host's `ns.echo` received */
  calls: unknown[];
}

export interface Attack {
  name: string;
  /** what the executor must enforce for the attack to apply; skipped without it */
  capability?: ExecutorCapability;
  code: string;
  limits?: ExecuteRequest["limits"];
  check(run: AttackRun): void | Promise<void>;
}

/** The name of the host function behind `ns.fail`: no stack the sandbox sees may show it. */
const HOST_FRAME = "conformanceHostOnlyFrame";

/** The host of an attack: `ns.echo` records each input and returns it, `ns.fail` always throws. */
export function attackHost(calls: unknown[]): HostNamespaces {
  const frames = {
    async [HOST_FRAME](): Promise<never> {
      throw new Error("failed on the host");
    },
  };
  return {
    ns: {
      echo: recorder(calls),
      fail: () => frames[HOST_FRAME](),
    },
  };
}

const DATA_PROTOTYPES: readonly unknown[] = [
  Object.prototype,
  Array.prototype,
  Date.prototype,
  Map.prototype,
  Set.prototype,
  Uint8Array.prototype,
  null,
];

/** A value the host received is data: the host's own prototypes, and no getter or setter anywhere. */
function expectPlainData(value: unknown, path = "value", seen = new Set<unknown>()): void {
  if (typeof value === "function") throw new Error(`${path} is a function`);
  if (typeof value !== "object" || value === null || seen.has(value)) return;
  seen.add(value);
  expect(
    DATA_PROTOTYPES.includes(Object.getPrototypeOf(value)),
    `${path} has a prototype of the host`,
  ).toBe(true);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    expect(descriptor && "value" in descriptor, `${path}.${String(key)} is a data property`).toBe(
      true,
    );
    expectPlainData(descriptor?.value, `${path}.${String(key)}`, seen);
  }
  if (value instanceof Map) {
    for (const [key, entry] of value) {
      expectPlainData(key, `${path} key`, seen);
      expectPlainData(entry, `${path} entry`, seen);
    }
  } else if (value instanceof Set) {
    for (const member of value) expectPlainData(member, `${path} member`, seen);
  }
}

/** THROWN, or a harmless `undefined`: what reaching for the host's `process` may give. */
function expectNoProcess({ outcome }: AttackRun): void {
  if ("error" in outcome) expect(outcome.error.code).toBe("THROWN");
  else expect(outcome.result).toBeUndefined();
}

/** Small hostile programs. Each must end with a clear error or a harmless result. */
export const ATTACKS: readonly Attack[] = [
  {
    name: "a sparse array of 2^32 - 1 items is refused at once, as an input and as the result",
    code: `async () => {
      const huge = [];
      huge.length = 2 ** 32 - 1;
      let sent = "sent";
      try { await ns.echo(huge); } catch (error) { sent = error.message; }
      if (!/array/.test(sent)) return "the input was not refused: " + sent;
      return huge;
    }`,
    check: ({ outcome, calls }) => {
      const error = errorOf(outcome);
      expect(error.code).toBe("NOT_SERIALIZABLE");
      expect(error.message).toMatch(/array/);
      expect(calls).toEqual([]);
    },
  },
  {
    name: "a constructor chain from an object literal reaches no process",
    code: `async () => ({}).constructor.constructor("return process")()`,
    check: expectNoProcess,
  },
  {
    name: "a constructor chain from a host method reaches no process",
    code: `async () => ns.echo.constructor.constructor("return process")()`,
    check: expectNoProcess,
  },
  {
    name: "an async function's constructor reaches no process",
    code: `async () => await (async () => {}).constructor("return process")()`,
    check: expectNoProcess,
  },
  {
    name: "this at top level is the sandbox's own global",
    code: `async () => {
      const top = this;
      const sloppy = (function () { return this; })();
      return [top, sloppy].map((g) => g == null ? "none" :
        [typeof g.process, typeof g.require, typeof g.${MARKER}].join("/"));
    }`,
    check: ({ outcome }) => {
      for (const seen of resultOf(outcome) as string[]) {
        expect(["none", "undefined/undefined/undefined"]).toContain(seen);
      }
    },
  },
  {
    name: "overriding Object.prototype.toString does not change what the host receives",
    code: `async () => {
      Object.prototype.toString = () => "[object Hacked]";
      Array.prototype.toString = () => "hacked";
      Function.prototype.toString = () => "hacked";
      return ns.echo({ a: 1, list: [1, "two"], when: new Date(0), tags: new Set(["x"]) });
    }`,
    check: ({ outcome, calls }) => {
      const sent = { a: 1, list: [1, "two"], when: new Date(0), tags: new Set(["x"]) };
      expect(calls).toStrictEqual([sent]);
      expect(resultOf(outcome)).toStrictEqual(sent);
    },
  },
  {
    name: "a getter in an argument is read in the sandbox and arrives as data",
    code: `async () => { await ns.echo({ get secret() { return "from getter"; } }); return "sent"; }`,
    check: ({ outcome, calls }) => {
      expect(resultOf(outcome)).toBe("sent");
      const received = calls[0] as object;
      expect(Object.getOwnPropertyDescriptor(received, "secret")).toMatchObject({
        value: "from getter",
      });
      expect(Object.getOwnPropertyDescriptor(received, "secret")?.get).toBeUndefined();
    },
  },
  {
    name: "a throwing getter in an argument is a catchable error and calls no host method",
    code: `async () => {
      try { await ns.echo({ get boom() { throw new Error("getter trap"); } }); return "called"; }
      catch (error) { return "caught: " + error.message; }
    }`,
    check: ({ outcome, calls }) => {
      expect(calls).toEqual([]);
      expect(resultOf(outcome)).toMatch(/^caught: .*getter trap/);
    },
  },
  {
    name: "a Proxy in an argument arrives as plain data or not at all",
    code: `async () => {
      const input = new Proxy({ a: 1 }, {
        ownKeys: () => ["a", "injected"],
        getOwnPropertyDescriptor: (target, key) =>
          ({ value: key === "a" ? 1 : "x", enumerable: true, configurable: true, writable: true }),
        get: (target, key) => key === "a" ? 1 : key === "injected" ? "x" : undefined,
      });
      try { await ns.echo(input); return "sent"; } catch (error) { return "refused: " + error.message; }
    }`,
    check: ({ outcome, calls }) => {
      const result = resultOf(outcome) as string;
      if (result === "sent") {
        expect(calls).toHaveLength(1);
        const received = calls[0] as Record<string, unknown>;
        expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
        for (const key of Reflect.ownKeys(received)) {
          expect(Object.getOwnPropertyDescriptor(received, key)).toHaveProperty("value");
        }
        expect(JSON.parse(JSON.stringify(received))).toEqual(received);
      } else {
        expect(result).toMatch(/^refused: ./);
        expect(calls).toEqual([]);
      }
    },
  },
  {
    name: "a Proxy with throwing traps as the result is a clear error",
    code: `async () => new Proxy({}, {
      ownKeys() { throw new Error("ownKeys trap"); },
      getPrototypeOf() { throw new Error("prototype trap"); },
      get() { throw new Error("get trap"); },
    })`,
    check: ({ outcome }) => {
      expect(["THROWN", "NOT_SERIALIZABLE"]).toContain(errorOf(outcome).code);
    },
  },
  {
    name: "a then trap on the returned object stays in the sandbox",
    code: `async () => ({ then(resolve) { resolve("from then"); } })`,
    check: ({ outcome }) => {
      if ("error" in outcome) expect(outcome.error.code).toBe("NOT_SERIALIZABLE");
      else expect(outcome.result).toBe("from then");
    },
  },
  {
    name: "then traps on Object.prototype and Promise.prototype do not hang the pass",
    code: `async () => {
      Object.prototype.then = function (resolve) { resolve("trapped"); };
      Promise.prototype.then = function () { return this; };
      await ns.echo({ a: 1 });
      return "done";
    }`,
    check: ({ outcome, calls }) => {
      expect(calls).toEqual([{ a: 1 }]);
      if ("error" in outcome) expect(outcome.error.code).toBe("THROWN");
      else expect(outcome.result).toBe("done");
    },
  },
  {
    name: "a toJSON trap on Date.prototype does not change what crosses",
    code: `async () => {
      Date.prototype.toJSON = () => { throw new Error("toJSON trap"); };
      const back = await ns.echo({ when: new Date(0) });
      return back.when;
    }`,
    check: ({ outcome, calls }) => {
      if ("error" in outcome) {
        expect(outcome.error.code).toBe("THROWN");
        expect(outcome.error.message).toContain("toJSON trap");
        return;
      }
      expect(calls).toStrictEqual([{ when: new Date(0) }]);
      expect(outcome.result).toStrictEqual(new Date(0));
    },
  },
  {
    name: "a toJSON method on the result is refused or applied in the sandbox",
    code: `async () => ({ toJSON() { return { hijacked: "in the sandbox" }; } })`,
    check: ({ outcome }) => {
      if ("error" in outcome) expect(outcome.error.code).toBe("NOT_SERIALIZABLE");
      else expect(outcome.result).toEqual({ hijacked: "in the sandbox" });
    },
  },
  {
    name: "a hidden toJSON on an argument does not change what crosses",
    code: `async () => {
      const record = Object.defineProperty({ a: 1 }, "toJSON", { value: () => ({ hijacked: true }) });
      const list = [1, 2];
      list.toJSON = () => "hijacked";
      await ns.echo(record);
      return await ns.echo(list);
    }`,
    check: ({ outcome, calls }) => {
      expect(calls).toStrictEqual([{ a: 1 }, [1, 2]]);
      expect(outcome).toMatchObject({ result: [1, 2] });
    },
  },
  {
    name: "a cyclic argument is a catchable error and calls no host method",
    code: `async () => {
      const value = { list: [] };
      value.list.push(value);
      try { await ns.echo(value); return "called"; } catch (error) { return "caught: " + error.message; }
    }`,
    check: ({ outcome, calls }) => {
      expect(calls).toEqual([]);
      expect(resultOf(outcome)).toMatch(/^caught: ./);
    },
  },
  {
    name: "a thrown object whose getters throw is still reported",
    code: `async () => {
      throw { get name() { throw new Error("trap"); }, get message() { throw new Error("trap"); } };
    }`,
    check: ({ outcome }) => {
      const error = errorOf(outcome);
      expect(error.code).toBe("THROWN");
      expect(error.message.length).toBeGreaterThan(0);
    },
  },
  {
    name: "a huge string ends with MEMORY",
    capability: "memoryLimit",
    code: `async () => "x".repeat(1e8).length`,
    limits: { memoryBytes: MEMORY_BYTES },
    check: ({ outcome }) => {
      expect(errorOf(outcome).code).toBe("MEMORY");
    },
  },
  {
    name: "deep recursion ends with a clear error",
    code: `async () => { function down(n) { return down(n + 1) + 1; } return down(0); }`,
    check: ({ outcome }) => {
      const error = errorOf(outcome);
      expect(["MEMORY", "THROWN"]).toContain(error.code);
      expect(error.message).toMatch(/stack|recursion/i);
    },
  },
  {
    name: "deep recursion the code catches is a clear error or a caught one",
    code: `async () => {
      function down(n) { return down(n + 1) + 1; }
      try { down(0); return "returned"; } catch (error) { return "caught"; }
    }`,
    check: ({ outcome }) => {
      if ("error" in outcome) expect(outcome.error.code).toBe("MEMORY");
      else expect(outcome.result).toBe("caught");
    },
  },
  {
    name: "host calls made after the pass settled are not delivered",
    code: `async () => {
      (async () => { for (let i = 1; i < 100; i++) await ns.echo(i); })();
      const later = (n) => n === 0 ? ns.echo(1000) : Promise.resolve().then(() => later(n - 1));
      later(6).catch(() => {});
      return "settled";
    }`,
    check: async ({ outcome, calls }) => {
      expect(resultOf(outcome)).toBe("settled");
      const delivered = calls.length;
      expect(delivered).toBeLessThanOrEqual(1);
      await sleep(100);
      expect(calls).toHaveLength(delivered);
    },
  },
  {
    name: "unhandled rejections in the sandbox end harmlessly",
    code: `async () => {
      Promise.reject(new Error("ignored"));
      (async () => { throw new Error("background"); })();
      ns.echo(undefined).then(() => { throw new Error("after a host call"); });
      return "done";
    }`,
    check: ({ outcome }) => {
      if ("error" in outcome) expect(outcome.error.code).toBe("THROWN");
      else expect(outcome.result).toBe("done");
    },
  },
  // ---- reaching the host: constructors, frames and callers ----------------------------------------
  {
    name: "every function constructor, reached through prototypes, compiles code that sees no host",
    code: `async () => {
      const body = "return [typeof process, typeof require, typeof globalThis.${MARKER}].join('/')";
      const asyncGenerator = (async function* () {})();
      const makers = [
        ["Function", Reflect.getPrototypeOf(function () {}).constructor],
        ["AsyncFunction", Reflect.getPrototypeOf(async () => {}).constructor],
        ["GeneratorFunction", Object.getPrototypeOf(function* () {}).constructor],
        ["AsyncGeneratorFunction", Object.getPrototypeOf(async function* () {}).constructor],
        ["from an async generator", Object.getPrototypeOf(Object.getPrototypeOf(asyncGenerator)).constructor.constructor],
      ];
      const seen = [];
      for (const [kind, Make] of makers) {
        try {
          const made = Make(body);
          const value = await (kind.includes("enerator") ? made().next() : made());
          seen.push(kind + ": " + (kind.includes("enerator") ? value.value : value));
        } catch (error) {
          seen.push(kind + ": " + (error && error.name === "EvalError" ? "refused" : "error " + error));
        }
      }
      return seen;
    }`,
    check: ({ outcome }) => {
      const seen = resultOf(outcome) as string[];
      expect(seen).toHaveLength(5);
      for (const line of seen)
        expect(line).toMatch(/^[\w ]+: (undefined\/undefined\/undefined|refused)$/);
    },
  },
  {
    name: "a bound host method is a sandbox function whose constructor sees no host",
    code: `async () => {
      const bound = ns.echo.bind(null, { via: "bound" });
      const back = await bound();
      const probe = (make) => {
        try { return String(make()); } catch (error) { return error && error.name === "EvalError" ? "refused" : "error " + error; }
      };
      return {
        back,
        sandboxFunction: Object.getPrototypeOf(bound) === Function.prototype && ns.echo instanceof Function,
        probes: [
          probe(() => bound.constructor("return typeof process + typeof globalThis.${MARKER}")()),
          probe(() => Function.prototype.bind.call(ns.echo.constructor, null, "return typeof require")()()),
          probe(() => Reflect.construct(bound.constructor, ["return typeof process"])()),
          probe(() => Object.getPrototypeOf(ns.echo).constructor("return typeof module")()),
        ],
      };
    }`,
    check: ({ outcome, calls }) => {
      const seen = resultOf(outcome) as {
        back: unknown;
        sandboxFunction: boolean;
        probes: string[];
      };
      expect(seen.back).toEqual({ via: "bound" });
      expect(calls).toEqual([{ via: "bound" }]);
      expect(seen.sandboxFunction).toBe(true);
      expect(["undefinedundefined", "refused"]).toContain(seen.probes[0]);
      for (const probe of seen.probes.slice(1)) expect(["undefined", "refused"]).toContain(probe);
    },
  },
  {
    name: "Error.prepareStackTrace frames and stacks show no host value, function or frame",
    // every function of the program holds the text "own-frame"; any other a frame hands out is foreign
    code: `async () => {
      const found = [];
      const foreign = [];
      const look = (value) => value == null ? "none" :
        [typeof value.process, typeof value.require, typeof value.${MARKER}].join("/");
      Error.stackTraceLimit = 200;
      Error.prepareStackTrace = (error, frames) => {
        for (const frame of Array.isArray(frames) ? frames : []) {
          try { found.push(look(frame.getThis())); } catch { found.push("unreadable"); }
          try {
            const fn = frame.getFunction();
            found.push(look(fn));
            if (typeof fn === "function" && !String(fn).includes("own-frame")) foreign.push(String(fn).slice(0, 60));
          } catch { found.push("unreadable"); }
        }
        return "prepared: " + (Array.isArray(frames) ? frames.map(String).join(" | ") : "");
      };
      const stacks = [];
      const read = (error) => { try { stacks.push(String(error.stack)); } catch { stacks.push("unreadable"); } };
      function sloppy() { "own-frame"; return new Error("in a sloppy function"); }
      read(sloppy());
      try { await ns.fail({}); } catch (error) { read(error); }
      try { await ns.echo({ get boom() { "own-frame"; throw new Error("in a getter"); } }); } catch (error) { read(error); }
      await ns.echo(1).then(() => { "own-frame"; read(new Error("in a callback")); });
      if (typeof Error.captureStackTrace === "function") { const holder = {}; Error.captureStackTrace(holder); read(holder); }
      return { found, foreign, stacks };
    }`,
    check: ({ outcome, calls }) => {
      const seen = resultOf(outcome) as { found: string[]; foreign: string[]; stacks: string[] };
      expect(calls).toEqual([1]);
      expect(seen.foreign, "functions of the executor handed out by stack frames").toEqual([]);
      for (const value of seen.found) {
        expect(["none", "undefined/undefined/undefined", "unreadable"]).toContain(value);
      }
      expect(seen.stacks.length).toBeGreaterThanOrEqual(4);
      const text = seen.stacks.join("\n");
      expect(text, "no frame of the host's failing method").not.toContain(HOST_FRAME);
      expect(text, "no file of the host").not.toMatch(
        /attack-corpus|executor-conformance|node_modules/,
      );
    },
  },
  {
    name: "the caller chain and arguments.callee reach no function of the executor",
    code: `function program() {
      const own = new Set();
      const walk = (start) => {
        const foreign = [];
        let current = start;
        for (let step = 0; step < 20 && typeof current === "function"; step++) {
          if (!own.has(current)) foreign.push(String(current).slice(0, 60));
          try { current = current.caller; } catch { break; }
        }
        return foreign;
      };
      function sloppy() { own.add(sloppy); return walk(arguments.callee); }
      own.add(program);
      let fromArguments;
      try { fromArguments = walk(arguments.callee); } catch (error) { fromArguments = "refused"; }
      return { fromSloppy: sloppy(), fromArguments };
    }`,
    check: ({ outcome }) => {
      if ("error" in outcome) {
        // a sandbox that runs the program as strict code refuses arguments.callee
        expect(outcome.error.code).toBe("THROWN");
        expect(outcome.error.name).toBe("TypeError");
        return;
      }
      const seen = outcome.result as { fromSloppy: string[]; fromArguments: string[] | string };
      expect(seen.fromSloppy, "functions above the program's own").toEqual([]);
      expect(["refused", []]).toContainEqual(seen.fromArguments);
    },
  },
  {
    name: "the global's prototype chain and constructors hold no host value",
    code: `async () => {
      const names = [];
      for (let object = globalThis; object; object = Object.getPrototypeOf(object)) {
        names.push(...Object.getOwnPropertyNames(object));
      }
      const probe = (make) => { try { return String(make()); } catch (error) { return error && error.name === "EvalError" ? "refused" : "error"; } };
      return {
        hostNames: names.filter((name) => ${JSON.stringify([MARKER, ...HOST_GLOBALS])}.includes(name)),
        viaConstructor: probe(() => globalThis.constructor.constructor("return typeof globalThis.${MARKER}")()),
        viaSelf: typeof self === "undefined" ? "none" : typeof self.${MARKER},
      };
    }`,
    check: ({ outcome }) => {
      expect(resultOf(outcome)).toMatchObject({ hostNames: [] });
      const seen = outcome as { result: { viaConstructor: string; viaSelf: string } };
      expect(["undefined", "refused"]).toContain(seen.result.viaConstructor);
      expect(["undefined", "none"]).toContain(seen.result.viaSelf);
    },
  },
  {
    name: "eval tricks (direct, indirect, with-scopes, string timers) reach no host",
    code: `async () => {
      const probe = (make) => { try { return String(make()); } catch (error) { return error && error.name === "EvalError" ? "refused" : "error " + error; } };
      const target = "typeof process + typeof require + typeof ${MARKER}";
      return [
        probe(() => eval(target)),
        probe(() => (0, eval)(target)),
        probe(() => eval.call(null, target)),
        probe(() => Function("with (arguments[0]) { return eval(arguments[1]); }")({}, target)),
        probe(() => eval("(function () { return this; })()") === globalThis),
        probe(() => eval("eval")("typeof globalThis.${MARKER}")),
        probe(() => [].map.constructor("return (0, eval)('typeof process')")()),
      ];
    }`,
    check: ({ outcome }) => {
      const seen = resultOf(outcome) as string[];
      const expected = [
        "undefinedundefinedundefined",
        "undefinedundefinedundefined",
        "undefinedundefinedundefined",
        "undefinedundefinedundefined",
        "true",
        "undefined",
        "undefined",
      ];
      expect(seen).toHaveLength(expected.length);
      seen.forEach((value, index) => {
        expect([expected[index], "refused"], `probe ${index}`).toContain(value);
      });
    },
  },
  {
    name: "import() of a module, a data: URL or a blob: URL loads nothing of the host",
    code: `async () => {
      const specifiers = ["fs", "node:child_process", "process", "data:text/javascript,export default typeof process + typeof require"];
      if (typeof URL !== "undefined" && typeof Blob !== "undefined" && URL.createObjectURL) {
        try { specifiers.push(URL.createObjectURL(new Blob(["export default typeof process"], { type: "text/javascript" }))); } catch {}
      }
      const seen = [];
      for (const specifier of specifiers) {
        try {
          const loaded = await import(specifier);
          seen.push("loaded " + String(loaded && loaded.default));
        } catch (error) {
          seen.push("refused");
        }
      }
      return seen;
    }`,
    check: ({ outcome }) => {
      if ("error" in outcome) {
        // a sandbox without import() may not compile the program
        expect(["SYNTAX_ERROR", "THROWN"]).toContain(outcome.error.code);
        return;
      }
      const seen = outcome.result as string[];
      expect(seen.slice(0, 3), "no module of the host's runtime").toEqual([
        "refused",
        "refused",
        "refused",
      ]);
      for (const line of seen.slice(3))
        expect(["refused", "loaded undefinedundefined", "loaded undefined"]).toContain(line);
    },
  },
  {
    name: "import() of the platform's modules and the executor's own reaches neither bindings nor the harness",
    code: `async () => {
      const specifiers = ["cloudflare:workers", "cloudflare:sockets", "./harness.js", "./tick.js",
        "./spec.js", "./program.js", "harness.js", "node:process"];
      const loaded = [];
      for (const specifier of specifiers) {
        try { await import(specifier); loaded.push(specifier); } catch {}
      }
      return loaded;
    }`,
    check: ({ outcome }) => {
      if ("error" in outcome) {
        // a sandbox without import() may not compile the program
        expect(["SYNTAX_ERROR", "THROWN"]).toContain(outcome.error.code);
        return;
      }
      expect(outcome.result, "what the program loaded").toEqual([]);
    },
  },
  {
    name: "statements around the function (its parenthesis closed) run nothing outside the pass's limits",
    code: `async () => "the function"); while (true) {} (async () => "another"`,
    limits: { timeoutMs: 1_000 },
    check: ({ outcome, calls }) => {
      expect(["SYNTAX_ERROR", "TIMEOUT"]).toContain(errorOf(outcome).code);
      expect(calls).toEqual([]);
    },
  },
  {
    name: "WebAssembly is absent, refused, or runs inside the sandbox only",
    code: `async () => {
      if (typeof WebAssembly === "undefined") return "absent";
      // (module (func (export "f") (result i32) i32.const 42))
      const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 127, 3, 2, 1, 0,
        7, 5, 1, 1, 102, 0, 0, 10, 6, 1, 4, 0, 65, 42, 11]);
      try {
        const { instance } = await WebAssembly.instantiate(bytes, {});
        return "ran " + instance.exports.f() + " " + typeof process;
      } catch (error) {
        return "refused";
      }
    }`,
    check: ({ outcome }) => {
      expect(["absent", "refused", "ran 42 undefined"]).toContain(resultOf(outcome));
    },
  },
  {
    name: "an error a host method throws arrives without the host's stack",
    code: `async () => {
      try { await ns.fail({}); return "no error"; }
      catch (error) { return { name: error.name, message: error.message, stack: String(error.stack) }; }
    }`,
    check: ({ outcome }) => {
      const seen = resultOf(outcome) as { name: string; message: string; stack: string };
      expect(seen).toMatchObject({ name: "Error", message: "failed on the host" });
      expect(seen.stack).not.toContain(HOST_FRAME);
      expect(seen.stack).not.toMatch(/attack-corpus|node_modules/);
    },
  },

  // ---- pollution across the boundary --------------------------------------------------------------
  {
    name: "__proto__ and constructor.prototype keys, nested and in Maps, pollute nothing and arrive as data",
    code: `async () => {
      const text = '{"__proto__": {"pollutedA": 1}, "constructor": {"prototype": {"pollutedB": 1}},' +
        ' "nested": [{"__proto__": {"pollutedC": 1}}]}';
      const input = JSON.parse(text);
      const map = new Map([["__proto__", JSON.parse('{"__proto__": {"pollutedD": 1}}')], ["constructor", { prototype: { pollutedE: 1 } }]]);
      const back = await ns.echo({ input, map });
      return { back, clean: [({}).pollutedA, ({}).pollutedB, ({}).pollutedC, ({}).pollutedD, [].pollutedC] };
    }`,
    check: ({ outcome, calls }) => {
      const seen = resultOf(outcome) as { back: unknown; clean: unknown[] };
      expect(seen.clean).toEqual([undefined, undefined, undefined, undefined, undefined]);
      expect(calls).toHaveLength(1);
      expectPlainData(calls[0]);
      expectPlainData(seen.back);
      const probe: Record<string, unknown> = {};
      for (const key of ["pollutedA", "pollutedB", "pollutedC", "pollutedD", "pollutedE"]) {
        expect(probe[key], key).toBeUndefined();
      }
      const received = calls[0] as { input: Record<string, unknown>; map: Map<unknown, unknown> };
      expect(received.map).toBeInstanceOf(Map);
      expect(received.input.pollutedA).toBeUndefined();
    },
  },
  {
    name: "polluting the sandbox's prototypes and then calling the host sends own data only",
    code: `async () => {
      Object.prototype.injected = "from Object.prototype";
      Array.prototype.extra = "from Array.prototype";
      Object.defineProperty(Object.prototype, "hidden", { get() { return "getter"; }, enumerable: true, configurable: true });
      Object.defineProperty(Object.prototype, "a", { set(value) { this.stolen = value; }, configurable: true });
      Array.prototype[1] = "hole filler";
      const sent = { b: 1, list: [1, , 3], nested: { deep: [true] } };
      const back = await ns.echo(sent);
      return { keys: Object.keys(back), list: back.list.length };
    }`,
    check: ({ outcome, calls }) => {
      expect(calls).toHaveLength(1);
      expectPlainData(calls[0]);
      const received = calls[0] as Record<string, unknown>;
      expect(Object.keys(received).sort()).toEqual(["b", "list", "nested"]);
      expect(received.nested).toStrictEqual({ deep: [true] });
      expect((received.list as unknown[]).length).toBe(3);
      expect((received.list as unknown[])[0]).toBe(1);
      expect((received.list as unknown[])[2]).toBe(3);
      expect(["hole filler", undefined, null]).toContain((received.list as unknown[])[1]);
      expect(resultOf(outcome)).toMatchObject({ list: 3 });
    },
  },
  {
    name: "Symbol.toPrimitive, valueOf and toString traps on arguments run in the sandbox or not at all",
    code: `async () => {
      const trap = () => { throw new Error("primitive trap"); };
      const when = new Date(0);
      // Date.prototype's Symbol.toPrimitive is read-only: a strict program cannot assign it
      Object.defineProperty(when, Symbol.toPrimitive, { value: trap });
      when.valueOf = trap; when.toString = trap; when.toISOString = trap; when.toJSON = trap;
      const key = { [Symbol.toPrimitive]: trap, valueOf: trap, toString: trap };
      try {
        await ns.echo({ when, map: new Map([[key, 1]]), number: { valueOf: trap }, text: { toString: trap } });
        return "sent";
      } catch (error) {
        return "refused: " + error.message;
      }
    }`,
    check: ({ outcome, calls }) => {
      const result = resultOf(outcome) as string;
      if (result === "sent") {
        expect(calls).toHaveLength(1);
        expectPlainData(calls[0]);
        const when = (calls[0] as { when: unknown }).when;
        expect(when).toBeInstanceOf(Date);
      } else {
        expect(result).toMatch(/^refused: ./);
        expect(calls).toEqual([]);
      }
    },
  },
  {
    name: "Symbol.species traps on Array and Promise neither hang the pass nor reach the host",
    code: `async () => {
      class Evil extends Array {
        static get [Symbol.species]() { throw new Error("array species trap"); }
      }
      const list = Evil.from([1, 2, 3]);
      Object.defineProperty(Array, Symbol.species, { get() { throw new Error("Array species trap"); }, configurable: true });
      Object.defineProperty(Promise, Symbol.species, { get() { throw new Error("Promise species trap"); }, configurable: true });
      let sent;
      try { sent = await ns.echo({ list, plain: [4, 5] }); } catch (error) { sent = "refused: " + error.message; }
      return typeof sent === "string" ? sent : "echoed";
    }`,
    limits: { timeoutMs: 10_000 },
    check: ({ outcome, calls }) => {
      if ("error" in outcome) {
        expect(outcome.error.code).toBe("THROWN");
        expect(outcome.error.message).toMatch(/species trap/);
      } else {
        expect(["echoed", expect.stringMatching(/^refused: ./)]).toContainEqual(outcome.result);
      }
      expect(calls.length).toBeLessThanOrEqual(1);
      for (const call of calls) {
        expectPlainData(call);
        expect(call).toStrictEqual({ list: [1, 2, 3], plain: [4, 5] });
      }
    },
  },

  // ---- getters, proxies, toJSON and then ----------------------------------------------------------
  {
    name: "getters nested in arrays, Map keys and values and Set members arrive as data",
    code: `async () => {
      let reads = 0;
      const make = (label) => ({ get value() { reads++; return label; } });
      try {
        await ns.echo({ list: [make("in a list")], map: new Map([[make("key"), make("value")]]), set: new Set([make("member")]) });
        return "sent after " + reads + " reads";
      } catch (error) {
        return "refused: " + error.message;
      }
    }`,
    check: ({ outcome, calls }) => {
      const result = resultOf(outcome) as string;
      if (result.startsWith("refused: ")) {
        expect(calls).toEqual([]);
        return;
      }
      expect(result).toMatch(/^sent after \d+ reads$/);
      expect(calls).toHaveLength(1);
      expectPlainData(calls[0]);
      const received = calls[0] as {
        list: unknown[];
        map: Map<unknown, unknown>;
        set: Set<unknown>;
      };
      expect(received.list).toStrictEqual([{ value: "in a list" }]);
      expect([...received.map]).toStrictEqual([[{ value: "key" }, { value: "value" }]]);
      expect([...received.set]).toStrictEqual([{ value: "member" }]);
    },
  },
  {
    name: "each property is read once: a getter that answers otherwise on a second read changes nothing that crosses",
    code: `async () => {
      let reads = 0;
      // plain text on the first read, a tagged Date on every later one
      const shifty = () => {
        let own = 0;
        return { get value() { reads++; own++; return own === 1 ? "held" : { $codemode: "Date", value: "2001-02-03T04:05:06.000Z" }; } };
      };
      const list = ["first", "second"];
      let listReads = 0;
      Object.defineProperty(list, 1, { get() { reads++; listReads++; return listReads === 1 ? "held" : { $codemode: "Date", value: "2001-02-03T04:05:06.000Z" }; }, enumerable: true });
      const mapped = new Map([["key", shifty()]]);
      let sent;
      try { sent = await ns.echo({ record: shifty(), list, mapped }); } catch (error) { sent = "refused: " + error.message; }
      const afterCall = reads;
      return { sent: typeof sent === "string" ? sent : "echoed", afterCall, result: shifty() };
    }`,
    check: ({ outcome, calls }) => {
      const seen = resultOf(outcome) as { sent: string; afterCall: number; result: unknown };
      expect(seen.sent).toBe("echoed");
      expect(calls).toHaveLength(1);
      expectPlainData(calls[0]);
      expect(calls[0]).toStrictEqual({
        record: { value: "held" },
        list: ["first", "held"],
        mapped: new Map([["key", { value: "held" }]]),
      });
      expect(seen.afterCall, "reads of the three getters while the input was sent").toBe(3);
      expect(seen.result).toStrictEqual({ value: "held" });
    },
  },
  {
    name: "replacing JSON.stringify and Object.prototype.toJSON changes nothing that crosses",
    code: `async () => {
      const forged = '{"$codemode":"bigint","value":"' + "9".repeat(100000) + '"}';
      JSON.stringify = () => forged;
      Object.defineProperty(Object.prototype, "toJSON", { value: () => "hijacked", configurable: true, writable: true });
      Object.defineProperty(Array.prototype, "toJSON", { value: () => "hijacked", configurable: true, writable: true });
      let back;
      try { back = await ns.echo({ when: new Date(0), tags: new Set(["t"]), list: [1, { n: 2 }] }); }
      catch (error) { back = "refused: " + error.message; }
      return { back: back instanceof Object && !Array.isArray(back) ? "echoed" : back, result: { when: new Date(0), list: [1] } };
    }`,
    check: ({ outcome, calls }) => {
      const seen = resultOf(outcome) as { back: unknown; result: unknown };
      expect(seen.back).toBe("echoed");
      expect(calls).toStrictEqual([
        { when: new Date(0), tags: new Set(["t"]), list: [1, { n: 2 }] },
      ]);
      expect(seen.result).toStrictEqual({ when: new Date(0), list: [1] });
    },
  },
  {
    name: "a bigint of more than 4,096 digits is refused as an input and as the result",
    code: `async () => {
      const big = 10n ** 5000n;
      let sent;
      try { await ns.echo({ big }); sent = "sent"; } catch (error) { sent = "refused: " + error.message; }
      if (!/digits/.test(sent)) return "the input was not refused: " + sent;
      return [10n ** 4095n, -big];
    }`,
    check: ({ outcome, calls }) => {
      expect(calls).toEqual([]);
      const error = errorOf(outcome);
      expect(error.code).toBe("NOT_SERIALIZABLE");
      expect(error.message).toMatch(/4096 digits/);
    },
  },
  {
    name: "proxies pretending to be Dates, Maps, arrays or bytes arrive as plain data or not at all",
    code: `async () => {
      const pretend = (target, prototype) => new Proxy(target, {
        getPrototypeOf: () => prototype,
        get: (object, key) => key === "length" ? 3 : key === "size" ? 2 : Reflect.get(object, key),
      });
      const seen = [];
      const candidates = {
        date: pretend({}, Date.prototype),
        map: pretend({}, Map.prototype),
        array: pretend({ 0: "a" }, Array.prototype),
        bytes: pretend({}, Uint8Array.prototype),
        nested: [pretend({}, Map.prototype)],
        inMap: new Map([[pretend({}, Set.prototype), pretend([], Date.prototype)]]),
      };
      for (const [name, value] of Object.entries(candidates)) {
        try { await ns.echo({ [name]: value }); seen.push(name + " sent"); }
        catch (error) { seen.push(name + " refused"); }
      }
      return seen;
    }`,
    check: ({ outcome, calls }) => {
      const seen = resultOf(outcome) as string[];
      expect(seen).toHaveLength(6);
      for (const line of seen) expect(line).toMatch(/^\w+ (sent|refused)$/);
      expect(calls).toHaveLength(seen.filter((line) => line.endsWith(" sent")).length);
      for (const call of calls) expectPlainData(call);
    },
  },
  {
    name: "toJSON on nested values and on Array.prototype does not change the host's data types",
    code: `async () => {
      Array.prototype.toJSON = function () { return "array hijacked"; };
      Object.prototype.toJSON = function () { return "object hijacked"; };
      const sent = { inner: { toJSON() { return "inner hijacked"; }, a: 1 }, list: [1, 2], when: new Date(0) };
      let back;
      try { back = await ns.echo(sent); } catch (error) { back = "refused: " + error.message; }
      delete Array.prototype.toJSON;
      delete Object.prototype.toJSON;
      return back;
    }`,
    check: ({ outcome, calls }) => {
      const result = resultOf(outcome);
      if (typeof result === "string") {
        expect(result).toMatch(/^refused: ./);
        expect(calls).toEqual([]);
        return;
      }
      expect(calls).toHaveLength(1);
      expectPlainData(calls[0]);
      expectPlainData(result);
    },
  },
  {
    name: "then traps on Array.prototype and on the host's reply stay in the sandbox",
    code: `async () => {
      let trapped = 0;
      Array.prototype.then = function (resolve) { trapped++; delete Array.prototype.then; resolve("trapped"); };
      const back = await ns.echo([1, 2]);
      Object.defineProperty(Object.prototype, "then", {
        get() { trapped++; delete Object.prototype.then; return undefined; },
        configurable: true,
      });
      const second = await ns.echo({ nested: { then: "a plain string" } });
      delete Object.prototype.then;
      return { back: Array.isArray(back) ? "array" : back, second: second.nested.then, trapped: trapped > 0 };
    }`,
    check: ({ outcome, calls }) => {
      expect(calls).toStrictEqual([[1, 2], JSON.parse('{"nested": {"then": "a plain string"}}')]);
      const seen = resultOf(outcome) as { back: string; second: string; trapped: boolean };
      expect(["array", "trapped"]).toContain(seen.back);
      expect(seen.second).toBe("a plain string");
    },
  },

  // ---- after the pass: timers, microtasks, late promises ------------------------------------------
  {
    name: "a timer set before returning calls no host method after the pass",
    code: `async () => {
      if (typeof setTimeout !== "function") return "no timers";
      setTimeout(() => ns.echo("from a timer"), 20);
      try { setTimeout("ns.echo('from a string timer')", 20); } catch {}
      return "returned";
    }`,
    check: async ({ outcome, calls }) => {
      expect(["returned", "no timers"]).toContain(resultOf(outcome));
      await sleep(200);
      expect(calls).toEqual([]);
    },
  },
  {
    name: "a chain of queueMicrotask calls delivers no host call once the pass has ended",
    code: `async () => {
      // QuickJS has no queueMicrotask: a resolved promise queues the same job
      const queue = typeof queueMicrotask === "function" ? queueMicrotask : (job) => Promise.resolve().then(job);
      const step = (n) => { if (n < 60) { ns.echo(n).catch(() => {}); queue(() => step(n + 1)); } };
      queue(() => step(0));
      return "returned";
    }`,
    check: async ({ outcome, calls }) => {
      expect(resultOf(outcome)).toBe("returned");
      const delivered = calls.length;
      expect(delivered, "the late end of the chain").toBeLessThan(60);
      expect(calls).toEqual(Array.from({ length: delivered }, (_, index) => index));
      await sleep(200);
      expect(calls).toHaveLength(delivered);
    },
  },
  {
    name: "a host call chained on a reply that comes after the pass ended is not delivered",
    code: `async () => {
      ns.echo("first").then(() => ns.echo("chained")).catch(() => {});
      return "returned";
    }`,
    check: async ({ outcome, calls }) => {
      expect(resultOf(outcome)).toBe("returned");
      await sleep(200);
      expect(["first", "chained"].slice(0, calls.length)).toEqual(calls);
      expect(calls).not.toContain("chained");
    },
  },

  // ---- host work and long built-ins -------------------------------------------------------------------
  {
    name: "a built-in call that outlives the deadline ends the pass with TIMEOUT, never its result",
    code: `async () => {
      const started = Date.now();
      Array.prototype.indexOf.call({ length: 2e7 }, 1);
      Array.prototype.lastIndexOf.call({ length: 2e7 }, 1);
      return Date.now() - started;
    }`,
    limits: { timeoutMs: 50 },
    check: ({ outcome }) => {
      // a sandbox fast enough returns in time; a result that came later must not count
      if ("result" in outcome) expect(outcome.result as number).toBeLessThan(50);
      else expect(outcome.error.code).toBe("TIMEOUT");
    },
  },
  {
    name: "console lines that are not kept cost the host nothing: a loop of long lines ends at the limit",
    capability: "console",
    code: `async () => {
      console.log("started " + Date.now());
      const line = "x".repeat(1 << 22);
      for (;;) { try { console.log(line, line); } catch {} }
    }`,
    limits: { timeoutMs: 300 },
    check: ({ outcome }) => {
      expect(errorOf(outcome).code).toBe("TIMEOUT");
      const started = /^started (\d+)$/.exec(outcome.logs[0] ?? "");
      if (started) expect(Date.now() - Number(started[1])).toBeLessThan(300 + 2_000);
      const kept = outcome.logs.reduce((total, line) => total + line.length, 0);
      expect(kept, "characters of console lines the host kept").toBeLessThan(1_000_000);
    },
  },

  {
    name: "calls made at once hold no more input on the host than the run's budget; the rest are refused",
    code: `async () => {
      const big = "x".repeat(8 * 1024 * 1024);
      const settled = await Promise.allSettled(Array.from({ length: 12 }, () => ns.echo(big)));
      return settled.map((one) => one.status === "fulfilled" ? "echoed " + one.value.length : one.reason.code + ": " + one.reason.message);
    }`,
    limits: { timeoutMs: 30_000 },
    check: ({ outcome, calls }) => {
      if ("error" in outcome) {
        // a sandbox without the memory for the string and its encodings
        expect(outcome.error.code).toBe("MEMORY");
        return;
      }
      const seen = outcome.result as string[];
      expect(seen).toHaveLength(12);
      const echoed = seen.filter((line) => line === `echoed ${8 * 1024 * 1024}`).length;
      expect(echoed, "calls that reached the host").toBe(calls.length);
      expect(calls.length, "inputs of 8 Mi characters in flight at once").toBeLessThanOrEqual(4);
      for (const line of seen.filter((text) => !text.startsWith("echoed "))) {
        expect(line).toMatch(/^(BUDGET_EXCEEDED|TOO_LARGE): ./);
      }
    },
  },

  // ---- memory ---------------------------------------------------------------------------------------
  {
    name: "a Map growing without end ends with MEMORY",
    capability: "memoryLimit",
    code: `async () => { const map = new Map(); for (let i = 0; ; i++) map.set(i, { i, text: "entry " + i }); }`,
    limits: { memoryBytes: MEMORY_BYTES, timeoutMs: 30_000 },
    check: ({ outcome }) => {
      expect(errorOf(outcome).code).toBe("MEMORY");
    },
  },
  {
    name: "a string doubling without end ends with MEMORY",
    capability: "memoryLimit",
    code: `async () => { let text = "ab"; while (true) text = text + text + "."; }`,
    limits: { memoryBytes: MEMORY_BYTES, timeoutMs: 30_000 },
    check: ({ outcome }) => {
      const error = errorOf(outcome);
      // an engine may refuse the length before the memory runs out
      if (error.code === "THROWN") expect(error.message).toMatch(/length|long|memory/i);
      else expect(error.code).toBe("MEMORY");
    },
  },
  {
    name: "arrays growing without end in a caught loop end with MEMORY",
    capability: "memoryLimit",
    code: `async () => {
      const all = [];
      while (true) { try { all.push(new Array(100000).fill(all.length)); } catch { all.push("again"); } }
    }`,
    // a sandbox that lets the program catch its out-of-memory ends it at the time limit instead
    limits: { memoryBytes: MEMORY_BYTES, timeoutMs: 10_000 },
    check: ({ outcome }) => {
      expect(["MEMORY", "TIMEOUT"]).toContain(errorOf(outcome).code);
    },
  },

  // ---- recursion and size ---------------------------------------------------------------------------
  {
    name: "JSON.parse of deeply nested text parses in the sandbox or ends with a clear error",
    code: `async () => {
      const depth = 100000;
      const value = JSON.parse("[".repeat(depth) + "]".repeat(depth));
      let found = 0;
      for (let node = value; Array.isArray(node) && node.length > 0; node = node[0]) found++;
      return found + 1;
    }`,
    check: ({ outcome }) => {
      if ("error" in outcome) {
        expect(["THROWN", "MEMORY"]).toContain(outcome.error.code);
        expect(outcome.error.message).toMatch(/stack|recursion|memory|deep/i);
      } else {
        expect(outcome.result).toBe(100000);
      }
    },
  },
  {
    name: "a deeply nested argument is refused in the sandbox or by the host, never half-delivered",
    code: `async () => {
      let deep = { end: true };
      for (let i = 0; i < 100000; i++) deep = { next: deep };
      try { await ns.echo(deep); return "sent"; } catch (error) { return "refused: " + error.message; }
    }`,
    check: ({ outcome, calls }) => {
      if ("error" in outcome) {
        expect(["THROWN", "MEMORY"]).toContain(outcome.error.code);
        expect(calls).toEqual([]);
        return;
      }
      const result = outcome.result as string;
      expect(result).toMatch(/^(sent|refused: .)/);
      expect(calls.length).toBeLessThanOrEqual(1);
      if (result === "sent") expect(calls).toHaveLength(1);
      for (const call of calls) {
        let depth = 0;
        let node = call as { next?: unknown; end?: boolean };
        while (node.next) {
          node = node.next as typeof node;
          depth++;
        }
        expect(depth).toBe(100000);
        expect(node.end).toBe(true);
      }
    },
  },
  {
    name: "a huge string argument is refused or delivered whole",
    code: `async () => {
      const big = "x".repeat(8 * 1024 * 1024);
      try { const back = await ns.echo(big); return "echoed " + back.length; }
      catch (error) { return "refused: " + error.message; }
    }`,
    limits: { timeoutMs: 30_000 },
    check: ({ outcome, calls }) => {
      if ("error" in outcome) {
        expect(outcome.error.code).toBe("MEMORY");
        expect(calls.length).toBeLessThanOrEqual(1);
      } else if (String(outcome.result).startsWith("refused: ")) {
        expect(calls.length).toBeLessThanOrEqual(1);
      } else {
        expect(outcome.result).toBe(`echoed ${8 * 1024 * 1024}`);
        expect(calls).toHaveLength(1);
      }
      for (const call of calls) expect(call).toBe("x".repeat(8 * 1024 * 1024));
    },
  },
  {
    name: "a huge string result is returned whole or refused",
    code: `async () => "y".repeat(16 * 1024 * 1024)`,
    limits: { timeoutMs: 30_000 },
    check: ({ outcome }) => {
      if ("error" in outcome) expect(["MEMORY", "NOT_SERIALIZABLE"]).toContain(outcome.error.code);
      else expect(outcome.result).toBe("y".repeat(16 * 1024 * 1024));
    },
  },
  {
    name: "a result of 200,000 objects is returned whole or refused",
    code: `async () => Array.from({ length: 200000 }, (_, i) => ({ i, even: i % 2 === 0 }))`,
    limits: { timeoutMs: 30_000 },
    check: ({ outcome }) => {
      if ("error" in outcome) {
        expect(["MEMORY", "NOT_SERIALIZABLE"]).toContain(outcome.error.code);
        return;
      }
      const list = outcome.result as { i: number; even: boolean }[];
      expect(list).toHaveLength(200000);
      expect(list[199999]).toEqual({ i: 199999, even: false });
    },
  },
  {
    name: "a thrown value whose toString, valueOf and Symbol.toPrimitive throw is still reported",
    code: `async () => {
      const trap = () => { throw new Error("conversion trap"); };
      throw { [Symbol.toPrimitive]: trap, toString: trap, valueOf: trap, get name() { return { toString: trap }; } };
    }`,
    check: ({ outcome }) => {
      const error = errorOf(outcome);
      expect(error.code).toBe("THROWN");
      expect(typeof error.message).toBe("string");
      expect(error.message.length).toBeGreaterThan(0);
    },
  },
];
