// Programs written the way language models write them, each run through the executor under test up
// to an approval-gated call, approved (in a new runtime, as the next request makes it; half of the
// programs with a new executor for every request too), and checked: the run completes, every gated
// call reached its connector exactly once, after its approval, with the input the person was shown,
// and no call of the run reached a connector twice. The programs read the clock and chance
// (timestamps, due dates, random references, shuffles, UUIDs, Intl formats of now), run calls at once
// (Promise.all over read-then-write chains, allSettled with failing calls, race and any, worker
// pools, a p-limit, batches in a loop, as-completed loops), retry failing calls, reduce with async
// callbacks, sort, group and JSON-copy results, wrap calls in `codemode.step`, poll with sleeps, and
// format numbers and dates. The connectors answer after delays that depend on the input, or hold
// calls and answer them in reverse, so calls finish in another order than they were made; what each
// program is expected to compute is worked out here from the connectors' data and the run's start,
// never from timing.
//
// A program that fails on some executor for a cause outside the program is a known gap of that
// executor (`knownGaps` of the suite), as any other case.
import type { Executor } from "@codemode/core";
import type { DeclareTest } from "./known-gaps.ts";
import { MODEL_PROGRAMS, survives } from "./model-programs/index.ts";

export interface ModelProgramsTestOptions {
  /** the suite's `it` inside the group's `describe` (known gaps applied) */
  test: DeclareTest;
  createExecutor: () => Promise<Executor>;
}

const SLOW_TEST_MS = 300_000;

/** The "model programs" group: every program of the corpus (model-programs/). */
export function modelProgramsTests(options: ModelProgramsTestOptions): void {
  for (const [index, program] of MODEL_PROGRAMS.entries()) {
    options.test(program.name, () => survives(options, program, index % 2 === 0), SLOW_TEST_MS);
  }
}
