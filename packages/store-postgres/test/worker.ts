// One process of the many-process tests: a runtime over postgresStore on the test's database (the
// ledger connector, QuickJS), which runs the steps of a JSON spec (argv[2]) and prints one JSON
// line per step as it ends, so a test that kills the process still reads what it finished.
import { writeSync } from "node:fs";
import { createCodemodeRuntime, decisionHandleOf, type JournalStore } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import pg from "pg";
import { postgresStore } from "../src/index.ts";
import { ledgerConnector, recordApproval } from "./ledger.ts";
import { passGate, sleep } from "./workers.ts";

export type WorkerStep =
  | { do: "execute"; code: string }
  | { do: "approve" | "rollback"; id: string }
  /** approves what the run waits for as a person is shown it: each call is in the ledger first */
  | { do: "approve-shown"; id: string }
  | { do: "reject"; id: string; seq: number }
  | { do: "expire" }
  /**
   * until no run is running or paused (or `deadlineMs` passed): expires lapsed runs, approves
   * what paused runs wait for as shown, rejects a run that waits in doubt; store failures are
   * counted and tried again
   */
  | { do: "settle"; deadlineMs: number }
  /** waits until the test lets every racer go at once (see `gate` in workers.ts) */
  | { do: "barrier"; key: number };

export interface WorkerSpec {
  config: pg.PoolConfig;
  schema: string;
  name?: string;
  leaseMs?: number;
  /** how far this process's clock runs ahead of the others (ms; behind when negative) */
  skewMs?: number;
  /** how long to wait after a step threw before the next (a server that is down fails at once) */
  backoffMs?: number;
  steps: WorkerStep[];
}

export type WorkerOutcome = { ok: unknown } | { thrown: string };

/** What a `settle` step did. */
export interface Settled {
  approvals: number;
  rejections: number;
  expired: number;
  failures: string[];
  /** runs still running or paused when it gave up (none when it settled them all) */
  open: string[];
}

const spec = JSON.parse(process.argv[2] as string) as WorkerSpec;
const pool = new pg.Pool({ ...spec.config, max: 4 });
pool.on("error", () => {});
const name = spec.name ?? "default";

/** The store, tried again while the server does not answer (the fault tests start workers at any time). */
async function openStore(): Promise<JournalStore> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await postgresStore(pool, { schema: spec.schema });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
}

const store = await openStore();
const journal = store.journal(name);
const skewMs = spec.skewMs ?? 0;
const runtime = createCodemodeRuntime({
  store,
  executor: new QuickJSExecutor({ timeoutMs: 30_000 }),
  connectors: [ledgerConnector(pool)],
  name,
  ...(spec.leaseMs ? { leaseMs: spec.leaseMs } : {}),
  ...(skewMs ? { now: () => Date.now() + skewMs } : {}),
});

/** Shows what `id` waits for and approves exactly that, each call's approval in the ledger first. */
async function approveShown(id: string) {
  const shown = await runtime.pending(id);
  if (shown.length === 0) return { status: "error", executionId: id, error: "nothing waits" };
  for (const action of shown) {
    await recordApproval(pool, id, action.seq, (action.args as { item: string }).item);
  }
  return runtime.approve({ executionId: id, handle: decisionHandleOf(shown) });
}

async function settle(deadlineMs: number): Promise<Settled> {
  const deadline = Date.now() + deadlineMs;
  const settled: Settled = { approvals: 0, rejections: 0, expired: 0, failures: [], open: [] };
  for (;;) {
    try {
      settled.expired += (await runtime.expirePaused()).length;
      const open = await journal.listExecutions({ statuses: ["running", "paused"] });
      settled.open = open.map((run) => run.id);
      if (open.length === 0) return settled;
      for (const run of open) {
        if (run.status !== "paused") continue;
        const shown = await runtime.pending(run.id);
        const doubt = shown.find((action) => action.inDoubt !== undefined);
        if (doubt) {
          // whether it ran is unknown: the person declines to run it again
          const handle = decisionHandleOf(shown);
          if (await runtime.reject({ executionId: run.id, seq: doubt.seq, handle })) {
            settled.rejections++;
          }
        } else if (shown.length > 0) {
          settled.approvals++;
          await approveShown(run.id);
        }
      }
    } catch (error) {
      settled.failures.push(error instanceof Error ? error.message : String(error));
    }
    if (Date.now() > deadline) return settled;
    await sleep(50);
  }
}

function perform(step: WorkerStep): Promise<unknown> {
  switch (step.do) {
    case "execute":
      return runtime.execute({ code: step.code });
    case "approve":
      return runtime.approve({ executionId: step.id });
    case "approve-shown":
      return approveShown(step.id);
    case "reject":
      return runtime.reject({ executionId: step.id, seq: step.seq });
    case "rollback":
      return runtime.rollback({ executionId: step.id });
    case "expire":
      return runtime.expirePaused();
    case "settle":
      return settle(step.deadlineMs);
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
  if ("thrown" in outcome && spec.backoffMs) await sleep(spec.backoffMs);
}
await pool.end();
