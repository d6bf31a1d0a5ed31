// The attack corpus of the executor suite: hostile programs, each with the outcomes it may end in,
// by theme, in the order the suite runs them. The suite runs each with a marker on the host's
// globalThis, then checks that the host's prototypes are untouched and that the next pass works
// (attacks-conformance.ts).
import { AFTER_THE_PASS_ATTACKS } from "./after-the-pass.ts";
import type { Attack } from "./attack.ts";
import { BASIC_ATTACKS } from "./basics.ts";
import { ESCAPE_ATTACKS } from "./escape.ts";
import { EXHAUSTION_ATTACKS } from "./exhaustion.ts";
import { MARSHALLING_ATTACKS } from "./marshalling.ts";
import { PROTOTYPE_ATTACKS } from "./prototypes.ts";

export type { Attack, AttackRun } from "./attack.ts";
export { attackHost } from "./attack-host.ts";

/** Every attack of the corpus. */
export const ATTACKS: readonly Attack[] = [
  ...BASIC_ATTACKS,
  ...ESCAPE_ATTACKS,
  ...PROTOTYPE_ATTACKS,
  ...MARSHALLING_ATTACKS,
  ...AFTER_THE_PASS_ATTACKS,
  ...EXHAUSTION_ATTACKS,
];
