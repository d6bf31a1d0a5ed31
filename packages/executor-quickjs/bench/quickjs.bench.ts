// pnpm bench (in packages/executor-quickjs): what a QuickJSExecutor pass costs. Every figure is a
// median over several runs in this process; the per-call cost comes from back-to-back passes with 0
// and 1,000 host calls, so the fixed cost of a pass cancels out.
import type { HostNamespaces } from "@codemode/core";
import { QuickJSExecutor } from "../src/index.ts";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const globals: HostNamespaces = { bench: { next: async (input) => (input as number) + 1 } };
const loop = (calls: number) =>
  `async () => { let n = 0; for (let i = 0; i < ${calls}; i++) n = await bench.next(n); return n }`;

async function time(executor: QuickJSExecutor, code: string): Promise<number> {
  const started = performance.now();
  const result = await executor.execute({ code, globals, limits: { timeoutMs: 120_000 } });
  const elapsed = performance.now() - started;
  if ("error" in result) throw new Error(`bench pass failed: ${result.error.message}`);
  return elapsed;
}

const executor = new QuickJSExecutor();
const cold = await time(executor, "async () => 1");

for (let i = 0; i < 200; i++) await time(executor, "async () => 1"); // warm up (and let the engine tier up)
const empty: number[] = [];
for (let i = 0; i < 300; i++) empty.push(await time(executor, "async () => 1"));

const zero: number[] = [];
const thousand: number[] = [];
for (let i = 0; i < 21; i++) {
  zero.push(await time(executor, loop(0)));
  thousand.push(await time(executor, loop(1_000)));
}
const perCall = (median(thousand) - median(zero)) / 1_000;

const tenThousand: number[] = [];
for (let i = 0; i < 5; i++) tenThousand.push(await time(executor, loop(10_000)));

const rows: [string, string][] = [
  ["first pass (loads and instantiates the WebAssembly module)", `${cold.toFixed(1)} ms`],
  ["warm empty pass (`async () => 1`), median of 300", `${median(empty).toFixed(2)} ms`],
  ["pass with 0 calls (the loop program), median of 21", `${median(zero).toFixed(2)} ms`],
  ["pass with 1,000 sequential calls, median of 21", `${median(thousand).toFixed(1)} ms`],
  ["per host call (difference / 1,000)", `${(perCall * 1000).toFixed(1)} µs`],
  ["pass with 10,000 sequential calls, median of 5", `${median(tenThousand).toFixed(0)} ms`],
];
const width = Math.max(...rows.map(([label]) => label.length));
console.log("QuickJSExecutor (quickjs-emscripten 0.32.0, release-sync)");
for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
