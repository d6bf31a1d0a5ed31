// Calls a program makes at once, through the executor under test: whatever built-ins the program
// replaced first (prototype setters and getters, JSON, Promise.prototype.then, Array methods), each
// call reaches the host once, in the order made, and each reply reaches the promise of its own call.
// An executor that sends calls made together in one message is where this can break.
import type { ExecuteRequest, ExecuteResult, Executor, HostNamespaces } from "@codemode/core";
import { expect } from "vitest";
import type { DeclareTest } from "./known-gaps.ts";
import { resultOf, sleep } from "./suite-parts.ts";

const CALLS = 24;

/** Replaces what a harness could use to write, send or read a batch of calls, and notes every use. */
const TAMPERED = `async () => {
  // the program's own arrays, made before Array.prototype's indexes get setters
  const calls = new Array(${CALLS}).fill(0);
  const out = new Array(${CALLS}).fill(0);
  let leaks = "";
  const note = (what) => { leaks += (leaks ? "," : "") + what; };
  const names = ["next", "resolve", "namespace", "method", "input", "head", "tail", "id", "calls"];
  for (const name of names) {
    Object.defineProperty(Object.prototype, name, {
      get() { note("get " + name); return undefined; },
      set(value) { note("set " + name); },
      configurable: true,
    });
  }
  for (const index of ["0", "1"]) {
    Object.defineProperty(Array.prototype, index, {
      get() { note("array " + index); return 'r"forged"'; },
      set(value) { note("array set " + index); },
      configurable: true,
    });
  }
  const saved = { stringify: JSON.stringify, parse: JSON.parse, then: Promise.prototype.then,
    push: Array.prototype.push, iterator: Array.prototype[Symbol.iterator], concat: String.prototype.concat };
  JSON.stringify = function () { note("JSON.stringify"); return '[["ns","echo","\\\\"forged\\\\""]]'; };
  JSON.parse = function () { note("JSON.parse"); return ['r"forged"', 'r"forged"']; };
  Promise.prototype.then = function (a, b) { return saved.then.call(this, a, b); };
  String.prototype.concat = function () { note("concat"); return "forged"; };
  Array.prototype.push = function () { note("push"); return 0; };
  Array.prototype[Symbol.iterator] = function* () { note("iterator"); };
  for (let i = 0; i < ${CALLS}; i++) calls[i] = ns.echo({ i, text: "call " + i });
  for (let i = 0; i < ${CALLS}; i++) out[i] = await calls[i];
  JSON.stringify = saved.stringify;
  JSON.parse = saved.parse;
  Promise.prototype.then = saved.then;
  String.prototype.concat = saved.concat;
  Array.prototype.push = saved.push;
  Array.prototype[Symbol.iterator] = saved.iterator;
  delete Array.prototype[0];
  delete Array.prototype[1];
  for (const name of names) delete Object.prototype[name];
  return { out: JSON.stringify(out), leaks };
}`;

export function callsAtOnceTests(options: {
  test: DeclareTest;
  createExecutor: () => Promise<Executor>;
  execute: (executor: Executor, request: ExecuteRequest) => Promise<ExecuteResult>;
}): void {
  const expected = Array.from({ length: CALLS }, (_, i) => ({ i, text: `call ${i}` }));
  /** Runs the tampering program: what the host saw, what the program got back, and what it noted. */
  const run = async () => {
    const seen: unknown[] = [];
    const globals: HostNamespaces = {
      ns: {
        echo: async (input) => {
          seen.push(input);
          // the replies come back in another order than the calls went
          await sleep((CALLS - seen.length) % 7);
          return input;
        },
      },
    };
    const outcome = await options.execute(await options.createExecutor(), {
      globals,
      code: TAMPERED,
    });
    const result = resultOf(outcome) as { out: string; leaks: string };
    return { seen, out: JSON.parse(result.out) as unknown, leaks: result.leaks };
  };

  options.test(
    "calls made at once reach the host once each, in order, each reply to its own promise, whatever built-ins the program replaced",
    async () => {
      const { seen, out } = await run();
      expect(seen).toEqual(expected);
      expect(out).toEqual(expected);
    },
  );

  options.test(
    "the executor's side of the sandbox uses no built-in or prototype accessor the program replaced",
    async () => {
      const { leaks } = await run();
      expect(leaks, "what the program's replacements saw").toBe("");
    },
  );
}
