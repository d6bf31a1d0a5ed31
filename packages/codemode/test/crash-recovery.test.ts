// Processes killed (SIGKILL) at each journal boundary of a first pass and of an approval pass, over one
// SQLite file, then recovered by a new process with approve, expirePaused and rollback. The connector's
// own ledger counts the side effects: none is lost, and none is applied twice except a call that ran
// while its result was not yet recorded, which runs again with the same idempotency key.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CodeModeOutput, createCodemodeRuntime, sqliteStore } from "../src/index.ts";
import { child, type Ended, ok, thrown } from "./children.ts";
import type { Action, Spec, Step, StepOutcome } from "./crash-runner.ts";
import { bankConnector, effects, readLedger } from "./ledger-bank.ts";

const folder = mkdtempSync(join(tmpdir(), "codemode-crash-"));
const db = join(folder, "journal.db");
const ledger = join(folder, "ledger.jsonl");
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// seq 0 a read, seq 1 a write, seq 2 a write behind an approval, seq 3 a write
const PROGRAM = `async () => {
  const before = await bank.read({});
  const first = await bank.write({ item: "a" });
  const sent = await bank.send({ item: "b" });
  const last = await bank.write({ item: "c" });
  return { before, first, sent, last };
}`;
// two writes still running when the approval pauses the pass (seqs 0 and 1), the approval at seq 2
const PARALLEL = `async () => {
  const [plain, deduped, sent] = await Promise.all([
    bank.write({ item: "p" }),
    bank.write({ item: "d", dedup: true }),
    bank.send({ item: "q" }),
  ]);
  return { plain, deduped, sent };
}`;

/** The crashed runs: the recovery of each is approve, rollback, expirePaused, approve, rollback. */
const CRASHED_RUNNING = [
  "decided",
  "ran",
  "recorded",
  "decided-approval",
  "ran-approval",
  "recorded-approval",
];
const PAUSED = [
  "approve-ok",
  "expire-paused",
  "rollback-paused",
  "rollback-killed",
  ...CRASHED_RUNNING.slice(3),
];

const base = { db, ledger };
const ended = new Map<string, Ended>();
const atKill = new Map<string, Awaited<ReturnType<typeof inspect>>>();
const recovered = new Map<string, StepOutcome[]>();
const ids = new Map<string, string>();
const store = () => sqliteStore(new Database(db));

async function inspect(name: string) {
  const runtime = createCodemodeRuntime({
    store: store(),
    executor: new QuickJSExecutor(),
    connectors: [bankConnector(ledger)],
    name,
  });
  const [run] = await runtime.executions(1);
  if (!run) throw new Error(`no run under ${name}`);
  ids.set(name, run.id);
  return {
    status: run.status,
    calls: run.calls.map(({ seq, method, state }) => `${seq} ${method} ${state}`),
    ledger: effects(ledger, run.id),
  };
}

beforeAll(async () => {
  const setup = new Database(db);
  setup.pragma("journal_mode = WAL");
  sqliteStore(setup);
  setup.close();
  writeFileSync(ledger, "");
  const execute = (name: string, code = PROGRAM): Step => ({ name, do: "execute", code });

  // first passes: six runs that pause (the process dies after printing), and a kill at each boundary
  const first: Array<[string, Spec]> = [
    ["paused", { ...base, kill: { atEnd: true }, steps: PAUSED.map((name) => execute(name)) }],
    [
      "decided",
      { ...base, kill: { store: { write: "put", seq: 1 } }, steps: [execute("decided")] },
    ],
    ["ran", { ...base, kill: { effects: { items: ["a"] } }, steps: [execute("ran")] }],
    [
      "recorded",
      { ...base, kill: { store: { write: "apply", seq: 1 } }, steps: [execute("recorded")] },
    ],
    [
      "ran-while-paused",
      {
        ...base,
        kill: { effects: { items: ["p", "d"], afterPause: true } },
        steps: [execute("ran-while-paused", PARALLEL)],
      },
    ],
  ];
  // approval passes in other processes, killed at each boundary of the approved call
  const approval: Array<[string, Spec["kill"]]> = [
    ["decided-approval", { store: { write: "update", seq: 2 } }],
    ["ran-approval", { effects: { items: ["b"] } }],
    ["recorded-approval", { store: { write: "apply", seq: 2 } }],
  ];
  // and a rollback of a paused run, killed once the connector reverted the write
  const rollback: Spec = {
    ...base,
    kill: { effects: { items: ["-a"] } },
    steps: [{ name: "rollback-killed", do: "rollback" }],
  };
  await Promise.all(first.map(async ([name, spec]) => ended.set(name, await child(spec))));
  await Promise.all([
    ...approval.map(async ([name, kill]) =>
      ended.set(name, await child({ ...base, kill, steps: [{ name, do: "approve" }] })),
    ),
    child(rollback).then((end) => ended.set("rollback-killed", end)),
  ]);
  for (const name of [...PAUSED.slice(0, 4), ...CRASHED_RUNNING, "ran-while-paused"]) {
    atKill.set(name, await inspect(name));
  }

  // recovery: one new process, whose clock is a minute ahead so that expirePaused finds the runs stale
  const plans: Record<string, Action[]> = {
    "approve-ok": [{ do: "approve" }, { do: "approve" }, { do: "inspect" }],
    "expire-paused": [
      { do: "expire", maxAgeMs: 1_000 },
      { do: "inspect" },
      { do: "approve" },
      { do: "rollback" },
      { do: "inspect" },
    ],
    "rollback-paused": [
      { do: "rollback" },
      { do: "inspect" },
      { do: "approve" },
      { do: "reject", seq: 2 },
      { do: "expire", maxAgeMs: 1_000 },
      { do: "inspect" },
    ],
    "rollback-killed": [
      { do: "approve" },
      { do: "rollback" },
      { do: "rollback", revertAgain: [1] },
      { do: "inspect" },
    ],
    "ran-while-paused": [
      { do: "approve" },
      { do: "expire", maxAgeMs: 1_000 },
      { do: "rollback" },
      { do: "inspect" },
    ],
  };
  for (const name of CRASHED_RUNNING) {
    plans[name] = [
      { do: "approve" },
      { do: "rollback" },
      { do: "expire", maxAgeMs: 1_000 },
      { do: "inspect" },
      { do: "approve" },
      { do: "rollback" },
      { do: "inspect" },
    ];
  }
  const steps = Object.entries(plans).flatMap(([name, plan]) =>
    plan.map((step): Step => ({ ...step, name })),
  );
  const recovery = await child({ ...base, clockAheadMs: 60_000, steps });
  expect(recovery.signal).toBeNull();
  let offset = 0;
  for (const [name, plan] of Object.entries(plans)) {
    recovered.set(name, recovery.outcomes.slice(offset, offset + plan.length));
    offset += plan.length;
  }
}, 120_000);

const idOf = (name: string) => ids.get(name) as string;
const keys = (name: string, op: string) =>
  readLedger(ledger, idOf(name))
    .filter((line) => line.op === op)
    .map((line) => line.key);

/** What every crash while `running` recovers to: approve and rollback refused until expirePaused. */
function expectRecoveredRunning(name: string) {
  const [approve, rollback, expire, expired, again, rollbackAfter, final] = recovered.get(
    name,
  ) as StepOutcome[];
  expect(ok(approve)).toMatchObject({
    status: "error",
    error: expect.stringMatching(/is running; only a paused run can resume/),
  });
  expect(thrown(rollback)).toMatchObject({
    code: "NOT_PAUSED",
    message: expect.stringMatching(/is running; roll it back once its pass has ended/),
  });
  expect(ok(expire)).toEqual([idOf(name)]);
  const run = ok<{ status: string; error: string; calls: Array<Record<string, unknown>> }>(expired);
  expect(run).toMatchObject({
    status: "error",
    error: expect.stringMatching(/Expired while running/),
  });
  // expiry leaves the entries as the crash left them
  expect(run.calls.map(({ seq, method, state }) => `${seq} ${method} ${state}`)).toEqual(
    atKill.get(name)?.calls,
  );
  expect(ok(again)).toMatchObject({ status: "error", error: expect.stringMatching(/is error/) });
  return { rollback: ok(rollbackAfter), final: ok<{ status: string; calls: unknown[] }>(final) };
}

/** A rollback report without its per-call list (the lists of seqs are what these tests compare). */
function withoutCalls(report: unknown): unknown {
  const { calls: _calls, ...rest } = report as { calls?: unknown };
  return rest;
}

describe("a process killed during a first pass", () => {
  it("after the call is decided: it never ran, expiry ends the run, rollback reports it unrecorded", () => {
    expect(ended.get("decided")).toMatchObject({ signal: "SIGKILL", outcomes: [] });
    expect(atKill.get("decided")).toEqual({
      status: "running",
      calls: ["0 read applied", "1 write executing"],
      ledger: ["read"],
    });
    const { rollback, final } = expectRecoveredRunning("decided");
    // the journal cannot tell whether the connector ran: the report names the call
    expect(withoutCalls(rollback)).toEqual({ reverted: [], skipped: [0], unrecorded: [1] });
    expect(final).toMatchObject({ status: "error" });
    expect(effects(ledger, idOf("decided"))).toEqual(["read"]);
  });

  it("after the connector ran: the write stays applied once, never runs again, is reported unrecorded", () => {
    expect(ended.get("ran")).toMatchObject({ signal: "SIGKILL", outcomes: [] });
    expect(atKill.get("ran")).toEqual({
      status: "running",
      calls: ["0 read applied", "1 write executing"],
      ledger: ["read", "apply a"],
    });
    const { rollback, final } = expectRecoveredRunning("ran");
    // its result was never recorded: the journal cannot hand it to revert (the crash window), and
    // the report names it
    expect(withoutCalls(rollback)).toEqual({ reverted: [], skipped: [0], unrecorded: [1] });
    expect(final).toMatchObject({ status: "error" });
    expect(effects(ledger, idOf("ran"))).toEqual(["read", "apply a"]);
    expect(keys("ran", "apply")).toEqual([`${idOf("ran")}:1`]);
  });

  it("after the result is recorded: expiry ends the run and rollback reverts the write", () => {
    expect(ended.get("recorded")).toMatchObject({ signal: "SIGKILL", outcomes: [] });
    expect(atKill.get("recorded")).toEqual({
      status: "running",
      calls: ["0 read applied", "1 write applied"],
      ledger: ["read", "apply a"],
    });
    const { rollback, final } = expectRecoveredRunning("recorded");
    expect(withoutCalls(rollback)).toEqual({ reverted: [1], skipped: [0] });
    expect(final).toMatchObject({
      status: "rolled_back",
      calls: [
        { seq: 0, method: "read", state: "applied" },
        { seq: 1, method: "write", state: "reverted" },
      ],
    });
    expect(effects(ledger, idOf("recorded"))).toEqual(["read", "apply a", "revert a"]);
    expect(keys("recorded", "revert")).toEqual([`${idOf("recorded")}:1:revert`]);
  });

  it("while paused: every run paused before the process died", () => {
    const paused = ended.get("paused") as Ended;
    expect(paused.signal).toBe("SIGKILL");
    expect(paused.outcomes).toHaveLength(PAUSED.length);
    for (const outcome of paused.outcomes) {
      expect(ok<CodeModeOutput>(outcome)).toMatchObject({
        status: "paused",
        pending: [{ seq: 2, connector: "bank", method: "send", args: { item: "b" } }],
      });
    }
    for (const name of PAUSED.slice(0, 3)) {
      expect(atKill.get(name)).toEqual({
        status: "paused",
        calls: ["0 read applied", "1 write applied", "2 send pending"],
        ledger: ["read", "apply a"],
      });
    }
  });
});

describe("a paused run, recovered by a new process", () => {
  it("approve applies the gated write once and replays the rest; a second approve is refused", () => {
    const [approved, again, final] = recovered.get("approve-ok") as StepOutcome[];
    const id = idOf("approve-ok");
    expect(ok(approved)).toEqual({
      status: "completed",
      executionId: id,
      result: {
        before: 0,
        first: { item: "a", key: `${id}:1` },
        sent: { item: "b", key: `${id}:2` },
        last: { item: "c", key: `${id}:3` },
      },
    });
    expect(ok(again)).toMatchObject({
      status: "error",
      error: expect.stringMatching(/is completed/),
    });
    expect(ok(final)).toMatchObject({ status: "completed" });
    expect(effects(ledger, id)).toEqual(["read", "apply a", "apply b", "apply c"]);
    const pids = readLedger(ledger, id).map((line) => line.pid);
    expect(pids[1]).not.toBe(pids[2]);
  });

  it("expirePaused rejects it and withdraws the approval; rollback still reverts the first write", () => {
    const [expire, expired, approve, rollback, final] = recovered.get(
      "expire-paused",
    ) as StepOutcome[];
    expect(ok(expire)).toEqual([idOf("expire-paused")]);
    expect(ok(expired)).toEqual({
      status: "rejected",
      error: "Expired while waiting for approval.",
      calls: [
        { seq: 0, method: "read", state: "applied" },
        { seq: 1, method: "write", state: "applied" },
        { seq: 2, method: "send", state: "withdrawn" },
      ],
    });
    expect(ok(approve)).toMatchObject({
      status: "error",
      error: expect.stringMatching(/is rejected/),
    });
    expect(withoutCalls(ok(rollback))).toEqual({ reverted: [1], skipped: [0] });
    expect(ok(final)).toMatchObject({ status: "rolled_back" });
    expect(effects(ledger, idOf("expire-paused"))).toEqual(["read", "apply a", "revert a"]);
  });

  it("rollback reverts it for good: approve, reject and expiry no longer act on it", () => {
    const [rollback, rolled, approve, reject, expire, final] = recovered.get(
      "rollback-paused",
    ) as StepOutcome[];
    expect(withoutCalls(ok(rollback))).toEqual({ reverted: [1], skipped: [0] });
    expect(ok(rolled)).toMatchObject({
      status: "rolled_back",
      calls: [
        { seq: 0, method: "read", state: "applied" },
        { seq: 1, method: "write", state: "reverted" },
        // the approval it never got is withdrawn: the call never ran
        { seq: 2, method: "send", state: "withdrawn" },
      ],
    });
    expect(ok(approve)).toMatchObject({
      status: "error",
      error: expect.stringMatching(/is rolled_back/),
    });
    expect(ok(reject)).toBe(false);
    expect(ok(expire)).toEqual([]);
    expect(ok(final)).toEqual(ok(rolled));
    expect(effects(ledger, idOf("rollback-paused"))).toEqual(["read", "apply a", "revert a"]);
  });
});

describe("a process killed during a rollback of a paused run", () => {
  it("leaves it rolled back, never resumable; the revert is in doubt until the host says to revert again, under the same key", () => {
    const name = "rollback-killed";
    expect(ended.get(name)).toMatchObject({ signal: "SIGKILL", outcomes: [] });
    // the rollback took the run before reverting, so no approval can resume it on a reverted write
    expect(atKill.get(name)).toEqual({
      status: "rolled_back",
      // taken by the rollback before its revert ran: no other rollback reverts it meanwhile
      calls: ["0 read applied", "1 write reverting", "2 send pending"],
      ledger: ["read", "apply a", "revert a"],
    });
    const [approve, rollback, again, final] = recovered.get(name) as StepOutcome[];
    expect(ok(approve)).toMatchObject({
      status: "error",
      error: expect.stringMatching(/is rolled_back/),
    });
    // the revert ran while its outcome was not recorded: no rollback runs it again by itself
    expect(withoutCalls(ok(rollback))).toEqual({ reverted: [], skipped: [0], unrecorded: [1] });
    expect(JSON.stringify(ok(rollback))).toContain(`${idOf(name)}:1:revert`);
    // the host said to revert it again: it runs again, under the same key
    expect(withoutCalls(ok(again))).toEqual({ reverted: [1], skipped: [0] });
    expect(ok(final)).toMatchObject({
      status: "rolled_back",
      calls: [{ state: "applied" }, { state: "reverted" }, { state: "withdrawn" }],
    });
    expect(effects(ledger, idOf(name))).toEqual(["read", "apply a", "revert a", "revert a"]);
    expect(new Set(keys(name, "revert"))).toEqual(new Set([`${idOf(name)}:1:revert`]));
  });
});

describe("a process killed during an approval pass", () => {
  it("after the approved call is marked executing: it never ran; rollback reverts the first write", () => {
    expect(ended.get("decided-approval")).toMatchObject({ signal: "SIGKILL", outcomes: [] });
    expect(atKill.get("decided-approval")).toEqual({
      status: "running",
      calls: ["0 read applied", "1 write applied", "2 send executing"],
      // the approval pass replayed the read and the write from the journal
      ledger: ["read", "apply a"],
    });
    const { rollback, final } = expectRecoveredRunning("decided-approval");
    expect(withoutCalls(rollback)).toEqual({ reverted: [1], skipped: [0], unrecorded: [2] });
    expect(final).toMatchObject({ status: "rolled_back" });
    expect(effects(ledger, idOf("decided-approval"))).toEqual(["read", "apply a", "revert a"]);
  });

  it("after the approved call ran: it stays applied once, is not reverted and is reported unrecorded (the crash window)", () => {
    expect(ended.get("ran-approval")).toMatchObject({ signal: "SIGKILL", outcomes: [] });
    expect(atKill.get("ran-approval")).toEqual({
      status: "running",
      calls: ["0 read applied", "1 write applied", "2 send executing"],
      ledger: ["read", "apply a", "apply b"],
    });
    const { rollback, final } = expectRecoveredRunning("ran-approval");
    expect(withoutCalls(rollback)).toEqual({ reverted: [1], skipped: [0], unrecorded: [2] });
    expect(final).toMatchObject({
      status: "rolled_back",
      calls: [
        { seq: 0, state: "applied" },
        { seq: 1, state: "reverted" },
        // marked by the rollback: a late record of it would no longer match
        { seq: 2, state: "error" },
      ],
    });
    expect(effects(ledger, idOf("ran-approval"))).toEqual([
      "read",
      "apply a",
      "apply b",
      "revert a",
    ]);
  });

  it("after the approved call is recorded: rollback reverts both writes, newest first", () => {
    expect(ended.get("recorded-approval")).toMatchObject({ signal: "SIGKILL", outcomes: [] });
    expect(atKill.get("recorded-approval")).toEqual({
      status: "running",
      calls: ["0 read applied", "1 write applied", "2 send applied"],
      ledger: ["read", "apply a", "apply b"],
    });
    const { rollback, final } = expectRecoveredRunning("recorded-approval");
    expect(withoutCalls(rollback)).toEqual({ reverted: [2, 1], skipped: [0] });
    expect(final).toMatchObject({ status: "rolled_back" });
    expect(effects(ledger, idOf("recorded-approval"))).toEqual([
      "read",
      "apply a",
      "apply b",
      "revert b",
      "revert a",
    ]);
  });
});

describe("a process killed while calls ran past a pause", () => {
  it("leaves the run running (its pass never settled): nothing approves it; expiry ends it and rollback names both writes", () => {
    const name = "ran-while-paused";
    expect(ended.get(name)).toMatchObject({ signal: "SIGKILL", outcomes: [] });
    // the pass reports a pause only once every call it started has settled: it died first
    expect(atKill.get(name)?.status).toBe("running");
    expect(atKill.get(name)?.calls).toEqual([
      "0 write executing",
      "1 write executing",
      "2 send pending",
    ]);
    expect([...(atKill.get(name)?.ledger ?? [])].sort()).toEqual(["apply d", "apply p"]);
    const [approved, expired, rollback, final] = recovered.get(name) as StepOutcome[];
    const id = idOf(name);
    expect(ok(approved)).toMatchObject({
      status: "error",
      error: expect.stringMatching(/is running/),
    });
    expect(ok(expired)).toEqual([id]);
    expect(withoutCalls(ok(rollback))).toEqual({ reverted: [], skipped: [], unrecorded: [1, 0] });
    expect(ok(final)).toMatchObject({
      status: "error",
      calls: [{ state: "error" }, { state: "error" }, { state: "withdrawn" }],
    });
    const lines = readLedger(ledger, id);
    const of = (op: string, item: string) =>
      lines.filter((line) => line.op === op && line.item === item);
    // each write ran once, and the gated send never ran
    expect(of("apply", "p").map((line) => line.key)).toEqual([`${id}:0`]);
    expect(of("apply", "d").map((line) => line.key)).toEqual([`${id}:1`]);
    expect(of("apply", "q")).toHaveLength(0);
  });
});
