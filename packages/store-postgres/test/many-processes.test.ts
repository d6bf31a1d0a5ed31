// Many processes, one journal: Node processes (test/worker.ts) serving the same runtime name over
// one PostgreSQL database race each other on executes, approvals, rejections, rollbacks and the
// recovery of a run whose process died or stalled. The ledger connector (rows in PostgreSQL keyed
// by idempotency key) is the outside world: every side effect in it ran at most once, and after a
// crash exactly the calls it saw are the ones the journal says may have run.
import { type CodeModeOutput, createCodemodeRuntime, type Journal } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { beforeAll, describe, expect, it } from "vitest";
import { postgresStore } from "../src/index.ts";
import { testDatabase } from "./database.ts";
import { createLedger, type LedgerRow, ledgerConnector, ledgerRows } from "./ledger.ts";
import type { WorkerOutcome, WorkerSpec, WorkerStep } from "./worker.ts";
import { gate, ok, runWorkers, sleep, startWorker, until } from "./workers.ts";

const database = await testDatabase();
const { pool, config } = database;
beforeAll(() => createLedger(pool));

/** Short leases, so that a dead pass lapses within the test; every process uses the same. */
const LEASE_MS = 1_500;
const TIMEOUT = 120_000;

let schemas = 0;
/** A journal of its own for one test: the runtime in this process and a worker's spec over it. */
async function journalFor() {
  const schema = `procs_${++schemas}`;
  const store = await postgresStore(pool, { schema });
  const runtime = createCodemodeRuntime({
    store,
    executor: new QuickJSExecutor({ timeoutMs: 30_000 }),
    connectors: [ledgerConnector(pool)],
    leaseMs: LEASE_MS,
  });
  const spec = (steps: WorkerStep[], leaseMs = LEASE_MS): WorkerSpec => ({
    config,
    schema,
    leaseMs,
    steps,
  });
  return { runtime, journal: store.journal("default"), spec };
}

const effects = (rows: LedgerRow[]) => rows.map((row) => `${row.op} ${row.item}`);

/** No idempotency key reached the outside world twice (reverts are counted apart). */
function expectAtMostOnce(rows: LedgerRow[]): void {
  const keys = rows.filter((row) => row.op !== "revert").map((row) => row.key);
  expect(new Set(keys).size).toBe(keys.length);
  const reverts = rows.filter((row) => row.op === "revert").map((row) => row.key);
  expect(new Set(reverts).size).toBe(reverts.length);
}

const GATED = `async () => {
  await ledger.write({ item: "a" });
  await ledger.send({ item: "b" });
  await ledger.write({ item: "c" });
  return "done";
}`;

describe("many processes over one journal", () => {
  it(
    "serves concurrent executes from three processes, each call once under its own key",
    async () => {
      const { journal, spec } = await journalFor();
      const code = (tag: string) =>
        `async () => { const keys = []; for (const item of ["a", "b", "c"]) keys.push((await ledger.write({ item: "${tag}-" + item })).key); return keys; }`;
      const outcomes = await runWorkers(
        [0, 1, 2].map((worker) =>
          spec([0, 1].map((run) => ({ do: "execute", code: code(`w${worker}r${run}`) }))),
        ),
      );
      const outputs = outcomes.flat().map((outcome) => ok<CodeModeOutput>(outcome));
      expect(outputs.map((output) => output.status)).toEqual(Array(6).fill("completed"));
      const ids = outputs.map((output) => output.executionId);
      expect(new Set(ids).size).toBe(6);
      for (const output of outputs) {
        const id = output.executionId;
        const keys = [0, 1, 2].map((seq) => `${id}:${seq}`);
        expect(output).toMatchObject({ result: keys });
        expect((await ledgerRows(pool, id)).map((row) => row.key)).toEqual(keys);
        expect(await journal.getExecution(id)).toMatchObject({ status: "completed" });
        expect((await journal.getExecution(id))?.lease).toBeUndefined();
      }
      const pids = new Set(
        (await ledgerRows(pool)).filter((row) => ids.includes(row.execution)).map((row) => row.pid),
      );
      expect(pids.size).toBe(3);
      expectAtMostOnce(await ledgerRows(pool));
    },
    TIMEOUT,
  );

  it(
    "runs a run approved from two processes at once exactly once",
    async () => {
      const { runtime, journal, spec } = await journalFor();
      const rounds = 3;
      const ids: string[] = [];
      for (let round = 0; round < rounds; round++) {
        const paused = await runtime.execute({ code: GATED });
        expect(paused.status).toBe("paused");
        ids.push(paused.executionId);
      }
      const gates = await Promise.all(ids.map(() => gate(pool)));
      const racer = (): WorkerStep[] =>
        ids.flatMap((id, round) => [
          { do: "barrier", key: gates[round]?.key as number },
          { do: "approve", id },
        ]);
      const running = runWorkers([spec(racer()), spec(racer())]);
      for (const each of gates) await each.open(2);
      const [first, second] = await running;
      for (const [round, id] of ids.entries()) {
        const outputs = [first?.[round * 2 + 1], second?.[round * 2 + 1]].map((outcome) =>
          ok<CodeModeOutput>(outcome),
        );
        // one approval took the run; the other found it taken
        expect(outputs.map((output) => output.status).sort()).toEqual(["completed", "error"]);
        expect(outputs.find((output) => output.status === "error")).toMatchObject({
          error: expect.stringMatching(/only a paused run can resume/),
        });
        expect(effects(await ledgerRows(pool, id))).toEqual(["write a", "send b", "write c"]);
        expect(await journal.getExecution(id)).toMatchObject({ status: "completed" });
      }
      expectAtMostOnce(await ledgerRows(pool));
    },
    TIMEOUT,
  );

  it(
    "resolves an approval racing a rejection to one outcome, and two racing rollbacks revert each call once",
    async () => {
      const { runtime, journal, spec } = await journalFor();
      const ids: string[] = [];
      for (let round = 0; round < 3; round++) {
        ids.push((await runtime.execute({ code: GATED })).executionId);
      }
      const decide = await Promise.all(ids.map(() => gate(pool)));
      const undo = await Promise.all(ids.map(() => gate(pool)));
      const steps = (decision: (id: string) => WorkerStep): WorkerStep[] =>
        ids.flatMap((id, round) => [
          { do: "barrier", key: decide[round]?.key as number },
          decision(id),
          { do: "barrier", key: undo[round]?.key as number },
          { do: "rollback", id },
        ]);
      const running = runWorkers([
        spec(steps((id) => ({ do: "approve", id }))),
        spec(steps((id) => ({ do: "reject", id, seq: 1 }))),
      ]);
      for (const [round] of ids.entries()) {
        await decide[round]?.open(2);
        await undo[round]?.open(2);
      }
      const [approver, rejecter] = await running;
      for (const [round, id] of ids.entries()) {
        const approved = ok<CodeModeOutput>(approver?.[round * 4 + 1]);
        const rejected = ok<boolean>(rejecter?.[round * 4 + 1]);
        // exactly one of them decided the run
        expect(approved.status === "completed").toBe(!rejected);
        if (!rejected) expect(approved.status).toBe("completed");
        const reports = [approver?.[round * 4 + 3], rejecter?.[round * 4 + 3]].map((outcome) =>
          ok<{ reverted: number[] }>(outcome),
        );
        const reverted = reports.flatMap((report) => report.reverted).sort();
        const rows = await ledgerRows(pool, id);
        if (rejected) {
          expect(approved).toMatchObject({ status: "error" });
          expect(reverted).toEqual([0]);
          expect(effects(rows)).toEqual(["write a", "revert a"]);
        } else {
          expect(reverted).toEqual([0, 1, 2]);
          expect(effects(rows).slice(0, 3)).toEqual(["write a", "send b", "write c"]);
          expect(effects(rows).slice(3).sort()).toEqual(["revert a", "revert b", "revert c"]);
        }
        expect((await journal.getExecution(id))?.status).toBe("rolled_back");
      }
      expectAtMostOnce(await ledgerRows(pool));
    },
    TIMEOUT,
  );

  it(
    "recovers a run whose process was killed mid-pass only after its lease lapsed, reporting exactly the calls the ledger saw",
    async () => {
      const { runtime, journal, spec } = await journalFor();
      // a longer lease here, so that a busy machine cannot starve the victim past it before the kill
      const victim = startWorker(
        spec(
          [
            {
              do: "execute",
              code: `async () => {
                await ledger.write({ item: "a" });
                await ledger.hold({ item: "b" });
                await ledger.write({ item: "c" });
              }`,
            },
          ],
          4_000,
        ),
      );
      // the call at seq 1 reached the outside world, its result will never be recorded
      await until(async () => effects(await ledgerRows(pool)).includes("hold b"));
      victim.process.kill("SIGKILL");
      expect((await victim.ended).signal).toBe("SIGKILL");
      const [run] = await journal.listExecutions({ statuses: ["running"] });
      const id = run?.id as string;
      expect(run?.lease?.owner).toMatch(/^pass_/);
      // the dead pass's lease is still live: no process may take the run yet
      const expiresAt = run?.lease?.expiresAt ?? 0;
      expect(expiresAt).toBeGreaterThan(Date.now());
      expect(await runtime.expirePaused()).toEqual([]);
      await expect(runtime.rollback({ executionId: id })).rejects.toMatchObject({
        code: "NOT_PAUSED",
      });
      expect((await journal.getExecution(id))?.status).toBe("running");
      await until(async () => Date.now() > expiresAt);
      const [expired, report] = (
        await runWorkers([spec([{ do: "expire" }, { do: "rollback", id }])])
      )[0] as [WorkerOutcome, WorkerOutcome];
      expect(ok(expired)).toEqual([id]);
      expect(ok(report)).toMatchObject({ reverted: [0], unrecorded: [1] });
      const rows = await ledgerRows(pool, id);
      expect(effects(rows)).toEqual(["write a", "hold b", "revert a"]);
      // the documented crash window: the calls that may have run (applied, or decided and never
      // recorded) are exactly the keys the outside world saw, and nothing after them ran
      const reached = (await journal.listEntries(id)).map((entry) => `${id}:${entry.seq}`);
      expect(reached).toEqual(rows.filter((row) => row.op !== "revert").map((row) => row.key));
      expect(await journal.getExecution(id)).toMatchObject({ status: "rolled_back" });
      expectAtMostOnce(await ledgerRows(pool));
    },
    TIMEOUT,
  );

  it(
    "never expires a live pass of another process, and stops a stalled one at its next call once its run was taken",
    async () => {
      const { runtime, journal, spec } = await journalFor();
      // live: eight calls of 400 ms, two leases' worth, while this process tries to expire it
      const live = startWorker(
        spec([
          {
            do: "execute",
            code: `async () => { for (let i = 0; i < 8; i++) await ledger.hold({ item: "h" + i, ms: 400 }); return "alive"; }`,
          },
        ]),
      );
      await until(async () => effects(await ledgerRows(pool)).includes("hold h0"));
      let attempts = 0;
      while (live.outcomes.length === 0) {
        expect(await runtime.expirePaused()).toEqual([]);
        attempts++;
        await sleep(100);
      }
      expect(attempts).toBeGreaterThan(5);
      expect(ok(live.outcomes[0])).toMatchObject({ status: "completed", result: "alive" });
      await live.ended;

      // stalled: the process is stopped (SIGSTOP) inside a call until its lease lapsed and the run
      // was expired here; resumed, it records the call it was in and runs nothing after it
      const stalled = startWorker(
        spec(
          [
            {
              do: "execute",
              code: `async () => {
                await ledger.write({ item: "s1" });
                await ledger.hold({ item: "s2", ms: 800 });
                await ledger.write({ item: "s3" });
                return "finished";
              }`,
            },
          ],
          500,
        ),
      );
      await until(async () => effects(await ledgerRows(pool)).includes("hold s2"));
      stalled.process.kill("SIGSTOP");
      const [run] = await journal.listExecutions({ statuses: ["running"] });
      const id = run?.id as string;
      await until(async () => {
        const lease = (await journal.getExecution(id))?.lease;
        return lease !== undefined && Date.now() > lease.expiresAt;
      });
      expect(await runtime.expirePaused()).toEqual([id]);
      stalled.process.kill("SIGCONT");
      const { outcomes } = await stalled.ended;
      expect(ok(outcomes[0])).toMatchObject({
        status: "error",
        error: expect.stringMatching(/lease/),
      });
      expect(effects(await ledgerRows(pool, id))).toEqual(["write s1", "hold s2"]);
      const entries = await entriesOf(journal, id);
      expect(entries).toEqual(["0 applied", "1 applied"]);
      expect(await journal.getExecution(id)).toMatchObject({ status: "error" });
    },
    TIMEOUT,
  );

  it(
    "cancels a run whose pass is live in another process: that pass stops at its next journal write, what it did is recorded, and it rolls back",
    async () => {
      const { runtime, journal, spec } = await journalFor();
      const held = await gate(pool);
      const worker = startWorker(
        spec([
          {
            do: "execute",
            code: `async () => {
              await ledger.write({ item: "x1" });
              await ledger.hold({ item: "x2", ms: 0, gate: ${held.key} });
              await ledger.write({ item: "x3" });
              return "finished";
            }`,
          },
        ]),
      );
      // the worker's pass is inside the call at seq 1, its run running under its lease (items of
      // their own: the ledger keeps the rows of the tests before)
      await until(async () => effects(await ledgerRows(pool)).includes("hold x2"));
      const [run] = await journal.listExecutions({ statuses: ["running"] });
      const id = run?.id as string;
      expect(await runtime.cancel({ executionId: id, by: "ops", reason: "stop" })).toMatchObject({
        cancelled: true,
        was: "running",
        pass: "elsewhere",
      });
      expect(await journal.getExecution(id)).toMatchObject({
        status: "cancelled",
        error: expect.stringMatching(/^Cancelled by ops at .*: stop\./),
      });
      // the call in flight answers; the pass records it and starts nothing after
      await held.open(1);
      const { outcomes } = await worker.ended;
      expect(ok(outcomes[0])).toMatchObject({
        status: "error",
        code: "ABORTED",
        error: expect.stringMatching(/^Cancelled by ops/),
      });
      expect(effects(await ledgerRows(pool, id))).toEqual(["write x1", "hold x2"]);
      expect(await entriesOf(journal, id)).toEqual(["0 applied", "1 applied"]);
      expect((await journal.getExecution(id))?.status).toBe("cancelled");
      expect(await runtime.rollback({ executionId: id })).toMatchObject({ reverted: [1, 0] });
      expectAtMostOnce(await ledgerRows(pool));
    },
    TIMEOUT,
  );
});

async function entriesOf(journal: Journal, id: string): Promise<string[]> {
  return (await journal.listEntries(id)).map((entry) => `${entry.seq} ${entry.state}`);
}
