// Attacks that exhaust the executor or its host: a built-in call that outlives the deadline, console
// lines that cost the host more than the sandbox, calls made at once past the run's budget of host
// memory, memory, recursion, and huge arguments and results.
import { expect } from "vitest";
import { errorOf, MEMORY_BYTES, UNHURRIED_MS } from "../suite-parts.ts";
import type { Attack } from "./attack.ts";

/** Host work and long built-ins, memory, recursion and size. */
export const EXHAUSTION_ATTACKS: readonly Attack[] = [
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
      if (started) expect(Date.now() - Number(started[1])).toBeLessThan(300 + 10_000);
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
    limits: { timeoutMs: UNHURRIED_MS },
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
    limits: { memoryBytes: MEMORY_BYTES, timeoutMs: UNHURRIED_MS },
    check: ({ outcome }) => {
      expect(errorOf(outcome).code).toBe("MEMORY");
    },
  },
  {
    name: "a string doubling without end ends with MEMORY",
    capability: "memoryLimit",
    code: `async () => { let text = "ab"; while (true) text = text + text + "."; }`,
    limits: { memoryBytes: MEMORY_BYTES, timeoutMs: UNHURRIED_MS },
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
    limits: { timeoutMs: UNHURRIED_MS },
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
    limits: { timeoutMs: UNHURRIED_MS },
    check: ({ outcome }) => {
      if ("error" in outcome) expect(["MEMORY", "NOT_SERIALIZABLE"]).toContain(outcome.error.code);
      else expect(outcome.result).toBe("y".repeat(16 * 1024 * 1024));
    },
  },
  {
    name: "a result of 200,000 objects is returned whole or refused",
    code: `async () => Array.from({ length: 200000 }, (_, i) => ({ i, even: i % 2 === 0 }))`,
    limits: { timeoutMs: UNHURRIED_MS },
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
