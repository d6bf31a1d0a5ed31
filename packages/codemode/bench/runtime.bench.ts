// pnpm bench (in packages/codemode): the durable runtime's costs on real QuickJS and real SQLite,
// medians over several rounds. The journal's cost per call is what a journaled call adds to the same
// connector call made by the executor alone: in each round, the growth from 0 to 1,000 calls of a
// journaled run less the growth of the executor-alone run measured beside it, divided by 1,000; the
// table shows the median over rounds. A run's fixed cost (a new database, its schema, the execution
// row) is the empty program's line, not part of the per-call figure.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import Database from "better-sqlite3";
import {
  createCodemodeRuntime,
  functionConnector,
  memoryStore,
  sqliteStore,
} from "../src/index.ts";

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const time = async (run: () => Promise<unknown>) => {
  const start = performance.now();
  await run();
  return performance.now() - start;
};

const executor = new QuickJSExecutor({ timeoutMs: 120_000 });
const store = functionConnector({
  name: "store",
  methods: {
    read: { execute: async ({ key }: { key: number }) => ({ key, value: key * 2 }) },
    write: { requiresApproval: true, execute: async () => true },
  },
});
const bare = (calls: number) =>
  `async () => { let sum = 0; for (let i = 0; i < ${calls}; i++) sum += (await store.read({ key: i })).value; return sum; }`;
const rounds = 21;
const calls = 1_000;

// executor alone: the same calls straight to the same connector, no journal
const direct = async (count: number) => {
  const context = {
    executionId: "direct",
    seq: 0,
    idempotencyKey: "direct:0",
    signal: new AbortController().signal,
  };
  return executor.execute({
    code: bare(count),
    globals: { store: { read: (input) => store.invoke("read", input, context) } },
  });
};
await direct(10);

// a database file in WAL mode with synchronous=NORMAL, as a durable Node deployment would use
const directory = mkdtempSync(join(tmpdir(), "codemode-bench-"));
let files = 0;
const onFile = () => {
  const db = new Database(join(directory, `journal-${files++}.db`));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  return db;
};
const journaled = async (count: number, db = new Database(":memory:")) => {
  const runtime = createCodemodeRuntime({ store: sqliteStore(db), executor, connectors: [store] });
  try {
    return await runtime.execute({ code: bare(count) });
  } finally {
    db.close();
  }
};
await journaled(10);
await journaled(10, onFile());
// the memory store (tests, the browser): what the runtime itself costs a call, with no SQL
const inMemory = (count: number) =>
  createCodemodeRuntime({ store: memoryStore(), executor, connectors: [store] }).execute({
    code: bare(count),
  });
await inMemory(10);

const samples = {
  empty: [] as number[],
  directEmpty: [] as number[],
  direct: [] as number[],
  journaled: [] as number[],
  fileEmpty: [] as number[],
  file: [] as number[],
  memoryEmpty: [] as number[],
  memory: [] as number[],
};
for (let round = 0; round < rounds; round++) {
  samples.empty.push(await time(() => journaled(0)));
  samples.directEmpty.push(await time(() => direct(0)));
  samples.direct.push(await time(() => direct(calls)));
  samples.journaled.push(await time(() => journaled(calls)));
  samples.fileEmpty.push(await time(() => journaled(0, onFile())));
  samples.file.push(await time(() => journaled(calls, onFile())));
  samples.memoryEmpty.push(await time(() => inMemory(0)));
  samples.memory.push(await time(() => inMemory(calls)));
}
rmSync(directory, { recursive: true, force: true });
/** µs per call: the median over rounds of a run's growth less the executor-alone growth beside it */
const perCall = (runs: number[], empties: number[]) =>
  median(
    runs.map(
      (run, round) =>
        run -
        (empties[round] as number) -
        ((samples.direct[round] as number) - (samples.directEmpty[round] as number)),
    ),
  ) *
  (1000 / calls);

// a run with 1,000 reads, a pause, and the approval pass that replays them
const firstPass: number[] = [];
const replayPass: number[] = [];
const pausing = `async () => { let sum = 0; for (let i = 0; i < ${calls}; i++) sum += (await store.read({ key: i })).value; await store.write({ sum }); return sum; }`;
for (let round = 0; round < rounds; round++) {
  const runtime = createCodemodeRuntime({
    store: sqliteStore(new Database(":memory:")),
    executor,
    connectors: [store],
  });
  let executionId = "";
  firstPass.push(
    await time(async () => {
      executionId = (await runtime.execute({ code: pausing })).executionId;
    }),
  );
  replayPass.push(await time(() => runtime.approve({ executionId })));
}

const rss = () => Math.round(process.memoryUsage().rss / 1024 / 1024);
const before = rss();
for (let index = 0; index < 100; index++) await journaled(5);
const afterRuns = rss();

console.log(`## Durable runtime (QuickJS + better-sqlite3, medians of ${rounds} rounds)\n`);
console.log("| measure | value |\n|---|---:|");
console.log(`| runtime pass of an empty program | ${median(samples.empty).toFixed(2)} ms |`);
console.log(`| ${calls} calls, executor alone | ${median(samples.direct).toFixed(1)} ms |`);
console.log(
  `| ${calls} calls, journaled (in-memory SQLite) | ${median(samples.journaled).toFixed(1)} ms |`,
);
console.log(
  `| ${calls} calls, journaled (SQLite file, WAL) | ${median(samples.file).toFixed(1)} ms |`,
);
console.log(
  `| journal cost per recorded call, in-memory SQLite | ${perCall(samples.journaled, samples.empty).toFixed(1)} µs |`,
);
console.log(
  `| journal cost per recorded call, memoryStore | ${perCall(samples.memory, samples.memoryEmpty).toFixed(1)} µs |`,
);
console.log(
  `| journal cost per recorded call, SQLite file (WAL, synchronous=NORMAL) | ${perCall(samples.file, samples.fileEmpty).toFixed(1)} µs |`,
);
console.log(`| first pass: ${calls} reads then a pause | ${median(firstPass).toFixed(1)} ms |`);
console.log(`| approval pass replaying ${calls} reads | ${median(replayPass).toFixed(1)} ms |`);
console.log(`| replay / first pass | ${(median(replayPass) / median(firstPass)).toFixed(2)} |`);
console.log(`| RSS before / after 100 runs | ${before} MB / ${afterRuns} MB |`);
