// Type-checks every TypeScript example of the repository's READMEs (the root's, packages/*/ and
// apps/*/) the way a user's `tsc --strict --noEmit` would: each example (with the examples that
// continue it) is written to examples/ in this package, where `codemode`, `@codemode/*` and the
// libraries the examples use resolve to what the workspace has, and checked with TypeScript's
// compiler. Node and browser examples get Node's types and the DOM's; examples marked `workers` get
// the Workers runtime types instead. An error names the README, its line and the example's fence.
// See readme-blocks.ts for the words a fence's info string may carry.
//
//   node src/check-readmes.ts             every README
//   node src/check-readmes.ts <README>…   these (paths relative to the repository's root)
//   … --keep                              and leave the example files in examples/ afterwards
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import {
  type ExampleFile,
  exampleFiles,
  type FenceProblem,
  type ReadmeBlock,
  readmeBlocks,
  readmeLineOf,
} from "./readme-blocks.ts";

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(here, "../../..");
/** where the examples are written: beside the modules they import as "./runtime" and the like */
export const EXAMPLES_DIR = resolve(here, "../examples");
const GENERATED = ".readme.ts";

/** What a user's `tsc --strict` sees, as far as the examples go. */
const COMMON: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  // each example is a module of its own (top-level await, no globals shared between examples)
  moduleDetection: ts.ModuleDetectionKind.Force,
  noEmit: true,
  skipLibCheck: true,
  // the workspace's packages export their TypeScript sources, which import "./x.ts"
  allowImportingTsExtensions: true,
};

const ENVIRONMENTS = {
  node: {
    options: {
      ...COMMON,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
      types: ["node"],
    },
    declarations: [join(EXAMPLES_DIR, "hosted-models.d.ts")],
  },
  workers: {
    options: { ...COMMON, lib: ["lib.esnext.d.ts"], types: [] },
    declarations: [
      join(ROOT, "types/workers-runtime.d.ts"),
      join(EXAMPLES_DIR, "worker-configuration.d.ts"),
      join(EXAMPLES_DIR, "hosted-models.d.ts"),
    ],
  },
} satisfies Record<string, { options: ts.CompilerOptions; declarations: string[] }>;

/** Every README of the repository, relative to its root. */
export function allReadmes(): string[] {
  const found = ["README.md"];
  for (const folder of ["packages", "apps"]) {
    for (const entry of readdirSync(join(ROOT, folder)).sort()) {
      const path = `${folder}/${entry}/README.md`;
      if (existsSync(join(ROOT, path))) found.push(path);
    }
  }
  return found;
}

export interface CheckResult {
  files: ExampleFile[];
  /** examples checked, opted out (`nocheck`) */
  checked: ReadmeBlock[];
  optedOut: ReadmeBlock[];
  /** every error, formatted: `README:line:column - error TSxxxx: message` and the example's fence */
  errors: string[];
}

/** Generated files older than this are left over from a run that was killed: removed. */
const STALE_MS = 10 * 60_000;

export interface CheckOptions {
  /**
   * where the files are written: EXAMPLES_DIR (default), beside the modules the examples import as
   * "./runtime" and the like, or another directory inside this package for examples that import none
   */
  directory?: string;
  /** leave the files there afterwards, to run `tsc` or `tsx` on them by hand */
  keep?: boolean;
}

/**
 * Checks the examples of `readmes` (paths relative to the repository's root, or `{ path, text }`
 * for a README's text not on disk). Each run writes files of its own (their names carry the
 * process id), so runs at the same time in one checkout do not disturb each other.
 */
export function checkReadmes(
  readmes: ReadonlyArray<string | { path: string; text: string }>,
  { directory = EXAMPLES_DIR, keep = false }: CheckOptions = {},
): CheckResult {
  mkdirSync(directory, { recursive: true });
  for (const entry of readdirSync(directory)) {
    if (!entry.endsWith(GENERATED)) continue;
    const path = join(directory, entry);
    // another run may remove it meanwhile
    const written = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    if (Date.now() - written > STALE_MS) rmSync(path, { force: true });
  }
  const run = `${process.pid}-${Date.now().toString(36)}`;
  const problems: FenceProblem[] = [];
  const files: ExampleFile[] = [];
  const blocks: ReadmeBlock[] = [];
  for (const readme of readmes) {
    const path = typeof readme === "string" ? readme : readme.path;
    const text = typeof readme === "string" ? readFileSync(join(ROOT, path), "utf8") : readme.text;
    const read = readmeBlocks(path, text);
    const grouped = exampleFiles(read.blocks);
    blocks.push(...read.blocks);
    problems.push(...read.problems, ...grouped.problems);
    files.push(...grouped.files);
  }
  const errors = problems.map(
    (problem) => `${problem.readme}:${problem.line} - error: ${problem.message}`,
  );
  const byPath = new Map<string, ExampleFile>();
  for (const file of files) {
    const slug = file.readme.replace(/\/?README\.md$/, "").replace(/[^A-Za-z0-9]+/g, "-") || "root";
    const path = join(directory, `${slug}.L${file.blocks[0]?.fenceLine}.${run}${GENERATED}`);
    writeFileSync(path, file.text);
    byPath.set(path, file);
  }
  try {
    errors.push(...typeErrors(byPath, keep));
  } finally {
    if (!keep) for (const path of byPath.keys()) rmSync(path, { force: true });
  }
  return {
    files,
    checked: blocks.filter((block) => block.nocheck === undefined),
    optedOut: blocks.filter((block) => block.nocheck !== undefined),
    errors,
  };
}

/** The type errors of the example files, each environment's files in one program. */
function typeErrors(byPath: ReadonlyMap<string, ExampleFile>, kept: boolean): string[] {
  const errors: string[] = [];
  const formatted = (diagnostic: ts.Diagnostic) => format(diagnostic, byPath, kept);
  for (const [name, environment] of Object.entries(ENVIRONMENTS)) {
    const roots = [...byPath].filter(([, file]) => file.workers === (name === "workers"));
    if (roots.length === 0) continue;
    const program = ts.createProgram({
      rootNames: [...environment.declarations, ...roots.map(([path]) => path)],
      options: environment.options,
    });
    errors.push(...program.getOptionsDiagnostics().map(formatted));
    errors.push(...program.getGlobalDiagnostics().map(formatted));
    for (const [path] of roots) {
      const source = program.getSourceFile(path);
      if (!source) {
        errors.push(`${path} - error: TypeScript did not read this example file`);
        continue;
      }
      for (const diagnostic of [
        ...program.getSyntacticDiagnostics(source),
        ...program.getSemanticDiagnostics(source),
      ]) {
        errors.push(formatted(diagnostic));
      }
    }
  }
  return errors;
}

/** A diagnostic as `README:line:column - error TSxxxx: message`, with the example it is in. */
function format(
  diagnostic: ts.Diagnostic,
  byPath: ReadonlyMap<string, ExampleFile>,
  kept: boolean,
): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n  ");
  const code = `error TS${diagnostic.code}: ${message}`;
  const { file, start } = diagnostic;
  if (!file || start === undefined) return code;
  const at = file.getLineAndCharacterOfPosition(start);
  const example = byPath.get(resolve(file.fileName));
  if (!example)
    return `${relative(ROOT, file.fileName)}:${at.line + 1}:${at.character + 1} - ${code}`;
  const line = readmeLineOf(example, at.line + 1);
  const text = file.text.split("\n")[at.line] ?? "";
  return [
    `${example.readme}:${line}:${at.character + 1} - ${code}`,
    `    ${line} | ${text}`,
    `  in the example whose fence is at ${example.readme}:${example.blocks[0]?.fenceLine}${kept ? ` (checked as ${relative(ROOT, file.fileName)})` : ""}`,
  ].join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const keep = process.argv.includes("--keep");
  const asked = process.argv.slice(2).filter((argument) => argument !== "--keep");
  const readmes = asked.length > 0 ? asked : allReadmes();
  const started = Date.now();
  const result = checkReadmes(readmes, { keep });
  // "× " as vitest marks a failure, so CI's summary of what failed (.ci/run) repeats these lines
  for (const error of result.errors) console.error(`× ${error}\n`);
  const inReadmes = new Set(result.checked.map((block) => block.readme)).size;
  console.log(
    `README examples: ${result.checked.length} checked with TypeScript ${ts.version} (strict) in ${result.files.length} files from ${inReadmes} READMEs, ${result.optedOut.length} opted out, ${result.errors.length} errors (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  for (const block of result.optedOut) {
    console.log(`  not checked: ${block.readme}:${block.fenceLine} (${block.nocheck})`);
  }
  if (result.errors.length > 0) process.exitCode = 1;
}
