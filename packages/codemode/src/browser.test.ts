// codemode/browser needs neither the AI SDK nor Zod: its import graph within the package, checked
// from the source, reaches only the packages below.
import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";

const ALLOWED = ["@codemode/core", "@codemode/executor-iframe", "@codemode/typegen"];

async function importsOf(file: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(file)) return new Set();
  seen.add(file);
  const source = await readFile(new URL(file, import.meta.url), "utf8");
  const found = new Set<string>();
  for (const [, specifier] of source.matchAll(
    /^\s*(?:import|export)[^"']*from\s+["']([^"']+)["']/gm,
  )) {
    if (!specifier) continue;
    if (specifier.startsWith("./")) {
      for (const nested of await importsOf(specifier, seen)) found.add(nested);
    } else found.add(specifier);
  }
  return found;
}

it("codemode/browser imports neither the AI SDK nor Zod", async () => {
  const imports = [...(await importsOf("./browser.ts"))].sort();
  expect(imports.length).toBeGreaterThan(0);
  for (const specifier of imports) expect(ALLOWED, specifier).toContain(specifier);
});
