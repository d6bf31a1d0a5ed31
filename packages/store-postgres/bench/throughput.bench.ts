// Throughput of several processes over one journal: 1, 2 and 4 Node processes (bench/pass-worker.ts,
// started and gated by the many-process tests' helpers) each run passes of C journaled calls, one
// after another, for a window, against one PostgreSQL server, all under the same runtime name;
// with the server's defaults (every commit waits for the disk) and with sessions that turn
// synchronous_commit off (commits do not wait: what is left is CPU and round trips). A round
// measures every pair of process count and setting once, in an order that turns round by round;
// the table shows medians over rounds of the passes per second in all (the sum of each process's
// rate), the calls per second that makes, and a pass's time, whole and divided by its calls (of the
// median process).
//   tsx bench/throughput.bench.ts [--calls 20] [--window 2000] [--rounds 3] [--processes 1,2,4]
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
    window: { type: "string", default: "2000" },
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
/** the server's session settings each measurement runs with: its defaults, and commits that do not wait */
const SETTINGS: Array<[string, pg.PoolConfig]> = [
  ["server defaults", {}],
  ["synchronous_commit = off", { options: "-c synchronous_commit=off" }],
];

/** One measurement: `count` processes through one window; their reports. */
async function measure(count: number, session: pg.PoolConfig): Promise<PassWorkerReport[]> {
  const opened = await gate(pool);
  const spec: PassWorkerSpec = {
    config: { ...config, ...session },
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
  const cases = SETTINGS.flatMap(([setting, session]) =>
    COUNTS.map((count) => ({
      setting,
      session,
      count,
      passes: [] as number[],
      passMs: [] as number[],
    })),
  );
  for (let round = 0; round < ROUNDS; round++) {
    for (let index = 0; index < cases.length; index++) {
      const each = cases[(index + round) % cases.length] as (typeof cases)[number];
      const reports = await measure(each.count, each.session);
      each.passes.push(reports.reduce((sum, { passes, ms }) => sum + (passes * 1000) / ms, 0));
      each.passMs.push(median(reports.map(({ passes, ms }) => ms / passes)));
    }
  }
  console.log(
    `\nProcesses (${COUNTS.join(", ")}) each running passes of ${CALLS} journaled calls for ${WINDOW_MS} ms ` +
      `on one PostgreSQL server, medians of ${ROUNDS} rounds\n`,
  );
  console.log(
    `| server | processes | passes per second, in all | journaled calls per second, in all | a pass | a pass / ${CALLS} | throughput / ${COUNTS[0]} process |`,
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const { setting, count, passes, passMs } of cases) {
    const single = cases.find((each) => each.setting === setting) as (typeof cases)[number];
    console.log(
      `| ${setting} | ${count} | ${median(passes).toFixed(1)} | ${(median(passes) * CALLS).toFixed(0)} | ` +
        `${median(passMs).toFixed(1)} ms | ${(median(passMs) / CALLS).toFixed(2)} ms | ${ratio(median(passes), median(single.passes))} |`,
    );
  }
  console.log(`\nMachine afterwards: ${await machine(pool)}`);
} finally {
  await pool.end();
  server.stop();
}
