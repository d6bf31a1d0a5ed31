// The journal-integrity suite's host side: schedules of decisions (approve, reject, rollback, expiry
// with a tiny maximum age while a pass may be live, a new runtime over the same store, decisions
// racing each other, a pass aborted mid-call, a cancellation from this process or another, while a
// pass is live or between passes), and the driver that plays one program against one schedule and
// keeps a trace of everything the invariants need.
import {
  type AbortSignalLike,
  type CancelResult,
  type CodeModeOutput,
  type CodemodeRuntime,
  createCodemodeRuntime,
  type ExecuteRequest,
  type Executor,
  type JournalStore,
  type PendingAction,
  type RollbackReport,
  type RuntimeExecution,
} from "@codemode/core";
import fc from "fast-check";
import { type Invocation, Ledger } from "./integrity-ledger.ts";
import { type Program, programSource, SNIPPETS, usesSnippets } from "./integrity-programs.ts";

declare function setTimeout(callback: () => void, ms: number): unknown;
declare const AbortController: new () => {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
};

/**
 * What the host does to the pass it starts: nothing, expire runs while it is live, abort it
 * mid-call, or cancel its run mid-call (`runtime.cancel`) from this process or from another one
 * over the same journal (a runtime with its own registry of live passes).
 */
export type During = "none" | "expire" | "abort" | "cancel" | "cancelElsewhere";

/** Where a cancellation comes from: this process (the pass's own), or another one. */
export type CancelFrom = "here" | "elsewhere";

export type Action =
  | { kind: "approve"; during: During }
  | { kind: "reject" }
  | { kind: "rollback" }
  | { kind: "expire" }
  | { kind: "cancel"; from: CancelFrom }
  | { kind: "newRuntime" }
  /** the service moves (every method names another operation) and a new runtime is made */
  | { kind: "move" }
  | { kind: "race"; with: "approve" | "reject" | "rollback" | "cancel" };

export interface Schedule {
  /** what happens during the first pass (`execute`) */
  first: During;
  actions: Action[];
}

export interface Case {
  program: Program;
  schedule: Schedule;
}

const during = fc.oneof(
  { weight: 8, arbitrary: fc.constant<During>("none") },
  { weight: 2, arbitrary: fc.constant<During>("expire") },
  { weight: 2, arbitrary: fc.constant<During>("abort") },
  { weight: 1, arbitrary: fc.constant<During>("cancel") },
  { weight: 1, arbitrary: fc.constant<During>("cancelElsewhere") },
);
export const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  { weight: 8, arbitrary: during.map((value) => ({ kind: "approve" as const, during: value })) },
  { weight: 1, arbitrary: fc.constant({ kind: "reject" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "rollback" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "expire" as const }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<CancelFrom>("here", "elsewhere")
      .map((from) => ({ kind: "cancel" as const, from })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "newRuntime" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "move" as const }) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom("approve" as const, "reject" as const, "rollback" as const, "cancel" as const)
      .map((other) => ({ kind: "race" as const, with: other })),
  },
);
export const scheduleArbitrary: fc.Arbitrary<Schedule> = fc.record({
  first: during,
  actions: fc.array(actionArbitrary, { minLength: 0, maxLength: 5 }),
});

/** One return of `execute` or `approve`, with what stood at that moment. */
export interface Report {
  call: "execute" | "approve";
  executionId: string;
  output: CodeModeOutput;
  /** the call threw instead of returning its outcome as data */
  threw?: string;
  startedAt: number;
  at: number;
  /** whether this call ran a pass (a losing racer is told "not paused" and runs none) */
  ranPass: boolean;
  /** invocations of the run not settled when it returned */
  unsettled: Invocation[];
  /** the run's entries as the journal had them right after it returned */
  entries: RuntimeExecution["calls"];
}

export interface RollbackRecord {
  executionId: string;
  startedAt: number;
  at: number;
  report?: RollbackReport;
  /** seqs named in a rollback that threw (its details' failures) */
  failed: number[];
  error?: string;
}

export interface RejectRecord {
  executionId: string;
  seq: number;
  startedAt: number;
  at: number;
  accepted: boolean;
}

export interface ExpiryRecord {
  startedAt: number;
  at: number;
  expired: string[];
}

export interface CancelRecord {
  executionId: string;
  from: CancelFrom;
  startedAt: number;
  at: number;
  result?: CancelResult;
  /** the call threw instead of returning its result as data */
  threw?: string;
  /** invocations of the run not settled when it returned */
  unsettled: Invocation[];
}

export interface Observation {
  label: string;
  observed: { ok?: string; err?: Record<string, string | undefined> };
}

export interface PassRecord {
  startedAt: number;
  endedAt?: number;
  signal?: AbortSignalLike;
  observations: Observation[];
}

export interface Trace {
  source: string;
  ledger: Ledger;
  reports: Report[];
  rollbacks: RollbackRecord[];
  rejects: RejectRecord[];
  expiries: ExpiryRecord[];
  cancels: CancelRecord[];
  passes: PassRecord[];
  /** the program's run (the first execute's) */
  mainId?: string;
  /** every run in the store at the end, with its journal */
  executions: RuntimeExecution[];
  /** `pending()` at the end, and `pending(id)` of every run */
  pendingAll: PendingAction[];
  pendingOf: Record<string, PendingAction[]>;
}

export interface DriverOptions {
  createExecutor: () => Executor | Promise<Executor>;
  createStore: () => JournalStore | Promise<JournalStore>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** The codes of a decision refused because the run was not waiting for it (or is gone): no pass ran. */
const NO_PASS: ReadonlySet<string | undefined> = new Set(["NOT_PAUSED", "NOT_FOUND"]);
/** Long enough for every slow call (at most 50 ms) and timer of an ended pass to have fired. */
const SETTLE_MS = 60;

function parseObservations(logs: readonly string[]): Observation[] {
  const out: Observation[] = [];
  for (const line of logs) {
    const at = line.indexOf("@obs ");
    if (at < 0) continue;
    try {
      const [label, observed] = JSON.parse(line.slice(at + 5)) as [string, Observation["observed"]];
      out.push({ label, observed });
    } catch {
      // a line the program did not write whole
    }
  }
  return out;
}

/** Plays `testCase` against a new store; never throws for what the runtime does. */
export async function playCase(testCase: Case, options: DriverOptions): Promise<Trace> {
  const ledger = new Ledger();
  const store = await options.createStore();
  const source = programSource(testCase.program);
  const trace: Trace = {
    source,
    ledger,
    reports: [],
    rollbacks: [],
    rejects: [],
    expiries: [],
    cancels: [],
    passes: [],
    executions: [],
    pendingAll: [],
    pendingOf: {},
  };
  let abortNext = false;

  /** The executor as the runtime gets it: records each pass's observations, can abort it mid-call. */
  const observing = (inner: Executor): Executor => ({
    specificationVersion: "v1",
    async execute(request: ExecuteRequest) {
      const record: PassRecord = {
        startedAt: ledger.tick(),
        observations: [],
        ...(request.signal ? { signal: request.signal } : {}),
      };
      trace.passes.push(record);
      const controller = new AbortController();
      const forward = () => controller.abort(request.signal?.reason);
      if (request.signal?.aborted) forward();
      request.signal?.addEventListener("abort", forward, { once: true });
      let stopListening = () => {};
      if (abortNext) {
        abortNext = false;
        stopListening = ledger.onInvoke((invocation) => {
          if (invocation.signal !== request.signal) return;
          setTimeout(() => controller.abort(new Error("aborted mid-call by the suite")), 1);
        });
      }
      try {
        const outcome = await inner.execute({ ...request, signal: controller.signal });
        record.observations = parseObservations(outcome.logs);
        return outcome;
      } finally {
        stopListening();
        record.endedAt = ledger.tick();
      }
    },
  });
  const makeRuntime = async (): Promise<CodemodeRuntime> =>
    createCodemodeRuntime({
      store,
      executor: observing(await options.createExecutor()),
      connectors: [ledger.connector()],
    });
  let runtime = await makeRuntime();

  const report = async (
    call: "execute" | "approve",
    knownId: string | undefined,
    run: () => Promise<CodeModeOutput>,
  ): Promise<Report> => {
    const startedAt = ledger.note({ kind: call, ...(knownId ? { executionId: knownId } : {}) }).at;
    let output: CodeModeOutput;
    let threw: string | undefined;
    try {
      output = await run();
    } catch (error) {
      threw = messageOf(error);
      output = { status: "error", executionId: knownId ?? "", error: threw };
    }
    const at = ledger.note({
      kind: "reported",
      executionId: output.executionId,
      detail: output,
    }).at;
    const unsettled = ledger.unsettled(output.executionId).map((invocation) => ({ ...invocation }));
    let entries: RuntimeExecution["calls"] = [];
    try {
      entries = (await runtime.execution(output.executionId))?.calls ?? [];
    } catch {
      // a store that fails here fails the final read too
    }
    const ranPass = !(output.status === "error" && NO_PASS.has(output.code));
    const record: Report = {
      call,
      executionId: output.executionId,
      output,
      ...(threw !== undefined ? { threw } : {}),
      startedAt,
      at,
      ranPass,
      unsettled,
      entries,
    };
    trace.reports.push(record);
    return record;
  };

  /**
   * Starts a pass and, while it runs, expires runs (a tiny maximum age), cancels its run once a
   * call of it has reached the connector (or the pass has ended), or arms its abort.
   */
  const withDuring = async (mode: During, start: () => Promise<Report>, knownId?: string) => {
    if (mode === "abort") abortNext = true;
    const pass = start();
    if (mode === "expire" || mode === "cancel" || mode === "cancelElsewhere") {
      const before = ledger.invocations.length;
      for (let waited = 0; waited < 40 && ledger.invocations.length === before; waited++) {
        const done = await Promise.race([pass.then(() => true), sleep(1).then(() => false)]);
        if (done) break;
      }
      if (mode === "expire") {
        await sleep(3);
        await expire();
      } else {
        // the run a new pass stands for: the newest one, once it has been recorded
        const id = knownId ?? (await runtime.executions(1).catch(() => []))[0]?.id;
        if (id !== undefined) await cancel(id, mode === "cancel" ? "here" : "elsewhere");
      }
    }
    await pass;
    abortNext = false;
  };

  const expire = async () => {
    const startedAt = ledger.note({ kind: "expire" }).at;
    let expired: string[] = [];
    try {
      expired = await runtime.expirePaused({ maxAgeMs: 1 });
    } catch {
      // refused: nothing expired
    }
    const at = ledger.note({ kind: "expired", detail: expired }).at;
    trace.expiries.push({ startedAt, at, expired });
  };

  const approve = (id: string) => report("approve", id, () => runtime.approve({ executionId: id }));

  /** Another process over the same journal: its own registry of live passes, no pass of its own. */
  const elsewhere = async (): Promise<CodemodeRuntime> =>
    createCodemodeRuntime({
      store: { specificationVersion: "v1", journal: (name) => store.journal(name) },
      executor: await options.createExecutor(),
      connectors: [ledger.connector()],
    });

  const cancel = async (id: string, from: CancelFrom) => {
    const canceller = from === "here" ? runtime : await elsewhere();
    const startedAt = ledger.note({ kind: "cancel", executionId: id, detail: from }).at;
    const record: CancelRecord = { executionId: id, from, startedAt, at: 0, unsettled: [] };
    try {
      record.result = await canceller.cancel({ executionId: id, by: "the suite", reason: from });
    } catch (error) {
      record.threw = messageOf(error);
    }
    record.at = ledger.note({ kind: "cancelled", executionId: id, detail: record.result }).at;
    record.unsettled = ledger.unsettled(id).map((invocation) => ({ ...invocation }));
    trace.cancels.push(record);
  };

  const reject = async (id: string) => {
    // the person rejects the call `pending` shows them, so the decision starts once they have seen
    // it: a read that a busy store answers late can show a later pause than the one before it
    let seq = 0;
    try {
      seq = (await runtime.pending(id))[0]?.seq ?? 0;
    } catch {
      // nothing shown: the rejection names seq 0
    }
    const startedAt = ledger.note({ kind: "reject", executionId: id }).at;
    let accepted = false;
    try {
      accepted = await runtime.reject({ executionId: id, seq });
    } catch {
      accepted = false;
    }
    const at = ledger.note({ kind: "rejected", executionId: id, detail: { seq, accepted } }).at;
    trace.rejects.push({ executionId: id, seq, startedAt, at, accepted });
  };

  const rollback = async (id: string) => {
    const startedAt = ledger.note({ kind: "rollback", executionId: id }).at;
    const record: RollbackRecord = { executionId: id, startedAt, at: 0, failed: [] };
    try {
      record.report = await runtime.rollback({ executionId: id });
    } catch (error) {
      record.error = messageOf(error);
      const details = (error as { details?: Partial<RollbackReport> & { failures?: string[] } })
        ?.details;
      if (details && Array.isArray(details.reverted)) {
        record.report = { ...details, reverted: details.reverted } as RollbackReport;
        record.failed = (details.failures ?? []).flatMap((line) => {
          const match = /^#(\d+) /.exec(line);
          return match ? [Number(match[1])] : [];
        });
      }
    }
    record.at = ledger.note({ kind: "rolledBack", executionId: id, detail: record }).at;
    trace.rollbacks.push(record);
  };

  if (usesSnippets(testCase.program)) {
    for (const [name, code] of Object.entries(SNIPPETS)) {
      const setup = await report("execute", undefined, () => runtime.execute({ code }));
      await runtime.saveSnippet(name, { executionId: setup.executionId });
    }
  }

  let mainId: string | undefined;
  await withDuring(testCase.schedule.first, async () => {
    const first = await report("execute", undefined, () => runtime.execute({ code: source }));
    mainId = first.executionId;
    return first;
  });
  trace.mainId = mainId;
  const id = mainId ?? "";

  for (const action of testCase.schedule.actions) {
    switch (action.kind) {
      case "approve":
        await withDuring(action.during, () => approve(id), id);
        break;
      case "reject":
        await reject(id);
        break;
      case "rollback":
        await rollback(id);
        break;
      case "expire":
        await sleep(3);
        await expire();
        break;
      case "cancel":
        await cancel(id, action.from);
        break;
      case "newRuntime":
        runtime = await makeRuntime();
        break;
      case "move":
        ledger.move();
        runtime = await makeRuntime();
        break;
      case "race": {
        const other = {
          approve: () => approve(id),
          reject: () => reject(id),
          rollback: () => rollback(id),
          cancel: () => cancel(id, "here"),
        }[action.with];
        await Promise.all([approve(id), other()]);
        break;
      }
    }
  }

  await sleep(SETTLE_MS);
  const final = await makeRuntime();
  trace.executions = await final.executions(1_000);
  trace.pendingAll = await final.pending();
  for (const execution of trace.executions) {
    trace.pendingOf[execution.id] = await final.pending(execution.id);
  }
  return trace;
}

/** The case as a reader wants it in a failure: the program's source and the schedule. */
export function describeCase(testCase: Case): string {
  const first =
    testCase.schedule.first === "none" ? "" : ` (during it: ${testCase.schedule.first})`;
  const steps = testCase.schedule.actions.map((action) => {
    switch (action.kind) {
      case "approve":
        return action.during === "none" ? "approve" : `approve (during it: ${action.during})`;
      case "race":
        return `Promise.all([approve, ${action.with}])`;
      case "cancel":
        return action.from === "here" ? "cancel" : "cancel (from another process)";
      default:
        return action.kind;
    }
  });
  return [
    `program:\n${programSource(testCase.program)}`,
    `schedule: execute${first}${steps.map((step) => ` → ${step}`).join("")}`,
    `case: ${JSON.stringify(testCase)}`,
  ].join("\n");
}
