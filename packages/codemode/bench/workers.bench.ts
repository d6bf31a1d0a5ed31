// pnpm bench (in packages/codemode): Code Mode in local workerd, started here through wrangler's
// startWorker. Timings are taken inside a Durable Object and printed as medians of several rounds
// (the first round of each case is a warm-up and dropped). Then 1,000 sequential Dynamic Worker
// passes, to show the executor keeps workerd alive.
// Durable Object state lives in a fresh folder under the system's temporary directory (`--state DIR`
// to choose): SQLite commits wait for the disk, and on this kind of machine a commit that waits for an
// fsync costs about 4 ms where tmpfs costs 0.1 ms, which a journal writing per call feels directly.
//   tsx bench/workers.bench.ts [--rounds 15] [--passes 1000] [--state DIR]
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_startWorker } from "wrangler";

const here = dirname(fileURLToPath(import.meta.url));
const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const rounds = argument("rounds", 15);
const passes = argument("passes", 1_000);
const stateIndex = process.argv.indexOf("--state");
const state =
  stateIndex > 0
    ? String(process.argv[stateIndex + 1])
    : mkdtempSync(join(tmpdir(), "codemode-bench-"));

// workerd loads a .wasm only from the worker's own folder
const require = createRequire(import.meta.url);
copyFileSync(
  join(
    dirname(require.resolve("@jitl/quickjs-wasmfile-release-sync/package.json")),
    "dist",
    "emscripten-module.wasm",
  ),
  join(here, "workers", "quickjs.wasm"),
);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;

const worker = await unstable_startWorker({
  config: join(here, "workers", "wrangler.jsonc"),
  dev: {
    server: { hostname: "127.0.0.1", port: 0 },
    inspector: false,
    logLevel: "error",
    persist: state,
  },
});
try {
  await worker.ready;
  const get = async <T>(path: string): Promise<T> => {
    const response = await worker.fetch(`http://bench${path}`);
    const text = await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };
  const measure = <T>(executor: string, kind: string) =>
    get<T>(`/measure?executor=${executor}&case=${kind}&rounds=${rounds + 1}`);
  const warm = (values: number[]) => median(values.slice(1));

  console.log(
    `Code Mode in local workerd (wrangler startWorker), medians of ${rounds} rounds; Durable Object state in ${state}\n`,
  );
  console.log(
    "| executor | empty pass | 100 calls | runtime pass, 100 journaled reads, pauses | approval pass replaying them |",
  );
  console.log("|---|---:|---:|---:|---:|");
  for (const executor of ["dynamic", "quickjs"]) {
    const empty = await measure<{ times: number[] }>(executor, "empty");
    const calls = await measure<{ times: number[] }>(executor, "calls");
    const journaled = await measure<{ paused: number[]; approved: number[] }>(
      executor,
      "journaled",
    );
    const name = executor === "dynamic" ? "DynamicWorkerExecutor" : "QuickJSExecutor";
    console.log(
      `| ${name} | ${ms(warm(empty.times))} | ${ms(warm(calls.times))} | ${ms(warm(journaled.paused))} | ${ms(warm(journaled.approved))} |`,
    );
  }

  let completed = 0;
  const failures: string[] = [];
  const started = performance.now();
  for (let done = 0; done < passes; done += 100) {
    const batch = await get<{ completed: number; failures: string[] }>(
      `/stress?passes=${Math.min(100, passes - done)}`,
    );
    completed += batch.completed;
    failures.push(...batch.failures);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\n${passes} sequential DynamicWorkerExecutor passes with one host call each: ${completed} completed, ` +
      `${passes - completed} failed, workerd alive, ${seconds.toFixed(1)} s` +
      (failures.length ? `\n  first failures: ${failures.join(" | ")}` : ""),
  );
} finally {
  await worker.dispose();
  if (stateIndex < 0) rmSync(state, { recursive: true, force: true });
}
