// The first attacks of the corpus: one short program of each kind the files after it go deeper into
// (a constructor chain to \`process\`, getters, proxies and \`then\` and \`toJSON\` traps in what crosses,
// a huge string, deep recursion, calls after the pass, unhandled rejections).
import { expect } from "vitest";
import { errorOf, MARKER, MEMORY_BYTES, resultOf, sleep } from "../suite-parts.ts";
import type { Attack, AttackRun } from "./attack.ts";

/** THROWN, or a harmless \`undefined\`: what reaching for the host's \`process\` may give. */
function expectNoProcess({ outcome }: AttackRun): void {
  if ("error" in outcome) expect(outcome.error.code).toBe("THROWN");
  else expect(outcome.result).toBeUndefined();
}

/** Small hostile programs. Each must end with a clear error or a harmless result. */
export const BASIC_ATTACKS: readonly Attack[] = [
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
];
