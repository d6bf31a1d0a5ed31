// The attacks group of the executor suite: every program of the attack corpus, run with a
// marker on the host's globalThis; after each the host's prototypes must be untouched and the next
// pass must work.
import { expect } from "vitest";
import { ATTACKS, attackHost } from "./attacks/index.ts";
import {
  type ExecutorGroup,
  execute,
  hostPrototypes,
  SLOW_TEST_MS,
  withHostMarker,
} from "./executor-fixtures.ts";

/** The "attacks" group. */
export function attackTests({ testWith, createExecutor, healthy }: ExecutorGroup): void {
  for (const attack of ATTACKS) {
    testWith(attack.capability)(
      attack.name,
      async () => {
        const executor = await createExecutor();
        const before = hostPrototypes();
        const calls: unknown[] = [];
        const outcome = await withHostMarker(() =>
          execute(executor, {
            code: attack.code,
            globals: attackHost(calls),
            ...(attack.limits ? { limits: attack.limits } : {}),
          }),
        );
        await attack.check({ outcome, calls });
        expect(hostPrototypes(), "the host's prototypes are untouched").toEqual(before);
        await healthy(executor);
      },
      SLOW_TEST_MS,
    );
  }
}
