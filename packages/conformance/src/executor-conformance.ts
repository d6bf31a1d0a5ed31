// The executor suite's runner: the options an executor passes, which groups run, and the capability
// gating. Each group is a file of its own (`*-conformance.ts`); what they share is in
// executor-fixtures.ts, what an executor declares in capabilities.ts.
import type { Executor } from "@codemode/core";
import { describe } from "vitest";
import { attackTests } from "./attacks-conformance.ts";
import { basicsTests } from "./basics-conformance.ts";
import { batchedCallsTests } from "./batched-calls-conformance.ts";
import type { ExecutorCapability, ExecutorSettings, SandboxGlobal } from "./capabilities.ts";
import { consoleTests } from "./console-conformance.ts";
import { determinismTests } from "./determinism-conformance.ts";
import { divergenceTests } from "./divergence-conformance.ts";
import { errorsTests } from "./errors-conformance.ts";
import { type ExecutorGroup, execute, expectHealthy } from "./executor-fixtures.ts";
import { hostCallsTests } from "./host-calls-conformance.ts";
import { hostileSandboxTests } from "./hostile-sandbox-conformance.ts";
import { isolationTests } from "./isolation-conformance.ts";
import { conformanceTest, type KnownGap } from "./known-gaps.ts";
import { limitsTests } from "./limits-conformance.ts";
import { modelProgramsTests } from "./model-programs-conformance.ts";
import { pauseTests } from "./pause-conformance.ts";
import { preludeTests } from "./prelude-conformance.ts";
import { reachabilityTests } from "./reachability-conformance.ts";
import { replayTests } from "./replay-conformance.ts";
import { replayProperty } from "./replay-property.ts";
import { runawayTests } from "./runaway-conformance.ts";
import { snippetTests } from "./snippet-conformance.ts";

export interface ExecutorConformanceOptions {
  name: string;
  /**
   * an executor; called for each test, with `settings` where a test needs them (`callLimit`: a
   * `maxConcurrentCalls`); an executor that declares the capability must honour them
   */
  createExecutor: (settings?: ExecutorSettings) => Executor | Promise<Executor>;
  /** what the executor enforces: tests of the others are not applicable and skipped */
  capabilities: readonly ExecutorCapability[];
  /** globals the sandbox has by design (a Worker's `fetch`, routed or blocked by the executor) */
  sandboxGlobals?: readonly SandboxGlobal[];
  knownGaps?: readonly KnownGap[];
  /** the groups to run (default: all of them) */
  groups?: readonly ExecutorConformanceGroup[];
}

/** The suite's groups of tests, by the name each `describe` has. */
export type ExecutorConformanceGroup =
  | "basics"
  | "host calls"
  | "prelude"
  | "errors as data"
  | "isolation"
  | "attacks"
  | "limits"
  | "runaway code"
  | "replay property"
  | "replay"
  | "divergence"
  | "determinism"
  | "model programs"
  | "pause"
  | "snippets"
  | "reachability"
  | "console"
  | "batched calls"
  | "hostile sandbox";

/** Each group, in the order the suite runs them. */
const GROUPS: readonly [ExecutorConformanceGroup, (group: ExecutorGroup) => void][] = [
  ["basics", basicsTests],
  ["host calls", hostCallsTests],
  ["prelude", preludeTests],
  ["errors as data", errorsTests],
  ["isolation", isolationTests],
  ["attacks", attackTests],
  ["limits", limitsTests],
  ["runaway code", (group) => runawayTests({ ...group, execute })],
  ["replay property", replayProperty],
  ["replay", replayTests],
  ["pause", pauseTests],
  ["snippets", snippetTests],
  ["determinism", determinismTests],
  ["model programs", modelProgramsTests],
  ["reachability", reachabilityTests],
  ["divergence", (group) => divergenceTests({ ...group, replay: group.has("replay") })],
  ["console", consoleTests],
  ["batched calls", batchedCallsTests],
  ["hostile sandbox", hostileSandboxTests],
];

/**
 * The behaviour every executor shares: values and host calls across the boundary, the prelude,
 * failures as data, isolation, a corpus of hostile programs, and the limits it declares.
 */
export function runExecutorConformance(options: ExecutorConformanceOptions): void {
  const suite = conformanceTest(options.knownGaps);
  const has = (capability: ExecutorCapability) => options.capabilities.includes(capability);
  const createExecutor = async (settings?: ExecutorSettings): Promise<Executor> =>
    settings === undefined ? options.createExecutor() : options.createExecutor(settings);
  const healthy = (executor: Executor) => expectHealthy(executor, has("console"));
  const runs = (group: ExecutorConformanceGroup) => options.groups?.includes(group) ?? true;

  describe(`executor conformance: ${options.name}`, () => {
    for (const [name, tests] of GROUPS) {
      if (!runs(name)) continue;
      suite.group(name, (test) =>
        tests({
          test,
          testWith: (capability) =>
            capability === undefined || has(capability)
              ? test
              : test.skipped(`needs ${capability}`),
          has,
          createExecutor,
          healthy,
          sandboxGlobals: options.sandboxGlobals ?? [],
        }),
      );
    }
  });
}
