// One process of the throughput benchmark: a runtime over postgresStore (QuickJS, the echo
// connector) on the benchmark's database. It makes one untimed pass, waits at the benchmark's gate
// with the other processes, then runs passes of `calls` journaled calls one after another until
// `windowMs` have passed, and prints one JSON line: how many passes it completed and in how long.
import { writeSync } from "node:fs";
import { createCodemodeRuntime } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import pg from "pg";
import { postgresStore } from "../src/index.ts";
import { passGate } from "../test/workers.ts";
import { echoConnector, readsProgram } from "./echo-connector.ts";

export interface PassWorkerSpec {
  config: pg.PoolConfig;
  schema: string;
  /** the gate the benchmark opens once every process waits at it */
  gate: number;
  calls: number;
  windowMs: number;
}

/** What one process did inside its window. */
export interface PassWorkerReport {
  passes: number;
  ms: number;
}

const spec = JSON.parse(process.argv[2] as string) as PassWorkerSpec;
// one pool per process, as an application has; a pass uses one connection at a time
const pool = new pg.Pool({ ...spec.config, max: 4 });
pool.on("error", () => {});
const runtime = createCodemodeRuntime({
  store: await postgresStore(pool, { schema: spec.schema }),
  executor: new QuickJSExecutor({ timeoutMs: 60_000 }),
  connectors: [echoConnector()],
});
const code = readsProgram(spec.calls);

async function pass(): Promise<void> {
  const output = await runtime.execute({ code });
  if (output.status !== "completed") throw new Error(`a pass ended ${JSON.stringify(output)}`);
}

try {
  await pass();
  await passGate(pool, spec.gate);
  const started = performance.now();
  let passes = 0;
  while (performance.now() - started < spec.windowMs) {
    await pass();
    passes++;
  }
  const report: PassWorkerReport = { passes, ms: performance.now() - started };
  writeSync(1, `${JSON.stringify({ ok: report })}\n`);
} catch (error) {
  writeSync(
    1,
    `${JSON.stringify({ thrown: error instanceof Error ? error.message : String(error) })}\n`,
  );
} finally {
  await pool.end();
}
