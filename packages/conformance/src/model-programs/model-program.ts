// A program written the way language models write them, and what its check is given: the run's
// start, its result, the calls a person was shown, and the calls that reached a connector.
import type { PendingAction } from "@codemode/core";
import type { Call, Rec } from "./world.ts";

export interface Outcome {
  started: number;
  result: unknown;
  /** every call a person was shown, in the order of the pauses */
  pending: PendingAction[];
  /** their inputs */
  shown: Rec[];
  ledger: Call[];
  /** the inputs that reached `connector.method` */
  inputs(connector: string, method: string): Rec[];
}

export interface ModelProgram {
  /** "<class>: <what the program does>" */
  name: string;
  code: string;
  /** how many gated calls the run makes in all (default 1) */
  gated?: number;
  check(outcome: Outcome): void;
}
