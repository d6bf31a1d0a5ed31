// pnpm bench (in packages/executor-dynamic-worker): what the instrumentation costs, in Node (the same
// JavaScript the executor runs on its host, and V8 as workerd has it; `pnpm bench` in packages/bench
// times whole passes in local workerd). Every figure is a median over many runs in this process: the
// machine may be busy with other work, so rerun it to see the spread.
// - host: `instrumentProgram` on a typical program, on one of 100 KB and one of 1 MB;
// - sandbox: loops run instrumented (with the real tick module, armed with a long deadline) and as
//   written, one after the other: a sum over 10^7 numbers, 10^6 calls of a small function, the sum
//   in an async function (which also yields to the event loop every 25 ms).
import { programModule } from "../src/harness-source.ts";
import { instrumentProgram } from "../src/instrument-program.ts";
import { TICK_SOURCE } from "../src/tick-source.ts";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const TICK_URL = `data:text/javascript,${encodeURIComponent(TICK_SOURCE)}`;
const TYPICAL = `async () => {
  const open = await tasks.list({ status: "open" });
  const mine = open.filter((task) => task.owner === "me" && !task.blocked);
  for (const task of mine) {
    if (task.due < Date.now()) await tasks.update({ id: task.id, priority: "high" });
  }
  console.log("updated", mine.length);
  return mine.map(({ id, title }) => ({ id, title }));
}`;

/** A program of about `size` characters: many small async functions in one array. */
function programOf(size: number): string {
  const parts: string[] = [];
  for (let length = 0; length < size; length += TYPICAL.length + 2) parts.push(`(${TYPICAL})`);
  return `async () => [${parts.join(",\n")}].length`;
}

function timeInstrument(code: string, runs: number): number {
  const module = programModule(code);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const outcome = instrumentProgram(module, "./tick.js");
    times.push(performance.now() - started);
    if (!outcome.ok) throw new Error(outcome.message);
  }
  return median(times);
}

console.log("Host: instrumentProgram (parse, walk, insert), median ms");
for (const [label, code, runs] of [
  ["typical program", TYPICAL, 200],
  ["100 KB program", programOf(100_000), 30],
  ["1 MB program", programOf(1_000_000), 7],
] as const) {
  // warm up the parser first
  timeInstrument(code, 3);
  console.log(
    `  ${label} (${(code.length / 1000).toFixed(1)} k chars): ${timeInstrument(code, runs).toFixed(2)} ms`,
  );
}

const { arm } = (await import(TICK_URL)) as { arm(timeoutMs: number, imports: string[]): unknown };
arm(10 * 60_000, []);

let counter = 0;
async function load(code: string, instrumented: boolean): Promise<() => unknown> {
  const module = programModule(code);
  const outcome = instrumented ? instrumentProgram(module, TICK_URL) : { ok: true, source: module };
  if (!outcome.ok) throw new Error("not parsed");
  // a comment makes every module new
  const url = `data:text/javascript,${encodeURIComponent(`${outcome.source}\n// ${counter++}`)}`;
  return ((await import(url)) as { default: () => unknown }).default;
}

const LOOPS = [
  [
    "sum of 10^7 numbers",
    "() => { let s = 0; for (let i = 0; i < 1e7; i++) s += i; return s; }",
    1e7,
  ],
  [
    "10^6 calls of a small function",
    "() => { const add = (a, b) => a + b; let s = 0; for (let i = 0; i < 1e6; i++) s = add(s, i); return s; }",
    1e6,
  ],
  [
    "sum of 10^7 numbers, async",
    "async () => { let s = 0; for (let i = 0; i < 1e7; i++) s += i; return s; }",
    1e7,
  ],
] as const;

console.log("\nSandbox: a loop as written and instrumented, median of 9 runs each, alternating");
for (const [label, code, count] of LOOPS) {
  const plain = await load(code, false);
  const ticked = await load(code, true);
  const times = { plain: [] as number[], ticked: [] as number[] };
  for (let run = 0; run < 10; run++) {
    for (const [name, program] of [
      ["plain", plain],
      ["ticked", ticked],
    ] as const) {
      const started = performance.now();
      await program();
      // the first run of each compiles and warms up
      if (run > 0) times[name].push(performance.now() - started);
    }
  }
  const [asWritten, instrumented] = [median(times.plain), median(times.ticked)];
  console.log(
    `  ${label}: ${asWritten.toFixed(1)} ms as written, ${instrumented.toFixed(1)} ms instrumented ` +
      `(+${(((instrumented - asWritten) * 1e6) / count).toFixed(2)} ns per iteration, ${(instrumented / asWritten).toFixed(2)}×)`,
  );
}
