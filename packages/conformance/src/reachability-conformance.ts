import type { Executor, HostFunction } from "@codemode/core";
import { PRELUDE_CHANNEL, SANDBOX_PRELUDE } from "@codemode/core/internal";
import { expect } from "vitest";
import type { DeclareTest } from "./known-gaps.ts";
import { hunterProgram } from "./reachability-hunter.ts";
import { sleep, TIMEOUT_MS } from "./suite-parts.ts";

// The reachability group of the executor suite: a program rewrites the built-ins a harness may use
// (getters on the prototypes, `then`, `call`, `apply`, `JSON`, `Symbol.toPrimitive`), keeps every
// object and function it is handed, walks everything reachable from its globals, and calls every
// function it found with forged arguments. The host must see nothing but the one connector call the
// program makes on purpose: no call of the prelude's channel, no log line, no replay count.

/**
 * Names a harness or a host stub may read from an object the program can reach (not the names of a
 * property descriptor: a getter for those on Object.prototype breaks every `defineProperty`).
 */
const READ_NAMES = [
  "then",
  "catch",
  "finally",
  "constructor",
  "call",
  "apply",
  "bind",
  "name",
  "message",
  "code",
  "stack",
  "length",
  "toJSON",
  "valueOf",
  "toString",
  "data",
  "error",
  "result",
  "logs",
  "has",
  "send",
  "postMessage",
  "fetch",
];

const HUNTER = hunterProgram(READ_NAMES, PRELUDE_CHANNEL.stepRecord);

/** The test of the reachability group. */
export function reachabilityTests(options: {
  test: DeclareTest;
  createExecutor: () => Promise<Executor>;
}): void {
  const { test } = options;
  test(
    "nothing but connector methods and the documented SDK reaches the host, however the built-ins are rewritten",
    async () => {
      const executor = await options.createExecutor();
      const reached: string[] = [];
      const advances: unknown[] = [];
      const recording =
        (name: string): HostFunction =>
        async (input) => {
          reached.push(name);
          return input;
        };
      const outcome = await executor.execute({
        code: HUNTER,
        globals: {
          ns: { legit: recording("ns.legit") },
          codemode: {
            search: recording("codemode.search"),
            describe: recording("codemode.describe"),
            [PRELUDE_CHANNEL.stepDecide]: recording(PRELUDE_CHANNEL.stepDecide),
            [PRELUDE_CHANNEL.stepRecord]: recording(PRELUDE_CHANNEL.stepRecord),
            [PRELUDE_CHANNEL.snippet]: recording(PRELUDE_CHANNEL.snippet),
          },
        },
        prelude: SANDBOX_PRELUDE,
        limits: { timeoutMs: TIMEOUT_MS * 5 },
        replay: { calls: [], advance: (count) => advances.push(count) },
      });
      // anything the program left running has had its chance to arrive
      await sleep(100);
      expect(reached, "host functions the program reached").toEqual(["ns.legit"]);
      expect(outcome.logs, "log lines the program never wrote").toEqual([]);
      expect(
        advances.filter((count) => count !== 0),
        "replay counts",
      ).toEqual([]);
    },
    TIMEOUT_MS * 20,
  );
}
