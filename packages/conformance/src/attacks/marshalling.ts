// Attacks on what crosses the boundary: getters, proxies, \`toJSON\` and \`then\` (a getter that answers
// otherwise on a second read, a replaced \`JSON.stringify\`, bigints of more than 4,096 digits, proxies
// pretending to be built-in types): what crosses is what the program held, read once.
import { expect } from "vitest";
import { errorOf, resultOf } from "../suite-parts.ts";
import type { Attack } from "./attack.ts";
import { expectPlainData } from "./expect-plain-data.ts";

/** Getters, proxies, toJSON and then. */
export const MARSHALLING_ATTACKS: readonly Attack[] = [
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
];
