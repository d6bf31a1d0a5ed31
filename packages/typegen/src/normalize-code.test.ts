import { describe, expect, it } from "vitest";
import { normalizeCode } from "./normalize-code.ts";
import { TypegenError } from "./typegen-error.ts";

/** Evaluates the normalized code the way the executor does, `(${normalized})()`, with `globals` in scope. */
const run = async (code: string, globals: Record<string, unknown> = {}): Promise<unknown> => {
  const fn = new Function(...Object.keys(globals), `return (${normalizeCode(code)});`)(
    ...Object.values(globals),
  );
  return await fn();
};

/** The `TypegenError` that `normalizeCode(code)` throws. */
const errorOf = (code: string): TypegenError => {
  try {
    normalizeCode(code);
  } catch (error) {
    if (TypegenError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`expected normalizeCode to throw for ${JSON.stringify(code)}`);
};

/** A fake `github` connector that records its calls. */
const fakeGithub = () => {
  const calls: unknown[] = [];
  return {
    calls,
    github: {
      list: async (input: { owner: string }) => {
        calls.push(input);
        return [{ name: `${input.owner}/one` }, { name: `${input.owner}/two` }];
      },
    },
  };
};

/** A global `count()` that counts how often it was called. */
const counter = () => {
  const state = { calls: 0 };
  return { state, count: () => ++state.calls };
};

describe("markdown fences", () => {
  it.each(["js", "javascript", "ts", "typescript", "tsx", "jsx", ""])(
    "strips a ```%s fence",
    async (tag) => {
      const code = `\`\`\`${tag}\nconst a = 1;\na + 1\n\`\`\``;
      expect(normalizeCode(code)).not.toContain("```");
      expect(normalizeCode(code)).not.toContain(tag === "" ? "```" : tag);
      expect(await run(code)).toBe(2);
    },
  );

  it.each(["js", "javascript", "ts", "typescript", "tsx", "jsx", ""])(
    "keeps an arrow in a ```%s fence byte-identical",
    async (tag) => {
      const arrow = 'async () => {\n  const s = "x";\n  return s.repeat(3);\n}';
      expect(normalizeCode(`\`\`\`${tag}\n${arrow}\n\`\`\``)).toBe(arrow);
      expect(await run(`\`\`\`${tag}\n${arrow}\n\`\`\``)).toBe("xxx");
    },
  );

  it("drops prose before and after the fenced block", async () => {
    const code = [
      "Here is the code you asked for:",
      "",
      "```js",
      "const x = 2;",
      "x * 21",
      "```",
      "",
      "It returns 42. Let me know if `x` should change.",
    ].join("\n");
    const normalized = normalizeCode(code);
    expect(normalized).not.toContain("Here is");
    expect(normalized).not.toContain("returns 42");
    expect(normalized).not.toContain("```");
    expect(await run(code)).toBe(42);
  });

  it("drops prose around a fenced arrow, leaving only the arrow", () => {
    expect(normalizeCode("Sure:\n```typescript\nasync () => 1\n```\nDone.")).toBe("async () => 1");
  });

  it("strips a fence with CRLF line endings", async () => {
    expect(await run("```js\r\nconst a = 1;\r\na + 1\r\n```\r\n")).toBe(2);
  });

  it("strips an indented fence", async () => {
    expect(await run("  ```js\n  const a = 3;\n  a * 2\n  ```")).toBe(6);
  });

  it("strips only the first fence", async () => {
    const code = "```js\nasync () => 1\n```\nOr:\n```js\nasync () => 2\n```";
    expect(normalizeCode(code)).toBe("async () => 1");
  });

  it("keeps triple backticks inside a string in the fenced code", async () => {
    expect(await run('```js\nconst fence = "```";\nfence + "js"\n```')).toBe("```js");
  });

  it("treats an empty fence as empty code", async () => {
    expect(normalizeCode("```js\n```")).toBe("async () => {}");
    expect(normalizeCode("```ts\n\n  \n```")).toBe("async () => {}");
  });
});

describe("function expressions", () => {
  it("keeps an async arrow byte-identical", async () => {
    expect(normalizeCode("async () => 42")).toBe("async () => 42");
    const arrow = "async () => {\n  const a = 1; // one\n  return a + 1;\n}";
    expect(normalizeCode(arrow)).toBe(arrow);
    expect(await run(arrow)).toBe(2);
  });

  it("keeps a sync arrow byte-identical", async () => {
    expect(normalizeCode("() => 7")).toBe("() => 7");
    expect(await run("() => 7")).toBe(7);
  });

  it("drops surrounding whitespace, parentheses and the semicolon around an arrow", async () => {
    expect(normalizeCode("\n  async () => 1  \n")).toBe("async () => 1");
    expect(normalizeCode("(async () => 1);")).toBe("async () => 1");
  });

  it("keeps a parenthesized async function expression", async () => {
    const code = "(async function () {\n  return 3;\n})";
    expect(normalizeCode(code)).toBe("async function () {\n  return 3;\n}");
    expect(await run(code)).toBe(3);
  });

  it("keeps a named function expression", async () => {
    expect(await run("(async function main() { return 4; })")).toBe(4);
    expect(await run("(function main() { return 5; })")).toBe(5);
  });

  it("accepts an anonymous async function expression written as a statement", async () => {
    expect(await run("async function () {\n  return 3;\n}")).toBe(3);
    expect(await run("// the answer\nfunction () { return 4; };")).toBe(4);
  });

  it("calls sandbox globals from an arrow", async () => {
    const { github, calls } = fakeGithub();
    const code =
      'async () => {\n  const repos = await github.list({ owner: "a" });\n  return repos.length;\n}';
    expect(await run(code, { github })).toBe(2);
    expect(calls).toEqual([{ owner: "a" }]);
  });
});

describe("export default", () => {
  it("unwraps `export default async () => …`", async () => {
    expect(normalizeCode("export default async () => 1;")).toBe("async () => 1");
    expect(await run("export default async () => 1;")).toBe(1);
  });

  it("calls `export default async function main() {…}` once", async () => {
    const { state, count } = counter();
    expect(
      await run("export default async function main() {\n  count();\n  return 2;\n}", { count }),
    ).toBe(2);
    expect(state.calls).toBe(1);
  });

  it("unwraps an anonymous `export default function () {}`", async () => {
    expect(await run("export default function () {\n  return 3;\n}")).toBe(3);
    expect(await run("export default async function () {\n  return 4;\n}")).toBe(4);
  });

  it("returns an exported default value", async () => {
    const { github } = fakeGithub();
    expect(await run("export default 42;")).toBe(42);
    expect(await run('export default await github.list({ owner: "o" });', { github })).toEqual([
      { name: "o/one" },
      { name: "o/two" },
    ]);
  });

  it("calls `export default async function main` after helpers", async () => {
    const code = [
      "const base = 40;",
      "function plus(a, b) { return a + b; }",
      "export default async function main() {",
      "  return plus(base, 2);",
      "}",
    ].join("\n");
    expect(await run(code)).toBe(42);
  });

  it("calls a default export that comes before its helpers", async () => {
    const { state, count } = counter();
    const code = [
      "export default async () => {",
      "  count();",
      "  return helper() + offset;",
      "};",
      "function helper() { return 40; }",
      "const offset = 2;",
    ].join("\n");
    expect(await run(code, { count })).toBe(42);
    expect(state.calls).toBe(1);
    expect(await run("export default async function main() { return 1; }\nconst x = 2;")).toBe(1);
  });

  it("returns a default export that is not a function", async () => {
    expect(await run("export default 1;\nconst b = 2;")).toBe(1);
    const Foo = await run("export default class Foo { static x = 3; }\nconst b = 2;");
    expect(typeof Foo).toBe("function");
    expect((Foo as { x: number }).x).toBe(3);
    expect(await run("export default function () { return 1; }\nconst x = 2;")).toBe(1);
  });

  it("does not call main twice when the code also calls it", async () => {
    const { state, count } = counter();
    const code = "export default async function main() { count(); return 5; }\nawait main();";
    expect(await run(code, { count })).toBe(5);
    expect(state.calls).toBe(1);
  });
});

describe("a single named function declaration", () => {
  it("calls `async function main()`", async () => {
    const { github, calls } = fakeGithub();
    const { state, count } = counter();
    const code = [
      "async function main() {",
      "  count();",
      '  const repos = await github.list({ owner: "a" });',
      "  return repos.map((repo) => repo.name);",
      "}",
    ].join("\n");
    expect(await run(code, { github, count })).toEqual(["a/one", "a/two"]);
    expect(calls).toEqual([{ owner: "a" }]);
    expect(state.calls).toBe(1);
  });

  it("calls a sync named function", async () => {
    expect(await run("function compute() { return 6 * 7; }")).toBe(42);
  });
});

describe("statements", () => {
  it("returns the last expression statement", async () => {
    expect(await run("const a = 1;\na + 1")).toBe(2);
    expect(await run("const a = 1;\na + 1;")).toBe(2);
    expect(await run("const a = 1; a + 1;")).toBe(2);
    expect(await run("const a = 1\na + 1")).toBe(2);
    expect(await run("({ a: 1, b: [2] })")).toEqual({ a: 1, b: [2] });
    expect(await run('"just a string"')).toBe("just a string");
  });

  it("wraps statements in an async arrow", () => {
    expect(normalizeCode("const a = 1;\na + 1")).toBe(
      "async () => {\nconst a = 1;\nreturn (a + 1);\n}",
    );
  });

  it("runs helper functions and returns the final call", async () => {
    const code = [
      "function double(x) { return x * 2; }",
      "async function main() { return double(21); }",
      "main()",
    ].join("\n");
    expect(await run(code)).toBe(42);
    expect(await run(`${code.slice(0, -"main()".length)}await main();`)).toBe(42);
  });

  it("returns undefined when the last statement is not an expression", async () => {
    const seen: unknown[] = [];
    expect(await run("const a = 1;")).toBeUndefined();
    expect(await run("const a = 1;\nif (a) { seen.push(a); }", { seen })).toBeUndefined();
    expect(await run("for (const x of [1, 2]) seen.push(x);", { seen })).toBeUndefined();
    expect(await run("function a() {}\nfunction b() {}")).toBeUndefined();
    expect(seen).toEqual([1, 1, 2]);
  });

  it("calls a last expression that is a function", async () => {
    expect(await run("const a = 2;\nasync () => a * 3")).toBe(6);
    expect(await run("const a = 2;\n() => a * 4;")).toBe(8);
    expect(await run("const a = 2;\n(async function () { return a * 5; })")).toBe(10);
  });

  it("drops `export` from named exports", async () => {
    expect(await run("export const x = 20;\nx + 1")).toBe(21);
    expect(await run("export function f() { return 3; }\nexport let y = 4;\nf() + y")).toBe(7);
    expect(await run("const z = 5;\nexport { z };\nz * 2")).toBe(10);
  });

  it("supports top-level await", async () => {
    const { github, calls } = fakeGithub();
    const code =
      'const repos = await github.list({ owner: "b" });\nrepos.map((r) => r.name).join(",")';
    expect(await run(code, { github })).toBe("b/one,b/two");
    expect(calls).toEqual([{ owner: "b" }]);
    expect(await run("await Promise.resolve(5)")).toBe(5);
  });

  it("supports top-level return", async () => {
    expect(await run("const a = 1;\nif (a) return 'early';\nreturn 'late';")).toBe("early");
    expect(await run("const r = await Promise.resolve(3);\nreturn r * 2;")).toBe(6);
    expect(await run("return 1;")).toBe(1);
  });

  // The code under test is JavaScript whose template literals hold `${}` placeholders.
  // biome-ignore-start lint/suspicious/noTemplateCurlyInString: JavaScript source in a string
  it("keeps template literals with backticks and ${}", async () => {
    expect(await run('const name = "x";\n`hello ${name} and \\`tick\\``')).toBe(
      "hello x and `tick`",
    );
    expect(await run("const n = 2;\n`outer ${`inner ${n + 1}`}`")).toBe("outer inner 3");
    expect(await run('```js\nconst who = "w";\n`line one\n${who}\nline three`\n```')).toBe(
      "line one\nw\nline three",
    );
    const arrow = "async () => `a${1 + 1}b`";
    expect(normalizeCode(arrow)).toBe(arrow);
    expect(await run(arrow)).toBe("a2b");
  });
  // biome-ignore-end lint/suspicious/noTemplateCurlyInString: JavaScript source in a string

  it("keeps comments at the end", async () => {
    expect(await run("const a = 1;\na + 1 // the answer")).toBe(2);
    expect(await run("const a = 1;\na + 1;\n// done")).toBe(2);
    expect(await run("const a = 1;\na + 1\n/* done */")).toBe(2);
    expect(await run("async () => 1 // trailing")).toBe(1);
    expect(await run("// only a comment")).toBeUndefined();
  });

  it("calls sandbox globals", async () => {
    const { github, calls } = fakeGithub();
    expect(await run('await github.list({ owner: "a" })', { github })).toEqual([
      { name: "a/one" },
      { name: "a/two" },
    ]);
    expect(calls).toEqual([{ owner: "a" }]);
  });
});

describe("TypeScript", () => {
  it("strips type annotations", async () => {
    expect(await run('const a: number = 1;\nconst b: string[] = ["x"];\na + b.length')).toBe(2);
    expect(
      await run("function add(a: number, b: number): number { return a + b; }\nadd(1, 2)"),
    ).toBe(3);
  });

  it("strips `as`", async () => {
    const { github } = fakeGithub();
    const code =
      'const repos = (await github.list({ owner: "a" })) as Array<{ name: string }>;\nrepos[0]!.name';
    expect(await run(code, { github })).toBe("a/one");
    expect(await run("const v = 1 as unknown as number;\nv + 1")).toBe(2);
  });

  it("strips `satisfies`", async () => {
    expect(await run("const c = { a: 1 } satisfies Record<string, number>;\nc.a")).toBe(1);
  });

  it("strips generics", async () => {
    expect(await run("const id = <T,>(x: T): T => x;\nid(5)")).toBe(5);
    expect(
      await run(
        "function first<T>(xs: T[]): T | undefined { return xs[0]; }\nfirst<number>([1, 2])",
      ),
    ).toBe(1);
    const normalized = normalizeCode("<T,>(x: T) => x");
    expect(normalized).not.toContain("T");
    // types are blanked with spaces, so every column stays where it was written
    expect(normalized).toBe("(x   ) => x");
  });

  it("strips interfaces and type aliases", async () => {
    expect(
      await run('interface Repo { name: string }\nconst r: Repo = { name: "n" };\nr.name'),
    ).toBe("n");
    expect(await run("type Id = string | number;\nconst id: Id = 3;\nid")).toBe(3);
    expect(await run("const a = 1;\ntype Done = true;")).toBeUndefined();
  });

  it("compiles enums", async () => {
    expect(await run('enum Color { Red, Green = "green" }\nColor.Green')).toBe("green");
    expect(await run("enum Level { Low, High }\n[Level.Low, Level.High]")).toEqual([0, 1]);
  });

  it("strips the non-null assertion", async () => {
    expect(await run('const m = new Map([["a", 1]]);\nm.get("a")! + 1')).toBe(2);
  });

  it("keeps a typed async arrow as an arrow", async () => {
    const code = "async (input: { a: string }): Promise<number> => 1";
    const normalized = normalizeCode(code);
    expect(normalized).toMatch(/^async \(input\s*\)\s*=>\s*1$/);
    expect(normalized).toHaveLength(code.length);
    expect(await run(code)).toBe(1);
  });

  it("strips every kind at once", async () => {
    const { github } = fakeGithub();
    const code = [
      "```ts",
      "interface Repo { name: string }",
      "type Names = string[];",
      "enum Mode { Short, Long }",
      "const pick = <T,>(items: T[], index: number): T => items[index]!;",
      'const repos = (await github.list({ owner: "a" })) as Repo[];',
      "const names: Names = repos.map((r) => r.name);",
      "const config = { mode: Mode.Long } satisfies { mode: Mode };",
      "if (config.mode !== Mode.Long) return null;",
      "pick<string>(names, 1)!.toUpperCase()",
      "```",
    ].join("\n");
    expect(await run(code, { github })).toBe("A/TWO");
  });

  it("calls a typed single named function and a typed default export", async () => {
    expect(
      await run("async function main(): Promise<number> {\n  const x: number = 1;\n  return x;\n}"),
    ).toBe(1);
    expect(
      await run("export default async function main(): Promise<string> { return 'ok'; }"),
    ).toBe("ok");
    expect(await run("export default async (): Promise<number> => 2;")).toBe(2);
    expect(await run("async function (): Promise<number> { return 3; }")).toBe(3);
  });

  it("leaves code that parses as JavaScript untouched", () => {
    const arrow = "async () => {\n  const x = 1;    // aligned\n  return x;\n}";
    expect(normalizeCode(arrow)).toBe(arrow);
  });

  it("erases type-only imports", async () => {
    expect(
      await run('import type { Repo } from "./types";\nconst r: Repo = { name: "n" };\nr.name'),
    ).toBe("n");
  });

  it("erases an import of types only and keeps one that also brings a value", () => {
    expect(normalizeCode('import { type Repo } from "./types";\n1')).toContain("return (1)");
    const error = errorOf('import { type Repo, list } from "./api";\nlist()');
    expect(error.code).toBe("UNSUPPORTED_CODE");
  });
});

describe("TypeScript that models write", () => {
  it("strips optional parameters, with and without a type", async () => {
    const code =
      "const greet = (name: string, title?: string) => (title ? title + ' ' + name : name);\n" +
      "const shout = (text?) => (text ?? 'hey').toUpperCase();\n" +
      "[greet('Ada'), greet('Ada', 'Dr'), shout()]";
    expect(await run(code)).toEqual(["Ada", "Dr Ada", "HEY"]);
  });

  it("strips `as const` and definite assignment", async () => {
    expect(await run("const sizes = ['s', 'm'] as const;\nsizes.join('')")).toBe("sm");
    expect(await run("let total!: number;\ntotal = 4;\ntotal")).toBe(4);
  });

  it("strips generics on calls, `new` and async arrows", async () => {
    expect(
      await run("const m = new Map<string, number[]>();\nm.set('a', [1]);\nm.get('a')!.length"),
    ).toBe(1);
    expect(
      await run(
        "const wrap = async <T,>(value: T): Promise<T[]> => [value];\nawait wrap<number>(7)",
      ),
    ).toEqual([7]);
    expect(await run("const pick = <K extends string>(key: K) => key;\npick('k')")).toBe("k");
  });

  it("strips interfaces and types declared inside the function", async () => {
    const { github } = fakeGithub();
    const code = [
      "async () => {",
      "  interface Repo {",
      "    name: string;",
      "  }",
      "  type Names = Array<Repo['name']>;",
      '  const repos: Repo[] = await github.list({ owner: "a" });',
      "  const names: Names = repos.map((repo: Repo) => repo.name);",
      "  return names;",
      "}",
    ].join("\n");
    expect(await run(code, { github })).toEqual(["a/one", "a/two"]);
  });

  it("calls a single typed function declared after an interface", async () => {
    const code =
      "interface Args { n: number }\nasync function main(args: Args = { n: 2 }): Promise<number> {\n  return args.n * 3;\n}";
    expect(await run(code)).toBe(6);
    expect(await run("type Out = number;\nasync (): Promise<Out> => 5")).toBe(5);
  });

  it("does not join the lines around an erased declaration", async () => {
    expect(await run("let x = 1\ninterface A { a: number }\n(x)")).toBe(1);
    expect(await run("const list = [3]\ntype T = number\n[0].concat(list)")).toEqual([0, 3]);
  });

  it("keeps an arrow whose return type spans lines", async () => {
    expect(
      await run(
        "const f = (a: number): {\n  doubled: number;\n} => ({ doubled: a * 2 });\nf(4).doubled",
      ),
    ).toBe(8);
  });

  it("strips a type assertion with angle brackets and a parenthesized `as`", async () => {
    expect(await run("const n = <number>(1 + 1);\nn")).toBe(2);
    expect(await run("const s = (await Promise.resolve('x')) as string;\ns.repeat(2)")).toBe("xx");
  });

  it("compiles enums the way TypeScript does", async () => {
    const code = [
      "enum Size {",
      "  Small = 1,",
      "  Medium,",
      "  Large = Medium * 10,",
      "  Huge,",
      "}",
      'enum Tone { Warm = "warm", Cold = "cold" }',
      "const enum Flag { On = 1 << 2 }",
      "[Size.Medium, Size.Large, Size.Huge, Size[2], Tone.Cold, Object.keys(Tone), Flag.On]",
    ].join("\n");
    expect(await run(code)).toEqual([2, 20, 21, "Medium", "cold", ["Warm", "Cold"], 4]);
    expect(await run("async () => {\n  enum Step { One, Two }\n  return Step[Step.Two];\n}")).toBe(
      "Two",
    );
    expect(await run('export enum Color { Red = "red" }\nColor.Red')).toBe("red");
  });

  it("keeps line numbers after an enum", () => {
    const error = errorOf("enum Mode {\n  A,\n  B,\n}\nconst x: number = ;");
    expect(error.details).toEqual({ line: 5, column: 19 });
    expect(error.message).toContain("\nconst x: number = ;\n                  ^\n");
  });

  it("strips class member modifiers and assigns parameter properties", async () => {
    const code = [
      "abstract class Shape {",
      "  abstract area(): number;",
      "  describe(): string { return 'area ' + this.area(); }",
      "}",
      "interface Named { name: string }",
      "class Square extends Shape implements Named {",
      "  declare kind: string;",
      "  private static count: number = 0;",
      "  [key: string]: unknown;",
      "  constructor(public readonly name: string, private side: number = 2) {",
      "    super();",
      "    Square.count++;",
      "  }",
      "  override area(): number { return this.side ** 2; }",
      "  scale(by: number): void;",
      "  scale(by) { this.side *= by; }",
      "}",
      'const sq = new Square("sq");',
      "sq.scale(2);",
      "[sq.name, sq.describe(), 'kind' in sq]",
    ].join("\n");
    expect(await run(code)).toEqual(["sq", "area 16", false]);
  });

  it("strips overloads, `declare` and the `this` parameter", async () => {
    const code = [
      "declare const injected: number;",
      "function size(value: string): number;",
      "function size(value: unknown[]): number;",
      "function size(this: unknown, value: string | unknown[]): number { return value.length; }",
      "size('abc') + size([1])",
    ].join("\n");
    expect(await run(code)).toBe(4);
  });

  it("erases a namespace of types and names a namespace with values as unsupported", async () => {
    expect(
      await run("namespace Api { export type Id = string }\nconst id: Api.Id = 'x';\nid"),
    ).toBe("x");
    const error = errorOf("const a: number = 1;\nnamespace Api {\n  export const base = 1;\n}");
    expect(error.code).toBe("SYNTAX_ERROR");
    expect(error.details).toEqual({ line: 2, column: 1 });
    expect(error.message).toContain("namespace");
  });

  it("keeps every line and column of the code it strips", () => {
    const code = [
      "async (input: { owner: string }): Promise<string[]> => {",
      "  const names: string[] = [];",
      "  for (const r of (await github.list(input)) as Array<{ name: string }>) names.push(r.name!);",
      "  return names;",
      "}",
    ].join("\n");
    const normalized = normalizeCode(code);
    const lines = normalized.split("\n");
    expect(lines.map((line) => line.length)).toEqual(code.split("\n").map((line) => line.length));
    expect(lines[2]?.indexOf("names.push")).toBe(code.split("\n")[2]?.indexOf("names.push"));
    expect(normalized).not.toMatch(/string|Array|Promise|!/);
  });
});

describe("syntax errors", () => {
  it("throws SYNTAX_ERROR with line, column, the line and a caret", () => {
    const error = errorOf("const a = ;");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("TypegenError");
    expect(error.code).toBe("SYNTAX_ERROR");
    expect(error.details).toEqual({ line: 1, column: 11 });
    expect(error.message).toContain("SyntaxError: Unexpected token at line 1, column 11");
    expect(error.message).toContain("\nconst a = ;\n          ^\n");
  });

  it("names the line and column of a later line", () => {
    const error = errorOf("const a = 1;\nconst b = a +;\nb");
    expect(error.details).toEqual({ line: 2, column: 14 });
    expect(error.message).toContain("line 2, column 14");
    expect(error.message).toContain("\nconst b = a +;\n             ^\n");
  });

  it("counts the fence and the prose above it", () => {
    const code = ["Here you go:", "", "```js", "const a = 1;", "const b = ;", "```", "Done."].join(
      "\n",
    );
    const error = errorOf(code);
    expect(error.code).toBe("SYNTAX_ERROR");
    expect(error.details).toEqual({ line: 5, column: 11 });
    expect(error.message).toContain("line 5, column 11");
    expect(error.message).toContain("\nconst b = ;\n          ^\n");
  });

  it("names the end of the input for an unterminated function", () => {
    const error = errorOf("```js\nasync () => {\n  return 1;\n```");
    expect(error.code).toBe("SYNTAX_ERROR");
    expect(error.details).toEqual({ line: 3, column: 12 });
  });

  it("names the real error in TypeScript, not the first annotation", () => {
    const error = errorOf("const a: number = 1;\nconst b = ;");
    expect(error.code).toBe("SYNTAX_ERROR");
    expect(error.details).toEqual({ line: 2, column: 11 });
    expect(error.message).toContain("line 2, column 11");
    expect(error.message).toContain("\nconst b = ;\n          ^\n");

    const fenced = errorOf("```ts\ninterface A { x: number }\nconst a: A = { x: 1 ;\n```");
    expect(fenced.details).toEqual({ line: 3, column: 21 });
    expect(fenced.message).toContain("\nconst a: A = { x: 1 ;\n                    ^\n");
  });

  it("reports errors that only show after TypeScript was stripped", () => {
    const error = errorOf("const a: number = 1;\nfunction f() { await a; }");
    expect(error.code).toBe("SYNTAX_ERROR");
    expect(error.details).toEqual({ line: 2, column: 16 });
    expect(error.message).toContain("Cannot use keyword 'await' outside an async function");
    expect(error.message).toContain("\nfunction f() { await a; }\n               ^\n");
  });

  it("names the column after type annotations on the same line", () => {
    const error = errorOf("const list: Array<{ id: number }> = [], total: number = list.length +;");
    expect(error.details).toEqual({ line: 1, column: 70 });
    expect(error.message).toContain(
      "\nconst list: Array<{ id: number }> = [], total: number = list.length +;\n" +
        `${" ".repeat(69)}^\n`,
    );
  });

  it("names the line and column of an error JavaScript finds after the types are stripped", () => {
    const error = errorOf("const a: number = 1;\nconst b: number = 2; let a = b;");
    expect(error.details).toEqual({ line: 2, column: 26 });
    expect(error.message).toContain("Identifier 'a' has already been declared");
  });

  it("names the column inside an anonymous function expression", () => {
    const error = errorOf("async function () { return 1 +; }");
    expect(error.details).toEqual({ line: 1, column: 31 });
    expect(error.message).toContain(
      "\nasync function () { return 1 +; }\n                              ^\n",
    );
  });

  it("names the line inside a typed anonymous function after a comment", () => {
    const error = errorOf("/* c */ async function (): Promise<number> {\n  return 1 +;\n}");
    expect(error.details).toEqual({ line: 2, column: 13 });
    expect(error.message).toContain("\n  return 1 +;\n            ^\n");
  });

  it("aligns the caret under a tab-indented line", () => {
    const error = errorOf("async () => {\n\tconst a = ;\n}");
    expect(error.details).toEqual({ line: 2, column: 12 });
    expect(error.message).toContain("\n\tconst a = ;\n\t          ^\n");
  });

  it("rejects prose without a fence", () => {
    expect(errorOf("Here is the code:\nasync () => 1").code).toBe("SYNTAX_ERROR");
  });
});

describe("unsupported code", () => {
  it.each([
    'import x from "y";\nx()',
    'import x from "y"',
    'import { a } from "b";\nawait a();',
    'import * as ns from "ns";\nns.run()',
    '```js\nimport x from "y";\nx()\n```',
    'import { Octokit } from "octokit";\nconst n: number = 1;\nn',
    'export * from "y";\n1',
    'export { a } from "y";\n1',
  ])("rejects module syntax in %j", (code) => {
    const error = errorOf(code);
    expect(error.code).toBe("UNSUPPORTED_CODE");
    expect(error.message).toContain("sandbox");
  });
});

describe("empty input", () => {
  it.each(["", "   ", "\n\t \n", "```js\n\n```"])(
    "normalizes %j to an empty async arrow",
    async (code) => {
      expect(normalizeCode(code)).toBe("async () => {}");
      expect(await run(code)).toBeUndefined();
    },
  );
});
