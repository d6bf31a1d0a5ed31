// One process of the many-process tests: a runtime over postgresStore on the test's database (the
// ledger connector, QuickJS), which runs the steps of a JSON spec (argv[2]) and prints one JSON
// line per step as it ends, so a test that kills the process still reads what it finished.
import { writeSync } from "node:fs";
import { createCodemodeRuntime } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import pg from "pg";
import { postgresStore } from "../src/index.ts";
import { ledgerConnector } from "./ledger.ts";
import { passGate } from "./workers.ts";

export type WorkerStep =
  | { do: "execute"; code: string }
  | { do: "approve" | "rollback"; id: string }
  | { do: "reject"; id: string; seq: number }
  | { do: "expire" }
  /** waits until the test lets every racer go at once (see `gate` in workers.ts) */
  | { do: "barrier"; key: number };

export interface WorkerSpec {
  config: pg.PoolConfig;
  schema: string;
  name?: string;
  leaseMs?: number;
  steps: WorkerStep[];
}

export type WorkerOutcome = { ok: unknown } | { thrown: string };

const spec = JSON.parse(process.argv[2] as string) as WorkerSpec;
const pool = new pg.Pool({ ...spec.config, max: 4 });
pool.on("error", () => {});
const runtime = createCodemodeRuntime({
  store: await postgresStore(pool, { schema: spec.schema }),
  executor: new QuickJSExecutor({ timeoutMs: 30_000 }),
  connectors: [ledgerConnector(pool)],
  ...(spec.name ? { name: spec.name } : {}),
  ...(spec.leaseMs ? { leaseMs: spec.leaseMs } : {}),
});

function perform(step: WorkerStep): Promise<unknown> {
  switch (step.do) {
    case "execute":
      return runtime.execute({ code: step.code });
    case "approve":
      return runtime.approve({ executionId: step.id });
    case "reject":
      return runtime.reject({ executionId: step.id, seq: step.seq });
    case "rollback":
      return runtime.rollback({ executionId: step.id });
    case "expire":
      return runtime.expirePaused();
    case "barrier":
      return passGate(pool, step.key);
  }
}

for (const step of spec.steps) {
  let outcome: WorkerOutcome;
  try {
    outcome = { ok: (await perform(step)) ?? null };
  } catch (error) {
    outcome = { thrown: error instanceof Error ? error.message : String(error) };
  }
  writeSync(1, `${JSON.stringify(outcome)}\n`);
}
await pool.end();
