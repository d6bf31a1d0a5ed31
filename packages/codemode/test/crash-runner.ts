// One process of the crash and race tests. It reads a JSON spec (argv[2]), runs its steps against
// runtimes over one SQLite file (one runtime per name, `bank` from ledger-bank.ts as the connector) and
// prints what each step returned or threw. `kill` makes it SIGKILL itself at a journal boundary: right
// after the store wrote a chosen entry, once the connector applied chosen effects, or at the end.
import { readdirSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Journal, JournalEntry, JournalStore, LeaseClaim } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import Database from "better-sqlite3";
import { type CodemodeRuntime, createCodemodeRuntime, sqliteStore } from "../src/index.ts";
import { bankConnector } from "./ledger-bank.ts";

/** The store write after which the process dies: `put` (decided), `update` (approved), `apply`. */
export interface StoreKill {
  write: "put" | "update" | "apply";
  seq: number;
}

/** One step; `name` picks the runtime (a separate history in the same file). */
export type Step = { name: string } & Action;

export type Action =
  | { do: "execute"; code: string }
  | { do: "approve" | "rollback" | "inspect" }
  /** a rollback that reverts again the reverts in doubt at these seqs (the host checked) */
  | { do: "rollback"; revertAgain: number[] }
  | { do: "reject"; seq: number }
  | { do: "resolve"; seq: number; result: unknown }
  | { do: "expire"; maxAgeMs: number }
  | {
      /** the same operation on each run, each one started together with the other racer */
      do: "race";
      op: "approve" | "reject" | "rollback" | "resolve";
      ids: string[];
      barrier: string;
      party: string;
      seq?: number;
      result?: unknown;
    };

export interface Spec {
  db: string;
  ledger: string;
  kill?: {
    store?: StoreKill;
    /**
     * die once the connector applied all of these items (`-item`: reverted), after the pass paused
     * with `afterPause`
     */
    effects?: { items: string[]; afterPause?: boolean };
    /** die after printing the output */
    atEnd?: boolean;
  };
  /** the runtimes' clock runs this far ahead */
  clockAheadMs?: number;
  steps: Step[];
}

export type StepOutcome = { ok: unknown } | { thrown: { code?: string; message: string } };

const die = (): never => {
  process.kill(process.pid, "SIGKILL");
  throw new Error("unreachable");
};

/** Delegates to the store, and kills the process right after the chosen write has been made. */
function killing(store: JournalStore, at: StoreKill): JournalStore {
  return {
    specificationVersion: "v1",
    journal(name) {
      const journal = store.journal(name);
      const overrides: Partial<Journal> = {
        async putEntry(entry: JournalEntry, lease?: LeaseClaim) {
          const written = await journal.putEntry(entry, lease);
          if (at.write === "put" && entry.seq === at.seq) die();
          return written;
        },
        async updateEntry(executionId, seq, expected, patch, lease) {
          const changed = await journal.updateEntry(executionId, seq, expected, patch, lease);
          if (at.write === "update" && seq === at.seq && changed && patch.state === "executing")
            die();
          return changed;
        },
        async applyEntry(executionId, seq, outcome) {
          const changed = await journal.applyEntry(executionId, seq, outcome);
          if (at.write === "apply" && seq === at.seq && changed) die();
          return changed;
        },
      };
      const wrapped = new Proxy(journal, {
        get(target, key) {
          if (key in overrides) return overrides[key as keyof Journal];
          const value = Reflect.get(target, key, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      return wrapped;
    },
  };
}

const spec = JSON.parse(process.argv[2] as string) as Spec;
const db = new Database(spec.db);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
const base = sqliteStore(db);
const store = spec.kill?.store ? killing(base, spec.kill.store) : base;

let applied = new Set<string>();
let allApplied: () => void = () => {};
const everyEffect = new Promise<void>((resolve) => {
  allApplied = resolve;
});
const connector = bankConnector(spec.ledger, async (item, { signal }) => {
  const wanted = spec.kill?.effects;
  if (!wanted?.items.includes(item)) return;
  applied = new Set([...applied, item]);
  if (applied.size === wanted.items.length) allApplied();
  await everyEffect;
  if (wanted.afterPause && !signal.aborted) {
    await new Promise<void>((resolve) =>
      signal.addEventListener("abort", () => resolve(), { once: true }),
    );
  }
  die();
});

const executor = new QuickJSExecutor({ timeoutMs: 10_000 });
const runtimes = new Map<string, CodemodeRuntime>();
const runtimeOf = (name: string) => {
  let runtime = runtimes.get(name);
  if (!runtime) {
    runtime = createCodemodeRuntime({
      store,
      executor,
      connectors: [connector],
      name,
      now: () => Date.now() + (spec.clockAheadMs ?? 0),
    });
    runtimes.set(name, runtime);
  }
  return runtime;
};
/** The run a step is about: the newest of its runtime (each test name holds one). */
const latest = async (name: string) => {
  const [run] = await runtimeOf(name).executions(1);
  if (!run) throw new Error(`No run under "${name}".`);
  return run.id;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until both racers reached round `round`, spinning briefly first so they start together. */
async function meet(barrier: string, party: string, round: number) {
  writeFileSync(join(barrier, `${round}.${party}`), "");
  for (let spins = 0; ; spins++) {
    if (readdirSync(barrier).filter((file) => file.startsWith(`${round}.`)).length >= 2) return;
    if (spins > 200) await sleep(1);
  }
}

async function perform(runtime: CodemodeRuntime, step: Action, executionId: string) {
  switch (step.do) {
    case "approve":
      return runtime.approve({ executionId });
    case "rollback":
      return runtime.rollback({
        executionId,
        ...("revertAgain" in step ? { revertAgain: step.revertAgain } : {}),
      });
    case "reject":
      return runtime.reject({ executionId, seq: step.seq });
    case "resolve":
      return runtime.resolve({ executionId, seq: step.seq, result: step.result });
    case "expire":
      return runtime.expirePaused({ maxAgeMs: step.maxAgeMs });
    case "inspect": {
      const run = await runtime.execution(executionId);
      return (
        run && {
          status: run.status,
          error: run.error,
          calls: run.calls.map(({ seq, method, state }) => ({ seq, method, state })),
        }
      );
    }
    default:
      throw new Error(`unknown step ${step.do}`);
  }
}

const settle = async (work: () => Promise<unknown>): Promise<StepOutcome> => {
  try {
    return { ok: (await work()) ?? null };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    return { thrown: { ...(code ? { code } : {}), message } };
  }
};

const outcomes: StepOutcome[] = [];
for (const step of spec.steps) {
  const runtime = runtimeOf(step.name);
  if (step.do === "execute") {
    outcomes.push(await settle(() => runtime.execute({ code: step.code })));
  } else if (step.do === "race") {
    const rounds: StepOutcome[] = [];
    for (const [round, executionId] of step.ids.entries()) {
      await meet(step.barrier, step.party, round);
      const action = { do: step.op, seq: step.seq ?? 0, result: step.result } as Action;
      rounds.push(await settle(() => perform(runtime, action, executionId)));
    }
    outcomes.push({ ok: rounds });
  } else {
    outcomes.push(await settle(async () => perform(runtime, step, await latest(step.name))));
  }
}
// a synchronous write: the output is out before an `atEnd` kill
writeSync(1, JSON.stringify(outcomes));
if (spec.kill?.atEnd) die();
