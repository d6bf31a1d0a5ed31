import { tsPlugin } from "@sveltejs/acorn-typescript";
import { type Options, Parser } from "acorn";

/** Acorn with the TypeScript plugin: parses the syntax, and `stripTypes` erases it. */
const TypeScriptParser = Parser.extend(tsPlugin());

/** A node of the TypeScript AST: ESTree plus `TS*` nodes and flags (`optional`, `declare`, …). */
interface TsNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** A piece of the source replaced in the output: `text` is the same length unless a construct is compiled. */
interface Edit {
  start: number;
  end: number;
  text: string | (() => string);
}

/** Where one edit landed in the output. */
interface Segment {
  edit: Edit;
  start: number;
  end: number;
  outStart: number;
  outEnd: number;
}

export interface StrippedCode {
  /**
   * The JavaScript: the source with its type-only syntax blanked with spaces, so every position (line
   * and column) stays where it was, except in a compiled `enum` or a constructor's parameter properties.
   */
  text: string;
  /** The starts of the `;` statements an erased declaration (`interface`, `type`, `declare`…) left. */
  erased: ReadonlySet<number>;
  /** The position in the source of a position in `text`. */
  sourcePosition(position: number): number;
}

/** A TypeScript construct that has no JavaScript of its own here; `pos` is where it starts. */
export class UnsupportedTypeScriptError extends SyntaxError {
  readonly pos: number;
  constructor(message: string, pos: number) {
    super(message);
    this.name = "SyntaxError";
    this.pos = pos;
  }
}

const LINE_BREAK = /[\n\r\u2028\u2029]/;
/** Every character but line breaks, one UTF-16 unit at a time, so the length stays the same. */
const NOT_LINE_BREAK = /[^\n\r\u2028\u2029]/g;
/** The class member and parameter modifiers that exist only in TypeScript. */
const TS_MODIFIERS = /\b(?:public|private|protected|readonly|declare|abstract|override)\b/g;
/** Words an enum member's name cannot be bound to as a local `const`. */
const RESERVED =
  /^(?:await|break|case|catch|class|const|continue|debugger|default|delete|do|else|enum|export|extends|false|finally|for|function|if|implements|import|in|instanceof|interface|let|new|null|package|private|protected|public|return|static|super|switch|this|throw|true|try|typeof|var|void|while|with|yield|arguments|eval)$/;

const blank = (text: string): string => text.replace(NOT_LINE_BREAK, " ");

function isNode(value: unknown): value is TsNode {
  return typeof value === "object" && value !== null && typeof (value as TsNode).type === "string";
}

const child = (node: TsNode, key: string): TsNode | undefined => {
  const value = node[key];
  return isNode(value) ? value : undefined;
};

const children = (node: TsNode, key: string): TsNode[] => {
  const value = node[key];
  return Array.isArray(value) ? value.filter(isNode) : [];
};

/**
 * Parses `source` as TypeScript and returns it as JavaScript: annotations, `as`, `satisfies`, `!`,
 * generics, `interface`, `type`, `declare`, overloads, type-only imports and exports and class member
 * modifiers are blanked with spaces (an erased statement leaves a `;` so the next line never continues
 * the one before); an `enum` is compiled to an object and a constructor's parameter properties to
 * assignments. A syntax error throws acorn's `SyntaxError` (with `pos`), and a construct that has no
 * JavaScript here (a namespace with values, `export =`, `import … = require()`) an
 * `UnsupportedTypeScriptError`.
 */
export function stripTypes(source: string, options: Options): StrippedCode {
  const program = TypeScriptParser.parse(source, options) as unknown as TsNode;
  const edits: Edit[] = [];
  const erased = new Set<Edit>();

  const blankRange = (start: number, end: number) => {
    if (end > start) edits.push({ start, end, text: blank(source.slice(start, end)) });
  };
  /** Erases a whole statement or class member: a `;` in its place, spaces after it. */
  const erase = (node: TsNode) => {
    const edit = {
      start: node.start,
      end: node.end,
      text: `;${blank(source.slice(node.start + 1, node.end))}`,
    };
    erased.add(edit);
    edits.push(edit);
  };
  /** Blanks one item of a comma-separated list (an import or export specifier) with its comma. */
  const blankItem = (items: TsNode[], index: number) => {
    const item = items[index] as TsNode;
    const next = items[index + 1];
    const previous = items[index - 1];
    if (next) blankRange(item.start, next.start);
    else if (previous) blankRange(previous.end, item.end);
    else blankRange(item.start, item.end);
  };
  /** Blanks the `?` and `!` marks in a range (after a class member's name). */
  const blankMarks = (start: number, end: number) => {
    for (let index = start; index < end; index++) {
      const character = source[index];
      if (character === "?" || character === "!") blankRange(index, index + 1);
    }
  };
  /** Blanks the TypeScript-only modifiers (`private`, `readonly`, …) in a range before a name. */
  const blankModifiers = (start: number, end: number) => {
    for (const match of source.slice(start, end).matchAll(TS_MODIFIERS)) {
      const at = start + match.index;
      blankRange(at, at + match[0].length);
    }
  };

  const visitChildren = (node: TsNode, skip: ReadonlySet<string> = NONE) => {
    for (const key of Object.keys(node)) {
      if (key === "loc" || skip.has(key)) continue;
      const value = node[key];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item);
      } else if (isNode(value)) {
        visit(value);
      }
    }
  };

  const isErasedDeclaration = (node: TsNode): boolean => {
    switch (node.type) {
      case "TSInterfaceDeclaration":
      case "TSTypeAliasDeclaration":
      case "TSDeclareFunction":
      case "TSNamespaceExportDeclaration":
        return true;
      case "TSModuleDeclaration":
        return node.declare === true || isTypeOnlyNamespace(node);
      default:
        return node.declare === true;
    }
  };

  /** A namespace that holds only types has no JavaScript (TypeScript emits nothing for it). */
  const isTypeOnlyNamespace = (node: TsNode): boolean => {
    const body = child(node, "body");
    if (!body) return true;
    if (body.type === "TSModuleDeclaration") return isTypeOnlyNamespace(body);
    return children(body, "body").every((statement) => {
      const declaration =
        statement.type === "ExportNamedDeclaration" ? child(statement, "declaration") : statement;
      return declaration !== undefined && isErasedDeclaration(declaration);
    });
  };

  const visitFunction = (node: TsNode, skip: ReadonlySet<string> = NONE) => {
    const params = children(node, "params");
    const first = params[0];
    // `function (this: Foo, a)`: the `this` parameter is a type only
    if (first?.type === "Identifier" && first.name === "this") {
      blankRange(first.start, params[1]?.start ?? first.end);
      visitChildren(node, new Set([...skip, "params"]));
      for (const param of params.slice(1)) visit(param);
      return;
    }
    visitChildren(node, skip);
  };

  const visitClass = (node: TsNode) => {
    if (node.declare === true) return erase(node);
    if (node.abstract === true) {
      const keyword = source.indexOf("class", node.start);
      blankModifiers(node.start, keyword);
    }
    const implemented = children(node, "implements");
    if (implemented.length > 0) {
      const first = implemented[0] as TsNode;
      const keyword = source.lastIndexOf("implements", first.start);
      blankRange(keyword, (implemented.at(-1) as TsNode).end);
    }
    const body = child(node, "body");
    for (const member of body ? children(body, "body") : []) {
      if (member.kind === "constructor")
        assignParameterProperties(member, body as TsNode, child(node, "superClass"));
    }
    visitChildren(node, IMPLEMENTS);
  };

  /**
   * `constructor(private a: A)` assigns `this.a = a` first thing (after `super(…)` in a subclass), and
   * the class declares the field `a;`.
   */
  const assignParameterProperties = (
    method: TsNode,
    classBody: TsNode,
    superClass: TsNode | undefined,
  ) => {
    const fn = child(method, "value");
    const body = fn && child(fn, "body");
    if (!fn || !body) return;
    const names = children(fn, "params")
      .filter((param) => param.type === "TSParameterProperty")
      .map((param) => {
        const parameter = child(param, "parameter") as TsNode;
        const target =
          parameter.type === "AssignmentPattern" ? child(parameter, "left") : parameter;
        return String(target?.name);
      });
    if (names.length === 0) return;
    const assignments = names.map((name) => `this.${name} = ${name};`).join(" ");
    const superCall = superClass
      ? children(body, "body").find((statement) => {
          const expression = child(statement, "expression");
          const callee = expression && child(expression, "callee");
          return expression?.type === "CallExpression" && callee?.type === "Super";
        })
      : undefined;
    const at = superCall ? superCall.end : body.start + 1;
    edits.push({ start: at, end: at, text: superCall ? `; ${assignments}` : ` ${assignments}` });
    // as TypeScript does for ES2022, they are also fields, declared before the class's own
    const fields = names.map((name) => `${name};`).join(" ");
    edits.push({ start: classBody.start + 1, end: classBody.start + 1, text: ` ${fields}` });
  };

  const visitMember = (node: TsNode) => {
    if (node.declare === true || node.abstract === true) return erase(node);
    const value = child(node, "value");
    if (node.type === "MethodDefinition" && value?.type === "TSDeclareMethod") return erase(node);
    const key = child(node, "key") as TsNode;
    const keyStart = node.computed === true ? source.lastIndexOf("[", key.start) : key.start;
    blankModifiers(node.start, keyStart);
    const keyEnd = node.computed === true ? source.indexOf("]", key.end) + 1 : key.end;
    const annotation = child(node, "typeAnnotation");
    blankMarks(keyEnd, annotation?.start ?? value?.start ?? node.end);
    visitChildren(node);
  };

  /** `enum E { A, B = "b" }` becomes `var E = E || {}; { E["A"] = 0; … }`, keeping its line breaks. */
  const compileEnum = (node: TsNode) => {
    for (const member of children(node, "members")) {
      const initializer = child(member, "initializer");
      if (initializer) visit(initializer);
    }
    edits.push({ start: node.start, end: node.end, text: () => enumCode(node) });
  };

  const enumCode = (node: TsNode): string => {
    const name = String((child(node, "id") as TsNode).name);
    const breaks = (start: number, end: number) =>
      source
        .slice(start, end)
        .split("")
        .filter((c) => LINE_BREAK.test(c))
        .join("") || " ";
    let code = `var ${name} = ${name} || {}; {`;
    let cursor = node.start;
    let previous: string | undefined;
    for (const member of children(node, "members")) {
      const id = child(member, "id") as TsNode;
      const key = id.type === "Identifier" ? String(id.name) : String(id.value);
      const slot = `${name}[${JSON.stringify(key)}]`;
      const initializer = child(member, "initializer");
      let value: string;
      let numeric: boolean | undefined;
      if (initializer) {
        value = render(initializer.start, initializer.end);
        const literal = initializer.type === "Literal" ? initializer.value : undefined;
        if (typeof literal === "string" || initializer.type === "TemplateLiteral") numeric = false;
        else if (typeof literal === "number") numeric = true;
      } else {
        value = previous === undefined ? "0" : `${previous} + 1`;
        numeric = true;
      }
      code += breaks(cursor, member.start);
      code += `${slot} = ${value};`;
      if (numeric === true) code += ` ${name}[${slot}] = ${JSON.stringify(key)};`;
      else if (numeric === undefined) {
        code += ` if (typeof ${slot} !== "string") ${name}[${slot}] = ${JSON.stringify(key)};`;
      }
      // later members' initializers name earlier members directly
      if (id.type === "Identifier" && key !== name && !RESERVED.test(key)) {
        code += ` const ${key} = ${slot};`;
      }
      previous = slot;
      cursor = member.end;
    }
    return `${code}${breaks(cursor, node.end - 1)}}`;
  };

  const unsupported = (node: TsNode, message: string): never => {
    throw new UnsupportedTypeScriptError(message, node.start);
  };

  function visit(node: TsNode): void {
    switch (node.type) {
      case "TSTypeAnnotation":
      case "TSTypeParameterDeclaration":
      case "TSTypeParameterInstantiation":
        blankRange(node.start, node.end);
        break;
      case "TSInterfaceDeclaration":
      case "TSTypeAliasDeclaration":
      case "TSDeclareFunction":
      case "TSNamespaceExportDeclaration":
      case "TSIndexSignature":
        erase(node);
        break;
      case "TSModuleDeclaration":
        if (!isErasedDeclaration(node))
          unsupported(node, "TypeScript namespace with values is not supported, use an object");
        erase(node);
        break;
      case "TSEnumDeclaration":
        if (node.declare === true) erase(node);
        else compileEnum(node);
        break;
      case "TSImportEqualsDeclaration":
        if (node.importKind !== "type")
          unsupported(node, "TypeScript import … = require() is not supported");
        erase(node);
        break;
      case "TSExportAssignment":
        unsupported(node, "TypeScript export = is not supported");
        break;
      case "TSAsExpression":
      case "TSSatisfiesExpression": {
        // from the keyword: the expression's range leaves out its parentheses, `(a) as T`
        const type = child(node, "typeAnnotation") as TsNode;
        const keyword = node.type === "TSAsExpression" ? "as" : "satisfies";
        visit(child(node, "expression") as TsNode);
        blankRange(source.lastIndexOf(keyword, type.start - 1), node.end);
        break;
      }
      case "TSNonNullExpression":
        visit(child(node, "expression") as TsNode);
        blankRange(node.end - 1, node.end);
        break;
      case "TSTypeAssertion": {
        // `<T>(a)`: up to the `>` after the type, the expression's range leaves out its parentheses
        const type = child(node, "typeAnnotation") as TsNode;
        blankRange(node.start, source.indexOf(">", type.end) + 1);
        visit(child(node, "expression") as TsNode);
        break;
      }
      case "TSParameterProperty": {
        const parameter = child(node, "parameter") as TsNode;
        const name = parameter.type === "AssignmentPattern" ? child(parameter, "left") : parameter;
        blankModifiers(node.start, name?.start ?? parameter.start);
        visit(parameter);
        break;
      }
      case "Identifier": {
        // `x?: T`, `x!: T`: the identifier's range covers its marks and annotation
        const name = /^[^?!:\s/]*/.exec(source.slice(node.start, node.end)) as RegExpExecArray;
        blankRange(node.start + name[0].length, node.end);
        break;
      }
      case "VariableDeclaration":
        if (node.declare === true) erase(node);
        else visitChildren(node);
        break;
      case "ClassDeclaration":
      case "ClassExpression":
        visitClass(node);
        break;
      case "PropertyDefinition":
      case "MethodDefinition":
        visitMember(node);
        break;
      case "FunctionDeclaration":
      case "FunctionExpression":
        visitFunction(node);
        break;
      case "ArrowFunctionExpression":
        visitArrow(node);
        break;
      case "ImportDeclaration":
        visitImport(node);
        break;
      case "ExportNamedDeclaration":
        visitExport(node);
        break;
      case "ExportDefaultDeclaration": {
        const declaration = child(node, "declaration");
        if (declaration && isErasedDeclaration(declaration)) erase(node);
        else visitChildren(node);
        break;
      }
      default:
        visitChildren(node);
    }
  }

  /** `import type …` and an import of types only are erased; `type` specifiers are blanked. */
  function visitImport(node: TsNode): void {
    const specifiers = children(node, "specifiers");
    const types = specifiers.filter((specifier) => specifier.importKind === "type");
    if (
      node.importKind === "type" ||
      (specifiers.length > 0 && types.length === specifiers.length)
    ) {
      erase(node);
      return;
    }
    specifiers.forEach((specifier, index) => {
      if (specifier.importKind === "type") blankItem(specifiers, index);
    });
  }

  /** `export type …`, `export interface`, `export declare …` are erased; `type` specifiers are blanked. */
  function visitExport(node: TsNode): void {
    const declaration = child(node, "declaration");
    const specifiers = children(node, "specifiers");
    if (
      node.exportKind === "type" ||
      (declaration && isErasedDeclaration(declaration)) ||
      (specifiers.length > 0 && specifiers.every((specifier) => specifier.exportKind === "type"))
    ) {
      erase(node);
      return;
    }
    specifiers.forEach((specifier, index) => {
      if (specifier.exportKind === "type") blankItem(specifiers, index);
    });
    visitChildren(node, SPECIFIERS);
  }

  /**
   * An arrow's return type is blanked; when it spans lines the `)` moves to its end, since no line
   * break may stand between an arrow's parameters and its `=>`.
   */
  function visitArrow(node: TsNode): void {
    const returnType = child(node, "returnType");
    if (!returnType || !LINE_BREAK.test(source.slice(returnType.start, returnType.end))) {
      visitFunction(node);
      return;
    }
    const paren = source.lastIndexOf(")", returnType.start);
    blankRange(paren, paren + 1);
    edits.push({
      start: returnType.start,
      end: returnType.end,
      text: `${blank(source.slice(returnType.start, returnType.end - 1))})`,
    });
    visitFunction(node, RETURN_TYPE);
  }

  // zero-length insertions first, then outer edits before the ones nested in them
  const sorted = () =>
    edits.sort(
      (a, b) =>
        a.start - b.start || Number(a.end !== a.start) - Number(b.end !== b.start) || b.end - a.end,
    );

  /** The output for `source[start, end)`: the edits inside it applied, those nested in another skipped. */
  function render(start: number, end: number, segments?: Segment[]): string {
    let output = "";
    let cursor = start;
    for (const edit of edits) {
      if (edit.start < cursor || edit.end > end) continue;
      output += source.slice(cursor, edit.start);
      const outStart = output.length;
      output += typeof edit.text === "function" ? edit.text() : edit.text;
      segments?.push({ edit, start: edit.start, end: edit.end, outStart, outEnd: output.length });
      cursor = edit.end;
    }
    return output + source.slice(cursor, end);
  }

  visit(program);
  sorted();
  const segments: Segment[] = [];
  const text = render(0, source.length, segments);
  const erasedAt = new Set(segments.filter((s) => erased.has(s.edit)).map((s) => s.outStart));
  return {
    text,
    erased: erasedAt,
    sourcePosition(position) {
      let shift = 0;
      for (const segment of segments) {
        if (position < segment.outStart) break;
        if (position < segment.outEnd) {
          const sameLength = segment.outEnd - segment.outStart === segment.end - segment.start;
          return segment.start + (sameLength ? position - segment.outStart : 0);
        }
        shift = segment.end - segment.outEnd;
      }
      return position + shift;
    },
  };
}

const NONE: ReadonlySet<string> = new Set();
const IMPLEMENTS: ReadonlySet<string> = new Set(["implements"]);
const SPECIFIERS: ReadonlySet<string> = new Set(["specifiers"]);
const RETURN_TYPE: ReadonlySet<string> = new Set(["returnType"]);
