// docs/errors.md lists every error code with who raises it and who reads it: this keeps the lists
// there equal to the codes here, so a code added, renamed or removed fails until the page says so.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CODEMODE_ERROR_CODES } from "./codemode-error.ts";
import { SANDBOX_ERROR_CODES } from "./executor.ts";

const page = readFileSync(new URL("../../../docs/errors.md", import.meta.url), "utf8");

/** The codes of the table rows (first cell a code in backticks) under the `## ` heading `title`. */
function documentedCodes(title: string): string[] {
  const sections = page.split(/^## /m);
  const section = sections.find((text) => text.startsWith(`${title}\n`));
  if (section === undefined) throw new Error(`docs/errors.md has no section "## ${title}".`);
  return [...section.matchAll(/^\|\s*`([A-Z_]+)`\s*\|/gm)].map((match) => match[1] as string);
}

describe("docs/errors.md", () => {
  it("documents every CodemodeError code once, and no other", () => {
    const documented = documentedCodes("`CodemodeError` codes");
    expect(new Set(documented).size).toBe(documented.length);
    expect(
      [...documented].sort(),
      "docs/errors.md's CodemodeError table must list exactly CODEMODE_ERROR_CODES",
    ).toEqual([...CODEMODE_ERROR_CODES].sort());
  });

  it("documents every SandboxError code once, and no other", () => {
    const documented = documentedCodes("`SandboxError` codes");
    expect(new Set(documented).size).toBe(documented.length);
    expect(
      [...documented].sort(),
      "docs/errors.md's SandboxError table must list exactly SANDBOX_ERROR_CODES",
    ).toEqual([...SANDBOX_ERROR_CODES].sort());
  });
});
