import { type Node, type Options, type Program, parse } from "acorn";
import { transform } from "sucrase";
import { TypegenError } from "./typegen-error.ts";

const PARSE_OPTIONS: Options = {
  ecmaVersion: "latest",
  sourceType: "module",
  allowReturnOutsideFunction: true,
  allowAwaitOutsideFunction: true,
};

const FENCE = /^[ \t]*```[\w+-]*[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*```[ \t]*$/m;

interface Source {
  text: string;
  /** lines of the original input before `text` starts (a fence and any prose above it) */
  lineOffset: number;
}

interface AcornSyntaxError extends SyntaxError {
  loc?: { line: number; column: number };
}

type AnyNode = Node & Record<string, unknown>;

function stripFence(input: string): Source {
  const match = FENCE.exec(input);
  if (!match) return { text: input, lineOffset: 0 };
  const before = input.slice(0, match.index + match[0].indexOf("\n") + 1);
  return { text: match[1] as string, lineOffset: before.split("\n").length - 1 };
}

function tryParse(text: string): Program | AcornSyntaxError {
  try {
    return parse(text, PARSE_OPTIONS);
  } catch (error) {
    return error as AcornSyntaxError;
  }
}

function syntaxError(error: AcornSyntaxError, source: Source, text: string): TypegenError {
  const line = (error.loc?.line ?? 1) + source.lineOffset;
  const column = (error.loc?.column ?? 0) + 1;
  const message = error.message.replace(/\s*\(\d+:\d+\)$/, "");
  const sourceLine = text.split("\n")[(error.loc?.line ?? 1) - 1] ?? "";
  const caret = `${" ".repeat(Math.max(0, error.loc?.column ?? 0))}^`;
  return new TypegenError(
    "SYNTAX_ERROR",
    `SyntaxError: ${message} at line ${line}, column ${column}:\n${sourceLine}\n${caret}\nWrite one async arrow function in JavaScript, e.g. async () => { ... }.`,
    { line, column },
  );
}

function isFunction(node: AnyNode | undefined): boolean {
  return node?.type === "ArrowFunctionExpression" || node?.type === "FunctionExpression";
}

/**
 * Parses the program, stripping TypeScript syntax (annotations, `as`, generics, interfaces, enums,
 * non-null `!`) with sucrase when plain JavaScript does not parse. Returns the JavaScript and its AST.
 */
function parseProgram(source: Source): { text: string; program: Program } {
  const parsed = tryParse(source.text);
  if (!(parsed instanceof Error)) return { text: source.text, program: parsed };
  let stripped: string;
  try {
    stripped = transform(source.text, {
      transforms: ["typescript"],
      disableESTransforms: true,
    }).code;
  } catch {
    throw syntaxError(parsed, source, source.text);
  }
  const reparsed = tryParse(stripped);
  if (reparsed instanceof Error) throw syntaxError(reparsed, source, stripped);
  return { text: stripped, program: reparsed };
}

function wrap(body: string): string {
  return `async () => {\n${body}\n}`;
}

/**
 * Turns what a model wrote into one function expression an executor can call with no arguments:
 * - one markdown fence is stripped (prose around it is dropped);
 * - an arrow or function expression stays as it is; `export default` is unwrapped;
 * - a single named function declaration is called: `async () => { function main() {…} return main(); }`;
 * - statements are wrapped in an async arrow and the last expression statement is returned (a final
 *   function expression is called);
 * - TypeScript syntax is stripped.
 * Code that does not parse throws a `TypegenError` with code `SYNTAX_ERROR` and the line and column.
 */
export function normalizeCode(input: string): string {
  const source = stripFence(input);
  if (source.text.trim() === "") return "async () => {}";
  const { text, program } = parseProgram(source);
  const body = program.body as AnyNode[];
  const slice = (node: Node) => text.slice(node.start, node.end);

  for (const statement of body) {
    if (statement.type === "ImportDeclaration") {
      throw new TypegenError(
        "UNSUPPORTED_CODE",
        "import is not available in the sandbox: the connectors and codemode are globals, use them directly.",
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
      if (declaration.type === "FunctionDeclaration") {
        const id = declaration.id as AnyNode | null;
        if (!id) return `(${slice(declaration)})`;
        return wrap(`${slice(declaration)}\nreturn ${id.name}();`);
      }
    }
    if (only.type === "FunctionDeclaration" && only.id) {
      return wrap(`${slice(only)}\nreturn ${(only.id as AnyNode).name}();`);
    }
  }

  // Statements: drop `export`, return the last expression (calling it if it is a function).
  let output = "";
  let cursor = 0;
  body.forEach((statement, index) => {
    const last = index === body.length - 1;
    let replacement: string | undefined;
    if (statement.type === "ExportNamedDeclaration" && statement.declaration) {
      replacement = slice(statement.declaration as Node);
    } else if (statement.type === "ExportNamedDeclaration") {
      replacement = "";
    } else if (statement.type === "ExportDefaultDeclaration") {
      const declaration = statement.declaration as AnyNode;
      const isExpression = !/Declaration$/.test(declaration.type);
      replacement = isExpression && last ? returned(declaration) : slice(declaration);
    } else if (last && statement.type === "ExpressionStatement") {
      replacement = returned(statement.expression as AnyNode);
    }
    if (replacement === undefined) return;
    output += text.slice(cursor, statement.start) + replacement;
    cursor = statement.end;
  });
  output += text.slice(cursor);
  return wrap(output);

  function returned(expression: AnyNode): string {
    return isFunction(expression)
      ? `return (${slice(expression)})();`
      : `return (${slice(expression)});`;
  }
}
