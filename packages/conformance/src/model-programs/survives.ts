// Running one model program through the executor under test: pause, approve (as often as it
// pauses, in a new runtime each time, as the next request makes it), and check that the run
// completes, every gated call reached its connector exactly once, after its approval, with the input
// the person was shown, and no call of the run reached a connector twice; then the program's check.
import {
  createCodemodeRuntime,
  decisionHandleOf,
  type Executor,
  memoryStore,
  type PendingAction,
} from "@codemode/core";
import { expect } from "vitest";
import { connectorsOf, isGated } from "./connectors-of.ts";
import type { ModelProgram } from "./model-program.ts";
import type { Call, Rec, World } from "./world.ts";

function describeOutput(output: unknown): string {
  return JSON.stringify(output, null, 1)?.slice(0, 2_000) ?? String(output);
}

export async function survives(
  options: { createExecutor: () => Promise<Executor> },
  program: ModelProgram,
  /** a new executor for every request (a process per request), else one for the run (a server's) */
  executorPerRequest: boolean,
): Promise<void> {
  const world: World = {
    ledger: [],
    attempts: new Map(),
    polls: new Map(),
    held: [],
    flushing: false,
  };
  const store = memoryStore();
  const shared = executorPerRequest ? undefined : await options.createExecutor();
  // the runtime and its connectors are made anew for each request, as an app makes them
  const fresh = async () =>
    createCodemodeRuntime({
      store,
      executor: shared ?? (await options.createExecutor()),
      connectors: connectorsOf(world),
    });

  let output = await (await fresh()).execute({ code: program.code });
  if (output.status !== "paused") {
    throw new Error(`the first pass did not pause at a gated call: ${describeOutput(output)}`);
  }
  const executionId = output.executionId;
  const started = (await (await fresh()).execution(executionId))?.createdAt as number;
  const pending: PendingAction[] = [];
  const pauses: Array<{ pending: PendingAction[]; ledgerAt: number }> = [];
  const expectedGated = program.gated ?? 1;
  while (output.status === "paused") {
    expect(output.pending.length, "a pause shows the calls it waits for").toBeGreaterThan(0);
    for (const action of output.pending) {
      expect(isGated(action), `${action.connector}.${action.method} waits for approval`).toBe(true);
    }
    pauses.push({ pending: output.pending, ledgerAt: world.ledger.length });
    pending.push(...output.pending);
    if (pending.length > expectedGated) {
      throw new Error(
        `more gated calls than the program makes (${expectedGated}): ${describeOutput(pending)}`,
      );
    }
    output = await (await fresh()).approve({
      executionId,
      handle: decisionHandleOf(output.pending, executionId),
    });
  }

  // nothing ran twice: one connector call per seq of the run
  const keys = world.ledger.map((call) => call.idempotencyKey);
  const twice = world.ledger.filter((call, index) => keys.indexOf(call.idempotencyKey) !== index);
  expect(twice, "calls that reached a connector twice").toEqual([]);

  const gatedCalls = world.ledger.filter(isGated);
  if (output.status !== "completed") {
    throw new Error(`the approval did not complete the run: ${describeOutput(output)}`);
  }
  expect(pending, "gated calls the run made").toHaveLength(expectedGated);

  // each gated call reached its connector once, after its approval, with the input shown
  for (const [index, pause] of pauses.entries()) {
    for (const action of pause.pending) {
      const ran = world.ledger
        .map((call, at) => ({ call, at }))
        .filter(({ call }) => call.seq === action.seq);
      expect(ran, `the approved call at seq ${action.seq} (pause ${index + 1})`).toHaveLength(1);
      const [{ call, at }] = ran as [{ call: Call; at: number }];
      expect([call.connector, call.method]).toEqual([action.connector, action.method]);
      expect(call.input, "the approved input is the one shown").toEqual(action.args);
      expect(at, "ran only after its approval").toBeGreaterThanOrEqual(pause.ledgerAt);
    }
  }
  expect(gatedCalls, "every gated call that ran was shown and approved").toHaveLength(
    expectedGated,
  );

  program.check({
    started,
    result: output.result,
    pending,
    shown: pending.map((action) => action.args as Rec),
    ledger: world.ledger,
    inputs: (connector, method) =>
      world.ledger
        .filter((call) => call.connector === connector && call.method === method)
        .map((call) => call.input as Rec),
  });
}
