import { createValueCodec } from "@codemode/core";
import { SANDBOX_EVALUATE_HOOK, SANDBOX_SEED_HOOK } from "@codemode/core/internal";
import {
  createRenderer,
  isHostReply,
  sandboxBootstrap,
  sandboxCallQueue,
  sandboxCanonical,
  sandboxEncoder,
  sandboxErrors,
  sandboxSource,
  sandboxTaggedWriter,
} from "@codemode/executor-kit";
import { type HarnessSpec, workerHarness } from "./worker-harness.ts";

export type { HarnessOutcome, HarnessSpec } from "./worker-harness.ts";

/** The modules of every pass that do not change: the harness and the names reserved for it. */
export const MODULE_NAMES = {
  harness: "harness.js",
  spec: "spec.js",
  program: "program.js",
  prelude: "prelude.js",
  /** the deadline the instrumented program checks (its ticks) and the harness arms */
  tick: "tick.js",
} as const;

/**
 * The main module of the loaded worker, around the pass's spec: `workerHarness` (worker-harness.ts)
 * as source, called at module evaluation with the spec, `WorkerEntrypoint`, the tick module's `arm`,
 * what imports the prelude and the program, and the kit's parts pasted as source (workerd compiles
 * no code at run time); the class it returns is the worker's entrypoint. The spec is an argument of
 * that call, not a binding of the module: importing `harness.js` gives the program nothing of it.
 */
const HARNESS_HEAD = `import { WorkerEntrypoint } from "cloudflare:workers";
import { arm } from "./${MODULE_NAMES.tick}";

export default (${sandboxSource(workerHarness)})(
`;
const HARNESS_TAIL = `,
  WorkerEntrypoint,
  arm,
  (stage) => (stage === "prelude" ? import("./${MODULE_NAMES.prelude}") : import("./${MODULE_NAMES.program}")),
  ${JSON.stringify(SANDBOX_EVALUATE_HOOK)},
  ${JSON.stringify(SANDBOX_SEED_HOOK)},
  ${sandboxSource(sandboxBootstrap)},
  ${sandboxSource(sandboxEncoder)},
  ${sandboxSource(sandboxErrors)},
  ${sandboxSource(sandboxTaggedWriter)},
  ${sandboxSource(createValueCodec)},
  ${sandboxSource(createRenderer)},
  ${sandboxSource(sandboxCanonical)},
  ${sandboxSource(isHostReply)},
  ${sandboxSource(sandboxCallQueue)},
);
`;

/** The harness module of one pass: its spec is an argument of the harness, out of the program's reach. */
export function harnessSource(spec: HarnessSpec): string {
  return `${HARNESS_HEAD}${JSON.stringify(spec)}${HARNESS_TAIL}`;
}

/** What the program module has before the code. */
export const PROGRAM_PREFIX = "export default (\n";

/** The module that holds the program: one function expression, on lines of its own. */
export function programModule(code: string): string {
  return `${PROGRAM_PREFIX}${code}\n);\n`;
}

/** How many lines `programModule` puts before the code. */
export const PROGRAM_LINE_OFFSET = 1;
