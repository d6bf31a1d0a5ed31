import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { allReadmes, checkReadmes, EXAMPLES_DIR } from "./check-readmes.ts";

const fence = "```";
// a directory of its own, inside the package (where the packages resolve)
const parent = join(EXAMPLES_DIR, ".test");
mkdirSync(parent, { recursive: true });
const OUT = mkdtempSync(join(parent, "run-"));

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

// each check runs the TypeScript compiler over its examples: seconds on a quiet machine, several
// times that on a busy one. The limit only ends a check that hangs
const TYPE_CHECK_LIMIT_MS = 300_000;

describe("checkReadmes", { timeout: TYPE_CHECK_LIMIT_MS }, () => {
  it("finds the root README and every package's", () => {
    const readmes = allReadmes();
    expect(readmes[0]).toBe("README.md");
    expect(readmes).toContain("packages/codemode/README.md");
    expect(readmes).toContain("packages/core/README.md");
  });

  it("names the README, the line and the example of an error, and passes what type-checks", () => {
    const text = [
      "# a package", // 1
      `${fence}ts`, // 2
      'import { memoryStore } from "@codemode/core";', // 3
      "const store = memoryStore();", // 4
      fence, // 5
      `${fence}ts continues`, // 6
      "store.journal(1);", // 7
      fence, // 8
      `${fence}ts`, // 9
      "// a helper whose parameters have no types", // 10
      "const refuse = (response, status) => [response, status];", // 11
      fence, // 12
      `${fence}ts workers`, // 13
      'import { DurableObject } from "cloudflare:workers";', // 14
      "export class Agent extends DurableObject<Env> {", // 15
      "  loader = this.env.LOADER;", // 16
      "}", // 17
      fence, // 18
    ].join("\n");
    const result = checkReadmes([{ path: "packages/fake/README.md", text }], {
      directory: join(OUT, "fake"),
    });
    expect(result.checked).toHaveLength(4);
    expect(result.files).toHaveLength(3);
    expect(result.errors).toHaveLength(3);
    const [journal, response, status] = result.errors;
    // the example that continues the first is checked with it, at its own lines
    expect(journal).toMatch(/^packages\/fake\/README\.md:7:15 - error TS2345/);
    expect(journal).toContain("    7 | store.journal(1);");
    expect(journal).toContain("in the example whose fence is at packages/fake/README.md:2");
    expect(response).toMatch(
      /^packages\/fake\/README\.md:11:17 - error TS7006: Parameter 'response' implicitly has an 'any' type\./,
    );
    expect(response).toContain("in the example whose fence is at packages/fake/README.md:9");
    expect(status).toMatch(/^packages\/fake\/README\.md:11:27 - error TS7006/);
  });

  it("leaves no file behind unless asked to keep them", () => {
    const directory = join(OUT, "kept");
    const text = [`${fence}ts`, "export const a: number = 1;", fence].join("\n");
    expect(checkReadmes([{ path: "README.md", text }], { directory }).errors).toEqual([]);
    expect(readdirSync(directory)).toEqual([]);
    checkReadmes([{ path: "README.md", text }], { directory, keep: true });
    expect(readdirSync(directory)).toEqual([
      expect.stringMatching(/^root\.L1\.\d+-[0-9a-z]+\.readme\.ts$/),
    ]);
  });

  it("checks Workers examples with the Workers types, and others without them", () => {
    const example = [
      'import { DurableObject } from "cloudflare:workers";',
      "export class Agent extends DurableObject<Env> {}",
    ];
    const text = [`${fence}ts workers`, ...example, fence, `${fence}ts`, ...example, fence].join(
      "\n",
    );
    const result = checkReadmes([{ path: "README.md", text }], { directory: join(OUT, "workers") });
    expect(result.errors.length).toBeGreaterThan(0);
    for (const error of result.errors) expect(error).toMatch(/^README\.md:(6|7):/);
  });
});
