// What the surface-integrity driver (surface-play.ts) hands the players of each surface.
import type { CodemodeRuntime } from "@codemode/core";
import type { Process, SurfaceCase } from "./surface-case.ts";
import type { ShownCall, SurfaceTrace } from "./surface-trace.ts";

/** What the players of the surfaces (AI SDK, host, TanStack, MCP) share with the driver. */
export interface SurfaceContext {
  testCase: SurfaceCase;
  trace: SurfaceTrace;
  /** the step being played */
  step(): number;
  /** the ledger's clock */
  tick(): number;
  runtime(on: Process): CodemodeRuntime;
  /** runs `run`; a throw becomes a violation of the step */
  guard<T>(what: string, run: () => Promise<T>): Promise<T | undefined>;
  violation(what: string): void;
  /** whether every shown call still waits, as shown, in a paused run */
  stillWaits(calls: readonly ShownCall[]): Promise<boolean>;
  /** every run started so far, and those started in this step */
  knownRuns(): string[];
  startedNow(): string[];
  /** an MCP question is open: the message a step delivers meanwhile arrives now */
  questionOpen(): Promise<void>;
}
