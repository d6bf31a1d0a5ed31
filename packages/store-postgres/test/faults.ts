// The fault suite's pieces (test/server-faults.test.ts): the programs its workers run, polling with
// a deadline that survives a server that is down, and the invariants a journal must keep whatever
// the server did, checked against the ledger of real effects (test/ledger.ts).
import {
  type CodemodeRuntime,
  createValueCodec,
  type ExecutionRecord,
  type Journal,
  type JournalEntry,
  type RollbackReport,
} from "@codemode/core";
import type pg from "pg";
import { expect } from "vitest";
import { type LedgerRow, ledgerSince } from "./ledger.ts";
import type { WorkerStep } from "./worker.ts";
import { sleep } from "./workers.ts";

const codec = createValueCodec();

/**
 * The programs the workers run, by kind: calls one after another, gated (`send`) and not, two at
 * once, and two gated calls in one run (two pauses). Each item names its run (`tag`), so an effect
 * tells which call made it.
 */
export function program(kind: number, tag: string, holdMs = 120): string {
  const item = (name: string) => JSON.stringify(`${tag}.${name}`);
  switch (kind % 4) {
    case 0:
      return `async () => {
        await ledger.write({ item: ${item("a")} });
        await ledger.hold({ item: ${item("b")}, ms: ${holdMs} });
        await ledger.write({ item: ${item("c")} });
        return ${item("done")};
      }`;
    case 1:
      return `async () => {
        await ledger.write({ item: ${item("a")} });
        await ledger.send({ item: ${item("b")} });
        await ledger.write({ item: ${item("c")} });
        return ${item("done")};
      }`;
    case 2:
      return `async () => {
        await Promise.all([ledger.write({ item: ${item("a")} }), ledger.send({ item: ${item("b")} })]);
        await ledger.hold({ item: ${item("c")}, ms: 80 });
        return ${item("done")};
      }`;
    default:
      return `async () => {
        await ledger.send({ item: ${item("a")} });
        await ledger.hold({ item: ${item("b")}, ms: 80 });
        await ledger.send({ item: ${item("c")} });
        return ${item("done")};
      }`;
  }
}

/**
 * `runs` executes of every kind in turn, for worker `worker` of schedule `schedule`; the first
 * kind's call in the middle takes `holdMs`.
 */
export function executes(
  schedule: string,
  worker: number,
  runs: number,
  holdMs?: number,
): WorkerStep[] {
  return Array.from({ length: runs }, (_, run) => ({
    do: "execute",
    code: program(run + worker, `${schedule}.w${worker}.r${run}`, holdMs),
  }));
}

/** How many rows of `op` the ledger has after `afterId`. */
export async function opCount(
  client: pg.Client | pg.Pool,
  op: string,
  afterId: number,
): Promise<number> {
  const { rows } = await client.query(
    "SELECT count(*)::int AS n FROM ledger WHERE id > $1 AND op = $2",
    [afterId, op],
  );
  return (rows[0] as { n: number }).n;
}

/**
 * Polls `check` until it holds, failing after `timeoutMs`; a check that throws (the server is down
 * or paused) counts as not yet.
 */
export async function poll(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * What `read` answers, read again while it fails (the server is restarting, or a pooled connection
 * was terminated and its pool has not heard yet), until `timeoutMs`.
 */
export async function answer<T>(read: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(50);
    }
  }
}

/** How many effects (not approvals) the ledger has after `afterId`. */
export async function effectCount(client: pg.Client | pg.Pool, afterId: number): Promise<number> {
  const { rows } = await client.query(
    "SELECT count(*)::int AS n FROM ledger WHERE id > $1 AND op <> 'approve'",
    [afterId],
  );
  return (rows[0] as { n: number }).n;
}

/** Ends every other connection to the client's database; returns how many it ended. */
export async function terminateOthers(client: pg.Client): Promise<number> {
  const { rows } = await client.query(
    `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
     WHERE pid <> pg_backend_pid() AND datname = current_database()`,
  );
  return (rows[0] as { n: number }).n;
}

/** What a schedule left, for its assertions and its report. */
export interface Outcome {
  /** runs by status */
  statuses: Record<string, number>;
  /** effects in the ledger (writes, sends, holds) */
  effects: number;
  /** calls whose outcome is not recorded: `executing`, `error`, or declined in doubt */
  unrecorded: number;
  /** calls left `pending` in a run that failed while they waited */
  waitingInFailed: number;
  runs: ExecutionRecord[];
}

const EFFECTS = new Set(["write", "send", "hold"]);

/**
 * The invariants, over every run of `journal` and every ledger row after `afterId` (a schedule's
 * own): each idempotency key reached the ledger at most once; each `send` came after an approval
 * of that call that showed its item; each effect is a call the journal accounts for (applied,
 * failed, reverted, unrecorded or in doubt), and each call recorded as done is an effect; no run
 * is left running or paused; a call whose outcome is unknown is only in a run that failed (or rolled
 * back), or waited in doubt and was declined.
 */
export async function checkInvariants(
  pool: pg.Pool,
  journal: Journal,
  afterId: number,
): Promise<Outcome> {
  const { rows, runs, entries } = await answer(async () => {
    const entries = new Map<string, JournalEntry>();
    const runs = await journal.listExecutions();
    for (const run of runs) {
      for (const entry of await journal.listEntries(run.id)) {
        entries.set(`${run.id}:${entry.seq}`, entry);
      }
    }
    // the ledger is read last: an effect of a call the journal was read without is not missed
    return { rows: await ledgerSince(pool, afterId), runs, entries };
  });
  const byId = new Map(runs.map((run) => [run.id, run]));
  const problems: string[] = [];
  const effects = rows.filter((row) => EFFECTS.has(row.op));
  const seen = new Map<string, LedgerRow>();
  for (const row of effects) {
    if (seen.has(row.key)) problems.push(`${row.key} (${row.item}) reached the ledger twice`);
    seen.set(row.key, row);
    if (!byId.has(row.execution))
      problems.push(`${row.key}: no run ${row.execution} in the journal`);
    const entry = entries.get(row.key);
    if (entry?.kind !== "call" || entry.method !== row.op) {
      problems.push(`${row.key} (${row.op} ${row.item}) has no entry of that call in the journal`);
      continue;
    }
    const item = (codec.decode(entry.args as string) as { item: string }).item;
    if (item !== row.item)
      problems.push(`${row.key}: the journal says ${item}, the ledger ${row.item}`);
    // it reached its connector: applied (or failed), reverted, or its outcome is not known
    const inDoubt = entry.error !== undefined;
    const accounted =
      ["applied", "executing", "error", "reverting", "reverted"].includes(entry.state) ||
      (["pending", "approved", "withdrawn"].includes(entry.state) && inDoubt);
    if (!accounted) problems.push(`${row.key} ran, yet the journal has it ${entry.state}`);
    if (row.op === "send") {
      const approved = rows.some(
        (other) =>
          other.op === "approve" &&
          other.key === row.key &&
          other.item === row.item &&
          other.id < (row as LedgerRow & { id: number }).id,
      );
      if (!approved)
        problems.push(`${row.key}: send ${row.item} ran without an approval naming it`);
    }
  }
  const reverts = rows.filter((row) => row.op === "revert").map((row) => row.key);
  if (new Set(reverts).size !== reverts.length) problems.push("a call was reverted twice");
  let unrecorded = 0;
  let waitingInFailed = 0;
  for (const [key, entry] of entries) {
    const run = byId.get(entry.executionId) as ExecutionRecord;
    // a call recorded as done was an effect (the connector answers only after its row is in)
    if (entry.kind === "call" && entry.state === "applied" && entry.error === undefined) {
      if (!seen.has(key)) problems.push(`${key} is applied in the journal but not in the ledger`);
    }
    const unknown =
      entry.state === "executing" ||
      entry.state === "error" ||
      (entry.state === "withdrawn" && entry.error !== undefined);
    if (unknown) unrecorded++;
    if (
      (entry.state === "executing" || entry.state === "error") &&
      !["error", "rolled_back"].includes(run.status)
    ) {
      problems.push(`${key} is ${entry.state} in a run that is ${run.status}`);
    }
    // a call still waiting (or approved, not yet taken) waits in a paused run, or in one that failed
    // while it waited (a run fails without withdrawing the calls it waits for: none of them can run
    // any more)
    const waits = entry.state === "pending" || entry.state === "approved";
    if (waits && !["paused", "error"].includes(run.status)) {
      problems.push(`${key} waits in a run that is ${run.status}`);
    }
    if (waits && run.status === "error") waitingInFailed++;
  }
  for (const run of runs) {
    if (run.status === "running" || run.status === "paused") {
      problems.push(`run ${run.id} was left ${run.status}`);
    }
  }
  expect(problems).toEqual([]);
  const statuses: Record<string, number> = {};
  for (const run of runs) statuses[run.status] = (statuses[run.status] ?? 0) + 1;
  return { statuses, effects: effects.length, unrecorded, waitingInFailed, runs };
}

/**
 * Rolls back every run of `ids` and holds each report to the ledger: it names every call of the
 * run that reached the ledger (reverted, skipped, failed or unrecorded), and the calls it reverted
 * are exactly those with a revert in the ledger. Returns how many calls were reverted and how many
 * reported unrecorded.
 */
export async function rollBackAll(
  runtime: CodemodeRuntime,
  pool: pg.Pool,
  ids: readonly string[],
  afterId: number,
): Promise<{ reverted: number; unrecorded: number }> {
  const reports = new Map<string, RollbackReport>();
  for (const id of ids) reports.set(id, await runtime.rollback({ executionId: id }));
  const rows = await ledgerSince(pool, afterId);
  const problems: string[] = [];
  let reverted = 0;
  let unrecorded = 0;
  for (const [id, report] of reports) {
    const seqOf = (row: LedgerRow) => Number(row.key.slice(id.length + 1).split(":")[0]);
    const named = new Set(report.calls.map((call) => call.seq));
    const mine = rows.filter((row) => row.execution === id);
    for (const row of mine.filter((each) => EFFECTS.has(each.op))) {
      if (!named.has(seqOf(row)))
        problems.push(`${row.key} ran, and ${id}'s rollback does not name it`);
    }
    const undone = mine.filter((row) => row.op === "revert").map(seqOf);
    if ([...undone].sort().join() !== [...report.reverted].sort().join()) {
      problems.push(`${id}: reverted ${report.reverted}, the ledger has reverts of ${undone}`);
    }
    reverted += report.reverted.length;
    unrecorded += report.unrecorded?.length ?? 0;
  }
  expect(problems).toEqual([]);
  return { reverted, unrecorded };
}
