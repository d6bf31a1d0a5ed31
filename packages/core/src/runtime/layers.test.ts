// The runtime flows one way. Its layers, from the top (which may import every layer below it) to the
// bottom (which imports nothing of `runtime/`):
//
//   handle         create-codemode-runtime.ts: checks the options, builds the RunContext, delegates
//   tool/          the AI SDK adapter: the `codemode` tool, its approvals, its tool-call bindings
//   commands/      what starts, decides or ends a run: begin, approve/reject/resolve, cancel,
//                  rollback, expire, delete
//   views/         what reads a run and writes nothing: history, a run's recorded outcome, a
//                  rollback's preview, whether a decision's calls still wait as shown
//   pass/          one pass: run-pass (its orchestrator) and its steps
//   pending-calls  pending-calls.ts: a run's waiting calls, read and withdrawn
//   context/       the RunContext type, the per-runtime state and the values every step shares
//
// A file imports only from its own layer or a lower one (type-only imports and `export … from`
// count), and no files import one another in a circle. The two orchestrators are roots: nothing in
// `runtime/` imports create-codemode-runtime.ts, and pass/run-pass.ts is imported only by the
// commands that start a pass.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** The layers, highest first. */
const LAYERS = ["handle", "tool", "commands", "views", "pass", "pending-calls", "context"] as const;

type Layer = (typeof LAYERS)[number];

/** The orchestrators, with the layers whose files may import them (none: a root). */
const ORCHESTRATORS: Record<string, readonly Layer[]> = {
  "create-codemode-runtime.ts": [],
  "pass/run-pass.ts": ["commands"],
};

/** One import of `from` (a path under `runtime/`, with `/` between folders) from `to`. */
interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** The layer of a file under `runtime/`: its folder, or the root file it is. */
function layerOf(file: string): Layer | undefined {
  if (file === "create-codemode-runtime.ts") return "handle";
  if (file === "pending-calls.ts") return "pending-calls";
  const [folder, ...rest] = file.split("/");
  if (rest.length === 0) return undefined;
  return LAYERS.find(
    (layer) => layer === folder && layer !== "handle" && layer !== "pending-calls",
  );
}

/**
 * Every module a source file names: `import` and `export … from` declarations (type-only or not),
 * `import x = require(…)`, `import(…)` calls and `import("…").T` types.
 */
function importsOf(source: string): { specifier: string; typeOnly: boolean }[] {
  const file = ts.createSourceFile("module.ts", source, ts.ScriptTarget.Latest, true);
  const found: { specifier: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((element) => element.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const named = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (named !== undefined &&
          ts.isNamedExports(named) &&
          named.elements.length > 0 &&
          named.elements.every((element) => element.isTypeOnly));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The non-test `.ts` files under `dir`, as paths relative to it. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((path) => path.split("\\").join("/"))
    .filter((path) => path.endsWith(".ts") && !path.endsWith(".test.ts"))
    .sort();
}

/** The imports between the files under `dir` (imports that leave it are left out). */
function edgesUnder(dir: string, files: readonly string[]): Edge[] {
  const edges: Edge[] = [];
  for (const from of files) {
    for (const { specifier, typeOnly } of importsOf(readFileSync(join(dir, from), "utf8"))) {
      if (!specifier.startsWith(".")) continue;
      const to = relative(dir, resolve(dir, dirname(from), specifier))
        .split("\\")
        .join("/");
      if (to.startsWith("..")) continue;
      edges.push({ from, to, typeOnly });
    }
  }
  return edges;
}

/** The sets of files that import one another in a circle (Tarjan's strongly connected components). */
function cycles(files: readonly string[], edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const nodes = [...new Set([...files, ...edges.flatMap(({ from, to }) => [from, to])])];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfImport = next.get(node)?.includes(node) === true;
    if (component.length > 1 || selfImport) found.push(component.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

/** What breaks the rules above, one line each (none: the runtime flows one way). */
function layerProblems(files: readonly string[], edges: readonly Edge[]): string[] {
  const problems: string[] = [];
  const rank = (file: string) => {
    const layer = layerOf(file);
    return layer === undefined ? -1 : LAYERS.indexOf(layer);
  };
  for (const file of files) {
    if (layerOf(file) === undefined) problems.push(`${file} is in no layer`);
  }
  for (const { from, to, typeOnly } of edges) {
    const [fromLayer, toLayer] = [layerOf(from), layerOf(to)];
    if (fromLayer === undefined || toLayer === undefined) continue;
    const kind = typeOnly ? "imports types from" : "imports";
    if (rank(to) < rank(from)) {
      problems.push(`${from} (${fromLayer}) ${kind} ${to} (${toLayer}), a higher layer`);
    }
    const importers = ORCHESTRATORS[to];
    if (importers && !importers.includes(fromLayer)) {
      problems.push(`${from} ${kind} ${to}, an orchestrator`);
    }
  }
  for (const cycle of cycles(files, edges)) {
    problems.push(`${cycle.join(", ")} import one another in a circle`);
  }
  return problems;
}

const runtimeDir = dirname(fileURLToPath(import.meta.url));

describe("the runtime's layers", () => {
  it("import only downward, with no cycle, value or type", () => {
    const files = sourceFiles(runtimeDir);
    const edges = edgesUnder(runtimeDir, files);
    // the check reads what is there: every layer has files, and the steps import one another
    expect(new Set(files.map(layerOf))).toEqual(new Set(LAYERS));
    expect(edges.length).toBeGreaterThan(50);
    expect(edges.some((edge) => edge.typeOnly)).toBe(true);
    expect(layerProblems(files, edges)).toEqual([]);
  });

  it("reports a cycle, an upward import, an orchestrator imported and a file in no layer", () => {
    const files = [
      "context/values.ts",
      "context/run-context.ts",
      "pending-calls.ts",
      "pass/run-pass.ts",
      "pass/steps.ts",
      "views/history.ts",
      "commands/begin-run.ts",
      "tool/runtime-tool.ts",
      "create-codemode-runtime.ts",
      "stray.ts",
    ];
    const edge = (from: string, to: string, typeOnly = false): Edge => ({ from, to, typeOnly });
    const clean = [
      edge("create-codemode-runtime.ts", "tool/runtime-tool.ts"),
      edge("tool/runtime-tool.ts", "commands/begin-run.ts"),
      edge("commands/begin-run.ts", "pass/run-pass.ts"),
      edge("commands/begin-run.ts", "views/history.ts"),
      edge("pass/run-pass.ts", "pass/steps.ts"),
      edge("pass/steps.ts", "pending-calls.ts"),
      edge("pending-calls.ts", "context/values.ts"),
      edge("context/values.ts", "context/run-context.ts", true),
    ];
    expect(layerProblems(files.slice(0, -1), clean)).toEqual([]);
    expect(layerProblems(files, clean)).toEqual(["stray.ts is in no layer"]);
    // a type-only import back up is an upward import too, and closes a circle
    expect(
      layerProblems(files.slice(0, -1), [
        ...clean,
        edge("context/run-context.ts", "pass/steps.ts", true),
      ]),
    ).toEqual([
      "context/run-context.ts (context) imports types from pass/steps.ts (pass), a higher layer",
      "context/run-context.ts, context/values.ts, pass/steps.ts, pending-calls.ts import one another in a circle",
    ]);
    // a circle within one layer breaks no layer, and is still reported
    expect(
      layerProblems(files.slice(0, -1), [
        ...clean,
        edge("context/run-context.ts", "context/values.ts"),
      ]),
    ).toEqual(["context/run-context.ts, context/values.ts import one another in a circle"]);
    // a step that imports its orchestrator; a view that imports a command
    expect(
      layerProblems(files.slice(0, -1), [
        ...clean,
        edge("pass/steps.ts", "pass/run-pass.ts"),
        edge("views/history.ts", "commands/begin-run.ts"),
        edge("tool/runtime-tool.ts", "create-codemode-runtime.ts", true),
      ]),
    ).toEqual([
      "pass/steps.ts imports pass/run-pass.ts, an orchestrator",
      "views/history.ts (views) imports commands/begin-run.ts (commands), a higher layer",
      "tool/runtime-tool.ts (tool) imports types from create-codemode-runtime.ts (handle), a higher layer",
      "tool/runtime-tool.ts imports types from create-codemode-runtime.ts, an orchestrator",
      "pass/run-pass.ts, pass/steps.ts import one another in a circle",
      "commands/begin-run.ts, views/history.ts import one another in a circle",
      "create-codemode-runtime.ts, tool/runtime-tool.ts import one another in a circle",
    ]);
  });

  it("reads value and type imports, re-exports and dynamic imports", () => {
    const source = `
      import { a } from "./a.ts";
      import type { B } from "./b.ts";
      import { type C, type D } from "./c.ts";
      import { type E, f } from "./e.ts";
      import * as g from "./g.ts";
      import "./h.ts";
      export { i } from "./i.ts";
      export type { J } from "./j.ts";
      export * from "./k.ts";
      // import { commented } from "./not-an-import.ts";
      const text = 'import { quoted } from "./not-an-import.ts"';
      type L = import("./l.ts").L;
      const m = () => import("./m.ts");
      import {
        // a comment inside the braces
        n,
      } from "./n.ts";
    `;
    expect(importsOf(source)).toEqual([
      { specifier: "./a.ts", typeOnly: false },
      { specifier: "./b.ts", typeOnly: true },
      { specifier: "./c.ts", typeOnly: true },
      { specifier: "./e.ts", typeOnly: false },
      { specifier: "./g.ts", typeOnly: false },
      { specifier: "./h.ts", typeOnly: false },
      { specifier: "./i.ts", typeOnly: false },
      { specifier: "./j.ts", typeOnly: true },
      { specifier: "./k.ts", typeOnly: false },
      { specifier: "./l.ts", typeOnly: true },
      { specifier: "./m.ts", typeOnly: false },
      { specifier: "./n.ts", typeOnly: false },
    ]);
  });
});
