// Attacks that reach for the host: constructors, frames and callers (every function constructor,
// bound host methods, \`Error.prepareStackTrace\` frames, \`caller\` chains, the global's prototype
// chain, \`eval\`, \`import()\`, statements around the function, WebAssembly, a host error's stack).
import { expect } from "vitest";
import { errorOf, HOST_GLOBALS, MARKER, resultOf } from "../suite-parts.ts";
import type { Attack } from "./attack.ts";
import { HOST_FRAME } from "./attack-host.ts";

/** Reaching the host: constructors, frames and callers. */
export const ESCAPE_ATTACKS: readonly Attack[] = [
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
        /attack-host|attacks-conformance|executor-fixtures|executor-conformance|node_modules/,
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
      expect(seen.stack).not.toMatch(/attack-host|node_modules/);
    },
  },
];
