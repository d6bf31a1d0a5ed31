// An adversarial, model-based test of the guarantees of ARCHITECTURE §7 for the durable runtime over
// one executor and one store: generated programs (gated and plain calls, Promise.all, steps, snippet
// runs, a try/catch around a pause that keeps calling, forged calls of everything on the globals,
// connectors that throw odd values, are slow, or return what cannot be recorded) meet generated host
// schedules (approve, reject, rollback, expiry while a pass is live, a new runtime, racing
// decisions, a pass aborted mid-call, a cancellation from this process or another while a pass is
// live or between passes); a ledger in the connector and the journal are then compared
// guarantee by guarantee. Oversized inputs (guarantee 8) are fixed cases. Every shrunk
// counterexample found becomes a named case in `integrity-regressions.ts`.
import { type Executor, type JournalStore, memoryStore } from "@codemode/core";
import fc from "fast-check";
import { describe } from "vitest";
import { environment, numberFrom } from "./environment-setting.ts";
import { checkOversized, OVERSIZED_INPUTS } from "./integrity-bounds.ts";
import { CHECKS, GUARANTEES, type Guarantee } from "./integrity-invariants.ts";
import { programArbitrary } from "./integrity-programs.ts";
import { REGRESSIONS } from "./integrity-regressions.ts";
import { type Case, describeCase, playCase, scheduleArbitrary } from "./integrity-schedule.ts";
import { conformanceTest, type KnownGap } from "./known-gaps.ts";

export interface JournalIntegrityOptions {
  /** names the suite: the executor and the store */
  name: string;
  createExecutor: () => Executor | Promise<Executor>;
  /** a new, empty store for each case (default `memoryStore()`) */
  createStore?: () => JournalStore | Promise<JournalStore>;
  /** generated cases per guarantee (default 20, or `CODEMODE_INTEGRITY_RUNS`) */
  numRuns?: number;
  /** fast-check's seed (default random, or `CODEMODE_INTEGRITY_SEED`); printed on failure */
  seed?: number;
  /** the guarantees to check (default all; 8 is the oversized inputs) */
  guarantees?: readonly (Guarantee | 8)[];
  knownGaps?: readonly KnownGap[];
}

const SLOW_TEST_MS = 300_000;

const caseArbitrary: fc.Arbitrary<Case> = fc.record({
  program: programArbitrary,
  schedule: scheduleArbitrary,
});

async function violationsOf(
  guarantee: Guarantee,
  testCase: Case,
  options: JournalIntegrityOptions,
): Promise<string[]> {
  const trace = await playCase(testCase, {
    createExecutor: options.createExecutor,
    createStore: options.createStore ?? (() => memoryStore()),
  });
  return CHECKS[guarantee](trace);
}

function failure(guarantee: Guarantee, testCase: Case, violations: string[]): Error {
  return new Error(
    `guarantee ${guarantee} (${GUARANTEES[guarantee]}) broken:\n- ${violations.join("\n- ")}\n\n${describeCase(testCase)}`,
  );
}

export function runJournalIntegrity(options: JournalIntegrityOptions): void {
  const suite = conformanceTest(options.knownGaps);
  const numRuns = options.numRuns ?? numberFrom(environment("CODEMODE_INTEGRITY_RUNS")) ?? 20;
  const seed = options.seed ?? numberFrom(environment("CODEMODE_INTEGRITY_SEED"));
  const wanted = new Set(options.guarantees ?? [1, 2, 3, 4, 5, 6, 7, 8]);

  describe(`journal integrity: ${options.name}`, () => {
    const regressions = REGRESSIONS.filter((regression) => wanted.has(regression.guarantee));
    if (regressions.length > 0)
      suite.group("regressions", (test) => {
        for (const regression of regressions) {
          test(
            regression.name,
            async () => {
              const violations = await violationsOf(
                regression.guarantee,
                regression.testCase,
                options,
              );
              if (violations.length > 0) {
                throw failure(regression.guarantee, regression.testCase, violations);
              }
            },
            SLOW_TEST_MS,
          );
        }
      });

    suite.group("guarantees", (test) => {
      for (const guarantee of [1, 2, 3, 4, 5, 6, 7] as const) {
        if (!wanted.has(guarantee)) continue;
        test(
          `${guarantee}. ${GUARANTEES[guarantee]}`,
          async () => {
            await fc.assert(
              fc.asyncProperty(caseArbitrary, async (testCase) => {
                const violations = await violationsOf(guarantee, testCase, options);
                if (violations.length > 0) throw failure(guarantee, testCase, violations);
              }),
              { numRuns, ...(seed !== undefined ? { seed } : {}) },
            );
          },
          SLOW_TEST_MS,
        );
      }
    });

    suite.group("bounded", (test) => {
      if (!wanted.has(8)) return;
      for (const input of OVERSIZED_INPUTS) {
        test(
          `8. refuses ${input.name} with a clear error, without storing it`,
          async () => {
            const store = await (options.createStore ?? (() => memoryStore()))();
            await checkOversized(input, options.createExecutor, store);
          },
          SLOW_TEST_MS,
        );
      }
    });
  });
}
