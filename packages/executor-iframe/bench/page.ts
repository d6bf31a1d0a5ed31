// The bench page's script (bundled by iframe.bench.ts): measurements run in the page, one at a time.
import { IframeSandboxExecutor } from "../src/index.ts";

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed(executor: IframeSandboxExecutor, code: string): Promise<number> {
  const start = performance.now();
  const outcome = await executor.execute({
    code,
    globals: { ns: { echo: async (input) => input } },
  });
  if ("error" in outcome) throw new Error(`${outcome.error.name}: ${outcome.error.message}`);
  return performance.now() - start;
}

const calls = (count: number) =>
  `async () => { let sum = 0; for (let i = 0; i < ${count}; i++) sum += await ns.echo(i); return sum; }`;

const api = {
  /** median ms of an empty pass; `gapMs` between passes (a model takes seconds between tool calls) */
  async empty(options: { prewarm: boolean; gapMs: number; rounds: number }) {
    const executor = new IframeSandboxExecutor({ prewarm: options.prewarm });
    await timed(executor, "async () => 0");
    const times: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      await sleep(options.gapMs);
      times.push(await timed(executor, "async () => 0"));
    }
    executor.dispose();
    return median(times);
  },
  /** median ms per host call: (a pass with 101 calls - a pass with 1) / 100 */
  async roundTrip(rounds: number) {
    const executor = new IframeSandboxExecutor();
    const perCall: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await sleep(100);
      const one = await timed(executor, calls(1));
      await sleep(100);
      const many = await timed(executor, calls(101));
      perCall.push((many - one) / 100);
    }
    executor.dispose();
    return median(perCall);
  },
  /** 100 passes in a row, each with one host call */
  async hundred() {
    const executor = new IframeSandboxExecutor();
    const start = performance.now();
    for (let index = 0; index < 100; index++) await timed(executor, calls(1));
    const elapsed = performance.now() - start;
    // the last pass's iframe goes a moment after it returns, once the next one is started
    await sleep(50);
    const iframesAfter = document.querySelectorAll("iframe").length;
    executor.dispose();
    return { elapsed, iframesAfter, iframesDisposed: document.querySelectorAll("iframe").length };
  },
  iframes: () => document.querySelectorAll("iframe").length,
};

(window as unknown as { bench: typeof api }).bench = api;
