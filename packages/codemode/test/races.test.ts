// Two callers act on one paused run at once (approve/approve, approve/reject, approve/rollback,
// resolve/reject, resolve/resolve): on one runtime, on two runtimes over one SQLite file, and from two
// processes. Each round ends one way: the side effect applied at most once, the loser told so, and the
// journal agreeing with the connector's ledger.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CodeModeOutput,
  type CodemodeRuntime,
  createCodemodeRuntime,
  type RollbackReport,
  sqliteStore,
} from "../src/index.ts";
import { child, ok } from "./children.ts";
import type { StepOutcome } from "./crash-runner.ts";
import { bankConnector, effects, readLedger } from "./ledger-bank.ts";

const ROUNDS = 10;
const folder = mkdtempSync(join(tmpdir(), "codemode-races-"));
const db = join(folder, "journal.db");
const ledger = join(folder, "ledger.jsonl");
afterAll(() => rmSync(folder, { recursive: true, force: true }));
beforeAll(() => {
  writeFileSync(ledger, "");
});

// seq 0 a write, seq 1 a write behind an approval
const GATED = `async () => {
  const first = await bank.write({ item: "a" });
  const sent = await bank.send({ item: "b" });
  return { first, sent };
}`;
// seq 0 a write, seq 1 a result from runtime.resolve, seq 2 a write that uses it
const DEFERRED = `async () => {
  await bank.write({ item: "a" });
  const answer = await bank.ask({ question: "which?" });
  await bank.write({ item: "after " + answer });
  return answer;
}`;

const executor = new QuickJSExecutor({ timeoutMs: 10_000 });
const open = () => {
  const database = new Database(db);
  database.pragma("journal_mode = WAL");
  return sqliteStore(database);
};
const runtimeOn = (store: ReturnType<typeof sqliteStore>, name: string) =>
  createCodemodeRuntime({ store, executor, connectors: [bankConnector(ledger)], name });

/** `count` runs of `code`, each paused. */
async function pausedRuns(runtime: CodemodeRuntime, code: string, count: number) {
  const ids: string[] = [];
  for (let round = 0; round < count; round++) {
    const output = await runtime.execute({ code });
    expect(output.status).toBe("paused");
    ids.push(output.executionId);
  }
  return ids;
}

/**
 * The journal and the ledger agree: an applied call was applied once and not reverted, a reverted one
 * was applied and reverted once, a withdrawn one (its run ended while it waited) and a pending one
 * never ran; and the run's status fits its calls.
 */
async function expectConsistent(runtime: CodemodeRuntime, executionId: string) {
  const run = await runtime.execution(executionId);
  const lines = readLedger(ledger, executionId);
  const count = (op: string, key: string) =>
    lines.filter((line) => line.op === op && line.key === key).length;
  for (const call of run?.calls ?? []) {
    if (call.method === "ask") continue;
    const applied = count("apply", `${executionId}:${call.seq}`);
    const reverted = count("revert", `${executionId}:${call.seq}:revert`);
    const seen = `#${call.seq} ${call.state}: applied ${applied}, reverted ${reverted}`;
    if (call.state === "applied") expect(seen).toBe(`#${call.seq} applied: applied 1, reverted 0`);
    else if (call.state === "pending" || call.state === "withdrawn")
      expect(seen).toBe(`#${call.seq} ${call.state}: applied 0, reverted 0`);
    else if (call.state === "reverted")
      expect(seen).toBe(`#${call.seq} reverted: applied 1, reverted 1`);
    else expect.fail(`unexpected ${seen}`);
  }
  const states = run?.calls.map((call) => call.state) ?? [];
  if (run?.status === "rolled_back") expect(states.some((state) => state !== "applied")).toBe(true);
  if (run?.status === "completed") expect(states.every((state) => state === "applied")).toBe(true);
  if (run?.status === "paused") expect(states).toContain("pending");
  return run;
}

const outcomeOf = (output: CodeModeOutput) => output.status;

type Race = (runtimes: [CodemodeRuntime, CodemodeRuntime]) => Promise<void>;

const races: Record<string, Race> = {
  async "approve/approve"([one, two]) {
    for (const id of await pausedRuns(one, GATED, ROUNDS)) {
      const outputs = await Promise.all([
        one.approve({ executionId: id }),
        two.approve({ executionId: id }),
      ]);
      expect(outputs.map(outcomeOf).sort()).toEqual(["completed", "error"]);
      expect(outputs.find((output) => output.status === "error")).toMatchObject({
        error: expect.stringMatching(/is (running|completed); only a paused run can resume/),
        code: "NOT_PAUSED",
      });
      expect(effects(ledger, id)).toEqual(["apply a", "apply b"]);
      expect((await expectConsistent(one, id))?.status).toBe("completed");
    }
  },

  async "approve/reject"([one, two]) {
    for (const id of await pausedRuns(one, GATED, ROUNDS)) {
      const [approved, rejected] = await Promise.all([
        one.approve({ executionId: id }),
        two.reject({ executionId: id, seq: 1 }),
      ]);
      const run = await expectConsistent(one, id);
      if (approved.status === "completed") {
        expect(rejected).toBe(false);
        expect(run?.status).toBe("completed");
        expect(effects(ledger, id)).toEqual(["apply a", "apply b"]);
      } else {
        expect(rejected).toBe(true);
        // the approval found the run rejected, or held by the rejection while it read the call again
        expect(approved).toMatchObject({ error: expect.stringMatching(/is (rejected|running)/) });
        expect(run?.status).toBe("rejected");
        expect(run?.calls.map((call) => call.state)).toEqual(["applied", "withdrawn"]);
        expect(effects(ledger, id)).toEqual(["apply a"]);
      }
    }
  },

  async "approve/rollback"([one, two]) {
    for (const id of await pausedRuns(one, GATED, ROUNDS)) {
      const [approved, rolledBack] = await Promise.all([
        one.approve({ executionId: id }),
        two.rollback({ executionId: id }).then(
          (report) => report,
          (error: Error & { code?: string }) => error,
        ),
      ]);
      const run = await expectConsistent(one, id);
      const report = rolledBack instanceof Error ? undefined : (rolledBack as RollbackReport);
      if (approved.status === "completed" && !report) {
        // the approval went first and the rollback came while its pass ran
        expect(rolledBack).toMatchObject({ code: "NOT_PAUSED" });
        expect(run?.status).toBe("completed");
        expect(effects(ledger, id)).toEqual(["apply a", "apply b"]);
      } else if (approved.status === "completed") {
        // the approval's pass ended first, then the rollback reverted all of it
        expect(report).toMatchObject({ reverted: [1, 0], skipped: [] });
        expect(run?.status).toBe("rolled_back");
        expect(effects(ledger, id)).toEqual(["apply a", "apply b", "revert b", "revert a"]);
      } else {
        // the rollback went first: the approval has nothing to resume
        expect(approved).toMatchObject({ error: expect.stringMatching(/is rolled_back/) });
        expect(report).toMatchObject({ reverted: [0], skipped: [] });
        expect(run?.status).toBe("rolled_back");
        expect(effects(ledger, id)).toEqual(["apply a", "revert a"]);
      }
    }
  },

  async "resolve/reject"([one, two]) {
    for (const id of await pausedRuns(one, DEFERRED, ROUNDS)) {
      const [resolved, rejected] = await Promise.all([
        one.resolve({ executionId: id, seq: 1, result: "yes" }),
        two.reject({ executionId: id, seq: 1 }),
      ]);
      const run = await expectConsistent(one, id);
      if (resolved.status === "completed") {
        expect(resolved).toMatchObject({ result: "yes" });
        expect(rejected).toBe(false);
        expect(effects(ledger, id)).toEqual(["apply a", "apply after yes"]);
      } else {
        expect(rejected).toBe(true);
        expect(resolved.status).toBe("error");
        expect(run?.status).toBe("rejected");
        // the refused result is not recorded as the call's outcome
        expect(run?.calls.map((call) => [call.state, call.result])).toEqual([
          ["applied", { item: "a", key: `${id}:0` }],
          ["withdrawn", undefined],
        ]);
        expect(effects(ledger, id)).toEqual(["apply a"]);
      }
    }
  },

  async "resolve/resolve"([one, two]) {
    for (const id of await pausedRuns(one, DEFERRED, ROUNDS)) {
      const outputs = await Promise.all([
        one.resolve({ executionId: id, seq: 1, result: "one" }),
        two.resolve({ executionId: id, seq: 1, result: "two" }),
      ]);
      expect(outputs.map(outcomeOf).sort()).toEqual(["completed", "error"]);
      const winner = outputs.find((output) => output.status === "completed") as {
        result: string;
      };
      const run = await expectConsistent(one, id);
      expect(run?.status).toBe("completed");
      expect(run?.calls[1]?.result).toBe(winner.result);
      expect(effects(ledger, id)).toEqual(["apply a", `apply after ${winner.result}`]);
    }
  },
};

describe("two callers on one runtime", () => {
  const store = open();
  it("a rollback that reverts nothing still ends a paused run: nothing can approve it after", async () => {
    const runtime = runtimeOn(store, "one-nothing-to-revert");
    const [id] = await pausedRuns(
      runtime,
      `async () => { await bank.read({}); return bank.send({ item: "b" }); }`,
      1,
    );
    const before = await runtime.execution(id as string);
    expect(await runtime.rollback({ executionId: id as string })).toMatchObject({
      reverted: [],
      skipped: [0],
    });
    const after = await runtime.execution(id as string);
    expect(after?.status).toBe("rolled_back");
    expect(after?.calls.map((call) => call.state)).toEqual(["applied", "withdrawn"]);
    expect(before?.status).toBe("paused");
    expect((await runtime.approve({ executionId: id as string })).status).toBe("error");
  });

  // approve/reject on one runtime is in src/runtime.test.ts
  for (const [race, run] of Object.entries(races).filter(([race]) => race !== "approve/reject")) {
    it(`${race}: one outcome each round`, async () => {
      const runtime = runtimeOn(store, `one-${race.replace("/", "-")}`);
      await run([runtime, runtime]);
    });
  }
});

describe("two runtimes over one SQLite file", () => {
  const first = open();
  const second = open();
  for (const [race, run] of Object.entries(races)) {
    it(`${race}: one outcome each round`, async () => {
      const name = `two-${race.replace("/", "-")}`;
      await run([runtimeOn(first, name), runtimeOn(second, name)]);
    });
  }
});

describe("two processes over one SQLite file", () => {
  type Side = { op: "approve" | "reject" | "rollback" | "resolve"; seq?: number; result?: unknown };
  const plans: Array<{ race: string; code: string; sides: [Side, Side] }> = [
    { race: "approve-approve", code: GATED, sides: [{ op: "approve" }, { op: "approve" }] },
    { race: "approve-reject", code: GATED, sides: [{ op: "approve" }, { op: "reject", seq: 1 }] },
    { race: "approve-rollback", code: GATED, sides: [{ op: "approve" }, { op: "rollback" }] },
    {
      race: "resolve-reject",
      code: DEFERRED,
      sides: [
        { op: "resolve", seq: 1, result: "yes" },
        { op: "reject", seq: 1 },
      ],
    },
  ];
  const store = open();
  const runtime = (race: string) => runtimeOn(store, `processes-${race}`);
  /** per race, per run: its id and what each process got */
  const rounds = new Map<string, Array<{ id: string; sides: StepOutcome[] }>>();
  const roundsOf = (race: string) => {
    const list = rounds.get(race) ?? [];
    expect(list).toHaveLength(ROUNDS);
    return list;
  };
  const value = <T>(outcome: StepOutcome | undefined) =>
    outcome && "ok" in outcome ? (outcome.ok as T) : undefined;

  // Two processes take the same runs in the same order, each round started together (a barrier of
  // files), one race after another.
  beforeAll(async () => {
    const ids = new Map<string, string[]>();
    for (const { race, code } of plans)
      ids.set(race, await pausedRuns(runtime(race), code, ROUNDS));
    const ended = await Promise.all(
      [0, 1].map((party) =>
        child({
          db,
          ledger,
          steps: plans.map(({ race, sides }) => {
            const barrier = join(folder, `barrier-${race}`);
            mkdirSync(barrier, { recursive: true });
            return {
              name: `processes-${race}`,
              do: "race" as const,
              ids: ids.get(race) as string[],
              barrier,
              party: String(party),
              ...(sides[party] as Side),
            };
          }),
        }),
      ),
    );
    const [first, second] = ended.map(({ outcomes }) => outcomes.map((o) => ok<StepOutcome[]>(o)));
    plans.forEach(({ race }, index) => {
      rounds.set(
        race,
        (ids.get(race) as string[]).map((id, round) => ({
          id,
          sides: [first?.[index]?.[round], second?.[index]?.[round]] as StepOutcome[],
        })),
      );
    });
  }, 180_000);

  it("approve/approve: one outcome each round", async () => {
    for (const { id, sides } of roundsOf("approve-approve")) {
      const statuses = sides.map((outcome) => value<CodeModeOutput>(outcome)?.status);
      expect(statuses.sort()).toEqual(["completed", "error"]);
      expect(effects(ledger, id)).toEqual(["apply a", "apply b"]);
      expect((await expectConsistent(runtime("approve-approve"), id))?.status).toBe("completed");
    }
  });

  it("approve/reject: one outcome each round", async () => {
    for (const { id, sides } of roundsOf("approve-reject")) {
      const [approved, rejected] = sides;
      const completed = value<CodeModeOutput>(approved)?.status === "completed";
      expect(value(rejected)).toBe(!completed);
      expect(effects(ledger, id)).toEqual(completed ? ["apply a", "apply b"] : ["apply a"]);
      const run = await expectConsistent(runtime("approve-reject"), id);
      expect(run?.status).toBe(completed ? "completed" : "rejected");
    }
  });

  it("approve/rollback: one outcome each round", async () => {
    for (const { id, sides } of roundsOf("approve-rollback")) {
      const [approved, rollback] = sides;
      const completed = value<CodeModeOutput>(approved)?.status === "completed";
      const report = value<RollbackReport>(rollback);
      const run = await expectConsistent(runtime("approve-rollback"), id);
      if (completed && !report) {
        expect(rollback).toMatchObject({ thrown: { code: "NOT_PAUSED" } });
        expect(effects(ledger, id)).toEqual(["apply a", "apply b"]);
      } else if (completed) {
        expect(report?.reverted).toEqual([1, 0]);
        expect(effects(ledger, id)).toEqual(["apply a", "apply b", "revert b", "revert a"]);
      } else {
        expect(report?.reverted).toEqual([0]);
        expect(effects(ledger, id)).toEqual(["apply a", "revert a"]);
      }
      expect(run?.status).toBe(completed && !report ? "completed" : "rolled_back");
    }
  });

  it("resolve/reject: one outcome each round", async () => {
    for (const { id, sides } of roundsOf("resolve-reject")) {
      const [resolved, rejected] = sides;
      const completed = value<CodeModeOutput>(resolved)?.status === "completed";
      expect(value(rejected)).toBe(!completed);
      expect(effects(ledger, id)).toEqual(completed ? ["apply a", "apply after yes"] : ["apply a"]);
      const run = await expectConsistent(runtime("resolve-reject"), id);
      expect(run?.status).toBe(completed ? "completed" : "rejected");
      if (!completed) expect(run?.calls[1]?.state).toBe("withdrawn");
    }
  });
});
