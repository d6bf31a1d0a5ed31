// The instrumenter on its own, in Node: what it inserts and where, that the output still parses and
// behaves as the program did, and that its ticks end what never ends. The instrumented modules run
// here as data: URL modules, beside a tick module that counts ticks and throws past a budget.
import { parse } from "acorn";
import { describe, expect, it } from "vitest";
import { programModule } from "./harness-source.ts";
import { freshName, instrumentProgram } from "./instrument-program.ts";

/**
 * A tick module for these tests: `globalThis.probe` counts ticks and pauses; past `limit` every tick
 * throws. It answers a countdown of 0, so the program calls it at every tick.
 */
const PROBE_TICKS = `data:text/javascript,${encodeURIComponent(`
const probe = () => globalThis.probe;
export const stopped = new Error("tick limit");
export function stop() { throw stopped; }
export function tick() {
  const state = probe();
  state.ticks++;
  return state.ticks > state.limit ? -2 : 0;
}
export function tickAsync() {
  const next = tick();
  const state = probe();
  return next === 0 && state.yieldEvery > 0 && state.ticks % state.yieldEvery === 0 ? -1 : next;
}
export async function pause() {
  const state = probe();
  if (state.ticks > state.limit) throw stopped;
  state.pauses++;
}
export function importable(specifier) { return specifier; }
`)}`;

interface Probe {
  ticks: number;
  pauses: number;
  limit: number;
  yieldEvery: number;
}

function instrumented(code: string): string {
  const outcome = instrumentProgram(programModule(code), PROBE_TICKS);
  if (!outcome.ok) throw new Error(`${outcome.message} (${outcome.line}:${outcome.column})`);
  return outcome.source;
}

/** Runs `code` instrumented (a function expression, called with no arguments) with a fresh probe. */
async function run(
  code: string,
  settings: Partial<Probe> = {},
): Promise<{ value?: unknown; error?: unknown; probe: Probe }> {
  const probe: Probe = { ticks: 0, pauses: 0, limit: Infinity, yieldEvery: 0, ...settings };
  (globalThis as { probe?: Probe }).probe = probe;
  // a comment with a counter makes each module new, so none is taken from the module cache
  const source = `${instrumented(code)}\n// ${Math.random()}`;
  const module = (await import(`data:text/javascript,${encodeURIComponent(source)}`)) as {
    default: () => unknown;
  };
  try {
    return { value: await module.default(), probe };
  } catch (error) {
    return { error, probe };
  }
}

const reparse = (source: string) => parse(source, { ecmaVersion: "latest", sourceType: "module" });

describe("instrumentProgram", () => {
  it("puts a tick at the start of every loop body and function body, and yields where await is allowed", () => {
    const code = [
      "async () => {",
      "  for (let i = 0; i < 2; i++) {}",
      "  while (false) x();",
      "  do ; while (false)",
      "  for (const k in {}) ;",
      "  for (const v of []) {}",
      "  for await (const v of []) {}",
      '  function f() { "use strict"; }',
      "  const g = function* () { while (false) yield 1; };",
      "  const h = (x) => ({ x });",
      "  const o = { get a() { return 1; }, set a(v) {}, m() {} };",
      "  class C extends Object { constructor() { super(); } static { } #p() {} static s = () => 1; x = async () => 2; }",
      "  if (o) while (false) o.m(); else o.m();",
      "  return h(1);",
      "}",
    ].join("\n");
    const outcome = instrumentProgram(programModule(code), "./tick.js");
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    // the statements, and the expressions of arrows with an expression body
    const T = "if(!(--__tickN>=0)&&(__tickN=__tickT())<0)throw __tickE;";
    const A = "if(!(--__tickM>=0)&&(__tickM=__tickA())<0)await __tickP();";
    const t = "!(--__tickN>=0)&&(__tickN=__tickT())<0&&__tickS()";
    const a = "!(--__tickM>=0)&&(__tickM=__tickA())<0&&await __tickP()";
    expect(outcome.source).toBe(
      [
        'import { tick as __tickT, tickAsync as __tickA, pause as __tickP, stop as __tickS, stopped as __tickE, importable as __tickI } from "./tick.js"; var __tickN = 0, __tickM = 0; export default (',
        `async () => {${A}`,
        `  for (let i = 0; i < 2; i++) {${A}}`,
        `  while (false) {${A}x();}`,
        `  do {${A};} while (false)`,
        `  for (const k in {}) {${A};}`,
        `  for (const v of []) {${A}}`,
        `  for await (const v of []) {${A}}`,
        `  function f() { "use strict";;${T} }`,
        `  const g = function* () {${T} while (false) {${T}yield 1;} };`,
        `  const h = (x) => ((${t},{ x }));`,
        `  const o = { get a() {${T} return 1; }, set a(v) {${T}}, m() {${T}} };`,
        `  class C extends Object { constructor() {${T} super(); } static { ${T}} #p() {${T}} static s = () => (${t},1); x = async () => (${a},2); }`,
        `  if (o) while (false) {${A}o.m();} else o.m();`,
        "  return h(1);",
        "}",
        ");",
        "",
      ].join("\n"),
    );
    expect(outcome.ticks).toBe(20);
  });

  it("adds no line: every line of the program stays where it was", () => {
    const code =
      "async () => {\n  let n = 0\n  while (n < 3) n++\n  return [1, 2].map((x) =>\n    x * n)\n}";
    const source = instrumented(code);
    expect(source.split("\n")).toHaveLength(programModule(code).split("\n").length);
    source
      .split("\n")
      .slice(1)
      .forEach((line, index) => {
        const original = programModule(code).split("\n")[index + 1] ?? "";
        // the original line with the insertions taken out again
        const ticks =
          /if\(!\(--__tickN>=0\)&&\(__tickN=__tickT\(\)\)<0\)throw __tickE;|if\(!\(--__tickM>=0\)&&\(__tickM=__tickA\(\)\)<0\)await __tickP\(\);|!\(--__tickN>=0\)&&\(__tickN=__tickT\(\)\)<0&&__tickS\(\),|[{}()]/g;
        expect(line.replace(ticks, "")).toBe(original.replace(/[{}()]/g, ""));
      });
  });

  it("never puts await where it is not allowed, and its output parses", () => {
    const code = `async () => {
      const plain = () => { for (;;) break; };
      const generator = function* () { for (;;) yield 1; };
      const asyncGenerator = async function* () { for (;;) yield 1; };
      class A { static { for (;;) break; } field = [1].map(() => { while (false); }); static async m() { do {} while (false); } }
      const object = { async method() { for (const x of []) {} }, get value() { for (;;) return 1; } };
      for (const x of [1]) { const inner = () => { for (;;) break; }; }
      return 1;
    }`;
    const source = instrumented(code);
    expect(() => reparse(source)).not.toThrow();
    // async: the bodies of the program's arrow, the async generator, the async static method and the
    // object's async method, and the loop directly inside each
    const awaits = source.split("await __tickP()").length - 1;
    expect(awaits).toBe(8);
  });

  it("runs the program as it ran before: values, object bodies, labels, ASI, else branches", async () => {
    const cases: [string, unknown][] = [
      ["() => ({ a: 1 })", { a: 1 }],
      ["async () => (x => ({ x }))(2)", { x: 2 }],
      ["async () => [1, 2, 3].map((n) => n * 2)", [2, 4, 6]],
      [
        `() => { let hits = 0; outer: for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { if (j === 1) continue outer; hits++; } } return hits; }`,
        3,
      ],
      ["() => { let a = 1\n  while (a < 5) a++\n  return a }", 5],
      ["() => { let a = 0; do a++; while (a < 4) return a }", 4],
      [
        "() => { let s = ''; for (const k in { x: 1, y: 2 }) s += k; for (const v of 'ab') s += v; return s }",
        "xyab",
      ],
      [
        "() => { let r = 'none'; if (true) for (let i = 0; i < 1; i++) r = 'loop'; else r = 'else'; return r }",
        "loop",
      ],
      [
        "() => { let r = 'none'; if (false) while (true) r = 'loop'; else r = 'else'; return r }",
        "else",
      ],
      [
        "() => { function* g() { yield 1; yield 2; } let s = 0; for (const v of g()) s += v; return s }",
        3,
      ],
      [
        "async () => { async function* g() { yield 1; yield 2; } let s = 0; for await (const v of g()) s += v; return s }",
        3,
      ],
      [
        "() => { class A { static n = 0; static { A.n = 5; } #p() { return 1; } get q() { return this.#p() + A.n; } } class B extends A { constructor() { super(); this.r = 1; } } return new B().q + new B().r }",
        7,
      ],
      ["() => { 'use strict'; return typeof this }", "undefined"],
      ["async () => { const f = async (x) => await x; return f(9) }", 9],
      [`() => \`\${(() => "tpl")()}\``, "tpl"],
    ];
    for (const [code, expected] of cases) {
      const { value, error } = await run(code);
      expect(error, code).toBeUndefined();
      expect(value, code).toEqual(expected);
    }
  });

  it("counts a tick for every loop iteration and every call", async () => {
    const { value, probe } = await run(
      "() => { const f = (n) => n; let s = 0; for (let i = 0; i < 10; i++) s += f(i); return s; }",
    );
    expect(value).toBe(45);
    // the program, f ten times, ten iterations
    expect(probe.ticks).toBe(21);
  });

  it("yields in async code when the tick says so, and only there", async () => {
    const { value, probe } = await run(
      "async () => { let s = 0; for (let i = 0; i < 100; i++) s += i; const sync = () => { for (let i = 0; i < 100; i++); }; sync(); return s; }",
      { yieldEvery: 10 },
    );
    expect(value).toBe(4950);
    // the async arrow's ticks (1 + 100) yield every tenth; the sync helper's 101 ticks never pause
    expect(probe.ticks).toBe(202);
    expect(probe.pauses).toBeGreaterThanOrEqual(9);
    expect(probe.pauses).toBeLessThanOrEqual(11);
  });

  it("ends what never ends once the ticks throw, whatever catches them", async () => {
    const spins = [
      "async () => { while (true) {} }",
      "async () => { for (;;) { try { for (;;) {} } catch {} } }",
      "async () => { outer: for (;;) { try { for (;;) {} } finally { continue outer; } } }",
      "() => { const f = (n) => { if (n > 0) { f(n - 1); f(n - 1); } }; f(64); }",
      "() => { function* g() { for (;;) yield 1; } for (const x of g()) {} }",
      "() => [3, 1, 2].sort(() => { for (;;) {} })",
      "() => JSON.stringify({ toJSON() { for (;;) {} } })",
      "() => ({ get value() { while (true) {} } }).value",
      "() => { let n = 0; do n++; while (true) }",
      "() => { class A { static { for (;;) {} } } }",
    ];
    for (const code of spins) {
      const { error, probe } = await run(code, { limit: 10_000 });
      expect((error as Error | undefined)?.message, code).toBe("tick limit");
      expect(probe.ticks, code).toBeGreaterThan(10_000);
    }
  });

  it("names the tick with a name the program does not use anywhere", async () => {
    const code = `async () => {
      const __tickT = () => { throw new Error("shadowed"); };
      const text = "__tick0 __tick1 __tick2 __tick3 __tick4 __tick5 __tick6 __tick7 __tick8 __tick9";
      for (let i = 0; i < 3; i++) {}
      return typeof __tickT + text.length;
    }`;
    const source = instrumented(code);
    expect(source).toContain(
      "import { tick as __tick00T, tickAsync as __tick00A, pause as __tick00P, stop as __tick00S, stopped as __tick00E, importable as __tick00I } from",
    );
    expect(source).toContain("var __tick00N = 0, __tick00M = 0;");
    const { value, error, probe } = await run(code);
    expect(error).toBeUndefined();
    expect(value).toBe("function79");
    expect(probe.ticks).toBe(4);
  });

  // A hang guard, not a timing: a million candidates (13 MB) take seconds when each is looked up
  // once, and a search of the text per candidate (10^6 searches of 13 MB) could never end within the
  // test's timeout, on any machine.
  it("finds a fresh name in linear time, even when the program holds a million candidates", () => {
    const crowded = Array.from({ length: 1_000_000 }, (_, index) => `__tick${index}`).join(" ");
    const name = freshName(crowded, "__tick");
    expect(crowded.includes(name)).toBe(false);
    expect(name.startsWith("__tick")).toBe(true);
    expect(freshName("nothing here", "__tick")).toBe("__tick");
  }, 120_000);

  it("puts every import() through the tick module's check, ticks or not", () => {
    const code = "async () => [await import('./a.js'), await import('./' + name, { with: {} })]";
    const ticked = instrumentProgram(programModule(code), "./tick.js");
    const plain = instrumentProgram(programModule(code), "./tick.js", { ticks: false });
    for (const outcome of [ticked, plain]) {
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect(outcome.source).toContain("await import(__tickI('./a.js'))");
      expect(outcome.source).toContain("await import(__tickI('./' + name), { with: {} })");
    }
    expect(plain).toMatchObject({ ticks: 0 });
    expect((plain as { source: string }).source).not.toContain("__tickA()");
  });

  it("with the program's place given, refuses anything but one function expression (or a literal) there", () => {
    const check = (code: string) => {
      const module = programModule(code);
      const start = module.indexOf(code);
      return instrumentProgram(module, "./tick.js", { body: { start, end: start + code.length } });
    };
    for (const code of [
      "async () => 1",
      "(function named() { return 1; })",
      "// a comment\nasync () => 1 // and one after",
      "42",
    ]) {
      expect(check(code).ok, code).toBe(true);
    }
    expect(check("async () => 1); while (true) {} (async () => 2")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/one function expression.*a statement after it/),
      line: 2,
    });
    expect(check("async () => 1) || ns.echo(2")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/a logical expression instead/),
    });
    // export default takes no comma expression: a syntax error already
    expect(check("async () => 1), ns.echo(2")).toMatchObject({ ok: false });
    expect(check("(async () => 1)()")).toMatchObject({
      message: expect.stringMatching(/a call expression instead/),
    });
    expect(check("class { static { go(); } }")).toMatchObject({
      message: expect.stringMatching(/a class expression instead/),
    });
  });

  it("reports a syntax error with its line and column in the module", () => {
    const outcome = instrumentProgram(
      programModule("async () => {\n  const a = 1;\n  return a +;\n}"),
      "./tick.js",
    );
    expect(outcome).toEqual({ ok: false, message: "Unexpected token", line: 4, column: 12 });
    const deep = instrumentProgram(
      programModule(`() => ${"[".repeat(100_000)}${"]".repeat(100_000)}`),
      "./tick.js",
    );
    expect(deep).toMatchObject({ ok: false, message: expect.stringMatching(/stack|nested/) });
  });

  it("parses the syntax of current JavaScript that a program may use", () => {
    const modern = [
      "async () => { const a = await Promise.resolve(1); return a?.b?.(1)?.[2] ?? 3; }",
      "() => { class A { x = 1; static y = 2; #z = 3; #m() { return this.#z; } static { this.y++; } get #g() { return 1; } has(o) { return #z in o; } } return new A(); }",
      "() => [/[\\p{L}--[a-z]]/v, /(?i:a)b/, /(?<y>a)|(?<y>b)/, /a/dgimsuy]",
      "() => { { using resource = null; } return 1_000_000n + 0xff_ffn + 1_0.5e1_0; }",
      "async () => { await using resource = null; let a = 0; a ||= 1; a &&= 2; a ??= 3; return a ** 2; }",
      "async () => (await import('./data.json', { with: { type: 'json' } })).default",
      "async () => { for await (const x of [Promise.resolve(1)]) return x; }",
      `() => ({ ...{ a: 1 }, [\`k\${1}\`]: 2n, async *gen() { yield* [1]; } })`,
      "() => function () { try { throw 1; } catch { return new.target; } finally {} }",
      "() => [1, 2].at(-1) + Object.groupBy([], (x) => x) + structuredClone",
    ];
    for (const code of modern) {
      const outcome = instrumentProgram(programModule(code), "./tick.js");
      expect(outcome.ok, code).toBe(true);
      if (outcome.ok) expect(() => reparse(outcome.source), code).not.toThrow();
    }
  });

  // A hang guard, not a timing: 2 MB take seconds (half a second per 100 KB on a loaded machine); a
  // part that grew with the square of the size and cost even 1 s at 100 KB would cost 400 s here,
  // past the test's timeout.
  it("instruments a 2 MB program in time that grows with its size", () => {
    const chunk = `async () => {
      const rows = await ns.list({ page: 1 });
      for (const row of rows) { if (row.open) console.log(row.title?.trim() ?? ""); }
      const sum = rows.reduce((total, row) => total + row.count, 0);
      return { sum, top: rows.filter((row) => row.count > 10).map(({ title }) => ({ title })) };
    }`;
    const parts: string[] = [];
    for (let size = 0; size < 2_000_000; size += chunk.length + 2) parts.push(`(${chunk})`);
    const code = `async () => [${parts.join(",\n")}]`;
    const outcome = instrumentProgram(programModule(code), "./tick.js");
    // every chunk got the ticks one chunk gets
    const ticksOf = (chunks: number) => {
      const few = instrumentProgram(
        programModule(`async () => [${Array(chunks).fill(`(${chunk})`).join(",\n")}]`),
        "./tick.js",
      );
      return few.ok ? few.ticks : Number.NaN;
    };
    const [one, two] = [ticksOf(1), ticksOf(2)];
    expect(two - one).toBeGreaterThan(0);
    expect(outcome).toMatchObject({ ok: true, ticks: one + (parts.length - 1) * (two - one) });
  }, 120_000);
});
