// The names a known gap is listed by: the groups a test sits in below the suite's own `describe`,
// then its name. A listed test runs as an expected failure (vitest reports it passed as long as it
// fails); this file passes only if each listed test below is matched by that name.
import { describe, expect } from "vitest";
import { conformanceTest } from "./known-gaps.ts";

const suite = conformanceTest([
  {
    reason: "fails on purpose, to show the gap is matched by its full name",
    tests: ["outer > inner > a gap two groups down", "outer > a gap one group down"],
  },
]);

describe("known gaps: a suite", () => {
  suite.group("outer", (test) => {
    expect(test.groups).toEqual(["outer"]);
    test("a gap one group down", () => {
      throw new Error("a known gap");
    });
    test("a test with no gap", () => {});
    test.group("inner", (inner) => {
      expect(inner.groups).toEqual(["outer", "inner"]);
      inner("a gap two groups down", () => {
        throw new Error("a known gap");
      });
      // the same name one group up is no gap here
      inner("a gap one group down", () => {});
    });
    test.skipped("needs nothing")("a test that does not apply", () => {
      throw new Error("never runs");
    });
  });
});
