import type {
  AbortSignalLike,
  ExecuteRequest,
  ExecuteResult,
  Executor,
  HostNamespaces,
  RecordedCall,
} from "@codemode/core";
import { createValueCodec } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { ATTACKS, attackHost } from "./attack-corpus.ts";
import { callsAtOnceTests } from "./calls-at-once-conformance.ts";
import { determinismTests } from "./determinism-conformance.ts";
import { divergenceTests } from "./divergence-conformance.ts";
import { conformanceTest, type KnownGap } from "./known-gaps.ts";
import { modelProgramsTests } from "./model-programs-corpus.ts";
import { pauseTests } from "./pause-conformance.ts";
import { reachabilityTests } from "./reachability-conformance.ts";
import { replayProperty } from "./replay-property.ts";
import { runawayTests } from "./runaway-conformance.ts";
import { snippetTests } from "./snippet-conformance.ts";
import {
  describeValue,
  errorOf,
  HOST_GLOBALS,
  MARKER,
  MEMORY_BYTES,
  recorder,
  resultOf,
  sleep,
  TIMEOUT_MS,
} from "./suite-parts.ts";

// The platform globals the suite uses, typed by hand: it compiles without Node, DOM or Workers types
// and runs in all three.
declare function setTimeout(callback: () => void, ms: number): unknown;
declare const AbortController: new () => {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
};

/**
 * What an executor can enforce; a test that needs a capability the executor lacks is skipped.
 * `timeout` ends a pass that waits too long. `replay` answers the calls of `request.replay` in the
 * sandbox while they match (see `ReplayHint`). Ending code that never yields (an endless loop) is
 * not optional: the "runaway code" group runs for every executor.
 */
export type ExecutorCapability = "timeout" | "memoryLimit" | "abort" | "console" | "replay";

/** Platform globals an executor may give the sandbox on purpose (all other host globals must be absent). */
export type SandboxGlobal = "fetch" | "setTimeout";

export interface ExecutorConformanceOptions {
  name: string;
  /** an executor; called for each test */
  createExecutor: () => Executor | Promise<Executor>;
  /** what the executor enforces: tests of the others are not applicable and skipped */
  capabilities: readonly ExecutorCapability[];
  /** globals the sandbox has by design (a Worker's `fetch`, routed or blocked by the executor) */
  sandboxGlobals?: readonly SandboxGlobal[];
  knownGaps?: readonly KnownGap[];
  /** the groups to run (default: all of them) */
  groups?: readonly ExecutorConformanceGroup[];
}

/** The suite's groups of tests, by the name each `describe` has. */
export type ExecutorConformanceGroup =
  | "basics"
  | "host calls"
  | "prelude"
  | "errors as data"
  | "isolation"
  | "attacks"
  | "limits"
  | "runaway code"
  | "replay property"
  | "replay"
  | "divergence"
  | "determinism"
  | "model programs"
  | "pause"
  | "snippets"
  | "reachability"
  | "console";

const CODES = [
  "SYNTAX_ERROR",
  "THROWN",
  "TIMEOUT",
  "MEMORY",
  "ABORTED",
  "NOT_SERIALIZABLE",
  "UNKNOWN_METHOD",
];
const SLOW_TEST_MS = 60_000;

const codec = createValueCodec();

/** A call an earlier pass recorded, as the runtime hands it over (the input in canonical text). */
function recordedCall(
  namespace: string,
  method: string,
  input: unknown,
  result: unknown,
): RecordedCall {
  return {
    namespace,
    method,
    input: codec.encode(input, { canonical: true }),
    result: codec.encode(result),
  };
}

/** `store.read({ key })` as recorded: its result carries the key and the word "recorded". */
const recordedRead = (key: number) =>
  recordedCall("store", "read", { key }, { key, value: `recorded ${key}` });

/**
 * An executor may answer in the sandbox only when a hint holds enough calls to pay for it, so every
 * hint here holds at least this many: after the test's own calls come calls of a method no program
 * here makes (which end replay as the end of the list would).
 */
const REPLAY_HINT_CALLS = 32;

/** A replay pass's host side: the inputs that reached `store`, and each `advance` count. */
interface ReplayHost {
  globals: HostNamespaces;
  delivered: unknown[];
  advanced: number[];
  /** the hint: these calls, then calls of `store.unused` up to `REPLAY_HINT_CALLS` */
  replay(calls: RecordedCall[]): NonNullable<ExecuteRequest["replay"]>;
}

function padded(calls: RecordedCall[]): RecordedCall[] {
  const unused = Array.from({ length: Math.max(0, REPLAY_HINT_CALLS - calls.length) }, (_, index) =>
    recordedCall("store", "unused", { index }, null),
  );
  return [...calls, ...unused];
}

function replayHost(): ReplayHost {
  const delivered: unknown[] = [];
  const advanced: number[] = [];
  return {
    delivered,
    advanced,
    globals: {
      store: {
        read: async (input) => {
          delivered.push(input);
          return { key: (input as { key?: unknown })?.key, value: "live" };
        },
        list: async (input) => {
          delivered.push(input);
          return "live";
        },
      },
    },
    replay: (calls) => ({ calls: padded(calls), advance: (count) => advanced.push(count) }),
  };
}

const sum = (counts: number[]) => counts.reduce((total, count) => total + count, 0);

/** Runs one pass; the executor must resolve with data of the contract's shape, never reject. */
async function execute(executor: Executor, request: ExecuteRequest): Promise<ExecuteResult> {
  let outcome: ExecuteResult;
  try {
    outcome = await executor.execute(request);
  } catch (error) {
    throw new Error(
      `execute() rejected instead of returning the failure as data: ${describeValue(error)}`,
    );
  }
  expect(Array.isArray(outcome.logs), "logs is an array").toBe(true);
  for (const line of outcome.logs) expect(typeof line).toBe("string");
  if ("error" in outcome) {
    expect(CODES).toContain(outcome.error.code);
    expect(typeof outcome.error.name).toBe("string");
    expect(typeof outcome.error.message).toBe("string");
  } else {
    expect(Object.hasOwn(outcome, "result"), "the outcome has result or error").toBe(true);
  }
  return outcome;
}

/** A pass right after another: the executor still works. */
async function expectHealthy(executor: Executor, console: boolean): Promise<void> {
  const calls: unknown[] = [];
  const outcome = await execute(executor, {
    code: "async () => { console.log('still here'); return (await ns.echo({ n: 41 })).n + 1 }",
    globals: { ns: { echo: recorder(calls) } },
  });
  expect(resultOf(outcome), "a normal pass after the previous one").toBe(42);
  expect(calls).toEqual([{ n: 41 }]);
  if (console) expect(outcome.logs.some((line) => line.includes("still here"))).toBe(true);
}

/** Runs `body` with a marker on the host's globalThis, which no sandbox may see. */
async function withHostMarker<T>(body: () => Promise<T>): Promise<T> {
  const global = globalThis as Record<string, unknown>;
  global[MARKER] = { secret: "conformance-host-secret" };
  try {
    return await body();
  } finally {
    delete global[MARKER];
  }
}

/** Own property names of the host's shared prototypes, to prove a pass left them alone. */
function hostPrototypes(): unknown {
  return {
    object: Object.getOwnPropertyNames(Object.prototype).sort(),
    array: Object.getOwnPropertyNames(Array.prototype).sort(),
    function: Object.getOwnPropertyNames(Function.prototype).sort(),
    promise: Object.getOwnPropertyNames(Promise.prototype).sort(),
    toString: Object.prototype.toString.call([]),
    stringify: JSON.stringify({ a: [1] }),
  };
}

/**
 * The behaviour every executor shares: values and host calls across the boundary, the prelude,
 * failures as data, isolation, a corpus of hostile programs, and the limits it declares.
 */
export function runExecutorConformance(options: ExecutorConformanceOptions): void {
  const test = conformanceTest(options.knownGaps);
  const has = (capability: ExecutorCapability) => options.capabilities.includes(capability);
  /** `test` when the executor has the capability; otherwise the test is not applicable */
  const testWith = (capability: ExecutorCapability | undefined): typeof test =>
    capability === undefined || has(capability)
      ? test
      : (_group, name) => it.skip(`${name} (needs ${capability})`, () => {});
  const create = async () => options.createExecutor();
  const healthy = (executor: Executor) => expectHealthy(executor, has("console"));
  const runs = (group: ExecutorConformanceGroup) => options.groups?.includes(group) ?? true;
  /** a group of tests, when the options select it */
  const section = (group: ExecutorConformanceGroup, body: () => void) => {
    if (runs(group)) describe(group, body);
  };

  describe(`executor conformance: ${options.name}`, () => {
    section("basics", () => {
      const group = "basics";
      test(group, "returns the value of the program", async () => {
        const executor = await create();
        expect(executor.specificationVersion).toBe("v1");
        const outcome = await execute(executor, {
          code: "async () => ({ sum: 1 + 2, text: 'héllo ✓', list: [true, null, 1.5] })",
          globals: {},
        });
        expect(resultOf(outcome)).toEqual({ sum: 3, text: "héllo ✓", list: [true, null, 1.5] });
        const nothing = await execute(executor, { code: "async () => undefined", globals: {} });
        expect(nothing).toMatchObject({ result: undefined });
        expect(Object.hasOwn(nothing, "result")).toBe(true);
      });

      test(
        group,
        "carries Date, Map, Set, bigint, undefined and Uint8Array both ways",
        async () => {
          const executor = await create();
          const values = () => ({
            when: new Date("2024-05-06T07:08:09.010Z"),
            map: new Map<unknown, unknown>([
              ["a", 1],
              [2, { deep: [3] }],
            ]),
            set: new Set<unknown>([1, "two"]),
            big: 12345678901234567890n,
            missing: undefined,
            bytes: new Uint8Array([0, 1, 254, 255]),
          });
          const taken: unknown[] = [];
          const outcome = await execute(executor, {
            code: `async () => {
            const v = await ns.values();
            const checks = {
              when: v.when instanceof Date && v.when.toISOString() === "2024-05-06T07:08:09.010Z",
              map: v.map instanceof Map && v.map.get("a") === 1 && v.map.get(2).deep[0] === 3,
              set: v.set instanceof Set && v.set.size === 2 && v.set.has(1) && v.set.has("two"),
              big: typeof v.big === "bigint" && v.big === 12345678901234567890n,
              missing: Object.keys(v).includes("missing") && v.missing === undefined,
              bytes: v.bytes instanceof Uint8Array && v.bytes.length === 4 && v.bytes[3] === 255,
              nothing: (await ns.nothing()) === undefined,
            };
            const made = {
              when: new Date("2024-05-06T07:08:09.010Z"),
              map: new Map([["a", 1], [2, { deep: [3] }]]),
              set: new Set([1, "two"]),
              big: 12345678901234567890n,
              missing: undefined,
              bytes: new Uint8Array([0, 1, 254, 255]),
            };
            await ns.take(made);
            await ns.take(undefined);
            return { checks, made };
          }`,
            globals: {
              ns: {
                values: async () => values(),
                nothing: async () => undefined,
                take: async (input) => {
                  taken.push(input);
                },
              },
            },
          });
          const result = resultOf(outcome) as { checks: unknown; made: unknown };
          expect(result.checks, "host values as the sandbox sees them").toEqual({
            when: true,
            map: true,
            set: true,
            big: true,
            missing: true,
            bytes: true,
            nothing: true,
          });
          expect(taken, "sandbox values as the host receives them").toStrictEqual([
            values(),
            undefined,
          ]);
          expect(Object.hasOwn(taken[0] as object, "missing")).toBe(true);
          expect(result.made, "sandbox values as the result").toStrictEqual(values());
          expect(Object.hasOwn(result.made as object, "missing")).toBe(true);
        },
      );

      test(group, "runs a synchronous arrow function", async () => {
        const executor = await create();
        expect(resultOf(await execute(executor, { code: "() => 6 * 7", globals: {} }))).toBe(42);
        const calls: unknown[] = [];
        const viaHost = await execute(executor, {
          code: "() => ns.echo('returned as a promise')",
          globals: { ns: { echo: recorder(calls) } },
        });
        expect(resultOf(viaHost)).toBe("returned as a promise");
        expect(calls).toEqual(["returned as a promise"]);
      });
    });

    section("host calls", () => {
      const group = "host calls";
      test(group, "passes one JSON argument to a host method and returns its result", async () => {
        const executor = await create();
        const calls: unknown[][] = [];
        const input = { owner: "acme", tags: ["a", "b"], open: true, count: 3, none: null };
        const outcome = await execute(executor, {
          code: `async () => {
            const first = await ns.describe(${JSON.stringify(input)});
            const second = await ns.describe({ only: "the first" }, "a second argument");
            return [first, second];
          }`,
          globals: {
            ns: {
              describe: async (...args: unknown[]) => {
                calls.push(args);
                return { received: args[0], size: JSON.stringify(args[0]).length };
              },
            },
          },
        });
        expect(resultOf(outcome)).toEqual([
          { received: input, size: JSON.stringify(input).length },
          { received: { only: "the first" }, size: JSON.stringify({ only: "the first" }).length },
        ]);
        expect(calls).toEqual([[input], [{ only: "the first" }]]);
      });

      test(group, "runs host calls in sequence and concurrently under Promise.all", async () => {
        const executor = await create();
        const started: number[] = [];
        let inflight = 0;
        let most = 0;
        let mostInSequence = 0;
        const gate: (() => void)[] = [];
        const outcome = await execute(executor, {
          code: `async () => {
            const first = await ns.slow(1);
            const second = await ns.slow(2);
            const all = await Promise.all([ns.slow(3), ns.slow(4), ns.slow(5)]);
            return [first, second, all];
          }`,
          globals: {
            ns: {
              slow: async (input) => {
                const n = input as number;
                started.push(n);
                inflight++;
                most = Math.max(most, inflight);
                if (n <= 2) mostInSequence = most;
                if (n >= 3) {
                  // the three calls of Promise.all wait for each other (or, if they never meet, 3 s)
                  await new Promise<void>((resolve) => {
                    gate.push(resolve);
                    if (gate.length === 3) for (const open of gate) open();
                    setTimeout(resolve, 3_000);
                  });
                } else {
                  await sleep(1);
                }
                inflight--;
                return n * 10;
              },
            },
          },
        });
        expect(resultOf(outcome)).toEqual([10, 20, [30, 40, 50]]);
        expect(started).toEqual([1, 2, 3, 4, 5]);
        expect(mostInSequence, "awaited calls run one at a time").toBe(1);
        expect(most, "calls under Promise.all are in flight together").toBe(3);
      });

      test(
        group,
        "a host rejection is catchable in the sandbox with the same name and message",
        async () => {
          const executor = await create();
          const globals: HostNamespaces = {
            ns: {
              limited: async () => {
                const error = new Error("rate limited, retry in 3 s");
                error.name = "RateLimitError";
                throw error;
              },
              invalid: () => {
                throw new TypeError("owner must be a string");
              },
            },
          };
          const caught = await execute(executor, {
            code: `async () => {
            const seen = [];
            for (const call of [() => ns.limited({}), () => ns.invalid({})]) {
              try { await call(); seen.push("no error"); }
              catch (error) { seen.push({ isError: error instanceof Error, name: error.name, message: error.message }); }
            }
            return seen;
          }`,
            globals,
          });
          expect(resultOf(caught)).toEqual([
            { isError: true, name: "RateLimitError", message: "rate limited, retry in 3 s" },
            { isError: true, name: "TypeError", message: "owner must be a string" },
          ]);
          const uncaught = errorOf(
            await execute(executor, { code: "async () => { await ns.limited({}) }", globals }),
          );
          expect(uncaught).toMatchObject({
            code: "THROWN",
            name: "RateLimitError",
            message: "rate limited, retry in 3 s",
          });
        },
      );

      test(
        group,
        "calling a method the namespace lacks throws an error that names it",
        async () => {
          const executor = await create();
          const calls: unknown[] = [];
          const globals = { ns: { echo: recorder(calls) } };
          const caught = await execute(executor, {
            code: `async () => {
            try { await ns.no_such_method({}); return "called"; }
            catch (error) { return { isError: error instanceof Error, message: error.message }; }
          }`,
            globals,
          });
          expect(resultOf(caught)).toEqual({
            isError: true,
            message: expect.stringContaining("no_such_method"),
          });
          const uncaught = errorOf(
            await execute(executor, { code: "async () => ns.no_such_method({})", globals }),
          );
          // the code crosses as data, with what was asked for: the runtime answers with the nearest
          expect(uncaught.code).toBe("UNKNOWN_METHOD");
          expect(uncaught.method).toEqual({ namespace: "ns", name: "no_such_method" });
          expect(uncaught.message).toContain("no_such_method");
          expect(calls).toEqual([]);
        },
      );
      callsAtOnceTests({ test, createExecutor: create, execute });
    });

    section("prelude", () => {
      const group = "prelude";
      test(group, "runs before the code, after the namespaces exist", async () => {
        const executor = await create();
        const outcome = await execute(executor, {
          prelude: `globalThis.order = ["prelude"]; globalThis.sawNamespace = typeof ns.echo;`,
          code: `async () => { order.push("code"); return [order, sawNamespace]; }`,
          globals: { ns: { echo: recorder([]) } },
        });
        expect(resultOf(outcome)).toEqual([["prelude", "code"], "function"]);
      });

      test(group, "may add members to a namespace that shadow host methods", async () => {
        const executor = await create();
        const greeted: unknown[] = [];
        const echoed: unknown[] = [];
        const outcome = await execute(executor, {
          prelude: `
            ns.greet = async (input) => "the prelude greets " + input.name;
            ns.twice = (n) => n * 2;`,
          code: `async () => [await ns.greet({ name: "Ada" }), ns.twice(21), await ns.echo("host")]`,
          globals: { ns: { greet: recorder(greeted), echo: recorder(echoed) } },
        });
        expect(resultOf(outcome)).toEqual(["the prelude greets Ada", 42, "host"]);
        expect(greeted, "the shadowed host method is not called").toEqual([]);
        expect(echoed).toEqual(["host"]);
      });
    });

    section("errors as data", () => {
      const group = "errors as data";
      test(group, "a thrown Error comes back as THROWN with its name and message", async () => {
        const executor = await create();
        const error = errorOf(
          await execute(executor, {
            code: "async () => { throw new TypeError('the repository is archived') }",
            globals: {},
          }),
        );
        expect(error).toMatchObject({
          code: "THROWN",
          name: "TypeError",
          message: "the repository is archived",
        });
      });

      test(group, "a thrown non-Error comes back as THROWN and shows the value", async () => {
        const executor = await create();
        const text = errorOf(
          await execute(executor, {
            code: "async () => { throw 'a plain string' }",
            globals: {},
          }),
        );
        expect(text.code).toBe("THROWN");
        expect(text.message).toContain("a plain string");
        const object = errorOf(
          await execute(executor, {
            code: "() => { throw { reason: 'quota', left: 42 } }",
            globals: {},
          }),
        );
        expect(object.code).toBe("THROWN");
        expect(object.message).toContain("42");
      });

      test(group, "a syntax error comes back as SYNTAX_ERROR", async () => {
        const executor = await create();
        for (const code of ["async () => { return 1 +; }", "async () => {", ""]) {
          const error = errorOf(await execute(executor, { code, globals: {} }));
          expect(error.code, JSON.stringify(code)).toBe("SYNTAX_ERROR");
          expect(error.message.length).toBeGreaterThan(0);
        }
      });

      test(group, "an unserializable result comes back as NOT_SERIALIZABLE", async () => {
        const executor = await create();
        for (const code of [
          "async () => () => 1",
          "async () => ({ list: [Symbol('s')] })",
          "async () => { const cycle = {}; cycle.self = cycle; return cycle; }",
        ]) {
          const error = errorOf(await execute(executor, { code, globals: {} }));
          expect(error.code, code).toBe("NOT_SERIALIZABLE");
        }
      });

      test(group, "never rejects, whatever the code does", async () => {
        const executor = await create();
        const cases: [string, string][] = [
          ["42", "THROWN"],
          ["async () => { throw undefined }", "THROWN"],
          ["async () => { throw null }", "THROWN"],
          ["async () => { throw Symbol('s') }", "THROWN"],
          ["async () => { await null; throw new RangeError('late') }", "THROWN"],
          [
            "async () => { const e = new Error('x'); e.name = 5; e.message = {}; throw e }",
            "THROWN",
          ],
          ["async () => Symbol('s')", "NOT_SERIALIZABLE"],
          ["}{", "SYNTAX_ERROR"],
        ];
        for (const [code, expected] of cases) {
          const error = errorOf(await execute(executor, { code, globals: {} }));
          expect(error.code, code).toBe(expected);
        }
        await healthy(executor);
      });
    });

    section("isolation", () => {
      const group = "isolation";
      test(group, "has no process, require, fetch or setTimeout by default", async () => {
        const executor = await create();
        const outcome = await execute(executor, {
          code: "async () => [typeof process, typeof require, typeof fetch, typeof setTimeout]",
          globals: {},
        });
        const granted = options.sandboxGlobals ?? [];
        expect(resultOf(outcome)).toEqual([
          "undefined",
          "undefined",
          granted.includes("fetch") ? "function" : "undefined",
          granted.includes("setTimeout") ? "function" : "undefined",
        ]);
      });

      test(group, "the sandbox's globalThis holds no host objects", async () => {
        const executor = await create();
        const outcome = await withHostMarker(() =>
          execute(executor, {
            code: `async () => ({
              marker: typeof globalThis.${MARKER},
              hostGlobals: Object.getOwnPropertyNames(globalThis)
                .filter((name) => ${JSON.stringify(HOST_GLOBALS)}.includes(name)),
              source: String(ns.secret) + Function.prototype.toString.call(ns.secret),
              value: await ns.secret(),
            })`,
            globals: {
              ns: {
                secret: async () => {
                  const hidden = "conformance-host-secret";
                  return hidden.length;
                },
              },
            },
          }),
        );
        const seen = resultOf(outcome) as Record<string, unknown>;
        expect(seen).toMatchObject({ marker: "undefined", hostGlobals: [], value: 23 });
        expect(seen.source, "the host method's source stays on the host").not.toContain(
          "conformance-host-secret",
        );
      });

      test(group, "two passes share no state", async () => {
        const executor = await create();
        await execute(executor, {
          code: `async () => {
            globalThis.leak = 1;
            Object.prototype.polluted = true;
            Array.prototype.push = () => "hijacked";
          }`,
          globals: {},
        });
        const next = await execute(executor, {
          code: "async () => { const list = []; list.push(1); return [typeof leak, ({}).polluted, list] }",
          globals: {},
        });
        expect(resultOf(next)).toEqual(["undefined", undefined, [1]]);
        const together = await Promise.all(
          [1, 2, 3].map((n) =>
            execute(executor, {
              code: `async () => { globalThis.mine = ${n}; await ns.wait(${n}); return mine; }`,
              globals: { ns: { wait: (input) => sleep(30 - (input as number) * 10) } },
            }),
          ),
        );
        expect(together.map(resultOf)).toEqual([1, 2, 3]);
      });

      test(group, "Function and eval in the sandbox cannot reach host values", async () => {
        const executor = await create();
        // A sandbox may refuse to compile code at run time (workerd does): that is "refused".
        const outcome = await withHostMarker(() =>
          execute(executor, {
            code: `async () => [
              () => Function("return typeof process")(),
              () => Function("return typeof globalThis.${MARKER}")(),
              () => (0, eval)("typeof require"),
              () => eval("typeof ${MARKER}"),
              () => ns.echo.constructor("return typeof process + typeof ${MARKER}")(),
              () => [].constructor.constructor("return typeof process")(),
              () => new Function("return this")() === globalThis,
            ].map((probe) => {
              try { return probe(); } catch (error) { return error.name === "EvalError" ? "refused" : error.message; }
            })`,
            globals: { ns: { echo: recorder([]) } },
          }),
        );
        const seen = resultOf(outcome) as unknown[];
        const expected = [
          "undefined",
          "undefined",
          "undefined",
          "undefined",
          "undefinedundefined",
          "undefined",
          true,
        ];
        seen.forEach((value, index) => {
          expect([expected[index], "refused"], `probe ${index}`).toContain(value);
        });
        expect(seen).toHaveLength(expected.length);
      });

      test(
        group,
        "__proto__ keys in arguments and results do not pollute the host's Object.prototype",
        async () => {
          const executor = await create();
          const received: unknown[] = [];
          const outcome = await execute(executor, {
            code: `async () => {
            const input = JSON.parse('{"__proto__": {"pollutedByArgument": true}, "a": 1}');
            const back = await ns.take(input);
            return {
              back,
              own: JSON.parse('{"__proto__": {"pollutedByResult": true}, "b": 2}'),
              sandboxClean: ({}).pollutedByHost === undefined,
            };
          }`,
            globals: {
              ns: {
                take: async (input) => {
                  received.push(input);
                  return JSON.parse('{"__proto__": {"pollutedByHost": true}, "c": 3}');
                },
              },
            },
          });
          const result = resultOf(outcome) as Record<string, Record<string, unknown>>;
          const probe: Record<string, unknown> = {};
          for (const key of ["pollutedByArgument", "pollutedByResult", "pollutedByHost"]) {
            expect(probe[key], key).toBeUndefined();
            expect(Object.hasOwn(Object.prototype, key), key).toBe(false);
          }
          const argument = received[0] as Record<string, unknown>;
          expect(argument.a).toBe(1);
          expect(argument.pollutedByArgument, "no prototype from an argument").toBeUndefined();
          expect(result.own?.b).toBe(2);
          expect(result.own?.pollutedByResult, "no prototype from a result").toBeUndefined();
          expect(result.back?.pollutedByHost).toBeUndefined();
          expect(result.sandboxClean).toBe(true);
        },
      );
    });

    section("attacks", () => {
      const group = "attacks";
      for (const attack of ATTACKS) {
        testWith(attack.capability)(
          group,
          attack.name,
          async () => {
            const executor = await create();
            const before = hostPrototypes();
            const calls: unknown[] = [];
            const outcome = await withHostMarker(() =>
              execute(executor, {
                code: attack.code,
                globals: attackHost(calls),
                ...(attack.limits ? { limits: attack.limits } : {}),
              }),
            );
            await attack.check({ outcome, calls });
            expect(hostPrototypes(), "the host's prototypes are untouched").toEqual(before);
            await healthy(executor);
          },
          SLOW_TEST_MS,
        );
      }
    });

    section("limits", () => {
      const group = "limits";
      testWith("timeout")(
        group,
        "a pass waiting on a host call that never settles ends with TIMEOUT",
        async () => {
          const executor = await create();
          const error = errorOf(
            await execute(executor, {
              code: "async () => { await ns.forever(); return 'never'; }",
              globals: { ns: { forever: () => new Promise<never>(() => {}) } },
              limits: { timeoutMs: TIMEOUT_MS },
            }),
          );
          expect(error.code).toBe("TIMEOUT");
          await healthy(executor);
        },
        SLOW_TEST_MS,
      );

      testWith("memoryLimit")(
        group,
        "an allocation blow-up ends with MEMORY",
        async () => {
          const executor = await create();
          const error = errorOf(
            await execute(executor, {
              code: "async () => { const all = []; while (true) all.push(new Array(10000).fill(all.length)); }",
              globals: {},
              limits: { memoryBytes: MEMORY_BYTES, timeoutMs: 30_000 },
            }),
          );
          expect(error.code).toBe("MEMORY");
          await healthy(executor);
        },
        SLOW_TEST_MS,
      );

      testWith("abort")(
        group,
        "aborting ends a pass waiting on a host call with ABORTED; no host method runs after",
        async () => {
          const executor = await create();
          const controller = new AbortController();
          const calls: string[] = [];
          const held: { finish?: (value: unknown) => void; called?: () => void } = {};
          const called = new Promise<void>((resolve) => {
            held.called = resolve;
          });
          const pending = execute(executor, {
            code: "async () => { await ns.wait(); await ns.after(); return 'finished'; }",
            globals: {
              ns: {
                wait: () => {
                  calls.push("wait");
                  held.called?.();
                  return new Promise((resolve) => {
                    held.finish = resolve;
                  });
                },
                after: async () => {
                  calls.push("after");
                },
              },
            },
            signal: controller.signal,
            limits: { timeoutMs: 20_000 },
          });
          await Promise.race([called, pending]);
          controller.abort(new Error("stopped by the conformance suite"));
          const error = errorOf(await pending);
          expect(error.code).toBe("ABORTED");
          held.finish?.("too late");
          await sleep(100);
          expect(calls).toEqual(["wait"]);
          await healthy(executor);
        },
        SLOW_TEST_MS,
      );

      testWith("abort")(
        group,
        "an already aborted signal ends the pass before any host call",
        async () => {
          const executor = await create();
          const controller = new AbortController();
          controller.abort();
          const calls: unknown[] = [];
          const error = errorOf(
            await execute(executor, {
              code: "async () => ns.echo(1)",
              globals: { ns: { echo: recorder(calls) } },
              signal: controller.signal,
            }),
          );
          expect(error.code).toBe("ABORTED");
          expect(calls).toEqual([]);
        },
      );
    });

    section("runaway code", () => runawayTests({ test, createExecutor: create, execute, healthy }));

    if (runs("replay property")) replayProperty(test, create);

    section("replay", () => {
      const group = "replay";
      testWith("replay")(
        group,
        "answers recorded calls in the sandbox while they match, and tells the host how many",
        async () => {
          const executor = await create();
          const host = replayHost();
          const outcome = await execute(executor, {
            code: `async () => {
              const values = [];
              for (const key of [0, 1, 2]) values.push((await store.read({ key })).value);
              values.push((await store.read({ key: 9 })).value); // differs from the record: goes to the host
              values.push((await store.read({ key: 3 })).value); // matches, but replay has ended
              return values;
            }`,
            globals: host.globals,
            replay: host.replay([0, 1, 2, 3].map(recordedRead)),
          });
          expect(resultOf(outcome)).toEqual([
            "recorded 0",
            "recorded 1",
            "recorded 2",
            "live",
            "live",
          ]);
          expect(host.delivered).toEqual([{ key: 9 }, { key: 3 }]);
          expect(host.advanced).toEqual([3]);
        },
      );

      testWith("replay")(
        group,
        "replays a recorded call whose input the program writes with its keys in another order",
        async () => {
          const executor = await create();
          const host = replayHost();
          const outcome = await execute(executor, {
            code: "async () => (await store.read({ zone: 'b', area: 'a', key: 1 })).value",
            globals: host.globals,
            replay: host.replay([
              recordedCall(
                "store",
                "read",
                { area: "a", key: 1, zone: "b" },
                { value: "recorded" },
              ),
            ]),
          });
          expect(resultOf(outcome)).toBe("recorded");
          expect(host.delivered).toEqual([]);
          expect(host.advanced).toEqual([1]);
        },
      );

      testWith("replay")(
        group,
        "replays calls whose input or result is not plain JSON (Date, Map, undefined)",
        async () => {
          const executor = await create();
          const host = replayHost();
          const outcome = await execute(executor, {
            code: `async () => {
              const found = await store.read({ since: new Date(0), tags: new Set(["a"]) });
              const nothing = await store.list();
              return [found instanceof Map, found.get("when") instanceof Date, found.get("when").getTime(), nothing];
            }`,
            globals: host.globals,
            replay: host.replay([
              recordedCall(
                "store",
                "read",
                { since: new Date(0), tags: new Set(["a"]) },
                new Map([["when", new Date(5)]]),
              ),
              recordedCall("store", "list", undefined, undefined),
            ]),
          });
          expect(resultOf(outcome)).toEqual([true, true, 5, undefined]);
          expect(host.delivered).toEqual([]);
          expect(host.advanced).toEqual([2]);
        },
      );

      testWith("replay")(
        group,
        "a program that replaces JSON and Object built-ins gets no recorded answer for an input it did not send",
        async () => {
          const executor = await create();
          // Every built-in a replay could compare inputs with now says the input is the recorded one.
          const hijack = `
            const saved = { stringify: JSON.stringify, parse: JSON.parse, keys: Object.keys, sort: Array.prototype.sort, entries: Object.entries };
            JSON.stringify = () => '{"key":1}';
            JSON.parse = () => ({ key: 1, value: "forged" });
            Object.keys = () => ["key"];
            Object.entries = () => [["key", 1]];
            Array.prototype.sort = function () { return this; };
            const restore = () => {
              JSON.stringify = saved.stringify; JSON.parse = saved.parse; Object.keys = saved.keys;
              Object.entries = saved.entries; Array.prototype.sort = saved.sort;
            };`;
          const different = replayHost();
          const outcome = await execute(executor, {
            code: `async () => {
              ${hijack}
              try {
                return [(await store.read({ key: 0 })).value, (await store.read({ key: 99 })).value];
              } finally { restore(); }
            }`,
            globals: different.globals,
            replay: different.replay([0, 1].map(recordedRead)),
          });
          expect(resultOf(outcome)).toEqual(["recorded 0", "live"]);
          expect(different.delivered).toEqual([{ key: 99 }]);
          expect(different.advanced).toEqual([1]);

          // The same input with its keys in another order still replays, or goes to the host.
          const reordered = replayHost();
          const again = await execute(executor, {
            code: `async () => {
              ${hijack}
              try { return (await store.read({ zone: "b", key: 1 })).value; } finally { restore(); }
            }`,
            globals: reordered.globals,
            replay: reordered.replay([
              recordedCall("store", "read", { key: 1, zone: "b" }, { value: "recorded" }),
            ]),
          });
          const value = resultOf(again);
          if (value === "recorded") {
            expect(reordered.delivered).toEqual([]);
            expect(reordered.advanced).toEqual([1]);
          } else {
            expect(value).toBe("live");
            expect(reordered.delivered).toEqual([{ zone: "b", key: 1 }]);
            expect(sum(reordered.advanced)).toBe(0);
          }
        },
      );

      testWith("replay")(
        group,
        "getters on Array.prototype and Object.prototype cannot add a recorded call past the end",
        async () => {
          const executor = await create();
          const host = replayHost();
          const recorded = Array.from({ length: REPLAY_HINT_CALLS }, (_, key) => recordedRead(key));
          const outcome = await execute(executor, {
            code: `async () => {
              const count = ${REPLAY_HINT_CALLS};
              const forged = { namespace: "store", method: "read", input: '{"key":' + count + '}', result: '{"value":"forged"}' };
              // [id, kind, input, result]: how a flat list of four items a call would go on
              const row = [0, 0, { key: count }, { value: "forged" }];
              // the names first: an array grown after the getters exist would meet them
              const names = Array.from({ length: 5 * count }, (_, index) => String(count + index));
              for (const name of names) {
                const index = Number(name);
                for (const target of [Array.prototype, Object.prototype]) {
                  Object.defineProperty(target, name, {
                    get() { return index === count ? forged : row[index % 4]; },
                    configurable: true,
                  });
                }
              }
              try {
                let replayed = 0;
                for (let key = 0; key < count; key++) {
                  if ((await store.read({ key })).value === "recorded " + key) replayed++;
                }
                return [replayed, (await store.read({ key: count })).value];
              } finally {
                for (const name of names) { delete Array.prototype[name]; delete Object.prototype[name]; }
              }
            }`,
            globals: host.globals,
            replay: host.replay(recorded),
          });
          expect(resultOf(outcome)).toEqual([REPLAY_HINT_CALLS, "live"]);
          expect(host.delivered).toEqual([{ key: REPLAY_HINT_CALLS }]);
          expect(host.advanced).toEqual([REPLAY_HINT_CALLS]);
        },
      );

      testWith("replay")(
        group,
        "a replayed call after which the program throws is still reported",
        async () => {
          const executor = await create();
          const host = replayHost();
          const error = errorOf(
            await execute(executor, {
              code: `async () => {
                const { value } = await store.read({ key: 0 });
                throw new RangeError("after " + value);
              }`,
              globals: host.globals,
              replay: host.replay([0, 1].map(recordedRead)),
            }),
          );
          expect(error).toMatchObject({
            code: "THROWN",
            name: "RangeError",
            message: "after recorded 0",
          });
          expect(host.delivered).toEqual([]);
          expect(host.advanced).toEqual([1]);
        },
      );

      testWith("replay")(
        group,
        "a pass aborted after replayed calls: the host heard of them first; no call reaches it after",
        async () => {
          const executor = await create();
          const host = replayHost();
          const controller = new AbortController();
          const seen: { advancedBefore?: number; finish?: (value: unknown) => void } = {};
          const waiting = new Promise<void>((resolve) => {
            host.globals.store = {
              ...host.globals.store,
              wait: () => {
                seen.advancedBefore = sum(host.advanced);
                resolve();
                return new Promise((finish) => {
                  seen.finish = finish;
                });
              },
            };
          });
          const pending = execute(executor, {
            code: `async () => {
              await store.read({ key: 0 });
              await store.read({ key: 1 });
              await store.wait();
              await store.read({ key: 2 });
              return "finished";
            }`,
            globals: host.globals,
            signal: controller.signal,
            limits: { timeoutMs: 20_000 },
            replay: host.replay([0, 1, 2].map(recordedRead)),
          });
          await Promise.race([waiting, pending]);
          expect(seen.advancedBefore, "reported before the next call reached the host").toBe(2);
          controller.abort(new Error("stopped by the conformance suite"));
          expect(errorOf(await pending).code).toBe("ABORTED");
          seen.finish?.("too late");
          await sleep(100);
          expect(host.delivered).toEqual([]);
          expect(sum(host.advanced)).toBe(2);
          await healthy(executor);
        },
        SLOW_TEST_MS,
      );

      testWith("replay")(
        group,
        "an advance that aborts the pass keeps the call that carried it from the host",
        async () => {
          const executor = await create();
          const host = replayHost();
          const controller = new AbortController();
          const outcome = await execute(executor, {
            code: `async () => {
              await store.read({ key: 0 });
              await store.read({ key: 5 });
              return "finished";
            }`,
            globals: host.globals,
            signal: controller.signal,
            limits: { timeoutMs: 20_000 },
            replay: {
              calls: padded([0, 1].map(recordedRead)),
              advance: (count) => {
                host.advanced.push(count);
                controller.abort(new Error("stopped while told of replayed calls"));
              },
            },
          });
          expect(errorOf(outcome).code).toBe("ABORTED");
          await sleep(50);
          expect(host.delivered).toEqual([]);
          expect(host.advanced).toEqual([1]);
          await healthy(executor);
        },
        SLOW_TEST_MS,
      );
    });

    section("pause", () => pauseTests({ test, createExecutor: create }));
    section("snippets", () => snippetTests({ test, createExecutor: create }));
    section("determinism", () => determinismTests({ test, createExecutor: create }));
    section("model programs", () => modelProgramsTests({ test, createExecutor: create }));
    section("reachability", () => reachabilityTests({ test, createExecutor: create }));

    section("divergence", () =>
      divergenceTests({ test, createExecutor: create, replay: has("replay") }),
    );

    section("console", () => {
      const group = "console";
      testWith("console")(group, "captures log, warn and error in order", async () => {
        const executor = await create();
        const outcome = await execute(executor, {
          code: `async () => {
            console.log("first", 1);
            console.warn("second");
            await ns.echo(null);
            console.error("third");
            console.log({ fourth: true });
            return "done";
          }`,
          globals: { ns: { echo: recorder([]) } },
        });
        expect(resultOf(outcome)).toBe("done");
        expect(outcome.logs).toHaveLength(4);
        ["first", "second", "third", "fourth"].forEach((word, index) => {
          expect(outcome.logs[index]).toContain(word);
        });
      });

      testWith("console")(group, "keeps the logs of a pass that fails", async () => {
        const executor = await create();
        const outcome = await execute(executor, {
          code: "async () => { console.log('before the failure'); throw new Error('failed') }",
          globals: {},
        });
        expect(errorOf(outcome).code).toBe("THROWN");
        expect(outcome.logs).toEqual([expect.stringContaining("before the failure")]);
      });
    });
  });
}
