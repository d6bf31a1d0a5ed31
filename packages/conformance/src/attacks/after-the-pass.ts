// Attacks that call the host after the pass ended: timers, microtasks, late replies.
import { expect } from "vitest";
import { resultOf, sleep } from "../suite-parts.ts";
import type { Attack } from "./attack.ts";

/** After the pass: timers, microtasks, late promises. */
export const AFTER_THE_PASS_ATTACKS: readonly Attack[] = [
  {
    name: "a timer set before returning calls no host method after the pass",
    code: `async () => {
      if (typeof setTimeout !== "function") return "no timers";
      setTimeout(() => ns.echo("from a timer"), 20);
      try { setTimeout("ns.echo('from a string timer')", 20); } catch {}
      return "returned";
    }`,
    check: async ({ outcome, calls }) => {
      expect(["returned", "no timers"]).toContain(resultOf(outcome));
      await sleep(200);
      expect(calls).toEqual([]);
    },
  },
  {
    name: "a chain of queueMicrotask calls delivers no host call once the pass has ended",
    code: `async () => {
      // QuickJS has no queueMicrotask: a resolved promise queues the same job
      const queue = typeof queueMicrotask === "function" ? queueMicrotask : (job) => Promise.resolve().then(job);
      const step = (n) => { if (n < 60) { ns.echo(n).catch(() => {}); queue(() => step(n + 1)); } };
      queue(() => step(0));
      return "returned";
    }`,
    check: async ({ outcome, calls }) => {
      expect(resultOf(outcome)).toBe("returned");
      const delivered = calls.length;
      expect(delivered, "the late end of the chain").toBeLessThan(60);
      expect(calls).toEqual(Array.from({ length: delivered }, (_, index) => index));
      await sleep(200);
      expect(calls).toHaveLength(delivered);
    },
  },
  {
    name: "a host call chained on a reply that comes after the pass ended is not delivered",
    code: `async () => {
      ns.echo("first").then(() => ns.echo("chained")).catch(() => {});
      return "returned";
    }`,
    check: async ({ outcome, calls }) => {
      expect(resultOf(outcome)).toBe("returned");
      await sleep(200);
      expect(["first", "chained"].slice(0, calls.length)).toEqual(calls);
      expect(calls).not.toContain("chained");
    },
  },
];
