import { createContext, runInContext } from "node:vm";
import { createValueCodec } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { sandboxBootstrap } from "./sandbox-bootstrap.ts";
import { sandboxEncoder } from "./sandbox-encoder.ts";
import { sandboxErrors } from "./sandbox-parts.ts";
import { createRenderer } from "./sandbox-renderer.ts";
import { sandboxSource } from "./sandbox-source.ts";
import { sandboxTaggedWriter } from "./sandbox-tagged-writer.ts";
import { okReply, type PassOutcome } from "./sandbox-wire.ts";

/**
 * The bootstrap in a realm of its own that has the platform's timers, with `hostIdle` (a task of
 * its own): `ns.slow` answers after `slowMs`, `ns.fast` at once, as a replayed answer would.
 */
function pass(program: string, slowMs: number): Promise<{ outcome: PassOutcome; logs: string[] }> {
  const realm = createContext({ setTimeout, clearTimeout });
  const compile = <T>(fn: T) =>
    runInContext(sandboxSource(fn as (...args: never[]) => unknown), realm) as T;
  const logs: string[] = [];
  return new Promise((settle) => {
    const api = compile(sandboxBootstrap)(
      (_namespace, method, input, answer) => {
        if (method === "fast") answer(okReply(input));
        else setTimeout(() => answer(okReply(input)), slowMs);
      },
      (line) => logs.push(line),
      (outcome) => settle({ outcome, logs }),
      (callback) => setImmediate(callback),
      (name) => (name === "codec" ? createValueCodec : createRenderer),
      JSON.stringify({ namespaces: { ns: ["slow", "fast"] }, timers: true, maxLineChars: 100 }),
      compile(sandboxEncoder),
      compile(sandboxErrors),
      compile(sandboxTaggedWriter),
    );
    api.run(runInContext(`(${program})`, realm));
  });
}

describe("the sandbox's own timers, as events of the program", () => {
  it("fire only once the program waits on no call: a timer never wins a race with a call", async () => {
    const code = `async () => Promise.race([
      ns.slow("call"),
      new Promise((resolve) => setTimeout(() => resolve("timer"), 0)),
    ])`;
    expect((await pass(code, 40)).outcome).toEqual(["ok", '"call"']);
  });

  it("meet the calls at the same points whether a call answers at once or after a round trip", async () => {
    // staggered chains: live each read is slow, on replay it answers at once
    const code = `async () => {
      const order = [];
      const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      await Promise.all([0, 1, 2].map(async (i) => {
        await sleep(i * 5);
        order.push("slept " + i);
        const first = await ns[MODE]("a" + i);
        order.push(first);
        order.push(await ns[MODE]("b" + i));
      }));
      const tick = setInterval(() => order.push("interval"), 1);
      await sleep(3);
      clearInterval(tick);
      return order;
    }`;
    const live = await pass(code.replaceAll("MODE", '"slow"'), 20);
    const replayed = await pass(code.replaceAll("MODE", '"fast"'), 20);
    expect(live.outcome[0]).toBe("ok");
    expect(replayed.outcome).toEqual(live.outcome);
  });

  it("log what a callback throws, and refuse a callback that is not a function", async () => {
    const code = `async () => {
      setTimeout(() => { throw new RangeError("in a timer"); }, 0);
      await new Promise((resolve) => setTimeout(resolve, 1));
      try { setTimeout("ns.slow(1)", 0); } catch (error) { return error.name; }
    }`;
    const { outcome, logs } = await pass(code, 1);
    expect(outcome).toEqual(["ok", '"TypeError"']);
    expect(logs).toEqual(["[error] Uncaught in a timer callback: RangeError: in a timer"]);
  });
});
