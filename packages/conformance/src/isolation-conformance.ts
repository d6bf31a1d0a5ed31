// The isolation group of the executor suite: the sandbox has no host globals (but those it is given
// on purpose), sees no host object, shares no state between passes, compiles no code that reaches
// the host, and `__proto__` keys pollute nothing across the boundary.
import { expect } from "vitest";
import { type ExecutorGroup, execute, withHostMarker } from "./executor-fixtures.ts";
import { HOST_GLOBALS, MARKER, recorder, resultOf, sleep } from "./suite-parts.ts";

/** The "isolation" group. */
export function isolationTests({ test, createExecutor, sandboxGlobals }: ExecutorGroup): void {
  test("has no process, require, fetch or setTimeout by default", async () => {
    const executor = await createExecutor();
    const outcome = await execute(executor, {
      code: "async () => [typeof process, typeof require, typeof fetch, typeof setTimeout]",
      globals: {},
    });
    const granted = sandboxGlobals;
    expect(resultOf(outcome)).toEqual([
      "undefined",
      "undefined",
      granted.includes("fetch") ? "function" : "undefined",
      granted.includes("setTimeout") ? "function" : "undefined",
    ]);
  });

  test("the sandbox's globalThis holds no host objects", async () => {
    const executor = await createExecutor();
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

  test("two passes share no state", async () => {
    const executor = await createExecutor();
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

  test("Function and eval in the sandbox cannot reach host values", async () => {
    const executor = await createExecutor();
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

  test("__proto__ keys in arguments and results do not pollute the host's Object.prototype", async () => {
    const executor = await createExecutor();
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
  });
}
