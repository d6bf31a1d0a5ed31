// What an attack of the corpus is: a hostile program, the capability it needs, and a check of the
// outcome it ended in and of what reached the host.
import type { ExecuteRequest, ExecuteResult } from "@codemode/core";
import type { ExecutorCapability } from "../capabilities.ts";

export interface AttackRun {
  outcome: ExecuteResult;
  /** inputs the host's `ns.echo` received */
  calls: unknown[];
}

export interface Attack {
  name: string;
  /** what the executor must enforce for the attack to apply; skipped without it */
  capability?: ExecutorCapability;
  code: string;
  limits?: ExecuteRequest["limits"];
  check(run: AttackRun): void | Promise<void>;
}
