// A property every executor must keep under the durable runtime: generated programs (see
// replay-programs.ts: reads with generated arguments, Promise.all, read-then-read chains pushing
// results as they arrive, codemode.step of Math.random and Date.now or of connector calls, bare reads
// of the clock and chance as models write them, try/catch around a method that throws for some
// inputs, loops and branches on earlier replies) pause at a gated call; the approval pass replays what
// was recorded and ends with the value a host-side evaluation of the same program gives (the clock
// and chance as the run's every pass sees them), the gated call runs once with the input the pause
// showed, and no recorded read reaches the connector again. The connector answers calls made at once
// in an order fast-check chooses, so a pass that handed results over as they arrive would diverge.
// The host evaluates `Date` and `Math.random()` as the prelude makes them in a sandbox: an executor
// that runs programs in the host's own realm (this package's InProcessExecutor) cannot keep it and is
// not run with it.
import { type Connector, createCodemodeRuntime, type Executor, memoryStore } from "@codemode/core";
import fc from "fast-check";
import { expect } from "vitest";
import type { DeclareTest } from "./known-gaps.ts";
import {
  type Counts,
  codeOf,
  type Evaluation,
  evaluate,
  type Method,
  type Program,
  programArbitrary,
  reply,
  zero,
} from "./replay-programs.ts";

declare function setTimeout(callback: () => void, ms: number): unknown;

/** Each run is two passes of a real sandbox: enough runs to vary the programs, few enough to be quick. */
const RUNS = 15;
const SLOW_TEST_MS = 300_000;

// ---------------------------------------------------------------------------------------------
// The connector: deterministic replies (replay-programs.ts), in an order the schedule chooses

/**
 * When the connector answers: the n-th call it receives takes `choices[n % length]`: 0 answers at
 * once; 1 waits for the next timer turn, 2 for the one after. At a timer turn the calls due are
 * answered in an order the choices pick too. A turn comes after every call that arrives in the same
 * macrotask (a program's calls made at once), and always comes: a program that makes one call at a
 * time waits a turn per call, never for a call it has not made.
 */
interface Schedule {
  choices: number[];
}
const scheduleArbitrary: fc.Arbitrary<Schedule> = fc.record({
  choices: fc.array(fc.nat(2), { minLength: 1, maxLength: 8 }),
});

function dataConnector(counts: Counts, schedule: Schedule, writes: unknown[]): Connector {
  const method = (description: string) => ({
    description,
    inputSchema: { type: "object" as const },
  });
  const { choices } = schedule;
  const choose = (index: number) => choices[index % choices.length] as number;
  let arrivals = 0;
  let picks = 0;
  let turning = false;
  const held: { turns: number; answer: () => void }[] = [];
  const turn = () => {
    turning = false;
    for (const call of held) call.turns--;
    const due = held.filter((call) => call.turns <= 0);
    held.splice(0, held.length, ...held.filter((call) => call.turns > 0));
    while (due.length > 0) due.splice(choose(picks++) % due.length, 1)[0]?.answer();
    wait();
  };
  const wait = () => {
    if (turning || held.length === 0) return;
    turning = true;
    setTimeout(turn, 0);
  };
  return {
    specificationVersion: "v1",
    name: "data",
    methods: () => ({
      read: method("Read a record."),
      list: method("List records."),
      fail: method("Read a record that may be missing (throws)."),
      write: { ...method("Write the values seen so far."), requiresApproval: true },
    }),
    invoke: (name, input) => {
      const known = name as Method;
      counts[known]++;
      if (known === "write") writes.push(input);
      const turns = choose(arrivals++);
      return new Promise((resolve, reject) => {
        const answer = () => {
          try {
            resolve(reply(known, input));
          } catch (error) {
            reject(error);
          }
        };
        if (turns === 0) return answer();
        held.push({ turns, answer });
        wait();
      });
    },
  };
}

/** The "replay property" group of the executor suite (see `runExecutorConformance`). */
export function replayProperty({
  test,
  createExecutor,
}: {
  test: DeclareTest;
  createExecutor: () => Promise<Executor>;
}): void {
  test(
    "an approval pass replays generated programs to the live result without calling reads again",
    async () => {
      await fc.assert(
        fc.asyncProperty(programArbitrary, scheduleArbitrary, async (program, schedule) => {
          const code = codeOf(program);
          try {
            await checkProgram(program, code, schedule, createExecutor);
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            throw new Error(
              `${message}\n\nprogram:\n${code}\n\nschedule: ${JSON.stringify(schedule)}`,
            );
          }
        }),
        { numRuns: RUNS },
      );
    },
    SLOW_TEST_MS,
  );
}

async function checkProgram(
  program: Program,
  code: string,
  schedule: Schedule,
  create: () => Promise<Executor>,
): Promise<void> {
  const counts = zero();
  const writes: unknown[] = [];
  const store = memoryStore();
  // every pass gets a new executor and connector, as an application makes them per request
  const runtimeFor = async () =>
    createCodemodeRuntime({
      store,
      executor: await create(),
      connectors: [dataConnector(counts, schedule, writes)],
    });

  const live = await (await runtimeFor()).execute({ code });
  expect(live, "the live pass pauses at the gated write").toMatchObject({ status: "paused" });
  if (live.status !== "paused") return;
  expect(live.pending.map(({ connector, method }) => `${connector}.${method}`)).toEqual([
    "data.write",
  ]);
  const shown = live.pending[0]?.args as { seen?: unknown };
  const liveCounts = { ...counts };

  const approved = await (await runtimeFor()).approve({ executionId: live.executionId });
  expect(approved, "the approval pass completes").toMatchObject({ status: "completed" });
  if (approved.status !== "completed") return;
  const result = approved.result as Evaluation["result"];

  // the clock and chance every pass of the run reads: its journaled start and its journaled seed
  // (a secret the runtime never shows; the host's own journal has it)
  const execution = await store.journal("default").getExecution(live.executionId);
  expect(execution?.seed, "the run's seed is in the journal").toBeDefined();
  const expected = evaluate(program, {
    time: execution?.createdAt as number,
    seed: execution?.seed as string,
    uuid: result.uuid === true,
  });

  expect(liveCounts, "connector calls of the live pass").toEqual(expected.before);
  expect(shown?.seen, "what the live pass saw before the gate").toEqual(expected.result.before);
  expect(result.before, "what the approval pass saw before the gate (replayed)").toEqual(
    shown?.seen,
  );
  expect(writes, "the gated write ran once, with the input the pause showed").toEqual([shown]);
  expect(result, "the approval pass's result").toEqual(expected.result);
  const added = Object.fromEntries(
    (Object.keys(counts) as Method[]).map((method) => [
      method,
      counts[method] - liveCounts[method],
    ]),
  );
  expect(added, "connector calls of the approval pass: the gate once, then the new reads").toEqual({
    ...expected.after,
    write: 1,
  });
}
