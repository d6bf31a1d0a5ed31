// Throughput of several processes over one journal: 1, 2 and 4 Node processes (bench/pass-worker.ts,
// started and gated by the many-process tests' helpers) each run passes of C journaled calls, one
// after another, for a window, against one PostgreSQL server (its defaults), all under the same
// runtime name. A round measures every process count once, in an order that turns round by round;
// the table shows medians over rounds of the passes per second in all (the sum of each process's
// rate), the calls per second that makes, and a pass's time divided by its calls (the median process).
//   tsx bench/throughput.bench.ts [--calls 20] [--window 3000] [--rounds 3]
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { startPostgres } from "../test/postgres-server.ts";
import { gate, ok, runWorkers } from "../test/workers.ts";
import type { PassWorkerReport, PassWorkerSpec } from "./pass-worker.ts";
import { machine, median, ratio } from "./stats.ts";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "20" },
    window: { type: "string", default: "3000" },
    rounds: { type: "string", default: "3" },
    processes: { type: "string", default: "1,2,4" },
  },
});
const CALLS = Number(values.calls);
const WINDOW_MS = Number(values.window);
const ROUNDS = Number(values.rounds);
const COUNTS = values.processes.split(",").map(Number);
const script = fileURLToPath(new URL("./pass-worker.ts", import.meta.url));

const server = await startPostgres({ max_connections: "100" });
const config = { host: server.host, port: server.port, user: server.user, database: "postgres" };
const pool = new pg.Pool({ ...config, max: 4 });

/** One measurement: `count` processes through one window; their reports. */
async function measure(count: number): Promise<PassWorkerReport[]> {
  const opened = await gate(pool);
  const spec: PassWorkerSpec = {
    config,
    schema: "throughput",
    gate: opened.key,
    calls: CALLS,
    windowMs: WINDOW_MS,
  };
  const running = runWorkers(
    Array.from({ length: count }, () => spec),
    script,
  );
  await opened.open(count);
  return (await running).map((outcomes) => ok<PassWorkerReport>(outcomes[0]));
}

try {
  console.log(`Machine: ${await machine(pool)}`);
  const samples = new Map(
    COUNTS.map((count) => [count, { passes: [] as number[], callMs: [] as number[] }]),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (let index = 0; index < COUNTS.length; index++) {
      const count = COUNTS[(index + round) % COUNTS.length] as number;
      const reports = await measure(count);
      const sample = samples.get(count);
      sample?.passes.push(reports.reduce((sum, { passes, ms }) => sum + (passes * 1000) / ms, 0));
      sample?.callMs.push(median(reports.map(({ passes, ms }) => ms / (passes * CALLS))));
    }
  }
  const single = median(samples.get(COUNTS[0] as number)?.passes ?? [0]);
  console.log(
    `\nProcesses (${COUNTS.join(", ")}) each running passes of ${CALLS} journaled calls for ${WINDOW_MS} ms ` +
      `on one PostgreSQL server (defaults), medians of ${ROUNDS} rounds\n`,
  );
  console.log(
    `| processes | passes per second, in all | journaled calls per second, in all | a pass's time per call | throughput / ${COUNTS[0]} process |`,
  );
  console.log("|---:|---:|---:|---:|---:|");
  for (const [count, { passes, callMs }] of samples) {
    console.log(
      `| ${count} | ${median(passes).toFixed(1)} | ${(median(passes) * CALLS).toFixed(0)} | ` +
        `${median(callMs).toFixed(2)} ms | ${ratio(median(passes), single)} |`,
    );
  }
  console.log(`\nMachine afterwards: ${await machine(pool)}`);
} finally {
  await pool.end();
  server.stop();
}
