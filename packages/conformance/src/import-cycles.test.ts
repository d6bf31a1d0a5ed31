// The package's modules import each other in one direction: no cycle, of values or of types (a type
// cycle once tied the attack corpus to the executor suite's runner).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SOURCE = dirname(fileURLToPath(import.meta.url));
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Each module (relative to src) and the modules of this package it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SOURCE)) {
    const imports = [...readFileSync(file, "utf8").matchAll(RELATIVE_IMPORT)].map((match) =>
      relative(SOURCE, resolve(dirname(file), match[1] as string)),
    );
    graph.set(relative(SOURCE, file), imports);
  }
  return graph;
}

/** The cycles of `graph`, each as the path that closes it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (module: string, path: string[]) => {
    const start = path.indexOf(module);
    if (start >= 0) {
      found.push([...path.slice(start), module]);
      return;
    }
    if (done.has(module)) return;
    for (const next of graph.get(module) ?? []) visit(next, [...path, module]);
    done.add(module);
  };
  for (const module of graph.keys()) visit(module, []);
  return found;
}

describe("the package's imports", () => {
  it("form no cycle", () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(40);
    expect([...graph.values()].flat()).toContain("executor-fixtures.ts");
    expect(cycles(graph).map((cycle) => cycle.join(" → "))).toEqual([]);
  });
});
