import { it } from "vitest";

/** Tests a subject cannot pass yet, by full name (`"group > test"`), with the reason. */
export interface KnownGap {
  reason: string;
  tests: readonly string[];
}

type TestBody = () => unknown | Promise<unknown>;

/**
 * `it` for a conformance suite: a test listed as a known gap runs as an expected failure, so a gap
 * that gets fixed fails the suite until its entry is removed (a ratchet).
 */
export function conformanceTest(
  knownGaps: readonly KnownGap[] | undefined,
): (group: string, name: string, body: TestBody, timeout?: number) => void {
  const gaps = new Set((knownGaps ?? []).flatMap((gap) => gap.tests));
  return (group, name, body, timeout) => {
    const run = gaps.has(`${group} > ${name}`) ? it.fails : it;
    run(name, body, timeout);
  };
}
