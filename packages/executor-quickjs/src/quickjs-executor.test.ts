import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  CodemodeError,
  createValueCodec,
  type ExecuteRequest,
  type ExecuteResult,
  type HostNamespaces,
  type RecordedCall,
} from "@codemode/core";
import releaseSyncVariant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { QuickJSExecutor } from "./index.ts";
import { spareSandboxes } from "./spare-sandboxes.ts";
import { instanceCounts, instanceSource } from "./wasm-instances.ts";

// The executor's own limit is longer than any test's timeout (at most 180 s here): a pass that is not
// ended by what the test expects (its own limit, an abort, a promise nothing can settle) runs on and
// fails as a test timeout, however loaded the machine. No test compares how long a pass took; the
// error says which limit ended it ("ran longer than 300 ms").
const EXECUTOR_LIMIT_MS = 200_000;
const executor = new QuickJSExecutor({ timeoutMs: EXECUTOR_LIMIT_MS });

function run(
  code: string,
  request: Partial<ExecuteRequest> = {},
  on = executor,
): Promise<ExecuteResult> {
  return on.execute({ code, globals: {}, ...request });
}

function ok(result: ExecuteResult): unknown {
  if ("error" in result) throw new Error(`expected a result, got ${JSON.stringify(result.error)}`);
  return result.result;
}

function failure(result: ExecuteResult) {
  if (!("error" in result)) throw new Error(`expected an error, got ${String(result.result)}`);
  return result.error;
}

/** A normal pass right after: the executor is still healthy. */
async function expectHealthy(on = executor): Promise<void> {
  const calls: unknown[] = [];
  const result = await on.execute({
    code: "async () => { console.log('still here'); return (await ns.echo({ n: 41 })).n + 1 }",
    globals: {
      ns: {
        echo: async (input) => {
          calls.push(input);
          return input;
        },
      },
    },
  });
  expect(result).toEqual({ result: 42, logs: ["still here"] });
  expect(calls).toEqual([{ n: 41 }]);
}

/** A host method that records each input and returns it. */
function recorder(calls: unknown[]): (input: unknown) => Promise<unknown> {
  return async (input) => {
    calls.push(input);
    return input;
  };
}

function sample(): Record<string, unknown> {
  return {
    string: "héllo ✓",
    number: 1.5,
    integer: -7,
    nan: Number.NaN,
    infinity: Number.POSITIVE_INFINITY,
    negativeInfinity: Number.NEGATIVE_INFINITY,
    negativeZero: -0,
    boolean: true,
    nil: null,
    missing: undefined,
    big: 12345678901234567890n,
    date: new Date("2024-05-06T07:08:09.010Z"),
    map: new Map<unknown, unknown>([
      ["a", 1],
      [2, { deep: [new Date(0)] }],
    ]),
    set: new Set([1, "two", 3n]),
    bytes: new Uint8Array([0, 1, 254, 255]),
    buffer: new Uint8Array([9, 8, 7]).buffer,
    floats: new Float64Array([1.5, -2]),
    ints: new Int32Array([-1, 2 ** 31 - 1]),
    regexp: /a+b/gi,
    nested: { list: [1, undefined, "x", { y: [null] }], $codemode: "escaped key" },
  };
}

describe("QuickJSExecutor: values", () => {
  it("returns plain values and every codec type", async () => {
    expect(ok(await run("async () => 1 + 1"))).toBe(2);
    expect(ok(await run("async () => 'text'"))).toBe("text");
    expect(ok(await run("async () => {}"))).toBeUndefined();
    expect(ok(await run("() => ({ a: [1, { b: null }] })"))).toEqual({ a: [1, { b: null }] });
    const result = ok(
      await run(`async () => ({
        nan: NaN, inf: -Infinity, zero: -0, big: 2n ** 70n, date: new Date(86400000), none: undefined,
        map: new Map([[1, 'a']]), set: new Set(['x']), bytes: new Uint8Array([1, 2, 3]),
        buffer: new ArrayBuffer(2), regexp: /x/g,
      })`),
    ) as Record<string, unknown>;
    expect(result.nan).toBeNaN();
    expect(result.inf).toBe(Number.NEGATIVE_INFINITY);
    expect(Object.is(result.zero, -0)).toBe(true);
    expect(result.big).toBe(2n ** 70n);
    expect(result.date).toEqual(new Date(86400000));
    expect("none" in result && result.none === undefined).toBe(true);
    expect(result.map).toEqual(new Map([[1, "a"]]));
    expect(result.set).toEqual(new Set(["x"]));
    expect(result.bytes).toEqual(new Uint8Array([1, 2, 3]));
    expect(result.buffer).toBeInstanceOf(ArrayBuffer);
    expect((result.buffer as ArrayBuffer).byteLength).toBe(2);
    expect(result.regexp).toEqual(/x/g);
  });

  it("carries every codec type host → sandbox → host unchanged, with the sandbox's own classes", async () => {
    const received: unknown[] = [];
    const globals: HostNamespaces = {
      data: {
        give: async () => sample(),
        take: async (input) => {
          received.push(input);
          return "taken";
        },
      },
    };
    const result = await run(
      `async () => {
        const value = await data.give();
        const checks = [
          typeof value.big === "bigint", value.date instanceof Date, value.map instanceof Map,
          value.set instanceof Set, value.bytes instanceof Uint8Array, value.buffer instanceof ArrayBuffer,
          value.floats instanceof Float64Array, value.ints instanceof Int32Array, value.regexp instanceof RegExp,
          Object.is(value.negativeZero, -0), Number.isNaN(value.nan), "missing" in value && value.missing === undefined,
          value.map.get(2).deep[0] instanceof Date, value.set.has(3n), value.nested.$codemode === "escaped key",
        ];
        if (checks.includes(false)) throw new Error("lost in transit: " + checks.join());
        await data.take(value);
        return value;
      }`,
      { globals },
    );
    expect(ok(result)).toEqual(sample());
    expect(received).toEqual([sample()]);
  });

  it("reports an unserializable result with NOT_SERIALIZABLE and a clear message", async () => {
    const fn = failure(await run("async () => ({ callback: () => 1 })"));
    expect(fn.code).toBe("NOT_SERIALIZABLE");
    expect(fn.message).toMatch(/return value cannot leave the sandbox.*function/i);
    const cycle = failure(await run("async () => { const a = {}; a.self = a; return a }"));
    expect(cycle.code).toBe("NOT_SERIALIZABLE");
    expect(cycle.message).toMatch(/cycle/);
    expect(failure(await run("async () => Symbol('s')")).code).toBe("NOT_SERIALIZABLE");
    await expectHealthy();
  });

  it("turns an unserializable argument or host result into a catchable error", async () => {
    const calls: unknown[] = [];
    const globals: HostNamespaces = {
      ns: {
        take: async (input) => calls.push(input),
        give: async () => ({ fn: () => 1 }),
      },
    };
    const result = await run(
      `async () => {
        const out = [];
        try { await ns.take({ f() {} }); } catch (e) { out.push(e.name, e.code, e.message); }
        try { await ns.give(); } catch (e) { out.push(e.name, e.code, e.message); }
        return out;
      }`,
      { globals },
    );
    const out = ok(result) as string[];
    expect(out[0]).toBe("TypeError");
    expect(out[1]).toBe("NOT_SERIALIZABLE");
    expect(out[2]).toMatch(/input of ns\.take cannot cross the sandbox boundary/);
    expect(out[3]).toBe("TypeError");
    expect(out[4]).toBe("NOT_SERIALIZABLE");
    expect(out[5]).toMatch(/ns\.give returned a value that cannot cross/);
    expect(calls).toEqual([]);
  });
});

describe("QuickJSExecutor: host calls", () => {
  it("passes one argument and awaits the host, sequentially and under Promise.all", async () => {
    const order: string[] = [];
    const globals: HostNamespaces = {
      math: {
        add: async (input) => {
          const { a, b } = input as { a: number; b: number };
          order.push(`add ${a}`);
          await new Promise((resolve) => setTimeout(resolve, (5 - a) * 3));
          return a + b;
        },
        nothing: async (input) => (input === undefined ? "undefined arrived" : "something arrived"),
      },
    };
    const sequential = await run(
      "async () => { const x = await math.add({ a: 1, b: 2 }); return await math.add({ a: x, b: 10 }) }",
      { globals },
    );
    expect(ok(sequential)).toBe(13);
    const parallel = await run(
      "async () => Promise.all([1, 2, 3, 4].map((a) => math.add({ a, b: 100 })))",
      { globals },
    );
    expect(ok(parallel)).toEqual([101, 102, 103, 104]);
    expect(ok(await run("async () => math.nothing()", { globals }))).toBe("undefined arrived");
  });

  it("makes 10,000 sequential awaited calls in one pass", async () => {
    let calls = 0;
    const globals: HostNamespaces = {
      counter: {
        next: async (input) => {
          calls++;
          return (input as number) + 1;
        },
      },
    };
    // the pass's limit is a hang guard only (a few seconds on a quiet machine): it ends a pass whose
    // calls never come back, and leaves a loaded machine all the time it needs
    const result = await run(
      "async () => { let n = 0; for (let i = 0; i < 10000; i++) n = await counter.next(n); return n }",
      { globals, limits: { timeoutMs: 150_000 } },
    );
    expect(ok(result)).toBe(10_000);
    expect(calls).toBe(10_000);
  }, 180_000);

  it("rejects in the sandbox with the host error's name, message and code", async () => {
    const globals: HostNamespaces = {
      api: {
        fail: async () => {
          const error = new Error("rate limited, retry in 3 s") as Error & { code: string };
          error.name = "RateLimitError";
          error.code = "RATE_LIMIT";
          throw error;
        },
        failSync: () => {
          throw new TypeError("bad input");
        },
        failString: async () => Promise.reject("plain string"),
      },
    };
    const result = await run(
      `async () => {
        const seen = [];
        for (const call of [() => api.fail(), () => api.failSync(), () => api.failString()]) {
          try { await call(); } catch (e) { seen.push([e instanceof Error, e.name, e.message, e.code ?? null]); }
        }
        return seen;
      }`,
      { globals },
    );
    expect(ok(result)).toEqual([
      [true, "RateLimitError", "rate limited, retry in 3 s", "RATE_LIMIT"],
      [true, "TypeError", "bad input", null],
      [true, "Error", "plain string", null],
    ]);
    const uncaught = failure(await run("async () => { await api.fail() }", { globals }));
    expect(uncaught).toMatchObject({
      name: "RateLimitError",
      message: "rate limited, retry in 3 s",
      code: "THROWN",
    });
  });

  it("holds on the host at most half the sandbox's memory of input of calls in flight", async () => {
    let running = 0;
    let most = 0;
    const globals: HostNamespaces = {
      ns: {
        size: async (input) => {
          most = Math.max(most, ++running);
          await new Promise((resolve) => setTimeout(resolve, 20));
          running--;
          return (input as string).length;
        },
      },
    };
    // 16 MiB of memory: 8 Mi characters of input in flight, three strings of 2 Mi characters
    const outcome = await run(
      `async () => {
        const big = "x".repeat(2 * 1024 * 1024);
        const settled = await Promise.allSettled(Array.from({ length: 8 }, () => ns.size(big)));
        const after = await ns.size(big);
        return [...settled.map((one) => one.status === "fulfilled" ? one.value : one.reason.code + " " + one.reason.name), after];
      }`,
      { globals, limits: { memoryBytes: 16 * 1024 * 1024 } },
    );
    const size = 2 * 1024 * 1024;
    const refused = "BUDGET_EXCEEDED RangeError";
    expect(ok(outcome)).toEqual([size, size, size, ...Array(5).fill(refused), size]);
    expect(most).toBe(3);
    const message = failure(
      await run(
        'async () => { const big = "x".repeat(2 * 1024 * 1024); await Promise.all([1, 2, 3, 4].map(() => ns.size(big))); }',
        { globals, limits: { memoryBytes: 16 * 1024 * 1024 } },
      ),
    ).message;
    expect(message).toMatch(/ns\.size was not called: .* more than the 8388608 one run may have/);
  });

  it("names the namespace, the method and the available methods for an unknown method", async () => {
    const globals: HostNamespaces = {
      github: { list_issues: async () => [], get_issue: async () => ({}) },
    };
    const error = failure(await run("async () => github.list_pulls({})", { globals }));
    // what was asked for crosses as data: the runtime answers with the nearest methods
    expect(error.code).toBe("UNKNOWN_METHOD");
    expect(error.method).toEqual({ namespace: "github", name: "list_pulls" });
    expect(error.name).toBe("TypeError");
    expect(error.message).toContain('"github" has no method "list_pulls"');
    expect(error.message).toContain("Available methods: list_issues, get_issue");
    expect(
      ok(
        await run("async () => [typeof github.list_issues, 'nope' in github, typeof github.then]", {
          globals,
        }),
      ),
    ).toEqual(["function", false, "undefined"]);
    expect(failure(await run("async () => gitlab.list()", { globals }))).toMatchObject({
      name: "ReferenceError",
      code: "THROWN",
    });
  });

  it("runs the prelude after the namespaces exist; its members shadow host methods", async () => {
    let hostCalls = 0;
    const globals: HostNamespaces = {
      codemode: {
        step: async () => {
          hostCalls++;
          return "host";
        },
      },
    };
    const prelude = `
      codemode.step = async (name, fn) => "prelude:" + name + ":" + (await fn());
      codemode.extra = () => typeof codemode;
    `;
    const result = await run(
      "async () => [await codemode.step('a', async () => 1), codemode.extra()]",
      {
        globals,
        prelude,
      },
    );
    expect(ok(result)).toEqual(["prelude:a:1", "object"]);
    expect(hostCalls).toBe(0);
    const broken = failure(
      await run("async () => 1", { globals, prelude: "throw new Error('bad prelude')" }),
    );
    expect(broken).toMatchObject({ code: "THROWN", message: "The prelude failed: bad prelude" });
  });
});

describe("QuickJSExecutor: failures", () => {
  it("reports thrown values, Error or not", async () => {
    const error = failure(await run("async () => { throw new RangeError('out of range') }"));
    expect(error).toMatchObject({ name: "RangeError", message: "out of range", code: "THROWN" });
    expect(error.stack).toContain("codemode.js");
    const custom = failure(
      await run(
        "async () => { class MyError extends Error { name = 'MyError' } throw new MyError('mine') }",
      ),
    );
    expect(custom).toMatchObject({ name: "MyError", message: "mine", code: "THROWN" });
    expect(failure(await run("async () => { throw 'a string' }"))).toMatchObject({
      name: "Error",
      message: "a string",
      code: "THROWN",
    });
    expect(failure(await run("async () => { throw 42 }"))).toMatchObject({
      message: "42",
      code: "THROWN",
    });
    expect(failure(await run("async () => { throw { reason: 'x', n: [1] } }"))).toMatchObject({
      message: '{"reason":"x","n":[1]}',
      code: "THROWN",
    });
    expect(failure(await run("async () => { throw null }"))).toMatchObject({
      message: "null",
      code: "THROWN",
    });
    expect(failure(await run("async () => { throw undefined }"))).toMatchObject({
      message: "undefined",
      code: "THROWN",
    });
    expect(failure(await run("() => { throw new Error('sync') }"))).toMatchObject({
      message: "sync",
      code: "THROWN",
    });
    expect(failure(await run("42"))).toMatchObject({ name: "TypeError", code: "THROWN" });
    await expectHealthy();
  });

  it("reports a syntax error with SYNTAX_ERROR and where it is", async () => {
    const error = failure(await run("async () => {\n  const x = ;\n}"));
    expect(error).toMatchObject({ name: "SyntaxError", code: "SYNTAX_ERROR" });
    expect(error.message).toContain("line 2");
    await expectHealthy();
  });

  // The passes below end at their own limit, which the message names; one that ran on instead would
  // meet the executor's limit only after the test's timeout (EXECUTOR_LIMIT_MS), so no time is read.
  it("stops `while (true) {}` with TIMEOUT at its limit", async () => {
    const error = failure(
      await run("async () => { while (true) {} }", { limits: { timeoutMs: 300 } }),
    );
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toContain("longer than 300 ms");
    const caught = failure(
      await run("async () => { try { while (true) {} } catch { return 'caught' } }", {
        limits: { timeoutMs: 200 },
      }),
    );
    expect(caught.code).toBe("TIMEOUT");
    expect(caught.message).toContain("longer than 200 ms");
    await expectHealthy();
  });

  it("ends with TIMEOUT, never a result, a pass whose built-in call outlived its deadline", async () => {
    // one native call over a huge array-like reaches no interrupt check; it ends on its own
    for (const call of [
      "Array.prototype.indexOf.call({ length: 2e7 }, 1)",
      "Array.prototype.lastIndexOf.call({ length: 2e7 }, 1)",
      "typeof Array.prototype.copyWithin.call({ length: 2e7 }, 0, 1)",
    ]) {
      const outcome = await run(
        `async () => { const started = Date.now(); const value = ${call}; return [value, Date.now() - started]; }`,
        { limits: { timeoutMs: 30 } },
      );
      // a fast machine may finish in time; then the result came within the limit
      if ("result" in outcome) expect((outcome.result as number[])[1], call).toBeLessThan(30);
      else expect(outcome.error.code, call).toBe("TIMEOUT");
    }
    const thrown = failure(
      await run(
        "async () => { Array.prototype.indexOf.call({ length: 2e7 }, 1); throw new Error('after') }",
        { limits: { timeoutMs: 30 } },
      ),
    );
    expect(["TIMEOUT"]).toContain(thrown.code);
    await expectHealthy();
  }, 120_000); // three native calls over 2e7 items each: 20 s on a loaded machine

  it("ends a loop of long console lines at its time limit: a line it does not keep costs the host nothing", async () => {
    // 2 s, not 300 ms: on a loaded machine a pass may use up 300 ms before its first line, and
    // then there is no line to check
    const outcome = await run(
      'async () => { const line = "x".repeat(1 << 22); for (;;) console.log(line); }',
      { limits: { timeoutMs: 2_000 } },
    );
    expect(failure(outcome)).toMatchObject({
      code: "TIMEOUT",
      message: expect.stringContaining("longer than 2000 ms"),
    });
    // the lines kept are cut at the pass's limit of characters, and the rest are counted
    expect(outcome.logs[0]?.length).toBeLessThanOrEqual(100_001);
    expect(outcome.logs.at(-1)).toMatch(/^… \d+ more lines dropped$/);
    const caught = failure(
      await run(
        'async () => { const line = "y".repeat(1 << 22); for (;;) { try { console.log(line, line); } catch {} } }',
        { limits: { timeoutMs: 300 } },
      ),
    );
    expect(caught.code).toBe("TIMEOUT");
    await expectHealthy();
  });

  it("stops a pass that awaits a host promise that never settles", async () => {
    const globals: HostNamespaces = { slow: { forever: () => new Promise<never>(() => {}) } };
    const error = failure(
      await run("async () => { await slow.forever(); return 'never' }", {
        globals,
        limits: { timeoutMs: 250 },
      }),
    );
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toContain("longer than 250 ms");
    await expectHealthy();
  });

  it("ends a program waiting on a promise nothing can settle, without waiting for the timeout", async () => {
    // THROWN, not TIMEOUT: it is ended by seeing that nothing is pending (the executor's limit would
    // come only after the test's timeout)
    const error = failure(await run("async () => { await new Promise(() => {}); }"));
    expect(error.code).toBe("THROWN");
    expect(error.message).toMatch(/never settle/);
  });

  it("stops a memory blow-up with MEMORY", async () => {
    const error = failure(
      await run(
        "async () => { const all = []; while (true) all.push(new Array(10000).fill(all.length)); }",
        {
          limits: { memoryBytes: 16 * 1024 * 1024 },
        },
      ),
    );
    expect(error.code).toBe("MEMORY");
    expect(error.message).toContain("16 MiB");
    const buffer = failure(
      await run("async () => new ArrayBuffer(200 * 1024 * 1024).byteLength", {
        limits: { memoryBytes: 32 * 1024 * 1024 },
      }),
    );
    expect(buffer.code).toBe("MEMORY");
    const caught = await run(
      "async () => { try { const all = []; while (true) all.push('x'.repeat(1000) + all.length); } catch (e) { return e.message } }",
      { limits: { memoryBytes: 16 * 1024 * 1024 } },
    );
    expect("error" in caught ? caught.error.code : caught.result).toMatch(/out of memory|MEMORY/);
    await expectHealthy();
  });

  it("reports MEMORY when the promise job queue runs out of memory", async () => {
    const limits = { memoryBytes: 16 * 1024 * 1024 };
    const recursion =
      "async () => { async function f(n) { await null; return f(n + 1) } return f(0) }";
    const first = failure(await run(recursion, { limits }));
    // the whole error when it fails (a CI log keeps what the assertion prints, and it abbreviates)
    expect(first.code, JSON.stringify(first)).toBe("MEMORY");
    const chain = "async () => { const f = () => Promise.resolve().then(f); return f() }";
    const second = failure(await run(chain, { limits }));
    expect(second.code, JSON.stringify(second)).toBe("MEMORY");
    await expectHealthy();
  });

  it("turns deep recursion into a clean error the code can catch, and MEMORY when uncaught", async () => {
    const caught = ok(
      await run(
        "async () => { const f = (n) => f(n + 1) + 1; try { f(0) } catch (e) { return [e.name, e.message] } }",
      ),
    );
    expect(caught).toEqual(["InternalError", "stack overflow"]);
    const uncaught = failure(
      await run("async () => { function f(n) { return f(n + 1) + 1 } return f(0) }"),
    );
    expect(uncaught.code).toBe("MEMORY");
    expect(uncaught.message).toMatch(/stack/);
    await expectHealthy();
  });

  it("survives recursion inside native code that exhausts the host's stack", async () => {
    const nested = failure(
      await run("async () => JSON.parse('['.repeat(300000) + ']'.repeat(300000))"),
    );
    expect(nested.code).toBe("MEMORY");
    const deepValue = failure(
      await run(
        "async () => { let v = []; for (let i = 0; i < 300000; i++) v = [v]; return JSON.stringify(v).length }",
      ),
    );
    expect(deepValue.code).toBe("MEMORY");
    await expectHealthy();
    const tooDeep = failure(
      await run("async () => { let v = []; for (let i = 0; i < 100000; i++) v = [v]; return v }"),
    );
    expect(["MEMORY", "NOT_SERIALIZABLE"]).toContain(tooDeep.code);
    await expectHealthy();
  });
});

describe("QuickJSExecutor: abort and the end of a pass", () => {
  it("ends at once on abort, and no host call reaches the host after it", async () => {
    const controller = new AbortController();
    const calls: number[] = [];
    const globals: HostNamespaces = {
      ns: {
        tick: async (input) => {
          calls.push(input as number);
          if (input === 3) setTimeout(() => controller.abort(new Error("paused for approval")), 5);
          await new Promise((resolve) => setTimeout(resolve, 20));
          return input;
        },
      },
    };
    // the loop would run to the executor's limit, past the test's timeout: ABORTED says what ended it
    const result = await run("async () => { for (let i = 1; ; i++) await ns.tick(i) }", {
      globals,
      signal: controller.signal,
    });
    expect(failure(result)).toMatchObject({
      code: "ABORTED",
      message: expect.stringContaining("paused for approval"),
    });
    expect(calls).toEqual([1, 2, 3]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toEqual([1, 2, 3]);
    await expectHealthy();
  });

  it("aborts from inside a host call, before the next call is made", async () => {
    const controller = new AbortController();
    const calls: number[] = [];
    const globals: HostNamespaces = {
      ns: {
        call: async (input) => {
          calls.push(input as number);
          if (input === 2) controller.abort();
          return input;
        },
      },
    };
    const result = await run(
      "async () => { for (let i = 1; i < 10; i++) await ns.call(i); return 'done' }",
      {
        globals,
        signal: controller.signal,
      },
    );
    expect(failure(result).code).toBe("ABORTED");
    expect(calls).toEqual([1, 2]);
  });

  it("does not start when the signal is already aborted", async () => {
    let calls = 0;
    const result = await run("async () => ns.call()", {
      globals: { ns: { call: async () => calls++ } },
      signal: AbortSignal.abort(),
    });
    expect(failure(result).code).toBe("ABORTED");
    expect(calls).toBe(0);
  });

  it("ends at once on abort or timeout while the WebAssembly module is still loading", async () => {
    const loading = new QuickJSExecutor({ module: new Promise(() => {}) });
    const controller = new AbortController();
    const pending = run("async () => 1", { signal: controller.signal }, loading);
    controller.abort();
    expect(failure(await pending).code).toBe("ABORTED");
    const timedOut = await run("async () => 1", { limits: { timeoutMs: 50 } }, loading);
    expect(failure(timedOut).code).toBe("TIMEOUT");
  });

  it("refuses calls made after the program settled", async () => {
    const calls: number[] = [];
    const globals: HostNamespaces = {
      ns: {
        call: async (input) => {
          calls.push(input as number);
          return input;
        },
      },
    };
    const result = await run(
      `async () => {
        (async () => { for (let i = 1; i < 100; i++) await ns.call(i); })();
        // runs a few jobs after the program's own promise settled, in the same turn
        const later = (n) => n === 0 ? ns.call(1000) : Promise.resolve().then(() => later(n - 1));
        later(6).catch((e) => console.log("refused:", e.message));
        return "settled";
      }`,
      { globals },
    );
    expect(ok(result)).toBe("settled");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toEqual([1]);
    await expectHealthy();
  });
});

describe("QuickJSExecutor: replay in the sandbox", () => {
  // the shared cases (matching, hostile programs, abort, errors) are in the conformance suite
  const codec = createValueCodec();
  const recorded = (key: number, value: unknown = `recorded ${key}`): RecordedCall => ({
    namespace: "store",
    method: "read",
    input: codec.encode({ key }, { canonical: true }),
    result: codec.encode({ key, value }),
  });
  function host() {
    const delivered: unknown[] = [];
    const advanced: number[] = [];
    const globals: HostNamespaces = {
      store: {
        read: async (input) => {
          delivered.push(input);
          return { key: (input as { key: number }).key, value: "live" };
        },
      },
    };
    // padded to 16 calls, the fewest the sandbox answers itself, with calls no program here makes
    const replay = (calls: RecordedCall[]) => ({
      calls: [
        ...calls,
        ...Array.from({ length: Math.max(0, 16 - calls.length) }, (_, index) => ({
          namespace: "store",
          method: "unused",
          input: codec.encode(index),
          result: "null",
        })),
      ],
      advance: (count: number) => advanced.push(count),
    });
    return { delivered, advanced, globals, replay };
  }

  it("loads only a prefix of the record that fits its share of the sandbox's memory", async () => {
    const { delivered, advanced, globals, replay } = host();
    // 16 MiB: a sixteenth is 1 MiB, which holds twenty of these results
    const big = (key: number) => recorded(key, `${key}`.padEnd(50_000, "x"));
    const keys = Array.from({ length: 24 }, (_, key) => key);
    const result = ok(
      await run(
        `async () => {
          const lengths = [];
          for (let key = 0; key < 24; key++) lengths.push((await store.read({ key })).value.length);
          return lengths;
        }`,
        { globals, limits: { memoryBytes: 16 * 1024 * 1024 }, replay: replay(keys.map(big)) },
      ),
    );
    expect(result).toEqual([...Array(20).fill(50_000), 4, 4, 4, 4]);
    expect(delivered).toEqual([{ key: 20 }, { key: 21 }, { key: 22 }, { key: 23 }]);
    expect(advanced).toEqual([20]);
  });

  it("leaves a hint of fewer than 16 calls to the host, where the journal replays them", async () => {
    const { delivered, advanced, globals } = host();
    const keys = Array.from({ length: 15 }, (_, key) => key);
    const result = ok(
      await run(
        `async () => {
          let live = 0;
          for (let key = 0; key < 15; key++) if ((await store.read({ key })).value === "live") live++;
          return live;
        }`,
        {
          globals,
          replay: { calls: keys.map((key) => recorded(key)), advance: (n) => advanced.push(n) },
        },
      ),
    );
    expect(result).toBe(15);
    expect(delivered).toHaveLength(15);
    expect(advanced).toEqual([]);
  });

  it("answers concurrent calls under Promise.all in order, and the first other call ends replay", async () => {
    const { delivered, advanced, globals, replay } = host();
    const result = ok(
      await run(
        `async () => {
          const first = await Promise.all([store.read({ key: 0 }), store.read({ key: 1 })]);
          const second = await Promise.all([store.read({ key: 7 }), store.read({ key: 2 })]);
          return [...first, ...second].map((found) => found.value);
        }`,
        { globals, replay: replay([0, 1, 2].map((key) => recorded(key))) },
      ),
    );
    expect(result).toEqual(["recorded 0", "recorded 1", "live", "live"]);
    expect(delivered).toEqual([{ key: 7 }, { key: 2 }]);
    expect(advanced).toEqual([2]);
  });

  it("ends a loop after replayed calls with TIMEOUT, and reports the calls", async () => {
    const { delivered, advanced, globals, replay } = host();
    const error = failure(
      await run("async () => { await store.read({ key: 0 }); while (true) {} }", {
        globals,
        // the limit counts from before the sandbox is set up: room to reach the replayed call first
        limits: { timeoutMs: 2_000 },
        replay: replay([recorded(0)]),
      }),
    );
    expect(error.code).toBe("TIMEOUT");
    expect(delivered).toEqual([]);
    expect(advanced).toEqual([1]);
    await expectHealthy();
  });

  it("keeps the methods' names and shapes, and ignores a hint it cannot read", async () => {
    const { delivered, advanced, globals, replay } = host();
    const code = `async () => [
      store.read.name, Object.keys(store), Object.getOwnPropertyDescriptor(store, "read").writable,
      (await store.read({ key: 0 })).value,
    ]`;
    const replayed = ok(await run(code, { globals, replay: replay([recorded(0)]) }));
    expect(replayed).toEqual(["read", ["read"], true, "recorded 0"]);
    expect(advanced).toEqual([1]);
    const unreadable = {
      get calls(): RecordedCall[] {
        throw new Error("no journal");
      },
      advance: (count: number) => advanced.push(count),
    };
    expect(ok(await run(code, { globals, replay: unreadable }))).toEqual([
      "read",
      ["read"],
      true,
      "live",
    ]);
    expect(delivered).toEqual([{ key: 0 }]);
    expect(advanced).toEqual([1]);
  });
});

describe("QuickJSExecutor: globals installed through the API", () => {
  it("carries top-level primitives and lone surrogates exactly, both ways", async () => {
    const received: unknown[] = [];
    const replies: unknown[] = [undefined, Number.NaN, -0, 2n ** 70n, null, false, "a\ud800b"];
    const globals: HostNamespaces = {
      ns: {
        take: async (input) => {
          received.push(input);
          return replies[received.length - 1];
        },
      },
    };
    const result = ok(
      await run(
        `async () => {
          const inputs = [undefined, NaN, -0, 2n ** 70n, null, false, "a\ud800b"];
          const back = [];
          for (const input of inputs) back.push(await ns.take(input));
          return [back.map((v) => typeof v), Object.is(back[2], -0), Number.isNaN(back[1]), back[6] === "a\ud800b", "x\udc00"];
        }`,
        { globals },
      ),
    );
    expect(received).toEqual(replies);
    expect(result).toEqual([
      ["undefined", "number", "number", "bigint", "object", "boolean", "string"],
      true,
      true,
      true,
      "x\udc00",
    ]);
    expect(Object.is(ok(await run("async () => -0")), -0)).toBe(true);
  });

  it("gives namespaces, their methods and console the property shapes of the other executors", async () => {
    // fromEntries: a "__proto__" key in an object literal would set the prototype instead
    const ns = Object.fromEntries([
      ["__proto__", async () => "proto"],
      ["toString", async () => "own"],
      ["constructor", async () => 1],
    ]);
    const globals: HostNamespaces = { ns };
    const result = ok(
      await run(
        `async () => {
          const shape = (object, key) => {
            const { writable, enumerable, configurable } = Object.getOwnPropertyDescriptor(object, key);
            return [writable, enumerable, configurable];
          };
          return [
            shape(globalThis, "ns"), shape(globalThis, "console"), shape(ns, "toString"), shape(console, "log"),
            Object.keys(ns), await ns.__proto__(), await ns.toString(), ns.toString.name,
            typeof ns.hasOwnProperty, Object.keys(globalThis),
          ];
        }`,
        { globals },
      ),
    );
    expect(result).toEqual([
      [false, false, false],
      [true, false, true],
      [true, true, true],
      [true, true, true],
      ["__proto__", "toString", "constructor"],
      "proto",
      "own",
      "toString",
      "function",
      [],
    ]);
  });

  it("moves values with the built-ins captured before the program ran", async () => {
    const received: unknown[] = [];
    const globals: HostNamespaces = { ns: { echo: recorder(received) } };
    const result = await run(
      `async () => {
        JSON.stringify = () => '"hijacked"';
        JSON.parse = () => "hijacked";
        Object.keys = () => [];
        Error = function () { return { hijacked: true } };
        Promise.prototype.then = function () { throw new Error("hijacked") };
        const back = await ns.echo({ a: [1, "two"], b: { c: null } });
        console.log("sent", 1, true, null);
        return { back, text: await ns.echo("text") };
      }`,
      { globals },
    );
    const sent = { a: [1, "two"], b: { c: null } };
    expect(received).toEqual([sent, "text"]);
    expect(result).toEqual({ result: { back: sent, text: "text" }, logs: ["sent 1 true null"] });
  });
});

describe("QuickJSExecutor: isolation", () => {
  it("has no host globals by default", async () => {
    const result = await run(
      "async () => [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof clearTimeout, typeof setInterval, typeof module, typeof Deno, typeof WebAssembly, typeof globalThis.global]",
    );
    expect(ok(result)).toEqual(Array(10).fill("undefined"));
  });

  it("keeps Function and eval inside the sandbox", async () => {
    const globals: HostNamespaces = { ns: { call: async () => 1 } };
    const result = await run(
      `async () => [
        Function("return typeof process")(),
        (0, eval)("typeof require"),
        eval("typeof fetch"),
        ns.call.constructor("return typeof process + typeof globalThis.process")(),
        console.log.constructor("return this === globalThis")(),
        Object.getOwnPropertyNames(globalThis).filter((name) => /host|call|settle|bridge/i.test(name)),
        (function () { return this })() === globalThis,
        Function("return this")() === globalThis,
      ]`,
      { globals },
    );
    expect(ok(result)).toEqual([
      "undefined",
      "undefined",
      "undefined",
      "undefinedundefined",
      true,
      [],
      true,
      true,
    ]);
  });

  it("does not let __proto__ keys in arguments or results pollute the host's prototypes", async () => {
    const received: unknown[] = [];
    const globals: HostNamespaces = {
      ns: {
        take: async (input) => {
          received.push(input);
          return JSON.parse(
            '{"__proto__": {"pollutedByResult": true}, "constructor": {"prototype": {"x": 1}}}',
          );
        },
      },
    };
    const result = await run(
      `async () => {
        const input = JSON.parse('{"__proto__": {"pollutedByArgument": true}, "a": 1}');
        const back = await ns.take(input);
        return { back, result: JSON.parse('{"__proto__": {"pollutedByReturn": true}}'), sandboxClean: ({}).pollutedByResult === undefined };
      }`,
      { globals },
    );
    const value = ok(result) as Record<string, Record<string, unknown>>;
    const probe: Record<string, unknown> = {};
    expect(probe.pollutedByArgument).toBeUndefined();
    expect(probe.pollutedByResult).toBeUndefined();
    expect(probe.pollutedByReturn).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("pollutedByArgument");
    expect(Object.hasOwn(received[0] as object, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(received[0])).toBe(Object.prototype);
    expect(Object.hasOwn(value.result as object, "__proto__")).toBe(true);
    expect(value.sandboxClean).toBe(true);
  });

  it("keeps passes apart: globals set by one pass are gone in the next, concurrent passes do not mix", async () => {
    await run("async () => { globalThis.leak = 1; Object.prototype.polluted = true; }");
    expect(ok(await run("async () => [typeof leak, ({}).polluted]"))).toEqual([
      "undefined",
      undefined,
    ]);
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        run(`async () => { globalThis.mine = ${n}; await ns.wait(); return mine }`, {
          globals: {
            ns: { wait: () => new Promise((resolve) => setTimeout(resolve, 20 - n * 3)) },
          },
        }),
      ),
    );
    expect(results.map(ok)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("QuickJSExecutor: console and timers", () => {
  it("captures console output, one string per call, rendered readably", async () => {
    const result = await run(`async () => {
      console.log("plain", 1, true, null, undefined, 2n, -0, NaN);
      console.info({ a: 1, b: [1, "x"], c: { d: undefined } });
      console.warn(new Map([["k", new Set([1])]]), new Date(0));
      console.error(new TypeError("bad"), [new Error("inner")]);
      console.debug(new Uint8Array([1, 2]), new ArrayBuffer(4), () => 1, function named() {});
      const cyclic = { name: "c" }; cyclic.self = cyclic; console.log(cyclic);
      return "ok";
    }`);
    expect(result).toEqual({
      result: "ok",
      logs: [
        "plain 1 true null undefined 2n -0 NaN",
        '{"a":1,"b":[1,"x"],"c":{"d":undefined}}',
        '[warn] Map(1) {"k" => Set(1) {1}} 1970-01-01T00:00:00.000Z',
        "[error] TypeError: bad [Error: inner]",
        "[debug] Uint8Array(2) [1, 2] ArrayBuffer(4) [Function (anonymous)] [Function named]",
        '{"name":"c","self":[Circular]}',
      ],
    });
  });

  it("bounds the logs and says how many lines were dropped", async () => {
    const many = await run("async () => { for (let i = 0; i < 1500; i++) console.log('line', i) }");
    expect(many.logs).toHaveLength(1001);
    expect(many.logs[999]).toBe("line 999");
    expect(many.logs[1000]).toBe("… 500 more lines dropped");
    const long = await run(
      "async () => { for (let i = 0; i < 5; i++) console.log('x'.repeat(40000)) }",
    );
    expect(long.logs.slice(0, -1).join("").length).toBeLessThanOrEqual(100_002);
    expect(long.logs.at(-1)).toMatch(/^… \d+ more lines? dropped$/);
    const small = new QuickJSExecutor({ maxLogLines: 2 });
    expect(
      (await run("async () => { console.log(1); console.log(2); console.log(3) }", {}, small)).logs,
    ).toEqual(["1", "2", "… 1 more line dropped"]);
  });

  it("keeps logs when the code fails", async () => {
    const result = await run("async () => { console.log('before'); throw new Error('after') }");
    expect(result.logs).toEqual(["before"]);
  });

  it("grants setTimeout only with `timers: true`, and cancels pending timers at the end of the pass", async () => {
    const timed = new QuickJSExecutor({ timers: true, timeoutMs: 20_000 });
    const result = await run(
      `async () => {
        const order = [];
        await new Promise((resolve) => setTimeout(() => { order.push("a"); resolve(); }, 20));
        const id = setTimeout(() => order.push("cancelled"), 5);
        clearTimeout(id);
        await new Promise((resolve) => setTimeout((x) => { order.push(x); resolve(); }, 10, "b"));
        setTimeout(() => console.log("after the end"), 50);
        return order;
      }`,
      {},
      timed,
    );
    expect(result).toEqual({ result: ["a", "b"], logs: [] });
    await new Promise((resolve) => setTimeout(resolve, 120));
    const sleeping = failure(
      await run(
        "async () => new Promise((r) => setTimeout(r, 10000))",
        { limits: { timeoutMs: 200 } },
        timed,
      ),
    );
    expect(sleeping.code).toBe("TIMEOUT");
    await expectHealthy(timed);
  });
});

describe("QuickJSExecutor: configuration", () => {
  it("throws INVALID_CONFIG for host misuse", async () => {
    expect(() => new QuickJSExecutor({ timeoutMs: -1 })).toThrow(CodemodeError);
    await expect(run("async () => 1", { limits: { memoryBytes: 0 } })).rejects.toMatchObject({
      code: "INVALID_CONFIG",
    });
    await expect(
      run("async () => 1", { globals: { "not-an-identifier": {} } }),
    ).rejects.toMatchObject({
      code: "INVALID_CONFIG",
    });
    await expect(
      run("async () => 1", { globals: { JSON: { parse: async () => 1 } } }),
    ).rejects.toMatchObject({
      code: "INVALID_CONFIG",
      message: expect.stringContaining('"JSON"'),
    });
    await expectHealthy();
  });

  it("runs on a compiled WebAssembly module (as in workerd) and on an injected QuickJS module", async () => {
    const wasmPath = createRequire(import.meta.url).resolve(
      "@jitl/quickjs-wasmfile-release-sync/wasm",
    );
    // (the test's type libraries do not declare the WebAssembly global)
    const wasm = (
      globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object } }
    ).WebAssembly;
    const compiled = new wasm.Module(readFileSync(wasmPath));
    const fromModule = new QuickJSExecutor({ wasmModule: compiled });
    await expectHealthy(fromModule);
    const memory = failure(
      await run(
        "async () => new ArrayBuffer(64 * 1024 * 1024).byteLength",
        { limits: { memoryBytes: 8 * 1024 * 1024 } },
        fromModule,
      ),
    );
    expect(memory.code).toBe("MEMORY");
    await expectHealthy(fromModule);
    const injected = new QuickJSExecutor({
      module: newQuickJSWASMModuleFromVariant(releaseSyncVariant),
    });
    await expectHealthy(injected);
    expect(
      failure(
        await run("async () => { while (true) {} }", { limits: { timeoutMs: 100 } }, injected),
      ).code,
    ).toBe("TIMEOUT");
    await expectHealthy(injected);
  });

  it("stays healthy over 200 passes in a row without growing memory much", async () => {
    const globals: HostNamespaces = { ns: { echo: async (input) => input } };
    const code =
      "async () => { const rows = []; for (let i = 0; i < 50; i++) rows.push(await ns.echo({ i, at: new Date(i) })); console.log(rows.length); return rows.length }";
    // what the host still holds after a full collection: the resident size also counts garbage a
    // busy machine has not collected yet, and memory the allocator keeps
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const held = () => {
      collect();
      const { heapUsed, external } = process.memoryUsage();
      return heapUsed + external;
    };
    for (let i = 0; i < 20; i++) await run(code, { globals });
    const created = instanceCounts.created;
    const before = held();
    for (let i = 0; i < 200; i++) {
      const result = await run(code, { globals });
      if ("error" in result || result.result !== 50)
        throw new Error(`pass ${i}: ${JSON.stringify(result)}`);
    }
    const grown = held() - before;
    expect(grown).toBeLessThan(16 * 1024 * 1024);
    // every pass freed all its handles, so its instance went back to the pool instead of being dropped
    expect(instanceCounts.created).toBe(created);
  }, 120_000);
});

describe("QuickJSExecutor: prewarm (a spare sandbox made ahead of the next pass)", () => {
  // the spares of the default QuickJS build, shared by every executor made without `module`
  const spares = spareSandboxes(instanceSource({}));
  const counts = spares.counts;

  afterEach(() => {
    vi.useRealTimers();
    executor.dispose();
  });

  async function spareReady(): Promise<void> {
    await vi.waitFor(
      () => {
        if (!spares.ready) throw new Error("no spare sandbox yet");
      },
      { timeout: 30_000, interval: 2 },
    );
  }

  /** Runs one pass on the spare made after the pass before it, and checks that it took it. */
  async function onSpare(code: string, request: Partial<ExecuteRequest> = {}, on = executor) {
    await spareReady();
    const taken = counts.taken;
    const result = await run(code, request, on);
    expect(counts.taken).toBe(taken + 1);
    return result;
  }

  it("makes a spare after a pass returns and serves it to exactly one pass", async () => {
    executor.dispose();
    expect(spares.ready).toBe(false);
    const made = counts.made;
    expect(ok(await run("async () => 1"))).toBe(1);
    await spareReady();
    expect(counts.made).toBe(made + 1);
    const taken = counts.taken;
    const results = await Promise.all([1, 2, 3].map((n) => run(`async () => ${n}`)));
    expect(results.map(ok)).toEqual([1, 2, 3]);
    expect(counts.taken).toBe(taken + 1);
    // the next spare is a new one: made after those passes, from nothing
    await spareReady();
    expect(counts.made).toBe(made + 2);
  });

  it("gives a pass nothing of the passes before it or beside it", async () => {
    const pollute = `
      globalThis.leak = 1;
      Object.prototype.polluted = true;
      Array.prototype.push = () => "hijacked";
      JSON.stringify = () => '"hijacked"';
      Promise.prototype.then = function () { throw new Error("hijacked") };
      console.log = () => {};
    `;
    const probe = `async () => {
      const list = [];
      list.push(1);
      console.log("logged");
      return [typeof leak, ({}).polluted, list.length, JSON.stringify({ a: 1 }), await Promise.resolve("then")];
    }`;
    const clean = ["undefined", undefined, 1, '{"a":1}', "then"];
    await run(`async () => { ${pollute} }`);
    expect(await onSpare(probe)).toEqual({ result: clean, logs: ["logged"] });
    // a pass that took a spare and polluted it does not reach the next spare either
    await onSpare(`async () => { ${pollute} }`);
    expect(await onSpare(probe)).toEqual({ result: clean, logs: ["logged"] });
    // nor does a pass still running beside it
    let release = () => {};
    const globals: HostNamespaces = {
      ns: { wait: () => new Promise<void>((resolve) => (release = resolve)) },
    };
    const running = run(
      "async () => { globalThis.leak = 1; Object.prototype.polluted = true; console.log = null; await ns.wait(); return [typeof leak, ({}).polluted] }",
      { globals },
    );
    // the spare is made after this pass, while the one above is waiting
    await run("async () => 0");
    expect(await onSpare(probe)).toEqual({ result: clean, logs: ["logged"] });
    release();
    expect(ok(await running)).toEqual(["number", true]);
  });

  it("does not give the spare to a pass with another memory limit; that pass gets its own limits", async () => {
    await run("async () => 1");
    await spareReady();
    const taken = counts.taken;
    const small = failure(
      await run("async () => new ArrayBuffer(16 * 1024 * 1024).byteLength", {
        limits: { memoryBytes: 8 * 1024 * 1024 },
      }),
    );
    expect(small.code).toBe("MEMORY");
    expect(counts.taken).toBe(taken);
    // the spare is still there, for the next pass with the memory limit it was made for
    expect(spares.ready).toBe(true);
    expect(ok(await onSpare("async () => new ArrayBuffer(16 * 1024 * 1024).byteLength"))).toBe(
      16 * 1024 * 1024,
    );
  });

  it("applies the pass's own time, stack and memory limits to a spare", async () => {
    const depth =
      "async () => { let depth = 0; const f = () => { depth++; f() }; try { f() } catch {} return depth }";
    await run("async () => 1");
    const deep = ok(await onSpare(depth)) as number;
    const shallow = ok(await onSpare(depth, { limits: { stackBytes: 64 * 1024 } })) as number;
    expect(shallow).toBeGreaterThan(10);
    expect(shallow).toBeLessThan(deep / 2);
    const loop = failure(
      await onSpare("async () => { while (true) {} }", { limits: { timeoutMs: 200 } }),
    );
    expect(loop).toMatchObject({ code: "TIMEOUT", message: expect.stringContaining("200 ms") });
    const memory = failure(
      await onSpare(
        "async () => { const all = []; while (true) all.push(new Array(10000).fill(all.length)); }",
      ),
    );
    expect(memory.code).toBe("MEMORY");
    expect(failure(await onSpare("async () => {\n  const x = ;\n}"))).toMatchObject({
      code: "SYNTAX_ERROR",
      message: expect.stringContaining("line 2"),
    });
    await spareReady();
    await expectHealthy();
  });

  it("serves the executors of the same build, each with its own options, prelude and namespaces", async () => {
    const timed = new QuickJSExecutor({ timers: true, maxLogLines: 1 });
    await run("async () => 1");
    const result = await onSpare(
      `async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        console.log("one"); console.log("two");
        return [await greet.hello("spare"), typeof setTimeout, shout("x")];
      }`,
      {
        globals: { greet: { hello: async (name) => `hello ${String(name)}` } },
        prelude: "globalThis.shout = (text) => text.toUpperCase() + '!';",
      },
      timed,
    );
    expect(result).toEqual({
      result: ["hello spare", "function", "X!"],
      logs: ["one", "… 1 more line dropped"],
    });
    expect(
      ok(await onSpare("async () => [typeof setTimeout, typeof shout, typeof greet]")),
    ).toEqual(["undefined", "undefined", "undefined"]);
  });

  it("frees the spare on dispose(), and its instance goes back to the pool", async () => {
    await run("async () => 1");
    await spareReady();
    const freed = counts.freed;
    const taken = counts.taken;
    const created = instanceCounts.created;
    executor.dispose();
    expect(spares.ready).toBe(false);
    expect(counts.freed).toBe(freed + 1);
    // another executor on the same build shares the spare: it is gone for it too
    expect(ok(await run("async () => 2", {}, new QuickJSExecutor()))).toBe(2);
    expect(counts.taken).toBe(taken);
    expect(instanceCounts.created).toBe(created);
  });

  it("frees a spare nobody takes after 30 s, on a timer that does not keep the process alive", async () => {
    executor.dispose();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const freed = counts.freed;
    await run("async () => 1");
    await vi.advanceTimersByTimeAsync(1);
    await spareReady();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(spares.ready).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(spares.ready).toBe(false);
    expect(counts.freed).toBe(freed + 1);
    vi.useRealTimers();
    // the real timers: unref'd, so an abandoned executor does not hold Node open
    const pending: { hasRef(): boolean }[] = [];
    const original = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((
      callback: () => void,
      ms?: number,
    ) => {
      const handle = original(callback, ms);
      pending.push(handle);
      return handle;
    }) as typeof setTimeout);
    try {
      await run("async () => 1");
      await spareReady();
    } finally {
      spy.mockRestore();
    }
    // the pass's own limit timer (cleared when it ended), the background timer, the spare's expiry
    expect(pending.length).toBe(3);
    expect(pending.slice(1).map((handle) => handle.hasRef())).toEqual([false, false]);
  });

  it("makes no spare and takes none with `prewarm: false`", async () => {
    executor.dispose();
    const cold = new QuickJSExecutor({ prewarm: false });
    const made = counts.made;
    expect(ok(await run("async () => 1", {}, cold))).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(counts.made).toBe(made);
    await run("async () => 1");
    await spareReady();
    const taken = counts.taken;
    expect(ok(await run("async () => 2", {}, cold))).toBe(2);
    expect(counts.taken).toBe(taken);
    expect(spares.ready).toBe(true);
  });
});
