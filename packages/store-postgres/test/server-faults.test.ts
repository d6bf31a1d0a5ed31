// Jepsen-style faults of the PostgreSQL server under many processes (test/worker.ts) sharing one
// journal: connections terminated, the server crashed and restarted, the server paused (shorter
// and longer than a lease), and processes whose clocks disagree by more than a lease. Each schedule
// runs programs with gated and ungated calls that write to the ledger of real effects, lets a
// person approve from another process, and then holds the journal to the ledger (test/faults.ts):
// no effect twice, no gated effect without an approval that named it, every effect accounted for,
// and every run settled. Waits are on conditions with deadlines; a worker that hangs fails its test.
import { type CodeModeOutput, createCodemodeRuntime, type ExecutionRecord } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { postgresStore } from "../src/index.ts";
import { testDatabase } from "./database.ts";
import {
  answer,
  checkInvariants,
  effectCount,
  executes,
  type Outcome,
  opCount,
  poll,
  rollBackAll,
  terminateOthers,
} from "./faults.ts";
import { createLedger, ledgerConnector, ledgerMark, ledgerRows } from "./ledger.ts";
import { type PostgresServer, startPostgres } from "./postgres-server.ts";
import type { Settled, WorkerOutcome, WorkerSpec, WorkerStep } from "./worker.ts";
import {
  endedWithin,
  gate,
  ok,
  sleep,
  startWorker as spawnWorker,
  type Worker,
} from "./workers.ts";

/** Every process of a schedule uses this lease (the skew schedule too). */
const LEASE_MS = 1_500;
const TIMEOUT = 90_000;
/** How long a worker or a settle may take before the test calls it hung. */
const WORKER_MS = 60_000;

const alive = (worker: Worker) =>
  worker.process.exitCode === null && worker.process.signalCode === null;

// what a test started and did not end, it ends when it fails: no worker outlives it (its database
// could not be dropped), no gate stays shut
const started = new Set<Worker>();
const shut = new Set<() => Promise<void>>();
afterEach(async () => {
  for (const open of shut) await open().catch(() => {});
  shut.clear();
  for (const worker of started) if (alive(worker)) worker.process.kill("SIGKILL");
  await Promise.all([...started].map((worker) => worker.ended));
  started.clear();
});

function startWorker(spec: WorkerSpec): Worker {
  const worker = spawnWorker(spec);
  started.add(worker);
  return worker;
}

/** A gate (see workers.ts) that the test's end opens if the test did not. */
async function shutGate(on: pg.Pool): Promise<Awaited<ReturnType<typeof gate>>> {
  const held = await gate(on);
  const openOnce = () => {
    shut.delete(openOnce);
    return held.open(0);
  };
  shut.add(openOnce);
  return {
    key: held.key,
    async open(count) {
      shut.delete(openOnce);
      await held.open(count);
    },
  };
}

/** A worker's outcomes: it ended by itself, every step answered (a failure is an answer). */
async function finished(worker: Worker, steps: number): Promise<WorkerOutcome[]> {
  const { outcomes, signal, stderr } = await endedWithin(worker, WORKER_MS);
  expect(signal, stderr).toBeNull();
  expect(outcomes, stderr).toHaveLength(steps);
  return outcomes;
}

/** Outcomes of executes: run outputs, or what a step threw (a store that could not answer). */
function tally(outcomes: WorkerOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) {
    const key = "ok" in outcome ? (outcome.ok as CodeModeOutput).status : "thrown";
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** A settle step from another process: every paused run decided, every lapsed run expired. */
function settler(spec: (steps: WorkerStep[]) => WorkerSpec): Worker {
  return startWorker(spec([{ do: "settle", deadlineMs: WORKER_MS - 10_000 }]));
}

async function settledBy(worker: Worker): Promise<Settled> {
  const [outcome] = await finished(worker, 1);
  const settled = ok<Settled>(outcome);
  expect(settled.open).toEqual([]);
  return settled;
}

/** What a schedule did, one line, when `CODEMODE_FAULT_REPORT` is set (to tune or debug a schedule). */
function report(name: string, figures: Record<string, unknown>, outcome: Outcome): void {
  if (!process.env.CODEMODE_FAULT_REPORT) return;
  const { statuses, effects, unrecorded, waitingInFailed } = outcome;
  const line = { ...figures, statuses, effects, unrecorded, waitingInFailed };
  console.info(`[${name}] ${JSON.stringify(line)}`);
}

const database = await testDatabase();
// terminated idle connections report on their pool: heard, not thrown
database.pool.on("error", () => {});
const pool = database.newPool();
pool.on("error", () => {});
beforeAll(() => createLedger(pool));

describe("the journal when PostgreSQL's connections are terminated", () => {
  let killer: pg.Client;
  beforeAll(async () => {
    // the terminator: `pg_terminate_backend` spares its own connection, which also reads the ledger
    killer = new pg.Client(database.config);
    killer.on("error", () => {});
    await killer.connect();
  });
  afterAll(() => killer?.end());

  it(
    "keeps every invariant while connections are terminated under running passes and approvals",
    async () => {
      const schema = "terminated";
      const journal = (await postgresStore(pool, { schema })).journal("default");
      const mark = await ledgerMark(pool);
      const spec = (steps: WorkerStep[]): WorkerSpec => ({
        config: database.config,
        schema,
        leaseMs: LEASE_MS,
        steps,
      });
      const RUNS = 8;
      const workers = [0, 1].map((worker) => startWorker(spec(executes(schema, worker, RUNS))));
      // every connection but the terminator's ends whenever an effect lands (or 250 ms passed):
      // just after a connector answered, while its outcome is being recorded
      let terminations = 0;
      let ended = 0;
      const terminate = async (going: () => boolean, most: number) => {
        let seen = await effectCount(killer, mark);
        const deadline = Date.now() + WORKER_MS;
        while (going() && terminations < most && Date.now() < deadline) {
          const wait = Date.now() + 250;
          while (Date.now() < wait && going()) {
            const now = await effectCount(killer, mark);
            if (now > seen) {
              seen = now;
              break;
            }
            await sleep(15);
          }
          ended += await terminateOthers(killer);
          terminations++;
        }
      };
      await poll(async () => (await effectCount(killer, mark)) > 0, WORKER_MS, "a first effect");
      await terminate(() => workers.some(alive), 1_000);
      const outcomes = await Promise.all(workers.map((worker) => finished(worker, RUNS)));
      expect(ended).toBeGreaterThan(0);

      // a person approves what waits, from another process, while connections are still cut
      const approver = settler(spec);
      await poll(
        async () => !alive(approver) || (await opCount(killer, "approve", mark)) > 0,
        WORKER_MS,
        "a first approval",
      );
      await terminate(() => alive(approver), terminations + 6);
      const settled = await settledBy(approver);
      const outcome = await checkInvariants(pool, journal, mark);
      expectReported(outcomes.flat(), outcome, 2 * RUNS);
      const executed = tally(outcomes.flat());
      report(schema, { terminations, ended, executed, settled: summary(settled) }, outcome);
    },
    TIMEOUT,
  );
});

describe("the journal when a process's clock is off by more than a lease", () => {
  it(
    "keeps every invariant: a pass is taken from the process whose clock is wrong, or from its victim, and stops at its next call",
    async () => {
      const schema = "skewed";
      const SKEW_MS = 2 * LEASE_MS;
      // a pool of its own: none of its connections was terminated by the schedule before
      const pool = database.newPool();
      const store = await postgresStore(pool, { schema });
      const journal = store.journal("default");
      // this process's clock is right
      const runtime = createCodemodeRuntime({
        store,
        executor: new QuickJSExecutor({ timeoutMs: 30_000 }),
        connectors: [ledgerConnector(pool)],
        leaseMs: LEASE_MS,
      });
      const mark = await ledgerMark(pool);
      const spec = (steps: WorkerStep[], skewMs = 0): WorkerSpec => ({
        config: database.config,
        schema,
        leaseMs: LEASE_MS,
        skewMs,
        steps,
      });
      // each step of the skewed processes waits at a gate this process holds
      const behindHeld = await shutGate(pool);
      const approveHeld = await shutGate(pool);
      const victimHeld = await shutGate(pool);
      const aheadGo = await shutGate(pool);
      // a run that waits for a person, to be approved by the process whose clock is behind
      const paused = await runtime.execute({
        code: `async () => {
          await ledger.write({ item: "p1" });
          await ledger.send({ item: "p2", gate: ${approveHeld.key} });
          await ledger.write({ item: "p3" });
        }`,
      });
      expect(paused.status).toBe("paused");
      // both skewed processes start at once (one start-up paid for both), each step held at a gate
      const behind = startWorker(
        spec(
          [
            {
              do: "execute",
              code: `async () => {
                await ledger.write({ item: "b1" });
                await ledger.hold({ item: "b2", ms: 0, gate: ${behindHeld.key} });
                await ledger.write({ item: "b3" });
              }`,
            },
            { do: "approve-shown", id: paused.executionId },
          ],
          -SKEW_MS,
        ),
      );
      const ahead = startWorker(
        spec(
          [
            { do: "barrier", key: aheadGo.key },
            { do: "expire" },
            {
              do: "execute",
              code: `async () => {
                await ledger.write({ item: "a1" });
                await ledger.hold({ item: "a2" });
              }`,
            },
          ],
          SKEW_MS,
        ),
      );
      const effectsOf = async (id: string) =>
        (await ledgerRows(pool, id)).map((row) => `${row.op} ${row.item}`);
      const entriesOf = async (id: string) =>
        (await journal.listEntries(id)).map((entry) => `${entry.seq} ${entry.state}`);
      const effectSeen = (op: string, item: string) =>
        poll(
          async () => (await ledgerRows(pool)).some((row) => row.op === op && row.item === item),
          WORKER_MS,
          `the effect ${op} ${item}`,
        );
      const onlyRunning = async () => {
        const running = await journal.listExecutions({ statuses: ["running"] });
        expect(running).toHaveLength(1);
        return running[0] as ExecutionRecord;
      };
      const stopped = {
        status: "error",
        error: expect.stringMatching(/lost its lease|Expired while running/),
      };

      // behind: its pass's lease has lapsed by every other clock from the start, so this process
      // takes the run while the pass is in a call; the call is recorded, nothing after it runs
      await effectSeen("hold", "b2");
      const slow = await onlyRunning();
      expect(slow.lease?.expiresAt).toBeLessThan(Date.now());
      expect(await runtime.expirePaused()).toEqual([slow.id]);
      await behindHeld.open(1);
      await poll(async () => behind.outcomes.length >= 1, WORKER_MS, "the behind run's end");
      expect(ok(behind.outcomes[0])).toMatchObject(stopped);
      expect(await effectsOf(slow.id)).toEqual(["write b1", "hold b2"]);
      expect(await entriesOf(slow.id)).toEqual(["0 applied", "1 applied"]);

      // behind, approving: the approval pass's lease lapsed as it took the run; the approved call
      // runs once, is recorded, and the call after it never runs
      await effectSeen("send", "p2");
      expect((await onlyRunning()).id).toBe(paused.executionId);
      expect(await runtime.expirePaused()).toEqual([paused.executionId]);
      await approveHeld.open(1);
      const [, approved] = await finished(behind, 2);
      expect(ok(approved)).toMatchObject(stopped);
      expect(await effectsOf(paused.executionId)).toEqual(["write p1", "approve p2", "send p2"]);
      expect(await entriesOf(paused.executionId)).toEqual(["0 applied", "1 applied"]);

      // ahead: it takes a live pass of this process (its lease has not lapsed by any right clock)
      const victim = runtime.execute({
        code: `async () => {
          await ledger.write({ item: "v1" });
          await ledger.hold({ item: "v2", ms: 0, gate: ${victimHeld.key} });
          await ledger.write({ item: "v3" });
        }`,
      });
      await effectSeen("hold", "v2");
      const live = await onlyRunning();
      expect(live.lease?.expiresAt).toBeGreaterThan(Date.now());
      await aheadGo.open(1);
      await poll(async () => ahead.outcomes.length >= 2, WORKER_MS, "the ahead expiry");
      expect(ok(ahead.outcomes[1])).toEqual([live.id]);
      await victimHeld.open(1);
      expect(await victim).toMatchObject(stopped);
      expect(await effectsOf(live.id)).toEqual(["write v1", "hold v2"]);
      expect(await entriesOf(live.id)).toEqual(["0 applied", "1 applied"]);

      // ahead, then dead: its lease lies a skew beyond a right clock, so the run it left cannot be
      // taken for longer than a lease after its process died; then it is, its last call unrecorded
      await effectSeen("hold", "a2");
      ahead.process.kill("SIGKILL");
      expect((await endedWithin(ahead, WORKER_MS)).signal).toBe("SIGKILL");
      const diedAt = Date.now();
      const orphan = await onlyRunning();
      const expiresAt = orphan.lease?.expiresAt as number;
      expect(expiresAt - diedAt).toBeGreaterThan(LEASE_MS);
      expect(await runtime.expirePaused()).toEqual([]);
      await poll(async () => Date.now() > expiresAt, 2 * SKEW_MS + LEASE_MS, "the lease's end");
      expect(await runtime.expirePaused()).toEqual([orphan.id]);
      expect(await entriesOf(orphan.id)).toEqual(["0 applied", "1 executing"]);

      const outcome = await checkInvariants(pool, journal, mark);
      expect(outcome.unrecorded).toBe(1);
      report(schema, { skewMs: SKEW_MS, leaseMs: LEASE_MS }, outcome);
    },
    TIMEOUT,
  );
});

describe("the journal when its server crashes, restarts or hangs", () => {
  // a server of its own: a restart or a pause would stop every other test file's server too
  let server: PostgresServer;
  let config: pg.PoolConfig;
  let own: pg.Pool;
  beforeAll(async () => {
    server = await startPostgres({ fsync: "off" });
    const { host, port, user, database: name } = server;
    config = { host, port, user, database: name };
    own = new pg.Pool(config);
    own.on("error", () => {});
    await createLedger(own);
  }, TIMEOUT);
  // a test that failed while the server was paused leaves it going on
  afterEach(() => server?.resume());
  afterAll(async () => {
    server?.resume();
    await own?.end();
    server?.stop();
  });

  /** A schedule's journal over the server, its ledger mark, and its workers' specs. */
  async function schedule(schema: string, leaseMs = LEASE_MS) {
    const store = await postgresStore(own, { schema });
    const runtime = createCodemodeRuntime({
      store,
      executor: new QuickJSExecutor({ timeoutMs: 30_000 }),
      connectors: [ledgerConnector(own)],
      leaseMs,
    });
    const spec = (steps: WorkerStep[]): WorkerSpec => ({ config, schema, leaseMs, steps });
    return { runtime, journal: store.journal("default"), mark: await ledgerMark(own), spec };
  }

  /**
   * Waits until `count` more effects landed since `from`, or the workers stopped `going`; the server
   * may be down meanwhile.
   */
  const progressed = (from: number, count: number, mark: number, going: () => boolean) =>
    poll(
      async () => !going() || (await effectCount(own, mark)) >= from + count,
      WORKER_MS,
      `${count} more effects`,
    );
  const effects = (mark: number) => effectCount(own, mark);
  /** Waits until the approver approved a first call (or ended). */
  const approving = (approver: Worker, mark: number) =>
    poll(
      async () => !alive(approver) || (await opCount(own, "approve", mark)) > 0,
      WORKER_MS,
      "a first approval",
    );

  it(
    "keeps every invariant when the server crashes and when it shuts down, under running passes and approvals",
    async () => {
      const { runtime, journal, mark, spec } = await schedule("restarted");
      const RUNS = 10;
      // a held call lasts longer than the server takes to go down: it ends while the server is
      const HOLD_MS = 400;
      const workers = [0, 1].map((worker) =>
        startWorker({ ...spec(executes("restarted", worker, RUNS, HOLD_MS)), backoffMs: 250 }),
      );
      const running = () => workers.some(alive);
      const holds = () => opCount(own, "hold", mark);
      const restarts: string[] = [];
      // the server crashes while a call is held, and is down longer than its outcome is tried to be
      // recorded (three tries in about 250 ms); then it shuts down cleanly while the next is held
      await poll(async () => !running() || (await holds()) > 0, WORKER_MS, "a held call");
      await server.restart({ mode: "immediate", downMs: 600 });
      restarts.push("crash");
      const held = await answer(holds);
      await poll(async () => !running() || (await holds()) > held, WORKER_MS, "a held call");
      await server.restart({ mode: "fast", downMs: 600 });
      restarts.push(running() ? "shutdown" : "shutdown after the runs");
      const outcomes = await Promise.all(workers.map((worker) => finished(worker, RUNS)));

      // a person approves what waits from another process, and the server crashes meanwhile
      const approver = settler(spec);
      await approving(approver, mark);
      if (alive(approver)) {
        await server.restart({ mode: "immediate", downMs: 600 });
        restarts.push("crash while approving");
      }
      const settled = await settledBy(approver);
      const outcome = await checkInvariants(own, journal, mark);
      expectReported(outcomes.flat(), outcome, 2 * RUNS);
      const executed = tally(outcomes.flat());
      // the crashes were felt: an execute threw or a run failed
      expect((executed.thrown ?? 0) + (outcome.statuses.error ?? 0)).toBeGreaterThan(0);
      // every run rolled back: each report names every call the ledger saw, reverts what it says
      const ids = outcome.runs.map((run) => run.id);
      const undone = await rollBackAll(runtime, own, ids, mark);
      expect(undone.unrecorded).toBe(outcome.unrecorded);
      const after = await checkInvariants(own, journal, mark);
      report("restarted", { restarts, executed, settled: summary(settled), undone }, after);
    },
    TIMEOUT,
  );

  it(
    "loses nothing to pauses of the server shorter than a lease: no run expires, every run completes",
    async () => {
      // a lease far longer than a pause: a pass's renewal may wait out a pause and then the
      // scheduler of a busy machine, and still no lease lapses (the claim is about the pauses)
      const { runtime, journal, mark, spec } = await schedule("paused_briefly", 10_000);
      const RUNS = 6;
      const workers = [0, 1].map((worker) =>
        startWorker(spec(executes("paused_briefly", worker, RUNS))),
      );
      const running = () => workers.some(alive);
      // this process tries to expire runs all along: a pass's lease outlives each pause
      let expiring = true;
      const expired: string[] = [];
      const expirer = (async () => {
        while (expiring) {
          expired.push(...(await runtime.expirePaused().catch(() => [])));
          await sleep(50);
        }
      })();
      const PAUSE_MS = 300;
      let pauses = 0;
      for (let round = 0; round < 3 && running(); round++) {
        await progressed(await effects(mark), 2, mark, running);
        server.pause();
        await sleep(PAUSE_MS);
        server.resume();
        pauses++;
      }
      const outcomes = await Promise.all(workers.map((worker) => finished(worker, RUNS)));
      expect(tally(outcomes.flat())).not.toHaveProperty("thrown");
      expect(tally(outcomes.flat())).not.toHaveProperty("error");
      // and once while approvals run
      const approver = settler(spec);
      await approving(approver, mark);
      server.pause();
      await sleep(PAUSE_MS);
      server.resume();
      const settled = await settledBy(approver);
      expiring = false;
      await expirer;
      expect(expired).toEqual([]);
      expect(settled).toMatchObject({ expired: 0, rejections: 0, failures: [] });
      const outcome = await checkInvariants(own, journal, mark);
      expect(outcome.statuses).toEqual({ completed: 2 * RUNS });
      expect(outcome.unrecorded).toBe(0);
      expectReported(outcomes.flat(), outcome, 2 * RUNS);
      report(
        "paused_briefly",
        { pauseMs: PAUSE_MS, pauses: pauses + 1, settled: summary(settled) },
        outcome,
      );
    },
    TIMEOUT,
  );

  it(
    "keeps every invariant when the server hangs longer than a lease while another process expires runs",
    async () => {
      const { runtime, journal, mark, spec } = await schedule("paused_long");
      const RUNS = 6;
      // calls held for a lease: the server hangs while passes are in a call
      const workers = [0, 1].map((worker) =>
        startWorker(spec(executes("paused_long", worker, RUNS, LEASE_MS))),
      );
      const running = () => workers.some(alive);
      const PAUSE_MS = 2 * LEASE_MS + 500;
      await poll(
        async () => !running() || (await opCount(own, "hold", mark)) > 0,
        WORKER_MS,
        "a held call",
      );
      server.pause();
      const pausedAt = Date.now();
      // once every lease a pass holds has lapsed, renewals sent during the pause included (a third
      // of a lease in), this process asks to expire the runs: its request waits with the passes'
      // and meets them when the server goes on
      await sleep(LEASE_MS + LEASE_MS / 3 + 300);
      const expiry = runtime.expirePaused().catch((error: Error) => error.message);
      await sleep(Math.max(0, pausedAt + PAUSE_MS - Date.now()));
      server.resume();
      const expired = await expiry;
      const outcomes = await Promise.all(workers.map((worker) => finished(worker, RUNS)));
      const settled = await settledBy(settler(spec));
      const outcome = await checkInvariants(own, journal, mark);
      expectReported(outcomes.flat(), outcome, 2 * RUNS);
      const executed = tally(outcomes.flat());
      report(
        "paused_long",
        { pauseMs: PAUSE_MS, expiredAtResume: expired, executed, settled: summary(settled) },
        outcome,
      );
    },
    TIMEOUT,
  );
});

/** A settle step's figures, its failures counted. */
function summary(settled: Settled) {
  return { ...settled, failures: settled.failures.length };
}

/**
 * What the executes reported agrees with the journal: a run reported completed is completed, with
 * its result; every run reported is in the journal; there are no more runs than executes.
 */
function expectReported(outcomes: WorkerOutcome[], outcome: Outcome, executes: number): void {
  const runs = new Map(outcome.runs.map((run) => [run.id, run]));
  expect(runs.size).toBeLessThanOrEqual(executes);
  for (const each of outcomes) {
    if (!("ok" in each)) continue;
    const output = each.ok as CodeModeOutput;
    const run = runs.get(output.executionId);
    expect(run, output.executionId).toBeDefined();
    if (output.status === "completed") expect(run?.status).toBe("completed");
  }
}
