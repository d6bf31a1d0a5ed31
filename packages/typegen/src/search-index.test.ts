// The search index's work is linear in the query: the value-dropping rules of cleanQuery give what
// the rules they replaced gave, without their backtracking, and a query's counted work grows with
// its length up to the limits and stops growing past them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_QUERY_LENGTH, MAX_QUERY_TERMS } from "./catalog.ts";
import { cleanQuery, type SearchFields, SearchIndex } from "./search-index.ts";

/** cleanQuery as it was written first: the same rules, with backtracking that is quadratic in a word. */
function referenceCleanQuery(query: string): string {
  return query
    .replace(/(?<![\p{L}\p{N}])["'`‘“][^"'`’”]{1,80}?["'`’”](?![\p{L}\p{N}])/gu, " ")
    .replace(/\bhttps?:\/\/\S+/g, " url ")
    .replace(/\b[\w.+-]+@[\w-]+\.[\w.]+\b/g, " email ")
    .replace(/(?:^|\s)(?:[\w-]+\/)*[\w-]*\*?[\w-]*\.[a-z][a-z0-9]{0,4}\b/gi, " file ")
    .replace(/\b[a-z]+_[A-Za-z0-9]*\d[A-Za-z0-9]*\b/g, " ")
    .replace(/[#$€£]?\b\d[\d.,:/-]*\b/g, " ");
}

const items: SearchFields[] = [
  {
    name: "create_refund",
    connector: "shop",
    description: "Create a refund for a charge.",
    parameters: "charge amount",
    keywords: "POST /v1/refunds",
  },
  {
    name: "list_charges",
    connector: "shop",
    description: "List charges, newest first.",
    parameters: "limit customer",
    keywords: "GET /v1/charges",
  },
  {
    name: "issues_create",
    connector: "github",
    description: "Open an issue in a repository.",
    parameters: "owner repo title body",
    keywords: "",
  },
  {
    name: "listPullRequests",
    connector: "github",
    description: "List pull requests of a repository.",
    parameters: "owner repo state",
    keywords: "",
  },
];

describe("cleanQuery", () => {
  it("gives exactly what the backtracking rules gave", () => {
    const piece = fc.constantFrom(
      "a",
      "b",
      "Z",
      "é",
      "1",
      "9",
      "_",
      ".",
      "@",
      "/",
      "*",
      "-",
      "+",
      ":",
      ",",
      "#",
      "$",
      " ",
      "  ",
      '"',
      "'",
      "`",
      "“",
      "”",
      "cus_",
      "x.txt",
      "a@b.co",
      "http://",
      "src/",
      "pdf",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const query = pieces.join("");
        expect(cleanQuery(query)).toBe(referenceCleanQuery(query));
      }),
      { numRuns: 3_000 },
    );
  });

  it("answers values a hundred thousand characters long (the old rules took minutes on these)", () => {
    const n = 100_000;
    const shapes = [
      "a".repeat(n),
      "-".repeat(n),
      "a_".repeat(n / 2),
      "a.".repeat(n / 2),
      "1.".repeat(n / 2),
      `a_${"1".repeat(n)}_`,
      `a_${"1a".repeat(n / 2)}_`,
      `${"a+".repeat(n / 2)}@`,
      "x/".repeat(n / 2),
      "a@".repeat(n / 2),
      "@a.".repeat(n / 3),
      `${"a.".repeat(n / 2)}@x.y`,
      `a@${"b-".repeat(n / 2)}.c`,
      `a@b.${"c.".repeat(n / 2)}`,
      `${"a".repeat(n)}.${"b".repeat(n)}`,
    ];
    for (const shape of shapes) expect(typeof cleanQuery(shape)).toBe("string");
  });
});

describe("SearchIndex work", () => {
  const index = new SearchIndex(items);
  const workOf = (query: string) => {
    const work = { steps: 0 };
    index.rank(query, { work });
    return work.steps;
  };
  /** `count` distinct words of letters only, each `salt` and a suffix of its own */
  const distinctWords = (count: number, salt: string) =>
    Array.from(
      { length: count },
      (_, at) => `${salt}${String.fromCharCode(97 + (at % 26), 97 + (Math.floor(at / 26) % 26))}q`,
    ).join(" ");

  it("counts work linear in the number of terms, up to MAX_QUERY_TERMS", () => {
    const n = MAX_QUERY_TERMS / 4;
    for (const salt of ["refund", "repo", "zz", "charge"]) {
      const small = workOf(distinctWords(n, salt));
      const large = workOf(distinctWords(4 * n, salt));
      expect(small).toBeGreaterThan(0);
      expect(large).toBeLessThanOrEqual(4 * small + 200);
    }
  });

  it("does the same work on a query as on its first MAX_QUERY_LENGTH characters", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: MAX_QUERY_LENGTH, maxLength: 3 * MAX_QUERY_LENGTH }),
        (query) => {
          const work = { steps: 0 };
          const head = { steps: 0 };
          const ranked = index.rank(query, { work });
          expect(index.rank(query.slice(0, MAX_QUERY_LENGTH), { work: head })).toEqual(ranked);
          expect(work.steps).toBe(head.steps);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("bounds the work of any query by what MAX_QUERY_TERMS terms and MAX_QUERY_LENGTH characters cost", () => {
    for (const salt of ["refund", "repo", "zz"]) {
      const capped = workOf(distinctWords(MAX_QUERY_TERMS, salt));
      const huge = distinctWords(40 * MAX_QUERY_TERMS, salt).repeat(50);
      expect(workOf(huge)).toBeLessThanOrEqual(capped + MAX_QUERY_LENGTH);
    }
  });
});
