import { getLineInfo, type Node, type Options, type Program, parse } from "acorn";
import { stripTypes, UnsupportedTypeScriptError } from "./strip-types.ts";
import { TypegenError } from "./typegen-error.ts";

const PARSE_OPTIONS: Options = {
  ecmaVersion: "latest",
  sourceType: "module",
  allowReturnOutsideFunction: true,
  allowAwaitOutsideFunction: true,
};

const FENCE = /^[ \t]*```[\w+-]*[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```[ \t]*$/m;

/** Leading whitespace and comments, then an anonymous `function (` or `async function (`. */
const ANONYMOUS_FUNCTION =
  /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*(?=(?:async\s+)?function\s*\*?\s*\()/;
const DEFAULT_PREFIX = "export default ";
const DEFAULT_NAME = "__codemode_default__";

interface Source {
  text: string;
  /** lines of the original input before `text` starts (a fence and any prose above it) */
  lineOffset: number;
  /**
   * Where `export default ` was inserted before an anonymous function expression written as a statement
   * (1-based line, 0-based column of `text`), so error positions can be mapped back to what was written.
   */
  inserted?: { line: number; column: number };
}

/** A parse failure: line is 1-based, column 0-based, both in the text that was parsed. */
interface Failure {
  message: string;
  line: number;
  column: number;
  pos: number;
}

type AnyNode = Node & Record<string, unknown>;

function stripFence(input: string): Source {
  const match = FENCE.exec(input);
  if (!match) return { text: input, lineOffset: 0 };
  const before = input.slice(0, match.index + match[0].indexOf("\n") + 1);
  return { text: match[1] as string, lineOffset: before.split("\n").length - 1 };
}

/**
 * `async function () {…}` is a function expression, but as the first statement of a program it does not
 * parse (a declaration needs a name). Prefixing `export default ` makes it parse as the default export.
 */
function insertDefault(source: Source): Source {
  const match = ANONYMOUS_FUNCTION.exec(source.text);
  if (!match) return source;
  const index = match[0].length;
  const before = source.text.slice(0, index);
  return {
    text: `${before}${DEFAULT_PREFIX}${source.text.slice(index)}`,
    lineOffset: source.lineOffset,
    inserted: {
      line: before.split("\n").length,
      column: index - (before.lastIndexOf("\n") + 1),
    },
  };
}

function tryParse(text: string): Program | Error {
  try {
    return parse(text, PARSE_OPTIONS);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Reads an acorn error (or `stripTypes`'s): its message and position, line and column in `text`. */
function failureOf(error: unknown, text: string, position = (pos: number) => pos): Failure {
  const { message, pos } = error as { message?: unknown; pos?: unknown };
  const at = typeof pos === "number" ? Math.min(position(pos), text.length) : 0;
  const { line, column } = getLineInfo(text, at);
  return {
    message: String(message ?? error).replace(/\s*\(\d+:\d+\)$/, ""),
    line,
    column,
    pos: typeof pos === "number" ? at : -1,
  };
}

/** `text` is the text the failure's line and column are in. */
function syntaxError(failure: Failure, source: Source, text: string): TypegenError {
  let sourceLine = (text.split("\n")[failure.line - 1] ?? "").replace(/\r$/, "");
  let column = failure.column;
  const inserted = source.inserted;
  if (inserted && failure.line === inserted.line && column >= inserted.column) {
    const at = inserted.column;
    sourceLine = sourceLine.slice(0, at) + sourceLine.slice(at + DEFAULT_PREFIX.length);
    column = Math.max(at, column - DEFAULT_PREFIX.length);
  }
  const line = failure.line + source.lineOffset;
  const caret = `${sourceLine.slice(0, column).replace(/[^\t]/g, " ")}^`;
  return new TypegenError(
    "SYNTAX_ERROR",
    `SyntaxError: ${failure.message} at line ${line}, column ${column + 1}:\n${sourceLine}\n${caret}\nWrite one async arrow function in JavaScript, e.g. async () => { ... }.`,
    { line, column: column + 1 },
  );
}

function isFunction(node: AnyNode | undefined): boolean {
  return node?.type === "ArrowFunctionExpression" || node?.type === "FunctionExpression";
}

/** A function expression, or an anonymous `export default function () {}`. */
function isFunctionLike(node: AnyNode | undefined): boolean {
  return isFunction(node) || node?.type === "FunctionDeclaration";
}

/**
 * Parses the program, stripping TypeScript syntax (annotations, `as`, `satisfies`, generics, interfaces,
 * non-null `!`; enums compiled) when plain JavaScript does not parse. Returns the JavaScript, its AST and
 * the starts of the `;` statements that erased declarations left (not statements of the program).
 */
function parseProgram(source: Source): {
  text: string;
  program: Program;
  erased: ReadonlySet<number>;
} {
  const parsed = tryParse(source.text);
  if (!(parsed instanceof Error)) return { text: source.text, program: parsed, erased: new Set() };
  let stripped: ReturnType<typeof stripTypes>;
  try {
    stripped = stripTypes(source.text, PARSE_OPTIONS);
  } catch (error) {
    // Acorn stops at the first TypeScript syntax; when the TypeScript parser got further, or parsed it
    // all but found a construct that cannot run, its error is the real one.
    const acorn = failureOf(parsed, source.text);
    const typescript = failureOf(error, source.text);
    const real =
      error instanceof UnsupportedTypeScriptError || typescript.pos > acorn.pos
        ? typescript
        : acorn;
    throw syntaxError(real, source, source.text);
  }
  const reparsed = tryParse(stripped.text);
  if (reparsed instanceof Error) {
    // blanking keeps positions, so the error is shown in the source as it was written
    throw syntaxError(
      failureOf(reparsed, source.text, stripped.sourcePosition),
      source,
      source.text,
    );
  }
  return { text: stripped.text, program: reparsed, erased: stripped.erased };
}

function wrap(body: string): string {
  return `async () => {\n${body}\n}`;
}

const SANDBOX_HINT = "the connectors and codemode are globals, use them directly.";

/**
 * Turns what a model wrote into one function expression an executor can call with no arguments:
 * - one markdown fence is stripped (prose around it is dropped);
 * - an arrow or function expression stays as it is; `export default` is unwrapped;
 * - a single named function declaration is called: `async () => { function main() {…} return main(); }`;
 * - statements are wrapped in an async arrow and the last expression statement is returned (a final
 *   function expression is called); when the last statement is not an expression, an `export default`
 *   among them is returned (called if it is a function);
 * - TypeScript syntax is stripped.
 * `import` and `export … from` throw a `TypegenError` with code `UNSUPPORTED_CODE`.
 * Code that does not parse throws a `TypegenError` with code `SYNTAX_ERROR` and the line and column.
 */
export function normalizeCode(input: string): string {
  const fenced = stripFence(input);
  if (fenced.text.trim() === "") return "async () => {}";
  const source = insertDefault(fenced);
  const { text, program, erased } = parseProgram(source);
  const body = (program.body as AnyNode[]).filter(
    (statement) => !(statement.type === "EmptyStatement" && erased.has(statement.start)),
  );
  const slice = (node: Node) => text.slice(node.start, node.end);

  for (const statement of body) {
    if (statement.type === "ImportDeclaration") {
      throw new TypegenError(
        "UNSUPPORTED_CODE",
        `import is not available in the sandbox: ${SANDBOX_HINT}`,
      );
    }
    if (
      statement.type === "ExportAllDeclaration" ||
      (statement.type === "ExportNamedDeclaration" && statement.source)
    ) {
      throw new TypegenError(
        "UNSUPPORTED_CODE",
        `export … from is not available in the sandbox: ${SANDBOX_HINT}`,
      );
    }
  }

  if (body.length === 1) {
    const only = body[0] as AnyNode;
    if (only.type === "ExpressionStatement" && isFunction(only.expression as AnyNode)) {
      return slice(only.expression as Node);
    }
    if (only.type === "ExportDefaultDeclaration") {
      const declaration = only.declaration as AnyNode;
      if (isFunction(declaration)) return slice(declaration);
      if (declaration.type === "FunctionDeclaration" && !declaration.id) {
        return `(${slice(declaration)})`;
      }
    }
    if (only.type === "FunctionDeclaration" && only.id) {
      return wrap(`${slice(only)}\nreturn ${(only.id as AnyNode).name}();`);
    }
  }

  // Statements: drop `export`, return the last expression (calling it if it is a function); when the
  // last statement is not an expression, return the default export (calling it if it is a function).
  const lastIndex = body.length - 1;
  const endsInExpression = body[lastIndex]?.type === "ExpressionStatement";
  let output = "";
  let cursor = 0;
  let result = "";
  body.forEach((statement, index) => {
    const last = index === lastIndex;
    let replacement: string | undefined;
    if (statement.type === "ExportNamedDeclaration") {
      replacement = statement.declaration ? slice(statement.declaration as Node) : "";
    } else if (statement.type === "ExportDefaultDeclaration") {
      replacement = defaultExport(statement.declaration as AnyNode, last);
    } else if (last && statement.type === "ExpressionStatement") {
      replacement = returned(statement.expression as AnyNode);
    }
    if (replacement === undefined) return;
    output += text.slice(cursor, statement.start) + replacement;
    cursor = statement.end;
  });
  output += text.slice(cursor);
  return wrap(result ? `${output}\n${result}` : output);

  function returned(expression: AnyNode): string {
    return isFunctionLike(expression)
      ? `return (${slice(expression)})();`
      : `return (${slice(expression)});`;
  }

  /** The statement that replaces `export default …`; sets `result` when the value is returned at the end. */
  function defaultExport(declaration: AnyNode, last: boolean): string {
    const id = declaration.id as AnyNode | null | undefined;
    const isDeclaration = /Declaration$/.test(declaration.type);
    if (isDeclaration && id) {
      // `export default async function main() {…}`: keep the (hoisted) declaration, call it at the end
      if (!endsInExpression) {
        result =
          declaration.type === "FunctionDeclaration"
            ? `return ${id.name}();`
            : `return ${id.name};`;
      }
      return slice(declaration);
    }
    if (last) return returned(declaration);
    if (endsInExpression) return `(${slice(declaration)});`;
    // Helpers may follow the default export: evaluate it here, call or return it after them.
    result = isFunctionLike(declaration) ? `return ${DEFAULT_NAME}();` : `return ${DEFAULT_NAME};`;
    return `const ${DEFAULT_NAME} = (${slice(declaration)});`;
  }
}
