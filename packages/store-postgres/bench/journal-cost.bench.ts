// What the journal costs a call on each store, measured in one run, side by side: a whole runtime
// pass (createCodemodeRuntime, QuickJSExecutor) of a program making N journaled calls, on
// postgresStore (server defaults, and a session with synchronous_commit off), sqliteStore over
// better-sqlite3 on a file in WAL mode and in `:memory:`, and memoryStore. A round runs every subject
// once, in an order that turns round by round; the journal's cost per call is, in each round, a
// pass's growth from 0 to N calls less the growth of the same calls made by the executor alone
// (no journal) in that round, divided by N; the table shows medians over rounds.
//   tsx bench/journal-cost.bench.ts [--calls 500] [--rounds 11]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createCodemodeRuntime, type JournalStore, memoryStore, sqliteStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import Database from "better-sqlite3";
import pg from "pg";
import { postgresStore } from "../src/index.ts";
import { startPostgres } from "../test/postgres-server.ts";
import { echoConnector, readsProgram } from "./echo-connector.ts";
import { machine, median, ratio } from "./stats.ts";

const { values } = parseArgs({
  options: { calls: { type: "string", default: "500" }, rounds: { type: "string", default: "11" } },
});
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);

const server = await startPostgres();
const connection = {
  host: server.host,
  port: server.port,
  user: server.user,
  database: "postgres",
};
const pools = [
  new pg.Pool({ ...connection, max: 2 }),
  new pg.Pool({ ...connection, max: 2, options: "-c synchronous_commit=off" }),
];
const folder = mkdtempSync(join(tmpdir(), "codemode-bench-sqlite-"));
const executor = new QuickJSExecutor({ timeoutMs: 120_000 });
const connector = echoConnector();

/** A pass of `calls` reads through the runtime on one store; throws unless it completed. */
function subject(store: JournalStore) {
  const runtime = createCodemodeRuntime({ store, executor, connectors: [connector] });
  return async (calls: number) => {
    const output = await runtime.execute({ code: readsProgram(calls) });
    if (output.status !== "completed") throw new Error(JSON.stringify(output));
  };
}

/** The same calls made by the executor alone: no runtime, no journal. */
async function executorAlone(calls: number) {
  const context = {
    executionId: "alone",
    seq: 0,
    idempotencyKey: "alone:0",
    signal: new AbortController().signal,
  };
  const result = await executor.execute({
    code: readsProgram(calls),
    globals: { svc: { read: (input: unknown) => connector.invoke("read", input, context) } },
  });
  if ("error" in result && result.error) throw new Error(result.error.message);
}

const time = async (run: () => Promise<unknown>) => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};

try {
  const [defaults, relaxed] = pools as [pg.Pool, pg.Pool];
  console.log(`Machine: ${await machine(defaults)}`);
  const file = new Database(join(folder, "journal.db"));
  file.pragma("journal_mode = WAL");
  file.pragma("synchronous = NORMAL");
  const subjects: Array<[string, (calls: number) => Promise<void>]> = [
    ["PostgreSQL, server defaults", subject(await postgresStore(defaults, { schema: "cost" }))],
    [
      "PostgreSQL, synchronous_commit = off",
      subject(await postgresStore(relaxed, { schema: "cost_async" })),
    ],
    ["SQLite file (WAL, synchronous=NORMAL)", subject(sqliteStore(file))],
    ["SQLite :memory:", subject(sqliteStore(new Database(":memory:")))],
    ["memoryStore", subject(memoryStore())],
    ["executor alone (no journal)", executorAlone],
  ];
  const samples = new Map(
    subjects.map(([name]) => [name, { empty: [] as number[], full: [] as number[] }]),
  );
  for (const [, run] of subjects) {
    await run(0);
    await run(Math.min(CALLS, 50));
  }
  for (let round = 0; round < ROUNDS; round++) {
    // each round starts one subject later, so none always runs after the same one
    const order = subjects.map((_, index) => subjects[(index + round) % subjects.length]);
    for (const entry of order) {
      const [name, run] = entry as [string, (calls: number) => Promise<void>];
      const sample = samples.get(name);
      sample?.empty.push(await time(() => run(0)));
      sample?.full.push(await time(() => run(CALLS)));
    }
  }
  const alone = samples.get("executor alone (no journal)") as { empty: number[]; full: number[] };
  /** µs per call: the median over rounds of the pass's growth less the executor's growth beside it */
  const journalCost = ({ empty, full }: { empty: number[]; full: number[] }) =>
    (median(
      full.map(
        (ms, round) =>
          ms -
          (empty[round] as number) -
          ((alone.full[round] as number) - (alone.empty[round] as number)),
      ),
    ) *
      1000) /
    CALLS;
  const costs = new Map([...samples].map(([name, sample]) => [name, journalCost(sample)]));
  const postgres = costs.get("PostgreSQL, server defaults") as number;
  const postgresRelaxed = costs.get("PostgreSQL, synchronous_commit = off") as number;
  console.log(
    `\nA runtime pass (QuickJS) of ${CALLS} journaled calls, medians of ${ROUNDS} rounds, subjects alternating\n`,
  );
  console.log(
    "| subject | empty pass | pass of N calls | per call, whole pass | journal cost per call | PostgreSQL (defaults) / this | PostgreSQL (sync off) / this |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const [name, sample] of samples) {
    const cost = costs.get(name) as number;
    const journaled = name !== "executor alone (no journal)";
    console.log(
      `| ${name} | ${median(sample.empty).toFixed(2)} ms | ${median(sample.full).toFixed(1)} ms | ` +
        `${((median(sample.full) * 1000) / CALLS).toFixed(0)} µs | ${journaled ? `${cost.toFixed(1)} µs` : "–"} | ` +
        `${journaled ? ratio(postgres, cost) : "–"} | ${journaled ? ratio(postgresRelaxed, cost) : "–"} |`,
    );
  }
  console.log(`\nMachine afterwards: ${await machine(defaults)}`);
  file.close();
} finally {
  await Promise.all(pools.map((pool) => pool.end()));
  rmSync(folder, { recursive: true, force: true });
  server.stop();
}
