// Attacks that pollute prototypes across the boundary: \`__proto__\` and \`constructor.prototype\` keys,
// the sandbox's own prototypes polluted before a call, \`Symbol.toPrimitive\` and \`Symbol.species\` traps.
import { expect } from "vitest";
import { resultOf, UNHURRIED_MS } from "../suite-parts.ts";
import type { Attack } from "./attack.ts";
import { expectPlainData } from "./expect-plain-data.ts";

/** Pollution across the boundary. */
export const PROTOTYPE_ATTACKS: readonly Attack[] = [
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
    limits: { timeoutMs: UNHURRIED_MS },
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
];
