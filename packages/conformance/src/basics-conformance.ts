// The basics group of the executor suite: the program's value comes back, values of every kind the
// codec carries cross both ways, and a synchronous function runs too.
import { expect } from "vitest";
import { type ExecutorGroup, execute } from "./executor-fixtures.ts";
import { recorder, resultOf } from "./suite-parts.ts";

/** The "basics" group. */
export function basicsTests({ test, createExecutor }: ExecutorGroup): void {
  test("returns the value of the program", async () => {
    const executor = await createExecutor();
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

  test("carries Date, Map, Set, bigint, undefined and Uint8Array both ways", async () => {
    const executor = await createExecutor();
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
    expect(taken, "sandbox values as the host receives them").toStrictEqual([values(), undefined]);
    expect(Object.hasOwn(taken[0] as object, "missing")).toBe(true);
    expect(result.made, "sandbox values as the result").toStrictEqual(values());
    expect(Object.hasOwn(result.made as object, "missing")).toBe(true);
  });

  test("runs a synchronous arrow function", async () => {
    const executor = await createExecutor();
    expect(resultOf(await execute(executor, { code: "() => 6 * 7", globals: {} }))).toBe(42);
    const calls: unknown[] = [];
    const viaHost = await execute(executor, {
      code: "() => ns.echo('returned as a promise')",
      globals: { ns: { echo: recorder(calls) } },
    });
    expect(resultOf(viaHost)).toBe("returned as a promise");
    expect(calls).toEqual(["returned as a promise"]);
  });
}
