// How long a run waits after its process died: a process (the many-process tests' test/worker.ts,
// with their ledger connector) runs a pass that is inside a call when it is killed with SIGKILL;
// this process, over the same journal, polls `expirePaused` as a sweeper would, and once the lease
// lapsed expires the run and rolls it back. Measured from the kill: the lease the dead pass still
// held, the time to the run's expiry and to its rollback report (the call it was in `unrecorded`),
// for each lease length, over several kills whose moments are spread over a lease (the heartbeat
// renews every third of it, so what is left at a kill varies). Lease lengths alternate kill by kill.
//   tsx bench/recovery.bench.ts [--kills 5] [--leases 1000,5000] [--poll 50]
import { parseArgs } from "node:util";
import { createCodemodeRuntime } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import pg from "pg";
import { postgresStore } from "../src/index.ts";
import { createLedger, ledgerConnector, ledgerRows } from "../test/ledger.ts";
import { startPostgres } from "../test/postgres-server.ts";
import type { WorkerSpec } from "../test/worker.ts";
import { sleep, startWorker, until } from "../test/workers.ts";
import { machine, median } from "./stats.ts";

const { values } = parseArgs({
  options: {
    kills: { type: "string", default: "5" },
    leases: { type: "string", default: "1000,5000" },
    poll: { type: "string", default: "50" },
  },
});
const KILLS = Number(values.kills);
const LEASES = values.leases.split(",").map(Number);
const POLL_MS = Number(values.poll);

const server = await startPostgres();
const config = { host: server.host, port: server.port, user: server.user, database: "postgres" };
const pool = new pg.Pool({ ...config, max: 4 });

interface Kill {
  /** ms of lease the dead pass still held when it was killed */
  left: number;
  /** ms from the kill to the run's expiry by this process */
  expired: number;
  /** ms from the kill to the end of its rollback */
  recovered: number;
}

/** One kill: a victim inside a call, killed `delayMs` after the call began, then recovered here. */
async function kill(leaseMs: number, tag: string, delayMs: number): Promise<Kill> {
  const schema = `recovery_${leaseMs}`;
  const store = await postgresStore(pool, { schema });
  const runtime = createCodemodeRuntime({
    store,
    executor: new QuickJSExecutor(),
    connectors: [ledgerConnector(pool)],
    leaseMs,
  });
  const spec: WorkerSpec = {
    config,
    schema,
    leaseMs,
    steps: [
      {
        do: "execute",
        code: `async () => { await ledger.write({ item: "a-${tag}" }); await ledger.hold({ item: "b-${tag}" }); }`,
      },
    ],
  };
  const victim = startWorker(spec);
  let id = "";
  await until(async () => {
    const row = (await ledgerRows(pool)).find((each) => each.item === `b-${tag}`);
    id = row?.execution ?? "";
    return row !== undefined;
  }, 60_000);
  await sleep(delayMs);
  const killedAt = performance.now();
  const killedAtWall = Date.now();
  victim.process.kill("SIGKILL");
  const { signal } = await victim.ended;
  if (signal !== "SIGKILL") throw new Error(`the victim ended by itself (${String(signal)})`);
  const lease = (await store.journal("default").getExecution(id))?.lease;
  if (!lease) throw new Error(`run ${id} holds no lease after its process died`);
  while (!(await runtime.expirePaused()).includes(id)) await sleep(POLL_MS);
  const expiredAt = performance.now();
  // a live lease is never taken: the expiry came only after the dead pass's lease lapsed
  if (Date.now() < lease.expiresAt)
    throw new Error(`run ${id} was expired before its lease lapsed`);
  const report = await runtime.rollback({ executionId: id });
  if (report.reverted.join() !== "0" || report.unrecorded?.join() !== "1") {
    throw new Error(`unexpected rollback report ${JSON.stringify(report)}`);
  }
  return {
    left: lease.expiresAt - killedAtWall,
    expired: expiredAt - killedAt,
    recovered: performance.now() - killedAt,
  };
}

try {
  console.log(`Machine: ${await machine(pool)}`);
  await createLedger(pool);
  const kills = new Map(LEASES.map((leaseMs) => [leaseMs, [] as Kill[]]));
  for (let round = 0; round < KILLS; round++) {
    for (let index = 0; index < LEASES.length; index++) {
      const leaseMs = LEASES[(index + round) % LEASES.length] as number;
      // the kills of one lease length are spread evenly over a lease after the call began
      const delayMs = Math.round(((round + 0.5) / KILLS) * leaseMs);
      kills.get(leaseMs)?.push(await kill(leaseMs, `${leaseMs}-${round}`, delayMs));
    }
  }
  const spread = (values: number[]) =>
    `${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
  console.log(
    `\nSIGKILL inside a call to the run expired and rolled back by another process polling expirePaused ` +
      `every ${POLL_MS} ms; medians (min–max) of ${KILLS} kills per lease length\n`,
  );
  console.log(
    "| leaseMs | lease left at the kill | kill → run expired | kill → rollback reported | expired − lease left |",
  );
  console.log("|---:|---:|---:|---:|---:|");
  for (const [leaseMs, each] of kills) {
    console.log(
      `| ${leaseMs} | ${spread(each.map((k) => k.left))} | ${spread(each.map((k) => k.expired))} | ` +
        `${spread(each.map((k) => k.recovered))} | ${spread(each.map((k) => k.expired - k.left))} |`,
    );
  }
  console.log(`\nMachine afterwards: ${await machine(pool)}`);
} finally {
  await pool.end();
  server.stop();
}
