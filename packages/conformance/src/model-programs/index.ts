// The corpus of model programs, by theme, in the order the suite runs them (see
// model-programs-conformance.ts).
import { ASSORTED_PROGRAMS } from "./assorted.ts";
import { CALLS_AT_ONCE_PROGRAMS } from "./calls-at-once.ts";
import { CLOCK_AND_CHANCE_PROGRAMS } from "./clock-and-chance.ts";
import { CONTROL_FLOW_PROGRAMS } from "./control-flow.ts";
import { DATA_SHAPING_PROGRAMS } from "./data-shaping.ts";
import { FORMAT_PROGRAMS } from "./formats.ts";
import type { ModelProgram } from "./model-program.ts";
import { STEP_PROGRAMS } from "./steps.ts";

export type { ModelProgram } from "./model-program.ts";
export { survives } from "./survives.ts";

/** Every program of the corpus. */
export const MODEL_PROGRAMS: readonly ModelProgram[] = [
  ...CLOCK_AND_CHANCE_PROGRAMS,
  ...CALLS_AT_ONCE_PROGRAMS,
  ...CONTROL_FLOW_PROGRAMS,
  ...DATA_SHAPING_PROGRAMS,
  ...STEP_PROGRAMS,
  ...FORMAT_PROGRAMS,
  ...ASSORTED_PROGRAMS,
];
