// pnpm bench (in packages/executor-quickjs): what a QuickJSExecutor pass costs. Every figure is a
// median over many runs in this process (the machine may be busy with other work: rerun it to see the
// spread). A warm pass is an empty program on an executor that already ran one, measured with
// `prewarm` on and off in alternation, each pass a few ms after the previous one (a caller that does
// anything between passes); back to back, with no turn of the event loop in between, no spare can be
// made and every pass makes its sandbox. A typical pass also sends an object to the host, logs a line
// and returns an object, which compiles the value encoder in the sandbox (a spare has it compiled).
// The per-call cost comes from back-to-back passes with 0 and 1,000 host calls, so the fixed cost of a
// pass cancels out; the per-replayed-call cost likewise, from the same 1,000 calls answered in the
// sandbox from a replay hint (as on an approval pass), loading the hint included.
import type { HostNamespaces, ReplayHint } from "@codemode/core";
import { QuickJSExecutor } from "../src/index.ts";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const globals: HostNamespaces = {
  bench: { next: async (input) => (input as number) + 1, echo: async (input) => input },
};
const loop = (calls: number) =>
  `async () => { let n = 0; for (let i = 0; i < ${calls}; i++) n = await bench.next(n); return n }`;
const EMPTY = "async () => 1";
const TYPICAL = `async () => {
  const found = await bench.echo({ repo: "acme/api", labels: ["bug"], count: 3 });
  console.log("found", found.count, "issues");
  return { count: found.count, first: found.labels[0] };
}`;
/** between two spaced passes: time for the spare to be made (it starts 1 ms after a pass) */
const GAP_MS = 4;

async function time(executor: QuickJSExecutor, code: string, replay?: ReplayHint): Promise<number> {
  const started = performance.now();
  const result = await executor.execute({
    code,
    globals,
    limits: { timeoutMs: 120_000 },
    ...(replay ? { replay } : {}),
  });
  const elapsed = performance.now() - started;
  if ("error" in result) throw new Error(`bench pass failed: ${result.error.message}`);
  return elapsed;
}

const on = new QuickJSExecutor();
const off = new QuickJSExecutor({ prewarm: false });
const cold = await time(on, EMPTY);

// warm up (and let the engine tier up), both paths
for (let i = 0; i < 100; i++) {
  await time(off, EMPTY);
  await time(on, EMPTY);
  await sleep(1);
}

const spaced = { on: [] as number[], off: [] as number[] };
const typicalSpaced = { on: [] as number[], off: [] as number[] };
for (let i = 0; i < 400; i++) {
  // alternate which goes first, so drifting load from other work falls on both alike
  for (const which of i % 2 ? (["on", "off"] as const) : (["off", "on"] as const)) {
    await sleep(GAP_MS);
    spaced[which].push(await time(which === "on" ? on : off, EMPTY));
    if (i % 2) continue;
    await sleep(GAP_MS);
    typicalSpaced[which].push(await time(which === "on" ? on : off, TYPICAL));
  }
}
const backToBack = { on: [] as number[], off: [] as number[] };
const typicalBackToBack = { on: [] as number[], off: [] as number[] };
for (let i = 0; i < 300; i++) {
  backToBack.off.push(await time(off, EMPTY));
  backToBack.on.push(await time(on, EMPTY));
  if (i % 2) continue;
  typicalBackToBack.off.push(await time(off, TYPICAL));
  typicalBackToBack.on.push(await time(on, TYPICAL));
}

const zero: number[] = [];
const thousand: number[] = [];
for (let i = 0; i < 31; i++) {
  zero.push(await time(on, loop(0)));
  thousand.push(await time(on, loop(1_000)));
}
const perCall = (median(thousand) - median(zero)) / 1_000;

// what an earlier pass recorded for the same loop: `bench.next(n)` answered `n + 1`
const recorded: ReplayHint = {
  calls: Array.from({ length: 1_000 }, (_, n) => ({
    namespace: "bench",
    method: "next",
    input: `${n}`,
    result: `${n + 1}`,
  })),
  advance: () => {},
};
const replayed: number[] = [];
for (let i = 0; i < 31; i++) replayed.push(await time(on, loop(1_000), recorded));
const perReplayed = (median(replayed) - median(zero)) / 1_000;

// a catalog the size of GitHub's REST API: every pass installs its 1,223 methods
const catalog: HostNamespaces = {
  github: Object.fromEntries(
    Array.from({ length: 1_223 }, (_, n) => [`operation_${n}`, async () => n]),
  ),
};
const large: number[] = [];
for (let i = 0; i < 31; i++) {
  const started = performance.now();
  const result = await on.execute({
    code: "async () => await github.operation_7()",
    globals: catalog,
  });
  large.push(performance.now() - started);
  if ("error" in result) throw new Error(`bench pass failed: ${result.error.message}`);
  await sleep(GAP_MS);
}

const tenThousand: number[] = [];
for (let i = 0; i < 5; i++) tenThousand.push(await time(on, loop(10_000)));

/** 100 passes with one host call each, GAP_MS apart: the sum of their times, and the process's RSS. */
async function hundred(executor: QuickJSExecutor): Promise<string> {
  await sleep(50);
  const before = process.memoryUsage().rss;
  let total = 0;
  for (let i = 0; i < 100; i++) {
    await sleep(GAP_MS);
    total += await time(executor, loop(1));
  }
  await sleep(50);
  const after = process.memoryUsage().rss;
  return `${total.toFixed(0)} ms; RSS ${mebibytes(before)} -> ${mebibytes(after)}`;
}
const hundredOff = await hundred(off);
const hundredOn = await hundred(on);
on.dispose();

const pair = (values: { on: number[]; off: number[] }) =>
  `${median(values.on).toFixed(2)} ms  (prewarm off: ${median(values.off).toFixed(2)} ms)`;
const rows: [string, string][] = [
  ["first pass (loads and instantiates the WebAssembly module)", `${cold.toFixed(1)} ms`],
  [`warm empty pass (\`${EMPTY}\`), ${GAP_MS} ms apart, median of 400`, pair(spaced)],
  ["warm empty pass, back to back, median of 300", pair(backToBack)],
  [`typical pass, ${GAP_MS} ms apart, median of 200`, pair(typicalSpaced)],
  ["typical pass, back to back, median of 150", pair(typicalBackToBack)],
  ["pass with 0 calls (the loop program), median of 31", `${median(zero).toFixed(2)} ms`],
  ["pass with 1,000 sequential calls, median of 31", `${median(thousand).toFixed(1)} ms`],
  ["per host call (difference / 1,000)", `${(perCall * 1000).toFixed(1)} µs`],
  [
    "pass replaying the 1,000 calls in the sandbox, median of 31",
    `${median(replayed).toFixed(1)} ms`,
  ],
  ["per replayed call (difference / 1,000)", `${(perReplayed * 1000).toFixed(1)} µs`],
  ["pass with 10,000 sequential calls, median of 5", `${median(tenThousand).toFixed(0)} ms`],
  ["pass with one call among 1,223 methods, median of 31", `${median(large).toFixed(2)} ms`],
  [`100 passes with one call, ${GAP_MS} ms apart, prewarm off`, hundredOff],
  [`100 passes with one call, ${GAP_MS} ms apart, prewarm on`, hundredOn],
];
const width = Math.max(...rows.map(([label]) => label.length));
console.log("QuickJSExecutor (quickjs-emscripten 0.32.0, release-sync)");
for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
