// Guarantee 8 of the journal-integrity suite: values the model sends that the host would store or
// compute on have a limit, and past it the run fails with a clear error at once instead of the host
// storing a five-million-character name or ranking a catalog against a huge query.
import { createCodemodeRuntime, type Executor, type JournalStore } from "@codemode/core";
import { expect } from "vitest";
import { Ledger } from "./integrity-ledger.ts";

/** The limit of ARCHITECTURE §6: what a recorded value may take, in characters. */
const LIMIT = 1_000_000;

export interface OversizedInput {
  name: string;
  /** a program that hands the host one oversized value */
  code: string;
}

export const OVERSIZED_INPUTS: readonly OversizedInput[] = [
  {
    name: "a 5,000,000-character step name",
    code: `async () => {
  const name = "n".repeat(5_000_000);
  try { await codemode.step(name, () => 1); return "stored"; }
  catch (e) { return "refused: " + String(e && e.message).slice(0, 300); }
}`,
  },
  {
    name: "a 200,000-character search query",
    code: `async () => {
  const query = "issue ".repeat(33_334);
  try { await codemode.search(query); return "searched"; }
  catch (e) { return "refused: " + String(e && e.message).slice(0, 300); }
}`,
  },
  {
    name: "a 200,000-character describe target",
    code: `async () => {
  const target = "svc." + "x".repeat(200_000);
  try { await codemode.describe(target); return "described"; }
  catch (e) { return "refused: " + String(e && e.message).slice(0, 300); }
}`,
  },
];

/**
 * Runs `input` and checks that it failed (the run's error, or an error the program caught) with a
 * message naming a limit, and that no journal entry holds more than the limit. How long that took is
 * not checked: the sandbox's own start dominates it, and a loaded machine stretches it many times.
 */
export async function checkOversized(
  input: OversizedInput,
  createExecutor: () => Executor | Promise<Executor>,
  store: JournalStore,
): Promise<void> {
  const runtime = createCodemodeRuntime({
    store,
    executor: await createExecutor(),
    connectors: [new Ledger().connector()],
  });
  const output = await runtime.execute({ code: input.code });
  const said =
    output.status === "error"
      ? output.error
      : output.status === "completed"
        ? String(output.result)
        : "paused";
  expect(said, `${input.name} is refused, with a clear error`).toMatch(
    /^(refused: )?.*(too (long|large)|limit|at most|characters)/is,
  );
  if (output.status === "completed") expect(said.startsWith("refused: ")).toBe(true);
  const execution = await runtime.execution(output.executionId);
  for (const entry of execution?.calls ?? []) {
    expect(entry.method.length, `a stored entry's name (#${entry.seq})`).toBeLessThanOrEqual(LIMIT);
  }
}
