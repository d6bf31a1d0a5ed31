import { describe, it } from "vitest";

/**
 * Tests a subject cannot pass yet, by full name (`"group > test"`: the groups the test sits in
 * below the suite's own `describe`, then its name), with the reason.
 */
export interface KnownGap {
  reason: string;
  tests: readonly string[];
}

type TestBody = () => unknown | Promise<unknown>;

/** Declares one test: its name, its body, and a timeout when the default is too short. */
export type DeclareTest = (name: string, body: TestBody, timeout?: number) => void;

/**
 * `it` for a conformance suite, at one place of its hierarchy. A test is known by the groups it sits
 * in and its name (`"group > test"`), taken from the nesting of `group` calls as hono's shared router
 * cases take theirs from `describe` nesting, so no group repeats its own name. A test listed as a
 * known gap runs as an expected failure: a gap that gets fixed fails the suite until its entry is
 * removed (a ratchet).
 */
export interface ConformanceTest extends DeclareTest {
  /** the groups this `test` declares tests in, below the suite's own `describe`, outermost first */
  readonly groups: readonly string[];
  /** `describe(name, …)`: `body` gets the `test` of that group */
  group(name: string, body: (test: ConformanceTest) => void): void;
  /** declares each test skipped, as not applicable: its name followed by `(reason)` */
  skipped(reason: string): DeclareTest;
}

/** The `test` of a suite's own `describe`, with `knownGaps` applied to every test declared under it. */
export function conformanceTest(knownGaps: readonly KnownGap[] | undefined): ConformanceTest {
  const gaps = new Set((knownGaps ?? []).flatMap((gap) => gap.tests));
  return testIn([], gaps);
}

function testIn(groups: readonly string[], gaps: ReadonlySet<string>): ConformanceTest {
  const test: DeclareTest = (name, body, timeout) => {
    const run = gaps.has([...groups, name].join(" > ")) ? it.fails : it;
    run(name, body, timeout);
  };
  return Object.assign(test, {
    groups,
    group(name: string, body: (inner: ConformanceTest) => void) {
      describe(name, () => body(testIn([...groups, name], gaps)));
    },
    skipped(reason: string): DeclareTest {
      return (name) => it.skip(`${name} (${reason})`, () => {});
    },
  });
}
