// The TypeScript stripper against the TypeScript compiler: each program, stripped by `normalizeCode`
// and transpiled by `ts.transpileModule`, returns the same value; and stripping keeps every line and
// column where it was written (enums and parameter properties aside, which are compiled).
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { normalizeCode } from "./normalize-code.ts";
import { stripTypes } from "./strip-types.ts";

const OPTIONS = {
  ecmaVersion: "latest",
  sourceType: "module",
  allowReturnOutsideFunction: true,
  allowAwaitOutsideFunction: true,
} as const;

/** Programs as models write them: one async arrow, TypeScript throughout. */
const PROGRAMS: Record<string, string> = {
  annotations: `async (input: { ids: number[] } = { ids: [1, 2] }): Promise<number> => {
  const total: number = input.ids.reduce((sum: number, id: number): number => sum + id, 0);
  let label: string | undefined;
  label = \`total \${total}\`;
  return total;
}`,
  "as, satisfies and non-null": `async () => {
  const raw = JSON.parse('{"a":{"b":[1,2]}}') as unknown;
  const value = (raw as { a?: { b: number[] } }).a!.b;
  const config = { retries: 3 } satisfies Record<string, number>;
  const tuple = [value.length, config.retries] as const;
  return tuple[0]! + tuple[1];
}`,
  generics: `async () => {
  function first<T>(items: readonly T[]): T | undefined { return items[0]; }
  const pair = <A, B>(a: A, b: B): [A, B] => [a, b];
  const ids = new Set<number>([3, 1]);
  const map = new Map<string, Set<number>>([["x", ids]]);
  return pair(first<number>([...map.get("x")!]), typeof first);
}`,
  "declarations inside": `async () => {
  interface Item { id: number; tags?: string[] }
  type ById = Record<number, Item>;
  const items: Item[] = [{ id: 1 }, { id: 2, tags: ["a"] }];
  const byId: ById = {};
  for (const item of items) byId[item.id] = item;
  return Object.keys(byId).map(Number);
}`,
  "optional and default parameters": `async () => {
  const f = (a: number, b?: number, c: number = 10, ...rest: number[]): number =>
    a + (b ?? 0) + c + rest.length;
  return [f(1), f(1, 2), f(1, 2, 3, 4, 5)];
}`,
  enums: `async () => {
  enum Direction { Up = 1, Down, Left = Down + 2, Right }
  enum Label { A = "a", B = "b" }
  const enum Bits { None = 0, Read = 1 << 0, Write = 1 << 1, Both = Read | Write }
  enum Mixed { Zero, Name = "name", Ten = 10, Eleven }
  return [Direction, Label, Bits.Both, Mixed, Direction[Direction.Left]];
}`,
  classes: `async () => {
  abstract class Base<T> {
    protected abstract read(): T;
    describe(): string { return String(this.read()); }
  }
  class Counter extends Base<number> implements Iterable<number> {
    static readonly start: number = 1;
    private count: number = Counter.start;
    declare note: string;
    constructor(public readonly name: string, private step = 2) { super(); }
    protected override read(): number { return this.count; }
    bump(): this { this.count += this.step; return this; }
    *[Symbol.iterator](): Iterator<number> { yield this.count; }
  }
  const counter = new Counter("c").bump();
  return [counter.name, counter.describe(), [...counter], Object.keys(counter)];
}`,
  "multi-line types": `async () => {
  type Result =
    | { ok: true; value: number }
    | { ok: false; error: string };
  const check = (
    n: number,
  ): Result =>
    n > 0 ? { ok: true, value: n } : { ok: false, error: "negative" };
  const parse = (text: string): {
    words: number;
  } => ({ words: text.split(" ").length });
  return [check(1), check(-1), parse("a b c")];
}`,
  "type-only statements between lines": `async () => {
  let n = 1
  type Unit = "px"
  ;[n] = [2]
  interface Box { w: number }
  const boxes = [{ w: n }] as Box[]
  return boxes
}`,
};

async function evaluate(code: string): Promise<unknown> {
  return await (new Function(`return (${code});`)() as () => Promise<unknown>)();
}

function transpiled(code: string): string {
  const { outputText } = ts.transpileModule(`export default (${code});`, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  return outputText.replace(/^export default /m, "").replace(/;\s*(\/\/.*)?\s*$/, "");
}

describe("stripping TypeScript", () => {
  it.each(Object.entries(PROGRAMS))(
    "%s: returns what the TypeScript compiler's output returns",
    async (_, code) => {
      expect(await evaluate(normalizeCode(code))).toEqual(await evaluate(transpiled(code)));
    },
  );

  it.each(Object.entries(PROGRAMS).filter(([name]) => name !== "enums" && name !== "classes"))(
    "%s: keeps every line and column",
    (_, code) => {
      const { text } = stripTypes(code, OPTIONS);
      expect(text.split("\n").map((line) => line.length)).toEqual(
        code.split("\n").map((line) => line.length),
      );
      // whatever is not blank is what was written
      for (let index = 0; index < text.length; index++) {
        if (text[index] !== " " && text[index] !== ";" && text[index] !== ")") {
          expect(text[index]).toBe(code[index]);
        }
      }
    },
  );

  it("maps positions after a compiled enum back to the source", () => {
    const code = "enum E { A, B }\nconst x: number = 1;";
    const { text, sourcePosition } = stripTypes(code, OPTIONS);
    const at = text.indexOf("const x");
    expect(sourcePosition(at)).toBe(code.indexOf("const x"));
    expect(sourcePosition(text.lastIndexOf("1;"))).toBe(code.lastIndexOf("1;"));
    expect(sourcePosition(text.indexOf('E["B"]'))).toBe(0);
  });

  it("reports the statements it erased", () => {
    const { text, erased } = stripTypes("type A = 1;\nconst a: A = 1;\ninterface B {}", OPTIONS);
    expect([...erased]).toEqual([0, text.lastIndexOf(";")]);
  });
});
