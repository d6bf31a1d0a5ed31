// Test support: the TypeScript compiler over one in-memory file and the default lib files from disk,
// as the declaration tests and the property tests compile generated declarations.
import ts from "typescript";

export const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts"],
  types: [],
  skipLibCheck: false,
};
const DEFAULT_LIB = ts.getDefaultLibFilePath(COMPILER_OPTIONS);
/** Lib files parsed once and shared by every program (the binder also keeps its work on them). */
const libFiles = new Map<string, ts.SourceFile | undefined>();

export interface Compilation {
  program: ts.Program;
  file: ts.SourceFile;
}

export function createProgram(text: string, fileName: string): Compilation {
  const own = (name: string) => name === fileName || name === `/${fileName}`;
  const host: ts.CompilerHost = {
    getSourceFile(name, languageVersion) {
      if (own(name)) return ts.createSourceFile(name, text, languageVersion);
      if (!libFiles.has(name)) {
        const source = ts.sys.readFile(name);
        libFiles.set(
          name,
          source === undefined ? undefined : ts.createSourceFile(name, source, languageVersion),
        );
      }
      return libFiles.get(name);
    },
    getDefaultLibFileName: () => DEFAULT_LIB,
    writeFile: () => {},
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (name) => own(name) || ts.sys.fileExists(name),
    readFile: (name) => (own(name) ? text : ts.sys.readFile(name)),
  };
  const program = ts.createProgram({ rootNames: [fileName], options: COMPILER_OPTIONS, host });
  const file = program.getSourceFile(fileName);
  if (file?.text !== text) throw new Error(`the program did not load ${fileName}`);
  return { program, file };
}

export function formatDiagnostic(diagnostic: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n    ");
  const { file, start } = diagnostic;
  if (!file || start === undefined) return `TS${diagnostic.code}: ${message}`;
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  const starts = file.getLineStarts();
  const source = file.text.slice(starts[line], starts[line + 1]).trim();
  return `${file.fileName}:${line + 1}:${character + 1} TS${diagnostic.code}: ${message}\n    | ${source}`;
}
