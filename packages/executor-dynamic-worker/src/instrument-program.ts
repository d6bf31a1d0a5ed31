import { type Node, parse } from "acorn";

/** The program module with its ticks, or why it could not be parsed (1-based line, 0-based column). */
export type InstrumentedProgram =
  | { ok: true; source: string; ticks: number }
  | { ok: false; message: string; line: number; column: number };

/** What the instrumented module imports from the tick module (see `TICK_SOURCE`). */
const TICK_EXPORTS = ["tick", "tickAsync", "pause", "stop", "stopped", "importable"] as const;
/** The stem of the module's own names for them and its countdown; a suffix is added if the program has it. */
const NAME_STEM = "__tick";

/** The most insertions one program may need: a position and an index packed into one double. */
const POSITION_LIMIT = 2 ** 30;
const INDEX_BITS = 22;
const INDEX_LIMIT = 2 ** INDEX_BITS;

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);
const LOOPS = new Set([
  "ForStatement",
  "ForInStatement",
  "ForOfStatement",
  "WhileStatement",
  "DoWhileStatement",
]);

interface FunctionNode extends Node {
  async: boolean;
  body: Node & { body?: Node[] };
}
interface LoopNode extends Node {
  body: Node;
}
interface BlockNode extends Node {
  body: Node[];
}
interface ImportNode extends Node {
  source: Node;
}
interface ExportNode extends Node {
  declaration: Node;
}

/** What `instrumentProgram` does besides guarding every `import()`. */
export interface InstrumentOptions {
  /** insert the ticks (deadline checks); default true */
  ticks?: boolean;
  /**
   * Where the program's own code lies in the module (offsets): the module must then be one
   * `export default` of a function expression (arrow or `function`) inside it, and nothing else, so
   * no code of the program runs while the module is evaluated (where workerd's clock stands still).
   */
  body?: { start: number; end: number };
}

/**
 * Parses an ES module (the program module) with acorn and inserts a deadline check, a "tick", at
 * the start of every loop body (`for`, `for-in`, `for-of`, `for await`, `while`, `do-while`; a body
 * that is not a block is wrapped in braces) and of every function body (declarations, expressions,
 * arrows, methods, accessors, constructors, class static blocks, generators, async functions; an
 * expression body `x => e` becomes `x => (tick, e)`), unless `options.ticks` is false. Every
 * `import(specifier)` becomes `import(importable(specifier))`: the tick module refuses a specifier
 * the host did not let the program import. With `options.body`, anything in the module but one
 * `export default` of a function expression within the program's own code is refused. Nothing else
 * changes: the text is copied with the insertions put in, on the lines where they belong (no line is
 * added, so line numbers of errors and stacks stay the program's own; columns after a tick move).
 *
 * A tick counts down a module variable, `if (!(--n >= 0) && (n = tick()) < 0) throw stopped;`, and
 * only when it runs out calls the tick module, which reads the clock and answers the next count, or
 * -2 past the deadline (then the tick throws, and every later one too). Where the nearest enclosing
 * function is async, the tick counts down a countdown of its own and may also yield:
 * `if (!(--m >= 0) && (m = tickAsync()) < 0) await pause();` (`pause` rejects once the pass is
 * over). Async ticks have their own countdown so that the tick module knows exactly how many ran,
 * and yields at a count of them, never by the clock: where a program yields decides in which order
 * it makes its calls, which a replay must repeat (see `tickModule`). The countdowns and the tick
 * module's exports (import bindings of `tickModule`) have names
 * that occur nowhere in the program's text: the program cannot name, shadow or reassign them. Host
 * work is linear in the size of the program (one parse, one walk, one sort of the insertions, one
 * copy).
 */
export function instrumentProgram(
  source: string,
  tickModule: string,
  options: InstrumentOptions = {},
): InstrumentedProgram {
  let program: Node;
  try {
    program = parse(source, { ecmaVersion: "latest", sourceType: "module" });
  } catch (error) {
    return parseFailure(error);
  }
  if (options.body) {
    const stray = strayCode(program as BlockNode, options.body);
    if (stray) {
      const { line, column } = locate(source, stray.start);
      return {
        ok: false,
        message: `The code must be one function expression, such as \`async () => { ... }\`, with nothing before or after it (found ${stray.what})`,
        line,
        column,
      };
    }
  }
  const withTicks = options.ticks !== false;
  const stem = freshName(source, NAME_STEM);
  const names = ["T", "A", "P", "S", "E", "I"].map((suffix) => stem + suffix);
  const [tick, tickAsync, pause, stop, stopped, importable] = names;
  const count = `${stem}N`;
  // the countdown of the ticks of async code
  const asyncCount = `${stem}M`;
  // NaN (a countdown read before the module's first line ran) counts as run out too
  const due = `!(--${count}>=0)`;
  const dueAsync = `!(--${asyncCount}>=0)`;
  let ticks = 0;
  const statement = (async: boolean) => {
    ticks++;
    return async
      ? `if(${dueAsync}&&(${asyncCount}=${tickAsync}())<0)await ${pause}();`
      : `if(${due}&&(${count}=${tick}())<0)throw ${stopped};`;
  };
  const expression = (async: boolean) => {
    ticks++;
    return async
      ? `${dueAsync}&&(${asyncCount}=${tickAsync}())<0&&await ${pause}()`
      : `${due}&&(${count}=${tick}())<0&&${stop}()`;
  };

  const insertions = new Insertions();
  const imports = TICK_EXPORTS.map((name, index) => `${name} as ${names[index]}`);
  insertions.add(
    0,
    `import { ${imports.join(", ")} } from ${JSON.stringify(tickModule)}; var ${count} = 0, ${asyncCount} = 0; `,
  );
  // an explicit stack: a deeply nested program must not overflow the host's
  const nodes: Node[] = [program];
  const asyncs: boolean[] = [false];
  while (nodes.length > 0) {
    const node = nodes.pop() as Node;
    // whether the nearest enclosing function (of this node's own code) is async
    let inside = asyncs.pop() as boolean;
    if (node.type === "ImportExpression") {
      // the tick module says which specifiers the program may import; the check returns the string
      const specifier = (node as ImportNode).source;
      insertions.open(specifier.start, `${importable}(`);
      insertions.close(specifier.end, ")");
    } else if (!withTicks) {
      // no deadline checks: the walk only looks for imports
    } else if (FUNCTIONS.has(node.type)) {
      const fn = node as FunctionNode;
      inside = fn.async;
      if (fn.body.type === "BlockStatement") {
        bodyStart(insertions, fn.body as BlockNode, statement(inside));
      } else {
        insertions.open(fn.body.start, `(${expression(inside)},`);
        insertions.close(fn.body.end, ")");
      }
    } else if (node.type === "StaticBlock") {
      // `await` is not allowed in a static block: its own code is never async
      inside = false;
      const block = node as BlockNode;
      insertions.add(block.body[0]?.start ?? block.end - 1, statement(false));
    } else if (node.type === "PropertyDefinition") {
      // a class field's initializer runs as a method would, where `await` is not allowed
      inside = false;
    } else if (LOOPS.has(node.type)) {
      const body = (node as LoopNode).body;
      if (body.type === "BlockStatement") insertions.add(body.start + 1, statement(inside));
      else {
        insertions.open(body.start, `{${statement(inside)}`);
        insertions.close(body.end, "}");
      }
    }
    pushChildren(node, inside, nodes, asyncs);
  }
  if (insertions.count >= INDEX_LIMIT || source.length >= POSITION_LIMIT) {
    return {
      ok: false,
      message: "The program is too large to run here.",
      line: 1,
      column: 0,
    };
  }
  return { ok: true, source: insertions.apply(source), ticks };
}

/** Expressions whose evaluation runs no code of the program. */
const EVALUATES_NOTHING = new Set(["ArrowFunctionExpression", "FunctionExpression", "Literal"]);

/**
 * What in a module, other than one `export default` of a function expression lying within `body`,
 * would run or be declared: the first such node and what it is, or undefined.
 */
function strayCode(
  program: BlockNode,
  body: { start: number; end: number },
): { start: number; what: string } | undefined {
  const [first, second] = program.body;
  if (second) return { start: second.start, what: "a statement after it" };
  if (first?.type !== "ExportDefaultDeclaration") {
    return { start: first?.start ?? 0, what: "no function" };
  }
  const declaration = (first as ExportNode).declaration;
  // a literal runs nothing either (the harness then finds no function to call)
  if (!EVALUATES_NOTHING.has(declaration.type)) {
    return { start: declaration.start, what: `${article(declaration.type)} instead` };
  }
  if (declaration.start < body.start || declaration.end > body.end) {
    return { start: declaration.start, what: "code around it" };
  }
  return undefined;
}

/** "a call expression" for `CallExpression`. */
function article(type: string): string {
  const words = type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return `${/^[aeiou]/.test(words) ? "an" : "a"} ${words}`;
}

/** The 1-based line and 0-based column of an offset. */
function locate(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = source.indexOf("\n"); at !== -1 && at < offset; at = source.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart };
}

/** A tick at the start of a function body: after its directives (`"use strict"`), if it has any. */
function bodyStart(insertions: Insertions, body: BlockNode, tick: string): void {
  let last: Node | undefined;
  for (const statement of body.body) {
    if (
      statement.type !== "ExpressionStatement" ||
      typeof (statement as { directive?: unknown }).directive !== "string"
    ) {
      break;
    }
    last = statement;
  }
  if (last) insertions.add(last.end, `;${tick}`);
  else insertions.add(body.start + 1, tick);
}

/** The child nodes of `node` (any property holding a node or a list of nodes), onto the stack. */
function pushChildren(node: Node, inside: boolean, nodes: Node[], asyncs: boolean[]): void {
  const record = node as unknown as Record<string, unknown>;
  for (const key in record) {
    if (key === "type" || key === "start" || key === "end") continue;
    const value = record[key];
    if (typeof value !== "object" || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (isNode(item)) {
          nodes.push(item);
          asyncs.push(inside);
        }
      }
    } else if (isNode(value)) {
      nodes.push(value);
      asyncs.push(inside);
    }
  }
}

function isNode(value: unknown): value is Node {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { type?: unknown }).type === "string" &&
    typeof (value as { start?: unknown }).start === "number"
  );
}

/**
 * Texts to insert at positions of the source. At one position, closing texts (of nodes that end
 * there) come before opening ones; closing texts of inner nodes before those of outer ones, opening
 * texts of outer nodes before those of inner ones. The walk visits outer nodes first, so an opening
 * text added later belongs to an inner node, and a closing text added later to an inner one too.
 */
class Insertions {
  readonly #texts: string[] = [];
  readonly #keys: number[] = [];

  get count(): number {
    return this.#texts.length;
  }

  /** an opening text (also a tick at a block's start) */
  add(position: number, text: string): void {
    this.#push(position * 2 + 1, this.#texts.length, text);
  }

  open(position: number, text: string): void {
    this.add(position, text);
  }

  /** a closing text: inner nodes (added later) close first */
  close(position: number, text: string): void {
    this.#push(position * 2, INDEX_LIMIT - 1 - this.#texts.length, text);
  }

  #push(slot: number, order: number, text: string): void {
    // the index rides in the low bits (it is recovered from `order` after the sort)
    this.#keys.push(slot * INDEX_LIMIT + order);
    this.#texts.push(text);
  }

  /** The source with every insertion in place: one sort, then one pass over the text. */
  apply(source: string): string {
    const keys = Float64Array.from(this.#keys).sort();
    const parts: string[] = [];
    let copied = 0;
    for (const key of keys) {
      const slot = Math.floor(key / INDEX_LIMIT);
      const order = key - slot * INDEX_LIMIT;
      const position = slot >> 1;
      const index = slot & 1 ? order : INDEX_LIMIT - 1 - order;
      parts.push(source.slice(copied, position), this.#texts[index] as string);
      copied = position;
    }
    parts.push(source.slice(copied));
    return parts.join("");
  }
}

/**
 * `stem`, or `stem` with a suffix of digits, such that no part of `source` starts with it: then no
 * identifier of the program is, or starts with, a name made from it. Linear in the length of the
 * source: every occurrence of the stem is looked at once, and among as many suffixes as there are
 * occurrences (plus one) of one width, one is free.
 */
export function freshName(source: string, stem: string): string {
  if (!source.includes(stem)) return stem;
  const positions: number[] = [];
  for (let at = source.indexOf(stem); at !== -1; at = source.indexOf(stem, at + 1)) {
    positions.push(at + stem.length);
  }
  const width = String(positions.length).length;
  const taken = new Set(positions.map((at) => source.slice(at, at + width)));
  for (let suffix = 0; ; suffix++) {
    const candidate = String(suffix).padStart(width, "0");
    if (!taken.has(candidate)) return stem + candidate;
  }
}

/** acorn's error: its message without the "(line:column)" it appends, and where it stopped. */
function parseFailure(error: unknown): InstrumentedProgram {
  if (error instanceof RangeError) {
    return {
      ok: false,
      message: "The program is nested too deeply to parse.",
      line: 1,
      column: 0,
    };
  }
  const found = error as { message?: unknown; loc?: { line?: unknown; column?: unknown } };
  const message = typeof found.message === "string" ? found.message : String(error);
  const line = typeof found.loc?.line === "number" ? found.loc.line : 1;
  const column = typeof found.loc?.column === "number" ? found.loc.column : 0;
  return { ok: false, message: message.replace(/ \(\d+:\d+\)$/, ""), line, column };
}
