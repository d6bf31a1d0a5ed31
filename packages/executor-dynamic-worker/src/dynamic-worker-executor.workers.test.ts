// DynamicWorkerExecutor inside workerd with a real Worker Loader: the executor suite, then what the
// suite does not cover (outbound network, modules and bindings, syntax errors with the program's own
// line numbers, the host watchdog, configuration errors). One file on purpose: local workerd can
// crash ("tried to defer destruction during isolate shutdown") when the pool shuts down one test
// file's isolate while loaded workers that talked to it are still being released.

import { env, exports } from "cloudflare:workers";
import { runExecutorConformance, runJournalIntegrity } from "@codemode/conformance";
import { CodemodeError, type ExecuteRequest, type HostNamespaces } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { recordedRequests } from "../test/worker.ts";
import {
  type DynamicWorkerCode,
  DynamicWorkerExecutor,
  sandboxLoader,
  type WorkerLoaderLike,
} from "./index.ts";

/**
 * What instrumentation cannot interrupt: one built-in call that runs long without calling back into
 * the program. Local workerd runs the sandbox on the host's thread, so nothing ends it before it
 * returns; in production the platform's CPU limit does.
 */
const KNOWN_GAPS = [
  {
    reason:
      "one long built-in call (a regular expression's backtracking) never reaches a tick, and local workerd enforces no CPU limit",
    tests: ["runaway code > catastrophic backtracking in one regular expression ends with TIMEOUT"],
  },
];

// what a Durable Object host uses: every pass loaded and run in a request of its own
runExecutorConformance({
  name: "DynamicWorkerExecutor through SandboxLoader",
  createExecutor: (settings) =>
    new DynamicWorkerExecutor({ loader: sandboxLoader(exports.SandboxLoader), ...settings }),
  capabilities: ["timeout", "abort", "console", "replay", "callLimit"],
  sandboxGlobals: ["fetch", "setTimeout"],
  knownGaps: KNOWN_GAPS,
});

// the durable runtime's guarantees (ARCHITECTURE §7) over this executor, through SandboxLoader too
runJournalIntegrity({
  name: "DynamicWorkerExecutor through SandboxLoader",
  createExecutor: () => new DynamicWorkerExecutor({ loader: sandboxLoader(exports.SandboxLoader) }),
});

// `env.LOADER` straight from the test's context, which lasts as long as the file, like a Durable
// Object's: the workerd bug SandboxLoader works around (see the README) aborts the process once
// enough loaded workers wait for the collector, so this run leaves out the groups that load the most
// (the attack corpus, runaway code, divergence and the replay property), which the run above covers.
runExecutorConformance({
  name: "DynamicWorkerExecutor",
  createExecutor: (settings) => new DynamicWorkerExecutor({ loader: env.LOADER, ...settings }),
  capabilities: ["timeout", "abort", "console", "replay", "callLimit"],
  sandboxGlobals: ["fetch", "setTimeout"],
  groups: [
    "basics",
    "host calls",
    "prelude",
    "errors as data",
    "isolation",
    "limits",
    "pause",
    "replay",
    "console",
  ],
});

const run = (executor: DynamicWorkerExecutor, code: string, timeoutMs?: number) =>
  executor.execute({ code, globals: {}, ...(timeoutMs ? { limits: { timeoutMs } } : {}) });

describe("DynamicWorkerExecutor", () => {
  it("blocks fetch by default and routes it through a given Fetcher", async () => {
    const code = `async () => {
      try { const response = await fetch("https://api.example.com/v1?q=1", { method: "POST" }); return await response.json(); }
      catch (error) { return "blocked: " + error.message; }
    }`;
    const blocked = await run(new DynamicWorkerExecutor({ loader: env.LOADER }), code);
    expect(blocked).toMatchObject({ result: expect.stringMatching(/^blocked: .*not permitted/) });
    const routed = await run(
      new DynamicWorkerExecutor({ loader: env.LOADER, globalOutbound: exports.default }),
      code,
    );
    expect(routed).toMatchObject({
      result: { routed: true, method: "POST", url: "https://api.example.com/v1?q=1" },
    });
  });

  it("lets the program import the modules programImports names, which see the given bindings", async () => {
    const executor = new DynamicWorkerExecutor({
      loader: env.LOADER,
      modules: {
        "greet.js": `import { env } from "cloudflare:workers";
          export function greet(name) { return env.GREETING + ", " + name; }`,
      },
      bindings: { GREETING: "Hello" },
      programImports: ["greet.js"],
    });
    const outcome = await run(executor, `async () => (await import("./greet.js")).greet("Ada")`);
    expect(outcome).toMatchObject({ result: "Hello, Ada" });
    const bare = await run(executor, `async () => (await import("greet.js")).greet("Bo")`);
    expect(bare).toMatchObject({ result: "Hello, Bo" });
  });

  it("keeps the bindings and modules from the program unless programImports names them", async () => {
    const options = {
      loader: env.LOADER,
      modules: {
        "secret.js": `import { env } from "cloudflare:workers"; export const key = env.API_KEY;`,
      },
      bindings: { API_KEY: "host-only-secret" },
    };
    const code = `async () => {
      const tries = [];
      const attempt = async (specifier) => {
        try { const loaded = await import(specifier); tries.push(specifier + ": " + JSON.stringify(loaded.env ?? loaded.key)); }
        catch (error) { tries.push(specifier + ": refused " + error.message); }
      };
      for (const specifier of ["cloudflare:workers", "./secret.js", "secret.js", "./tick.js", "./harness.js"]) await attempt(specifier);
      const computed = "cloudflare" + ":" + "workers";
      await attempt(computed);
      await attempt({ toString: () => "cloudflare:workers" });
      return tries;
    }`;
    const closed = (await run(new DynamicWorkerExecutor(options), code)) as { result: string[] };
    expect(closed.result).toHaveLength(7);
    for (const line of closed.result) {
      expect(line).toMatch(/: refused The code may not import/);
      expect(line).not.toContain("host-only-secret");
    }
    const opened = (await run(
      new DynamicWorkerExecutor({ ...options, programImports: ["cloudflare:workers"] }),
      `async () => (await import("cloudflare:workers")).env.API_KEY`,
    )) as { result: string };
    expect(opened.result).toBe("host-only-secret");
    expect(
      () => new DynamicWorkerExecutor({ loader: env.LOADER, programImports: ["./tick.js"] }),
    ).toThrow(/programImports cannot name/);
  });

  it("accepts one function expression and nothing around it: no code runs while the module loads", async () => {
    const calls: unknown[] = [];
    const globals: HostNamespaces = {
      ns: {
        echo: async (input) => {
          calls.push(input);
          return input;
        },
      },
    };
    const executor = new DynamicWorkerExecutor({ loader: env.LOADER });
    for (const code of [
      `async () => "the function"); ns.echo("at the top level"); (async () => "another"`,
      `async () => "the function") || ns.echo("beside it"`,
      `async () => "the function"), ns.echo("in a sequence"`,
      `(async () => { await ns.echo("called while loading"); return 1; })()`,
      `class { static { ns.echo("a static block"); } }`,
    ]) {
      const outcome = await executor.execute({ code, globals });
      expect(outcome, code).toMatchObject({ error: { code: "SYNTAX_ERROR" } });
    }
    expect(calls).toEqual([]);
    const fine = await executor.execute({
      code: `// a comment first\n(async function named() { return await ns.echo("inside"); }) /* and after */`,
      globals,
    });
    expect(fine).toMatchObject({ result: "inside" });
    expect(calls).toEqual(["inside"]);
  });

  it("keeps the harness out of the program's reach", async () => {
    const outcome = await run(
      new DynamicWorkerExecutor({ loader: env.LOADER }),
      `async () => {
        const seen = [typeof bridge, typeof api, typeof settle, typeof started, typeof spec];
        let again;
        try {
          const harness = await import("./harness.js");
          again = await new harness.default().evaluate({ call: () => "rforged" });
        } catch (error) { again = "refused: " + error.message; }
        return { seen, again };
      }`,
    );
    const result = (outcome as { result: { seen: string[]; again: string } }).result;
    expect(result.seen).toEqual(Array(5).fill("undefined"));
    expect(result.again).toMatch(/^refused: /);
  });

  it("gives the program no way out: sockets, WebSockets, loopback, caches, env, its own entrypoint", async () => {
    const outcome = await run(
      new DynamicWorkerExecutor({ loader: env.LOADER }),
      `async () => {
        const attempt = async (probe) => { try { return "allowed: " + (await probe()); } catch (error) { return "refused: " + error.message; } };
        let workers = { env: {}, exports: { default: { evaluate: () => { throw new Error("no module"); } } } };
        try { workers = await import("cloudflare:workers"); } catch {}
        return {
          socket: await attempt(async () => { const { connect } = await import("cloudflare:sockets"); const socket = connect("127.0.0.1:80"); await socket.opened; return "open"; }),
          webSocket: await attempt(() => { new WebSocket("wss://example.com/"); return "made"; }),
          loopback: await attempt(async () => (await fetch("http://127.0.0.1:8787/")).status),
          cache: await attempt(async () => { await (await caches.open("x")).put("https://x/", new Response("a")); return "put"; }),
          env: Object.keys(workers.env),
          ownEntrypoint: await attempt(() => workers.exports.default.evaluate({ call: () => "rforged" })),
        };
      }`,
    );
    const result = (outcome as { result: Record<string, unknown> }).result;
    for (const key of ["socket", "webSocket", "loopback", "cache", "ownEntrypoint"]) {
      expect(result[key], key).toMatch(/^refused: /);
    }
    expect(result.env).toEqual([]);
  });

  it("reports a syntax error with the program's own line and column", async () => {
    const outcome = await run(
      new DynamicWorkerExecutor({ loader: env.LOADER }),
      "async () => {\n  const a = 1;\n  return a +;\n}",
    );
    expect(outcome).toMatchObject({
      error: {
        code: "SYNTAX_ERROR",
        name: "SyntaxError",
        message: expect.stringMatching(/line 3/),
      },
    });
  });

  it("answers on time from the host when the sandbox's own timer is defeated", async () => {
    // The program clears every timer id, the harness's too, then waits on a host call that never
    // settles: only the host's watchdog can end the pass.
    const outcome = await new DynamicWorkerExecutor({ loader: env.LOADER }).execute({
      code: "async () => { for (let id = 0; id < 10000; id++) clearTimeout(id); await ns.forever(); }",
      globals: { ns: { forever: () => new Promise(() => {}) } },
      limits: { timeoutMs: 100 },
    });
    // without the watchdog the pass would never end: the test's timeout is the bound, no clock is read
    expect(outcome).toMatchObject({
      error: { code: "TIMEOUT", message: expect.stringContaining("longer than 100 ms") },
    });
  });

  it("ends at its time limit a program that clears every timer id and waits for a promise nothing can settle", async () => {
    // the program's clearTimeout reaches only its own timers (events of the program), never the
    // pass's deadline
    const outcome = await new DynamicWorkerExecutor({ loader: env.LOADER }).execute({
      code: "async () => { for (let id = 0; id < 10000; id++) clearTimeout(id); await new Promise(() => {}); }",
      globals: {},
      limits: { timeoutMs: 300 },
    });
    expect(outcome).toMatchObject({ error: { code: "TIMEOUT" } });
  });

  it("puts ticks into the program only where they can work: interruptRunaway", async () => {
    const programs: string[] = [];
    const loader = loaderWith((code) => {
      programs.push(String(code.modules["program.js"]));
      return code;
    });
    const code = "async () => { let n = 0; for (let i = 0; i < 3; i++) n += i; return n; }";
    for (const interruptRunaway of ["auto", true, false] as const) {
      const outcome = await new DynamicWorkerExecutor({ loader, interruptRunaway }).execute({
        code,
        globals: {},
      });
      expect(outcome).toMatchObject({ result: 3 });
    }
    const tick = /\(__tickM=__tickA\(\)\)<0/;
    // local workerd's clock moves while code runs: "auto" instruments here, as true does
    expect(programs.map((program) => tick.test(program))).toEqual([true, true, false]);
    // the import() check stays whatever the ticks
    for (const program of programs) expect(program).toContain("importable as __tickI");
    expect(() => new DynamicWorkerExecutor({ loader, interruptRunaway: "yes" as never })).toThrow(
      /interruptRunaway/,
    );
  });

  it("reports a sandbox ended by the platform's CPU limit as TIMEOUT", async () => {
    const loader = loaderWith(undefined, () =>
      Promise.reject(new Error("Worker exceeded CPU time limit.")),
    );
    // (the loaded program itself returns at once: local workerd has no CPU limit to hit)
    const outcome = await new DynamicWorkerExecutor({ loader, interruptRunaway: false }).execute({
      code: "async () => 1",
      globals: {},
    });
    expect(outcome).toMatchObject({
      error: { code: "TIMEOUT", message: expect.stringMatching(/CPU time/) },
    });
  });

  it("refuses a sandboxLoader without the exported SandboxLoader", () => {
    expect(() => sandboxLoader(undefined as never)).toThrow(/export \{ SandboxLoader \}/);
  });

  it("refuses bad options when it is created", () => {
    expect(() => new DynamicWorkerExecutor({ loader: undefined as never })).toThrow(CodemodeError);
    expect(() => new DynamicWorkerExecutor({ loader: env.LOADER, timeout: 0 })).toThrow(/timeout/);
    expect(
      () => new DynamicWorkerExecutor({ loader: env.LOADER, modules: { "harness.js": "" } }),
    ).toThrow(/reserved/);
  });
});

// ---- runaway code: the host's thread ------------------------------------------------------------

/**
 * The limit of the spinning pass in spinBeside: long enough that what must happen before it (a host
 * timer of 100 ms, a pass beside it) has room on a loaded machine, and the bounds past it too.
 */
const SPIN_LIMIT_MS = 5_000;

/** Runs `code` with a 5 s limit while a host timer of 100 ms and a second pass run beside it. */
async function spinBeside(loader: WorkerLoaderLike, code: string) {
  const executor = new DynamicWorkerExecutor({ loader });
  const started = Date.now();
  let timerFiredAt: number | undefined;
  const timer = setTimeout(() => {
    timerFiredAt = Date.now() - started;
  }, 100);
  let besideEndedAt: number | undefined;
  // another request to the same host, started once the spinning pass is under way
  const beside = new Promise((resolve) => setTimeout(resolve, 50))
    .then(() => executor.execute({ code: "async () => 'beside'", globals: {} }))
    .then((outcome) => {
      besideEndedAt = Date.now() - started;
      return outcome;
    });
  const outcome = await executor.execute({
    code,
    globals: {},
    limits: { timeoutMs: SPIN_LIMIT_MS },
  });
  clearTimeout(timer);
  return { outcome, timerFiredAt, besideEndedAt, beside: await beside };
}

describe("DynamicWorkerExecutor against runaway code", () => {
  const loaders = () =>
    [
      ["SandboxLoader", sandboxLoader(exports.SandboxLoader)],
      ["env.LOADER", env.LOADER],
    ] as const;

  it("keeps the host answering while an async program spins: its timers fire, other passes run", async () => {
    for (const [name, loader] of loaders()) {
      const run = await spinBeside(loader, "async () => { while (true) {} }");
      // ended at its own limit (the message names it); a loop that did not end would run into the
      // test's timeout, so no upper bound on its time is needed
      expect(run.outcome, name).toMatchObject({
        error: {
          code: "TIMEOUT",
          message: expect.stringContaining(`longer than ${SPIN_LIMIT_MS} ms`),
        },
      });
      // the loop yields to the event loop every 25 ms or so: both happen while it spins, well before
      // its deadline (a thread held until the deadline runs them only after it, as the next test
      // shows; these bounds are 40 times the 100 ms timer, and load can only make a held thread later)
      expect(run.timerFiredAt, name).toBeLessThan(SPIN_LIMIT_MS - 1_000);
      expect(run.beside, name).toMatchObject({ result: "beside" });
      expect(run.besideEndedAt, name).toBeLessThan(SPIN_LIMIT_MS - 1_000);
    }
  }, 180_000);

  it("a synchronous function that spins holds the thread until the deadline, then the pass ends with TIMEOUT", async () => {
    for (const [name, loader] of loaders()) {
      const run = await spinBeside(
        loader,
        "async () => { const spin = () => { while (true) {} }; spin(); return 'escaped'; }",
      );
      expect(run.outcome, name).toMatchObject({
        error: {
          code: "TIMEOUT",
          message: expect.stringContaining(`longer than ${SPIN_LIMIT_MS} ms`),
        },
      });
      // nothing else on the thread ran before the deadline (lower bounds: load only makes them later)
      expect(run.timerFiredAt ?? Infinity, name).toBeGreaterThanOrEqual(SPIN_LIMIT_MS - 100);
      expect(run.besideEndedAt ?? Infinity, name).toBeGreaterThanOrEqual(SPIN_LIMIT_MS - 100);
      expect(run.beside, name).toMatchObject({ result: "beside" });
    }
  }, 180_000);

  it("ends recursion that catches its own stack overflow and recurses again, on time", async () => {
    // exponential in the stack's depth; past the deadline every call throws at its first tick, so
    // the frames unwind one by one. (QuickJS polls its interrupt handler by count, and each stack
    // overflow builds a backtrace of the whole stack: it overshoots by seconds, so this case is
    // not in the conformance suite.)
    // the recursion takes exponential time: a pass the deadline did not end would run into the
    // test's timeout, so the outcome alone tells it ended at its limit
    const outcome = await new DynamicWorkerExecutor({ loader: loaderWith() }).execute({
      code: "async () => { const f = () => { try { f(); } catch {} try { f(); } catch {} }; f(); return 'escaped'; }",
      globals: {},
      limits: { timeoutMs: 1_000 },
    });
    expect(outcome).toMatchObject({
      error: { code: "TIMEOUT", message: expect.stringContaining("longer than 1000 ms") },
    });
  });

  it("keeps the deadline of the whole pass for a saved program run with codemode.run", async () => {
    // the executor's own limit is past the test's timeout: a saved program given it instead of what
    // the pass has left would run into the test's timeout
    const executor = new DynamicWorkerExecutor({ loader: loaderWith(), timeout: 600_000 });
    const outcome = await executor.execute({
      code: `async () => {
        const spin = "async () => { for (;;) { try { for (;;) {} } catch {} } }";
        // the pass waits a while first: the saved program gets what is left, not a limit of its own
        await new Promise((resolve) => setTimeout(resolve, 500));
        let nested;
        try { await globalThis.nest(spin); } catch (error) { nested = error.code; }
        return nested;
      }`,
      globals: {},
      prelude: "globalThis.nest = globalThis.__codemodeEvaluate;",
      limits: { timeoutMs: 1_500 },
    });
    expect(outcome).toMatchObject({
      error: { code: "TIMEOUT", message: expect.stringContaining("longer than 1500 ms") },
    });
  });

  it("reports a program acorn cannot parse as SYNTAX_ERROR, also when a saved program is run", async () => {
    const executor = new DynamicWorkerExecutor({ loader: loaderWith() });
    const direct = await executor.execute({
      code: "async () => {\n  for (;;) {\n    return a +;\n  }\n}",
      globals: {},
    });
    expect(direct).toMatchObject({
      error: {
        code: "SYNTAX_ERROR",
        message: "Unexpected token (line 3, column 15): return a +;",
      },
    });
    const nested = await executor.execute({
      code: `async () => { try { return await globalThis.nest("async () => {"); } catch (error) { return [error.code, error.message]; } }`,
      globals: {},
      prelude: "globalThis.nest = globalThis.__codemodeEvaluate;",
    });
    expect(nested).toMatchObject({
      result: ["SYNTAX_ERROR", expect.stringMatching(/^Unexpected token \(line 1/)],
    });
  });
});

// ---- hostile programs against the host ----------------------------------------------------------

/** The loader of a Durable Object host, with every loaded worker's code seen first by `edit`. */
function loaderWith(
  edit: (code: DynamicWorkerCode, index: number) => DynamicWorkerCode = (code) => code,
  wrap?: (evaluate: Promise<string>, index: number) => Promise<string>,
): WorkerLoaderLike & { loads: number } {
  const inner = sandboxLoader(exports.SandboxLoader);
  const loader = {
    loads: 0,
    load(code: DynamicWorkerCode) {
      const index = loader.loads++;
      const worker = inner.load(edit(code, index));
      if (!wrap) return worker;
      return {
        getEntrypoint: () => {
          const harness = worker.getEntrypoint() as {
            evaluate(bridge: unknown, input?: string): Promise<string>;
          };
          return {
            evaluate: (bridge: unknown, input?: string) =>
              wrap(harness.evaluate(bridge, input), index),
          };
        },
      };
    },
  };
  return loader;
}

/** A host whose methods note every call: `ns.echo`, and `ns.hidden` (own but not enumerable). */
function spiedHost(): { globals: HostNamespaces; calls: string[] } {
  const calls: string[] = [];
  const ns: Record<string, (input: unknown) => Promise<unknown>> = {
    echo: async (input) => {
      calls.push("ns.echo");
      return input;
    },
  };
  Object.defineProperty(ns, "hidden", {
    value: async () => {
      calls.push("ns.hidden");
      return "hidden reached";
    },
    enumerable: false,
  });
  return { globals: { ns }, calls };
}

/** A replay hint of `count` recorded `ns.echo` calls (input i, result i), noting every advance. */
function replayOf(count: number): {
  hint: NonNullable<ExecuteRequest["replay"]>;
  advanced: number[];
} {
  const advanced: number[] = [];
  const calls = Array.from({ length: count }, (_, index) => ({
    namespace: "ns",
    method: "echo",
    input: String(index),
    result: String(index),
  }));
  return { hint: { calls, advance: (n) => void advanced.push(n) }, advanced };
}

// The program installs getters on the prototypes of Object, Function, Array and Promise (for the
// names the harness and workerd's RPC objects use), a Symbol.toPrimitive and a toJSON on
// Object.prototype, replaces JSON's methods, and records every receiver and argument it is handed;
// then it calls every function it found on them, and everything reachable from globalThis is listed.
const ENUMERATE_ATTACK = `async () => {
  const apply = Reflect.apply, ownKeys = Reflect.ownKeys, getProto = Object.getPrototypeOf;
  const getD = Object.getOwnPropertyDescriptor, def = Object.defineProperty;
  const toTag = Object.prototype.toString, setAdd = Set.prototype.add, setHas = Set.prototype.has;
  const mapSet = Map.prototype.set, pushTo = Array.prototype.push, StringOf = String;
  const handed = new Set();
  const tags = new Map();
  let busy = false;
  const note = (value) => {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) return;
    if (apply(setHas, handed, [value])) return;
    apply(setAdd, handed, [value]);
    let tag = "?";
    try { tag = apply(toTag, value, []); } catch {}
    apply(mapSet, tags, [tag, true]);
  };
  const names = ["call", "evaluate", "fetch", "then", "catch", "finally", "constructor", "addLogs",
    "addReplayed", "close", "dup", "toJSON", "valueOf", "toString", "length", "0", "1", "name",
    "message", "stack", "code", "apply", "bind", "slice", "splice", "push", "outcome", "logs", "replayed", "result", "namespace", "method", "input"];
  const protos = [Object.prototype, Function.prototype, Array.prototype, Promise.prototype];
  const restore = [];
  for (const proto of protos) for (const name of names) {
    const desc = getD(proto, name);
    if (desc && !desc.configurable) continue;
    apply(pushTo, restore, [[proto, name, desc]]);
    def(proto, name, {
      configurable: true,
      get() {
        if (!busy) { busy = true; try { note(this); } finally { busy = false; } }
        return desc ? (desc.get ? apply(desc.get, this, []) : desc.value) : undefined;
      },
      set(value) { def(this, name, { value, writable: true, configurable: true, enumerable: true }); },
    });
  }
  def(Object.prototype, Symbol.toPrimitive, { configurable: true, value(hint) {
    if (!busy) { busy = true; try { note(this); } finally { busy = false; } }
    return hint === "number" ? NaN : "[primitive]";
  } });
  const stringify = JSON.stringify, parse = JSON.parse;
  JSON.stringify = function (...args) { if (!busy) { busy = true; try { note(this); for (const a of args) note(a); } finally { busy = false; } } return apply(stringify, JSON, args); };
  JSON.parse = function (...args) { if (!busy) { busy = true; try { note(this); for (const a of args) note(a); } finally { busy = false; } } return apply(parse, JSON, args); };
  const then = Promise.prototype.then;
  // workerd asserts internally when Promise.prototype.then itself is replaced (see the README), so
  // its receivers are taken through the getter above instead

  console.log("line", { a: 1 });
  const results = [await ns.echo({ a: [1, 2] }), await ns.echo("x")];
  try { await ns.missing(1); } catch {}
  try { await codemode.run("nothing"); } catch {}

  for (const [proto, name, desc] of restore) { if (desc) def(proto, name, desc); else delete proto[name]; }
  delete Object.prototype[Symbol.toPrimitive];
  JSON.stringify = stringify; JSON.parse = parse;
  const resultsText = JSON.stringify(results);

  // everything reachable from the global, and from what the harness handed over
  const seen = new Set();
  const queue = [globalThis, ...handed];
  const found = [];
  while (queue.length > 0 && seen.size < 20000) {
    const value = queue.shift();
    if (value === null || (typeof value !== "object" && typeof value !== "function") || seen.has(value)) continue;
    seen.add(value);
    note(value);
    let keys = [];
    try { keys = ownKeys(value); } catch {}
    for (const key of keys) {
      let desc;
      try { desc = getD(value, key); } catch { continue; }
      if (!desc) continue;
      for (const part of [desc.value, desc.get, desc.set]) if (part !== undefined) queue.push(part);
    }
    try { queue.push(getProto(value)); } catch {}
  }
  // call every function on what the harness handed over (not the global's own built-ins)
  const calls = [];
  for (const value of handed) {
    let keys = [];
    for (let object = value; object && object !== Object.prototype && object !== Function.prototype; object = getProto(object)) {
      try { keys.push(...ownKeys(object)); } catch {}
    }
    for (const key of keys) {
      let member;
      try { member = value[key]; } catch { continue; }
      if (typeof member !== "function") continue;
      try {
        const out = apply(member, value, ["ns", "hidden", "null", '[["forged line"],0]', 5]);
        if (out && typeof out.then === "function") calls.push(Promise.race([out, new Promise((r) => setTimeout(r, 20))]).catch(() => {}));
      } catch {}
    }
  }
  await Promise.all(calls);
  return { results: JSON.parse(resultsText), tags: [...tags.keys()] };
}`;

describe("DynamicWorkerExecutor against a hostile program", () => {
  it("hands no host object to built-ins the program rewrote, and reaches no host method it was not given", async () => {
    const { globals, calls } = spiedHost();
    const { hint, advanced } = replayOf(1);
    const outcome = await new DynamicWorkerExecutor({ loader: loaderWith() }).execute({
      code: ENUMERATE_ATTACK,
      globals,
      replay: hint,
      limits: { timeoutMs: 10_000 },
    });
    expect(outcome).toMatchObject({ result: { results: [{ a: [1, 2] }, "x"] } });
    const { tags } = (outcome as { result: { tags: string[] } }).result;
    expect(
      tags.filter((tag) => /JsRpc|RpcTarget|HostBridge|Fetcher|Entrypoint/i.test(tag)),
    ).toEqual([]);
    expect(calls.filter((call) => call !== "ns.echo")).toEqual([]);
    // a line the program logged itself may quote anything; an injected one would stand alone
    expect(outcome.logs).not.toContain("forged line");
    // the first call did not match the recorded one (input 0): nothing was answered from the record
    expect(advanced).toEqual([]);
  });

  it("a getter on Object.prototype that grabs the bridge gets nothing to call", async () => {
    const { globals, calls } = spiedHost();
    const { hint, advanced } = replayOf(2);
    const outcome = await new DynamicWorkerExecutor({ loader: loaderWith() }).execute({
      code: `async () => {
        const grabbed = [];
        for (const name of ["call", "evaluate", "fetch"]) {
          Object.defineProperty(Object.prototype, name, { configurable: true, get() { grabbed.push(this); return undefined; } });
        }
        await ns.echo(0);
        await ns.echo("live");
        for (const name of ["call", "evaluate", "fetch"]) delete Object.prototype[name];
        const tries = [];
        for (const stub of grabbed) {
          for (const attempt of [
            () => stub.addReplayed(1000), () => stub.addLogs([["forged line"], 0]),
            () => stub.call("ns", "hidden", "null", undefined, 0), () => stub.close(),
          ]) {
            try { tries.push(String(await attempt())); } catch (error) { tries.push("refused"); }
          }
        }
        return { grabbed: grabbed.map((value) => Object.prototype.toString.call(value)), tries };
      }`,
      globals,
      replay: hint,
    });
    const result = (outcome as { result: { grabbed: string[]; tries: string[] } }).result;
    expect(result.grabbed.filter((tag) => /JsRpc/.test(tag))).toEqual([]);
    expect(calls).toEqual(["ns.echo"]);
    expect(advanced).toEqual([1]);
    expect(outcome.logs).not.toContain("forged line");
  });

  it("checks every message a sandbox sends, whatever it sends, and calls back into none", async () => {
    // A sandbox that ignores the harness: its main module talks to the bridge directly.
    const hostile = `import { WorkerEntrypoint } from "cloudflare:workers";
      export default class extends WorkerEntrypoint {
        async evaluate(bridge) {
          const out = [];
          let calledBack = 0;
          const sly = { toString() { calledBack++; return "ns"; }, [Symbol.toPrimitive]() { calledBack++; return "ns"; } };
          const attempt = async (what, run) => { try { out.push(what + ": " + String(await run())); } catch (error) { out.push(what + ": threw " + error.message); } };
          for (const name of ["addReplayed", "addLogs", "close"]) await attempt(name, () => bridge[name](1));
          await attempt("hidden", () => bridge.call("ns", "hidden", "null"));
          await attempt("objectName", () => bridge.call(sly, "echo", "1"));
          await attempt("objectLine", () => bridge.call("ns", "echo", "1", [[sly, "forged line"], 0]));
          await attempt("objectInput", () => bridge.call("ns", "echo", sly));
          await attempt("fetchObject", () => bridge.fetch(sly));
          await attempt("tooMany", () => bridge.call("ns", "echo", "2", undefined, 1000));
          await attempt("after", () => bridge.call("ns", "echo", "3"));
          return JSON.stringify({ outcome: ["ok", JSON.stringify({ out, calledBack })] });
        }
      }`;
    const { globals, calls } = spiedHost();
    const { hint, advanced } = replayOf(2);
    const executor = new DynamicWorkerExecutor({
      loader: loaderWith((code) => ({
        ...code,
        modules: { ...code.modules, "harness.js": hostile },
      })),
    });
    const outcome = await executor.execute({ code: "async () => 1", globals, replay: hint });
    expect(outcome).toMatchObject({
      error: { code: "THROWN", message: expect.stringMatching(/broke the executor's protocol/) },
    });
    expect(advanced).toEqual([]);
    expect(calls).toEqual([]);
    expect(outcome.logs).toEqual([]);
  });

  it("holds no more input of calls in flight than maxInputCharsInFlight, whatever the sandbox sends", async () => {
    // A sandbox that ignores the harness: five calls of 402 characters at once, none answered yet.
    const hostile = `import { WorkerEntrypoint } from "cloudflare:workers";
      export default class extends WorkerEntrypoint {
        async evaluate(bridge) {
          const input = JSON.stringify("x".repeat(400));
          const replies = await Promise.all([1, 2, 3, 4, 5].map(() => bridge.call("ns", "slow", input)));
          const after = await bridge.call("ns", "slow", input);
          return JSON.stringify({ outcome: ["ok", JSON.stringify([...replies, after].map(({ reply }) => reply[0] === "ok" ? "ran" : reply[3]))] });
        }
      }`;
    let running = 0;
    let most = 0;
    const globals: HostNamespaces = {
      ns: {
        slow: async () => {
          most = Math.max(most, ++running);
          await new Promise((resolve) => setTimeout(resolve, 50));
          running--;
          return true;
        },
      },
    };
    const executor = new DynamicWorkerExecutor({
      loader: loaderWith((code) => ({
        ...code,
        modules: { ...code.modules, "harness.js": hostile },
      })),
      maxInputCharsInFlight: 1_000,
    });
    const outcome = await executor.execute({ code: "async () => 1", globals });
    // two fit (804 of 1,000); once they are answered, the room is back
    expect(outcome).toMatchObject({
      result: ["ran", "ran", "BUDGET_EXCEEDED", "BUDGET_EXCEEDED", "BUDGET_EXCEEDED", "ran"],
    });
    expect(most).toBe(2);
    expect(
      () => new DynamicWorkerExecutor({ loader: env.LOADER, maxInputCharsInFlight: 0 }),
    ).toThrow(/maxInputCharsInFlight/);
  });

  it("refuses a replay count larger than the recorded calls left, and any after a live call", async () => {
    const hostile = (
      first: number,
      second: number,
    ) => `import { WorkerEntrypoint } from "cloudflare:workers";
      export default class extends WorkerEntrypoint {
        async evaluate(bridge) {
          await bridge.call("ns", "echo", "1", undefined, ${first});
          await bridge.call("ns", "echo", "2", undefined, ${second});
          return JSON.stringify({ outcome: ["ok", "1"] });
        }
      }`;
    for (const [first, second, expected] of [
      [3, 0, []],
      [1, 1, [1]],
      [1.5, 0, []],
      [-1, 0, []],
    ] as const) {
      const { globals, calls } = spiedHost();
      const { hint, advanced } = replayOf(2);
      const loader = loaderWith((code) => ({
        ...code,
        modules: { ...code.modules, "harness.js": hostile(first, second) },
      }));
      const outcome = await new DynamicWorkerExecutor({ loader }).execute({
        code: "async () => 1",
        globals,
        replay: hint,
      });
      expect(outcome, `${first}, ${second}`).toMatchObject({ error: { code: "THROWN" } });
      expect(advanced).toEqual(expected);
      expect(calls.length).toBeLessThanOrEqual(1);
    }
  });

  it("bounds nested runs of the evaluate hook, and keeps the hook itself from the program", async () => {
    // a prelude that hands the hook on (as codemode.run does, for any snippet the program names)
    const prelude = `globalThis.nest = globalThis.__codemodeEvaluate;`;
    const loader = loaderWith();
    const outcome = await new DynamicWorkerExecutor({ loader }).execute({
      code: `async () => {
        const chain = async (depth) => {
          let source = "async () => 'bottom'";
          for (let i = 0; i < depth; i++) source = "async () => nest(" + JSON.stringify(source) + ")";
          try { return await nest(source); } catch (error) { return "refused: " + error.message; }
        };
        const wide = await Promise.all(Array.from({ length: 40 }, () => nest("async () => 1").then(() => "ran", (error) => error.code)));
        return { hookVisible: typeof globalThis.__codemodeEvaluate, deep: await chain(10), wide };
      }`,
      globals: {},
      prelude,
      limits: { timeoutMs: 20_000 },
    });
    const result = (outcome as { result: { hookVisible: string; deep: string; wide: string[] } })
      .result;
    expect(result.hookVisible).toBe("undefined");
    expect(result.wide.filter((entry) => entry === "ran").length).toBeLessThanOrEqual(16);
    expect(result.wide).toContain("BUDGET_EXCEEDED");
    expect(loader.loads).toBeLessThanOrEqual(1 + 16);
  });

  it("limits how deep nested runs go, with a clear error", async () => {
    const prelude = `globalThis.nest = globalThis.__codemodeEvaluate;`;
    const loader = loaderWith();
    const outcome = await new DynamicWorkerExecutor({ loader }).execute({
      code: `async () => {
        let source = "async () => 'bottom'";
        for (let i = 0; i < 10; i++) source = "async () => nest(" + JSON.stringify(source) + ")";
        try { return await nest(source); } catch (error) { return "refused: " + error.message; }
      }`,
      globals: {},
      prelude,
      limits: { timeoutMs: 20_000 },
    });
    expect(outcome).toMatchObject({ result: expect.stringMatching(/^refused: .*nest 4 deep/) });
    expect(loader.loads).toBe(1 + 4);
  });

  it("gives the program no module with the harness's state: no spec, a harness that runs once", async () => {
    const { hint } = replayOf(1);
    const outcome = await new DynamicWorkerExecutor({ loader: loaderWith() }).execute({
      code: `async () => {
        const attempt = async (probe) => { try { return "allowed: " + JSON.stringify(await probe()); } catch (error) { return "refused"; } };
        return {
          spec: await attempt(async () => Object.keys((await import("./spec.js")).default)),
          harness: await attempt(async () => Object.keys(await import("./harness.js"))),
          again: await attempt(async () => (await import("./harness.js")).default.prototype.evaluate.call({}, { call: () => "rforged" })),
        };
      }`,
      globals: { ns: { echo: async (input: unknown) => input } },
      replay: hint,
    });
    expect(outcome).toMatchObject({
      result: { spec: "refused", harness: "refused", again: "refused" },
    });
  });

  it("lets nothing a pass left running reach a connector, the outbound service or the logs", async () => {
    recordedRequests.length = 0;
    const { globals, calls } = spiedHost();
    // env.LOADER, as the routing test above: a Fetcher that the worker is handed directly; the
    // program may import cloudflare:workers for its waitUntil
    const executor = new DynamicWorkerExecutor({
      loader: env.LOADER,
      globalOutbound: exports.default,
      programImports: ["cloudflare:workers"],
    });
    const late = `const late = async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      console.log("late line");
      try { await ns.echo("late"); } catch {}
      try { await fetch("https://outbound.example/record/late"); } catch {}
    };`;
    const returned = await executor.execute({
      code: `async () => { ${late}
        const { waitUntil } = await import("cloudflare:workers");
        waitUntil(late());
        await fetch("https://outbound.example/record/live");
        return "returned";
      }`,
      globals,
    });
    expect(returned).toMatchObject({ result: "returned" });
    const timedOut = await executor.execute({
      code: `async () => { ${late}
        const { waitUntil } = await import("cloudflare:workers");
        waitUntil(late());
        await new Promise(() => {});
      }`,
      globals,
      limits: { timeoutMs: 50 },
    });
    expect(timedOut).toMatchObject({ error: { code: "TIMEOUT" } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(recordedRequests).toEqual(["https://outbound.example/record/live"]);
    expect(calls).toEqual([]);
    expect([...returned.logs, ...timedOut.logs]).not.toContain("late line");
  });

  it("bounds the host calls in flight per pass, with a clear error beyond the limit", async () => {
    let started = 0;
    const release: Array<() => void> = [];
    const executor = new DynamicWorkerExecutor({ loader: loaderWith(), maxConcurrentCalls: 50 });
    const outcome = await executor.execute({
      code: `async () => {
        const all = [];
        for (let i = 0; i < 5000; i++) all.push(ns.wait(i).then(() => "ok", (error) => error.code + ": " + error.message));
        const settled = await Promise.all(all);
        return { ok: settled.filter((s) => s === "ok").length, refused: settled.find((s) => s !== "ok") };
      }`,
      globals: {
        ns: {
          wait: () => {
            started++;
            // answer only once all were fired: what is in flight stays in flight until then
            return new Promise<void>((resolve) => {
              release.push(resolve);
              if (release.length === 50)
                setTimeout(
                  () =>
                    release.forEach((go) => {
                      go();
                    }),
                  50,
                );
            });
          },
        },
      },
      limits: { timeoutMs: 20_000 },
    });
    expect(started).toBe(50);
    expect(outcome).toMatchObject({
      result: {
        ok: 50,
        refused: expect.stringMatching(/^BUDGET_EXCEEDED: More than 50 host calls/),
      },
    });
    expect(() => new DynamicWorkerExecutor({ loader: env.LOADER, maxConcurrentCalls: 0 })).toThrow(
      /maxConcurrentCalls/,
    );
  });

  it("fails the pass at once when a sandbox worker dies, a nested one included", async () => {
    const died = () => Promise.reject(new Error("Worker exceeded memory limit."));
    // the first worker dies while its program waits on a host call that never settles
    const first = await new DynamicWorkerExecutor({
      loader: loaderWith(undefined, (evaluate) => {
        void evaluate.catch(() => {});
        return new Promise((resolve, reject) => setTimeout(() => died().then(resolve, reject), 50));
      }),
    }).execute({
      code: "async () => { await ns.forever(); }",
      globals: { ns: { forever: () => new Promise(() => {}) } },
      limits: { timeoutMs: 10_000 },
    });
    expect(first).toMatchObject({ error: { code: "MEMORY" } });
    // a nested worker dies: the program cannot catch that and carry on
    const nested = await new DynamicWorkerExecutor({
      loader: loaderWith(undefined, (evaluate, index) => (index === 0 ? evaluate : died())),
    }).execute({
      code: `async () => { try { await globalThis.nest("async () => 1"); } catch (error) { return "caught: " + error.message; } return "ran"; }`,
      globals: {},
      prelude: "globalThis.nest = globalThis.__codemodeEvaluate;",
      limits: { timeoutMs: 10_000 },
    });
    expect(nested).toMatchObject({ error: { code: "MEMORY" } });
  });
});
