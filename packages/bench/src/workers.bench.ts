// pnpm bench (in packages/bench): Code Mode and @cloudflare/codemode 0.5.6 side by side in one local
// workerd, started here through wrangler's startWorker. Every round runs each subject once, in an
// order that rotates from round to round; the first rounds warm every subject up alike and are
// dropped (QuickJS's WebAssembly gets faster for a few thousand calls as V8 optimizes it, as it would
// in a long-lived agent; a Dynamic Worker pass loads a fresh isolate whatever came before); the table prints
// medians and the ratio ours/reference. Then 1,000 sequential Dynamic Worker passes, to show the
// executor keeps workerd alive. `DynamicWorkerExecutor` runs through `SandboxLoader`, as its README
// advises in a Durable Object: on `env.LOADER` directly (subject `ours`, BENCH_SUBJECTS=ours,…) the
// object's garbage collector can finalize a loaded worker's handles mid-sweep, and local workerd
// then aborts or stalls, more often the more the object allocates (QuickJS passes beside it do).
// Durable Object state lives in a fresh folder under the system's temporary directory (`--state DIR`
// to choose): SQLite commits wait for the disk, so a journal pays for every commit it makes; on
// tmpfs (`--state /dev/shm/…`) a commit costs far less.
//   tsx src/workers.bench.ts [--rounds 15] [--warmup 5] [--passes 1000] [--state DIR]
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_startWorker } from "wrangler";
import { median, ratio } from "./stats.ts";

const workerDir = join(dirname(fileURLToPath(import.meta.url)), "..", "workers");
const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const rounds = argument("rounds", 15);
const warmup = argument("warmup", 5);
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
  join(workerDir, "quickjs.wasm"),
);

type Subject = "ours" | "loader" | "unticked" | "reference" | "quickjs" | "floor";
type Case = "empty" | "calls" | "parallel" | "journaled" | "loop";
const SUBJECTS: Subject[] = process.env.BENCH_SUBJECTS
  ? (process.env.BENCH_SUBJECTS.split(",") as Subject[])
  : ["loader", "unticked", "reference", "quickjs", "floor"];
const CASES: Case[] = ["empty", "calls", "parallel", "journaled", "loop"];
/** A request that takes this long has stalled: the bench stops and says which one. */
const REQUEST_TIMEOUT_MS = 120_000;

const worker = await unstable_startWorker({
  config: join(workerDir, "wrangler.jsonc"),
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
    let timer: NodeJS.Timeout | undefined;
    const response = await Promise.race([
      worker.fetch(`http://bench${path}`),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${path} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`)),
          REQUEST_TIMEOUT_MS,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    const text = await response.text();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };

  // samples[subject][column]
  const samples = new Map<string, number[]>();
  const add = (subject: Subject, column: string, values: number[] | undefined) => {
    const key = `${subject} ${column}`;
    samples.set(key, [...(samples.get(key) ?? []), ...(values ?? [])]);
  };
  for (let round = 0; round < warmup + rounds; round++) {
    const order = SUBJECTS.map((_, i) => SUBJECTS[(i + round) % SUBJECTS.length] as Subject);
    for (const kind of CASES) {
      for (const subject of order) {
        // the floor has no host calls or journal; QuickJS's interpreter would take seconds per loop;
        // the executor without ticks differs from the one with them only in a loop
        if (subject === "floor" && kind !== "empty" && kind !== "loop") continue;
        if (subject === "unticked" && kind !== "loop") continue;
        if (subject === "quickjs" && kind === "loop") continue;
        if (process.env.BENCH_TRACE) console.error(`round ${round} ${kind} ${subject}`);
        const timings = await get<{ times: number[]; approved?: number[] }>(
          `/measure?subject=${subject}&case=${kind}`,
        );
        if (round < warmup) continue;
        add(subject, kind, timings.times);
        add(subject, "approved", timings.approved);
      }
    }
  }
  const value = (subject: Subject, column: string) => {
    const values = samples.get(`${subject} ${column}`) ?? [];
    return values.length ? median(values) : undefined;
  };
  const ms = (number: number | undefined) =>
    number === undefined ? "–" : `${number.toFixed(2)} ms`;
  const columns = ["empty", "calls", "parallel", "journaled", "approved", "loop"];
  console.log(
    `Local workerd (wrangler startWorker), medians of ${rounds} rounds after ${warmup} warm-up rounds, subjects alternating, each case run once untimed before it is timed; Durable Object state in ${state}\n`,
  );
  console.log(
    "| subject | empty pass | 100 calls | 100 calls at once (Promise.all) | runtime pass, 100 journaled reads, pauses | approval pass replaying them | a pass summing 10^7 numbers in a loop |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  const names: Record<Subject, string> = {
    ours: "codemode DynamicWorkerExecutor",
    loader:
      "codemode DynamicWorkerExecutor through SandboxLoader (ticks against runaway code, as in local workerd)",
    unticked: "the same without ticks (interruptRunaway: false, as on Cloudflare)",
    reference: "@cloudflare/codemode 0.5.6",
    quickjs: "codemode QuickJSExecutor",
    floor: "bare Worker Loader load + 1 RPC (same hop)",
  };
  for (const subject of SUBJECTS) {
    console.log(
      `| ${names[subject]} | ${columns.map((column) => ms(value(subject, column))).join(" | ")} |`,
    );
  }
  for (const subject of SUBJECTS.filter((name) => name !== "reference" && name !== "floor")) {
    const ratios = columns.map((column) =>
      ratio(value(subject, column), value("reference", column)),
    );
    console.log(`| ${names[subject]} / reference | ${ratios.join(" | ")} |`);
  }
  const goals: [string, string, number][] = [
    ["empty pass", "empty", 0.8],
    ["journaled pass", "journaled", 0.2],
    ["approval pass", "approved", 0.3],
  ];
  console.log("");
  for (const subject of SUBJECTS.filter(
    (name) => name !== "reference" && name !== "floor" && name !== "unticked",
  )) {
    console.log(
      `Goals for ${names[subject]} (ours / reference): ${goals
        .map(([label, column, goal]) => {
          const reached = (value(subject, column) ?? Infinity) / (value("reference", column) ?? 0);
          return `${label} ≤ ${goal}×: ${reached <= goal ? "met" : "not met"} (${reached.toFixed(2)}×)`;
        })
        .join("; ")}`,
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
    `\n${passes} sequential DynamicWorkerExecutor passes (through SandboxLoader) with one host call each: ${completed} completed, ` +
      `${passes - completed} failed, workerd alive, ${seconds.toFixed(1)} s` +
      (failures.length ? `\n  first failures: ${failures.join(" | ")}` : ""),
  );
} finally {
  await worker.dispose();
  if (stateIndex < 0) rmSync(state, { recursive: true, force: true });
}
