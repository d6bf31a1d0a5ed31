// Starts test/worker.ts processes (or another worker script, such as the benchmark's) and lets
// racing ones go at once: a gate is an advisory lock the test holds while the workers line up
// behind it. The workers run under tsx: Node 24's own type stripping refuses the parameter
// properties some of the workspace's sources use.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import { lendConnection } from "../src/lend-connection.ts";
import type { WorkerOutcome, WorkerSpec } from "./worker.ts";

const workerScript = fileURLToPath(new URL("./worker.ts", import.meta.url));
const packageFolder = fileURLToPath(new URL("..", import.meta.url));

export interface Worker {
  process: ChildProcess;
  /** the outcomes printed so far, one per finished step */
  readonly outcomes: WorkerOutcome[];
  /** resolves with every outcome once the process ended, however it ended */
  ended: Promise<{ outcomes: WorkerOutcome[]; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts a worker process (test/worker.ts, or `script`) with `spec` as its argument. */
export function startWorker<Spec = WorkerSpec>(spec: Spec, script = workerScript): Worker {
  const child = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(spec)], {
    cwd: packageFolder,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const outcomes: WorkerOutcome[] = [];
  let buffered = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      outcomes.push(JSON.parse(buffered.slice(0, end)) as WorkerOutcome);
      buffered = buffered.slice(end + 1);
    }
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const ended = new Promise<{
    outcomes: WorkerOutcome[];
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => {
    child.once("close", (code, signal) => {
      if (code !== 0 && signal === null) stderr += `\n(exit code ${code})`;
      resolve({ outcomes, signal, stderr });
    });
  });
  return { process: child, outcomes, ended };
}

/**
 * The worker's end, within `timeoutMs`: a worker that hangs is killed (SIGKILL) and the test fails
 * with what it printed.
 */
export async function endedWithin(
  worker: Worker,
  timeoutMs: number,
): Promise<{ outcomes: WorkerOutcome[]; signal: NodeJS.Signals | null; stderr: string }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs);
  });
  const ended = await Promise.race([worker.ended, late]);
  clearTimeout(timer);
  if (ended !== "late") return ended;
  worker.process.kill("SIGKILL");
  const { outcomes, stderr } = await worker.ended;
  throw new Error(
    `a worker did not end within ${timeoutMs} ms (killed): ${JSON.stringify(outcomes)}\n${stderr}`,
  );
}

/** Runs workers to their end; rejects (with their stderr) if one did not end by itself. */
export async function runWorkers<Spec = WorkerSpec>(
  specs: Spec[],
  script = workerScript,
): Promise<WorkerOutcome[][]> {
  const ended = await Promise.all(specs.map((spec) => startWorker(spec, script).ended));
  for (const each of ended) {
    if (each.signal !== null || each.outcomes.length === 0) {
      throw new Error(`a worker failed (${String(each.signal)}): ${each.stderr}`);
    }
  }
  return ended.map((each) => each.outcomes);
}

/** The value a step returned; fails the test with what it threw otherwise. */
export function ok<T = unknown>(outcome: WorkerOutcome | undefined): T {
  if (!outcome || !("ok" in outcome)) throw new Error(`step failed: ${JSON.stringify(outcome)}`);
  return outcome.ok as T;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds (or fails after `timeoutMs`). */
export async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await sleep(20);
  }
}

let keys = 0;

/**
 * A gate: the test holds advisory lock `key` until `count` workers wait for it at their `barrier`
 * step (PostgreSQL's `pg_locks` shows them waiting), then opens it and they all go at once.
 */
export async function gate(
  pool: pg.Pool,
): Promise<{ key: number; open(count: number): Promise<void> }> {
  const key = 7_000 + ++keys;
  const lent = await lendConnection(pool);
  await lent.client.query({ text: "SELECT pg_advisory_lock($1)", values: [key] });
  return {
    key,
    async open(count) {
      try {
        await until(async () => {
          const { rows } = await pool.query(
            `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
             AND objid = $1 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
            [key],
          );
          return (rows[0] as { n: number }).n >= count;
        }, 60_000);
      } finally {
        await lent.client.query({ text: "SELECT pg_advisory_unlock($1)", values: [key] });
        lent.release();
      }
    },
  };
}

/** A worker's side of a gate: waits until the test opens gate `key`, then lets the next racer in too. */
export async function passGate(pool: pg.Pool, key: number): Promise<null> {
  // lent so that a connection the server ends between the two statements is heard, not thrown
  const lent = await lendConnection(pool);
  try {
    await lent.client.query({ text: "SELECT pg_advisory_lock_shared($1)", values: [key] });
    await lent.client.query({ text: "SELECT pg_advisory_unlock_shared($1)", values: [key] });
  } finally {
    lent.release();
  }
  return null;
}
