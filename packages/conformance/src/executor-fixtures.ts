// What the groups of the executor suite share: what each group is handed (`ExecutorGroup`), one
// pass checked against the contract (`execute`), the health check after a hostile pass, and the
// host-side probes of isolation (a marker on the host's globalThis, the host's prototypes).
import type { ExecuteRequest, ExecuteResult, Executor } from "@codemode/core";
import { expect } from "vitest";
import type { ExecutorCapability, ExecutorSettings, SandboxGlobal } from "./capabilities.ts";
import type { ConformanceTest, DeclareTest } from "./known-gaps.ts";
import { describeValue, MARKER, recorder, resultOf } from "./suite-parts.ts";

/** What `runExecutorConformance` hands each of its groups. */
export interface ExecutorGroup {
  /** the suite's `it` inside the group's `describe` (known gaps applied) */
  test: ConformanceTest;
  /** `test` when the executor has `capability` (or none is needed); otherwise not applicable, skipped */
  testWith(capability: ExecutorCapability | undefined): DeclareTest;
  has(capability: ExecutorCapability): boolean;
  /** a new executor under test, with the executor's defaults unless `settings` say otherwise */
  createExecutor(settings?: ExecutorSettings): Promise<Executor>;
  /** a normal pass on `executor` after whatever the test did: the executor still works */
  healthy(executor: Executor): Promise<void>;
  /** globals the sandbox has by design */
  sandboxGlobals: readonly SandboxGlobal[];
}

/** The codes an executor may end a pass with. */
const CODES = [
  "SYNTAX_ERROR",
  "THROWN",
  "TIMEOUT",
  "MEMORY",
  "ABORTED",
  "NOT_SERIALIZABLE",
  "UNKNOWN_METHOD",
];

/**
 * The timeout of a test that waits for a limit to end a pass, or does heavy work: a bound only a
 * hang reaches, not a loaded machine (`UNHURRIED_MS` is the deadline of such a pass).
 */
export const SLOW_TEST_MS = 300_000;

/** Runs one pass; the executor must resolve with data of the contract's shape, never reject. */
export async function execute(executor: Executor, request: ExecuteRequest): Promise<ExecuteResult> {
  let outcome: ExecuteResult;
  try {
    outcome = await executor.execute(request);
  } catch (error) {
    throw new Error(
      `execute() rejected instead of returning the failure as data: ${describeValue(error)}`,
    );
  }
  expect(Array.isArray(outcome.logs), "logs is an array").toBe(true);
  for (const line of outcome.logs) expect(typeof line).toBe("string");
  if ("error" in outcome) {
    expect(CODES).toContain(outcome.error.code);
    expect(typeof outcome.error.name).toBe("string");
    expect(typeof outcome.error.message).toBe("string");
  } else {
    expect(Object.hasOwn(outcome, "result"), "the outcome has result or error").toBe(true);
  }
  return outcome;
}

/** A pass right after another: the executor still works. */
export async function expectHealthy(executor: Executor, console: boolean): Promise<void> {
  const calls: unknown[] = [];
  const outcome = await execute(executor, {
    code: "async () => { console.log('still here'); return (await ns.echo({ n: 41 })).n + 1 }",
    globals: { ns: { echo: recorder(calls) } },
  });
  expect(resultOf(outcome), "a normal pass after the previous one").toBe(42);
  expect(calls).toEqual([{ n: 41 }]);
  if (console) expect(outcome.logs.some((line) => line.includes("still here"))).toBe(true);
}

/** Runs `body` with a marker on the host's globalThis, which no sandbox may see. */
export async function withHostMarker<T>(body: () => Promise<T>): Promise<T> {
  const global = globalThis as Record<string, unknown>;
  global[MARKER] = { secret: "conformance-host-secret" };
  try {
    return await body();
  } finally {
    delete global[MARKER];
  }
}

/** Own property names of the host's shared prototypes, to prove a pass left them alone. */
export function hostPrototypes(): unknown {
  return {
    object: Object.getOwnPropertyNames(Object.prototype).sort(),
    array: Object.getOwnPropertyNames(Array.prototype).sort(),
    function: Object.getOwnPropertyNames(Function.prototype).sort(),
    promise: Object.getOwnPropertyNames(Promise.prototype).sort(),
    toString: Object.prototype.toString.call([]),
    stringify: JSON.stringify({ a: [1] }),
  };
}
