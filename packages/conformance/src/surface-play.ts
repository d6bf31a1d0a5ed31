// The surface-integrity suite's driver: plays one case against two runtimes over one storage (two
// processes) the way real deployments reach them — the model's tool calls through the AI SDK's
// `needsApproval` and `execute` with `{ toolCallId, messages }`, the person's answers as the
// messages of the next request, the host's queue and API, and (given their adapters) the TanStack
// AI chat route and MCP sessions (`surface-tanstack.ts`, `surface-mcp.ts`) — and keeps the oracle's
// ledger: every effect that reached the connector, every card and what it showed, every decision
// with the calls it was shown, every run started, every run the host or a person ended.
import {
  type CallContext,
  type CodemodeRuntime,
  createCodemodeRuntime,
  type Executor,
  type Journal,
  type JournalStore,
  type RuntimeEvent,
} from "@codemode/core";
import { mockConnector } from "@codemode/core/test";
import { canonical } from "./integrity-ledger.ts";
import type { SurfaceAdapters } from "./surface-adapters.ts";
import { type AiSdkAction, aiSdkPlayer } from "./surface-ai-sdk.ts";
import { type Process, type SurfaceAction, type SurfaceCase, surfaceOf } from "./surface-case.ts";
import type { SurfaceContext } from "./surface-context.ts";
import { type HostAction, hostPlayer } from "./surface-host.ts";
import { mcpPlayer } from "./surface-mcp.ts";
import { tanstackPlayer } from "./surface-tanstack.ts";
import type { ShownCall, StepRecord, SurfaceTrace } from "./surface-trace.ts";

export interface SurfaceDriverOptions {
  createExecutor: () => Executor | Promise<Executor>;
  /** two stores over one new, empty storage, as two processes open it */
  createStores: () =>
    | readonly [JournalStore, JournalStore]
    | Promise<readonly [JournalStore, JournalStore]>;
  /** the TanStack AI and MCP surfaces, for the cases whose schedules use them */
  surfaces?: SurfaceAdapters;
}

declare function setTimeout(callback: () => void, ms: number): unknown;

const OBJECT = { type: "object" as const };
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The actions the AI SDK binding's player takes; the host's player takes the rest. */
const AI_SDK_ACTIONS = new Set<SurfaceAction["kind"]>([
  "call",
  "repeat",
  "continue",
  "answer",
  "forgedAnswer",
  "resend",
]);

/** Plays `testCase` against two new runtimes over one new storage; never throws for what they do. */
export async function playSurfaceCase(
  testCase: SurfaceCase,
  options: SurfaceDriverOptions,
): Promise<SurfaceTrace> {
  let clock = 0;
  const tick = () => ++clock;
  let step = -1;
  const trace: SurfaceTrace = {
    effects: [],
    decisions: [],
    cards: [],
    expectations: [],
    starts: [],
    endings: [],
    takes: [],
    steps: [],
    decisionEvents: [],
    denials: [],
    violations: [],
    refusals: [],
    shownCards: [],
  };
  const effect = async (gated: boolean, input: unknown, context: CallContext) => {
    trace.effects.push({
      executionId: context.executionId,
      seq: context.seq,
      idempotencyKey: context.idempotencyKey,
      method: gated ? "write" : "note",
      input: canonical(input),
      gated,
      at: tick(),
      step,
    });
    const { key, ms } = (input ?? {}) as { key?: unknown; ms?: unknown };
    if (typeof ms === "number" && ms > 0)
      await new Promise<void>((resolve) => setTimeout(() => resolve(), ms));
    return { written: key ?? null };
  };
  // the connector, made anew for every runtime as an application does; both write to one ledger
  const connector = () =>
    mockConnector({
      name: "svc",
      methods: {
        note: {
          description: "Write a note (no approval).",
          inputSchema: OBJECT,
          execute: (input, context) => effect(false, input, context),
        },
        write: {
          description: "Write a record.",
          inputSchema: OBJECT,
          requiresApproval: true,
          execute: (input, context) => effect(true, input, context),
          revert: () => undefined,
        },
      },
    });
  const onEvent = (event: RuntimeEvent) => {
    if (event.type === "pass-start" && event.recorded === 0) {
      trace.starts.push({ executionId: event.executionId, at: tick(), step });
    }
    if (event.type === "decision") {
      const { executionId, decision, seqs, source } = event;
      trace.decisionEvents.push({ step, executionId, decision, seqs: [...seqs], source });
    }
  };
  /** what arrives while the next read of a run's pending calls is in flight (armed by a step) */
  let onPendingRead: (() => Promise<unknown>) | undefined;
  /** what arrives once the next write that takes a paused run has been made (armed by a step) */
  let onTake: (() => Promise<unknown>) | undefined;
  /** what arrives while the next MCP question is open, before its answer (armed by a step) */
  let onQuestion: (() => Promise<unknown>) | undefined;
  const watched = (store: JournalStore): JournalStore => ({
    specificationVersion: "v1",
    // the same process as the store it watches: its passes and approvals in flight are known
    ...(store.local ? { local: store.local } : {}),
    journal(name) {
      const journal = store.journal(name);
      const listEntries: Journal["listEntries"] = async (executionId, filter) => {
        const entries = await journal.listEntries(executionId, filter);
        const arrives = onPendingRead;
        if (arrives && filter?.states?.includes("pending")) {
          onPendingRead = undefined;
          await arrives();
        }
        return entries;
      };
      const updateExecution: Journal["updateExecution"] = async (id, expected, patch, lease) => {
        const written = await journal.updateExecution(id, expected, patch, lease);
        const arrives = onTake;
        if (arrives && written && patch.status === "running" && expected.includes("paused")) {
          onTake = undefined;
          await arrives();
        }
        return written;
      };
      // a write that lets a call start, noted as it is sent (see `SurfaceTrace.takes`)
      const putEntry: Journal["putEntry"] = (entry, lease) => {
        if (entry.state === "executing") {
          trace.takes.push({ executionId: entry.executionId, seq: entry.seq, at: tick() });
        }
        return journal.putEntry(entry, lease);
      };
      const updateEntry: Journal["updateEntry"] = (
        executionId,
        seq,
        expected,
        patch,
        condition,
      ) => {
        if (patch.state === "executing") trace.takes.push({ executionId, seq, at: tick() });
        return journal.updateEntry(executionId, seq, expected, patch, condition);
      };
      return new Proxy(journal, {
        get(target, key) {
          if (key === "listEntries") return listEntries;
          if (key === "updateExecution") return updateExecution;
          if (key === "putEntry") return putEntry;
          if (key === "updateEntry") return updateEntry;
          const value = Reflect.get(target, key, target);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    },
  });
  const stores = (await options.createStores()).map(watched);
  const runtimes: CodemodeRuntime[] = [];
  for (const store of stores) {
    runtimes.push(
      createCodemodeRuntime({
        store,
        executor: await options.createExecutor(),
        connectors: [connector()],
        maxExecutions: 2,
        onEvent,
      }),
    );
  }
  const runtime = (on: Process) => runtimes[on] as CodemodeRuntime;
  const knownRuns = () => [...new Set(trace.starts.map((start) => start.executionId))];

  const guard = async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      trace.violations.push(`step ${step}: ${what} threw: ${messageOf(error)}`);
      return undefined;
    }
  };

  /** Whether every shown call still waits, as shown, in a paused run (read through process 0). */
  const stillWaits = async (calls: readonly ShownCall[]) => {
    const [first] = calls;
    if (!first) return false;
    const waiting = await runtime(0).pending(first.executionId);
    return calls.every((call) =>
      waiting.some((action) => action.seq === call.seq && action.digest === call.digest),
    );
  };

  const context: SurfaceContext = {
    testCase,
    trace,
    step: () => step,
    tick,
    runtime,
    guard,
    violation: (what) => trace.violations.push(`step ${step}: ${what}`),
    stillWaits,
    knownRuns,
    questionOpen: async () => {
      const arrives = onQuestion;
      onQuestion = undefined;
      await arrives?.();
    },
    startedNow: () =>
      trace.starts.filter((start) => start.step === step).map((start) => start.executionId),
  };
  const aiSdk = aiSdkPlayer(context);
  const host = hostPlayer(context);
  const tanstack = options.surfaces?.tanstack && tanstackPlayer(context, options.surfaces.tanstack);
  const mcp = options.surfaces?.mcp && mcpPlayer(context, options.surfaces.mcp);

  /** Plays one action; returns how many runs it may start, at least and at most. */
  const play = async (
    action: SurfaceAction,
    solo: boolean,
    record: StepRecord,
  ): Promise<{ min: number; max: number }> => {
    const surface = surfaceOf(action);
    if (surface) {
      const player = surface === "tanstack" ? tanstack : mcp;
      if (!player)
        throw new Error(`This suite was given no ${surface} surface for: ${action.kind}.`);
      return player.play(action, solo);
    }
    return AI_SDK_ACTIONS.has(action.kind)
      ? aiSdk.play(action as AiSdkAction, solo, record)
      : host.play(action as HostAction, solo);
  };

  try {
    await playSteps();
  } finally {
    await mcp?.close();
  }
  step = testCase.steps.length;
  return trace;

  async function playSteps() {
    for (const [index, planned] of testCase.steps.entries()) {
      step = index;
      const record: StepRecord = { index, minRuns: 0, maxRuns: 0 };
      let bounds: Array<{ min: number; max: number }>;
      const other = planned.with;
      if (other && planned.during) {
        // the second message arrives while the first reads what waits, once it has taken a paused
        // run, or while an MCP question of the first is open (or after it, if it reads, takes or
        // asks none)
        let arrived: Promise<{ min: number; max: number }> | undefined;
        const arrive = () => {
          arrived = play(other, false, record);
          return arrived;
        };
        if (planned.during === "read") onPendingRead = arrive;
        else if (planned.during === "take") onTake = arrive;
        else onQuestion = arrive;
        const first = await play(planned.action, false, record);
        onPendingRead = undefined;
        onTake = undefined;
        onQuestion = undefined;
        bounds = [first, await (arrived ?? play(other, false, record))];
      } else {
        const actions = other ? [planned.action, other] : [planned.action];
        bounds = await Promise.all(
          actions.map((action) => play(action, actions.length === 1, record)),
        );
      }
      record.minRuns = bounds.reduce((sum, bound) => sum + bound.min, 0);
      record.maxRuns = bounds.reduce((sum, bound) => sum + bound.max, 0);
      trace.steps.push(record);
    }
  }
}
