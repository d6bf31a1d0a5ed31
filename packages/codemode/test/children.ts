// Starts crash-runner.ts processes for the crash and race tests, at most two at a time (CI machines
// have two cores), and says how each ended: its printed outcomes, or the signal that killed it.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Spec, StepOutcome } from "./crash-runner.ts";

const runner = fileURLToPath(new URL("./crash-runner.ts", import.meta.url));

export interface Ended {
  signal: NodeJS.Signals | null;
  outcomes: StepOutcome[];
  stderr: string;
}

let running = 0;
const waiting: Array<() => void> = [];

/** Runs one process; resolves when it ended, however it ended. */
export async function child(spec: Spec, slots = 2): Promise<Ended> {
  // a freed slot passes straight to the next waiter
  if (running < slots) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await new Promise<Ended>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--import", "tsx", runner, JSON.stringify(spec)],
        { encoding: "utf8", timeout: 60_000 },
        (error, stdout, stderr) => {
          const signal = (error as { signal?: NodeJS.Signals } | null)?.signal ?? null;
          if (error && signal !== "SIGKILL") {
            reject(new Error(`runner failed: ${error.message}\n${stderr}`));
            return;
          }
          resolve({
            signal,
            outcomes: stdout ? (JSON.parse(stdout) as StepOutcome[]) : [],
            stderr,
          });
        },
      );
    });
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** The value a step returned; fails the test with what it threw otherwise. */
export function ok<T = unknown>(outcome: StepOutcome | undefined): T {
  if (!outcome || !("ok" in outcome)) throw new Error(`step threw: ${JSON.stringify(outcome)}`);
  return outcome.ok as T;
}

/** What a step threw; fails the test if it returned. */
export function thrown(outcome: StepOutcome | undefined): { code?: string; message: string } {
  if (!outcome || !("thrown" in outcome))
    throw new Error(`step did not throw: ${JSON.stringify(outcome)}`);
  return outcome.thrown;
}
