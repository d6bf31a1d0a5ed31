// What a journaled call costs in postgresStore on a PostgreSQL server on this machine, and the same
// store's statements through the two maintained drivers: node-postgres (`pg`, what the store takes)
// and porsager's `postgres` (through a small adapter to the store's `query`). A journaled call is
// the two writes the runtime makes for it: the entry `executing` (putEntry, under the pass's lease
// claim as the runtime writes it), then `applied` (applyEntry); the same without the claim shows
// what the lease check costs. The server keeps its defaults (fsync and synchronous commit on) unless the first
// argument is `async`, which turns synchronous commit off to show the drivers' own share.
//   tsx bench/journaled-call.bench.ts [async]    (the last part of `pnpm bench` in this package)
import { createCodemodeRuntime, type JournalStore } from "@codemode/core";
import { mockConnector } from "@codemode/core/test";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import pg from "pg";
import postgres from "postgres";
import { postgresStore } from "../src/index.ts";
import type { PgQueryable } from "../src/pg-client.ts";
import { startPostgres } from "../test/postgres-server.ts";
import { machine } from "./stats.ts";

const CALLS = 1_000;
const ROUNDS = 5;
const relaxed = process.argv[2] === "async";

const server = await startPostgres(relaxed ? { synchronous_commit: "off" } : {});
const connection = {
  host: server.host,
  port: server.port,
  user: server.user,
  database: "postgres",
};

/** porsager's driver behind the store's `query`: one connection, statements prepared by the driver. */
function porsagerQueryable(sql: postgres.Sql): PgQueryable {
  return {
    async query({ text, values = [] }) {
      const result = await sql.unsafe(text, values as postgres.ParameterOrJSON<never>[], {
        prepare: true,
      });
      return { rows: [...result], rowCount: result.count };
    },
  };
}

/**
 * Microseconds per journaled call (wall and this process's CPU) over `calls` calls in one run;
 * with `claim`, each entry is written under the run's lease, renewed every 100th call.
 */
async function journaledCalls(store: JournalStore, id: string, calls: number, claim = true) {
  const journal = store.journal("bench");
  await journal.createExecution({
    id,
    code: "async () => 1",
    status: "running",
    connectors: ["svc"],
    createdAt: Date.now(),
    updatedAt: Date.now(),
    lease: { owner: "pass_bench", expiresAt: Date.now() + 30_000 },
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let seq = 0; seq < calls; seq++) {
    const time = Date.now();
    const lease =
      seq % 100 === 99
        ? { owner: "pass_bench", renewUntil: time + 30_000 }
        : { owner: "pass_bench" };
    const written = await journal.putEntry(
      {
        executionId: id,
        seq,
        kind: "call",
        connector: "svc",
        method: "write",
        args: `{"seq":${seq},"title":"a journaled call"}`,
        state: "executing",
        requiresApproval: false,
        deferred: false,
        replay: "record",
        createdAt: time,
        updatedAt: time,
      },
      claim ? lease : undefined,
    );
    if (!written) throw new Error(`entry ${seq} was not written`);
    if (!(await journal.applyEntry(id, seq, { result: '{"ok":true}', updatedAt: Date.now() }))) {
      throw new Error(`entry ${seq} was not applied`);
    }
  }
  const used = process.cpuUsage(cpu);
  return {
    wall: ((performance.now() - started) * 1000) / calls,
    cpu: (used.user + used.system) / calls,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

const pool = new pg.Pool({ ...connection, max: 1 });
const sql = postgres({ ...connection, max: 1, onnotice: () => {} });
try {
  console.log(`Machine: ${await machine(pool)}`);
  const stores = {
    "pg (node-postgres) 8.23": await postgresStore(pool, { schema: "bench_pg" }),
    "postgres (porsager) 3.4": await postgresStore(porsagerQueryable(sql), {
      schema: "bench_porsager",
    }),
  };
  const unclaimed = await postgresStore(pool, { schema: "bench_unclaimed" });
  const variants: Array<[string, JournalStore, boolean]> = [
    ...Object.entries(stores).map(([name, store]): [string, JournalStore, boolean] => [
      name,
      store,
      true,
    ]),
    ["pg, without the lease claim", unclaimed, false],
  ];
  const results = new Map<string, { wall: number[]; cpu: number[] }>();
  for (const [name, store, claim] of variants) {
    await journaledCalls(store, "warm-up", 200, claim);
    results.set(name, { wall: [], cpu: [] });
  }
  // the variants take turns, so a busy moment of the machine falls on each
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, store, claim] of variants) {
      const { wall, cpu } = await journaledCalls(store, `round-${round}`, CALLS, claim);
      results.get(name)?.wall.push(wall);
      results.get(name)?.cpu.push(cpu);
    }
  }
  console.log(
    `A journaled call (putEntry + applyEntry), ${CALLS} calls x ${ROUNDS} rounds, median; ` +
      (relaxed ? "synchronous_commit = off" : "server defaults (fsync, synchronous commit)"),
  );
  for (const [name, { wall, cpu }] of results) {
    console.log(
      `  ${name.padEnd(26)} ${median(wall).toFixed(0).padStart(5)} µs wall  ${median(cpu).toFixed(0).padStart(4)} µs client CPU`,
    );
  }
  const [first, second, third] = [...results.values()].map((result) => median(result.wall));
  console.log(`  ratio postgres / pg: ${((second ?? 0) / (first ?? 1)).toFixed(2)}`);
  console.log(`  ratio pg with / without the claim: ${((first ?? 0) / (third ?? 1)).toFixed(2)}`);

  // the whole runtime: a pass of QuickJS code making journaled calls through postgresStore
  const connector = mockConnector({
    name: "svc",
    methods: { read: { description: "Read.", execute: (input) => input } },
  });
  const runtime = createCodemodeRuntime({
    store: stores["pg (node-postgres) 8.23"],
    executor: new QuickJSExecutor(),
    connectors: [connector],
  });
  const calls = 200;
  const code = `async () => { let n = 0; for (let i = 0; i < ${calls}; i++) n += (await svc.read({ i })).i; return n; }`;
  await runtime.execute({ code });
  const passes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const output = await runtime.execute({ code });
    if (output.status !== "completed") throw new Error(JSON.stringify(output));
    passes.push(((performance.now() - started) * 1000) / calls);
  }
  console.log(
    `A pass of ${calls} calls through the runtime (QuickJS, pg): ${median(passes).toFixed(0)} µs per call`,
  );
} finally {
  await pool.end();
  await sql.end();
  server.stop();
}
