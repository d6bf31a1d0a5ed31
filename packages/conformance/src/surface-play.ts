// The surface-integrity suite's driver: plays one case against two runtimes over one storage (two
// processes) the way real deployments reach them — the model's tool calls through the AI SDK's
// `needsApproval` and `execute` with `{ toolCallId, messages }`, the person's answers as the
// messages of the next request, the host's queue and API, and (given their adapters) the TanStack
// AI chat route and MCP sessions (`surface-tanstack.ts`, `surface-mcp.ts`) — and keeps the oracle's
// ledger: every effect that reached the connector, every card and what it showed, every decision
// with the calls it was shown, every run started, every run the host or a person ended.
import {
  type CallContext,
  type CodeModeOutput,
  type CodemodeRuntime,
  type CodemodeTool,
  type CodemodeToolOutput,
  createCodemodeRuntime,
  decisionHandleOf,
  type Executor,
  type Journal,
  type JournalStore,
  type PendingAction,
  type RuntimeEvent,
} from "@codemode/core";
import { mockConnector } from "@codemode/core/test";
import { canonical } from "./integrity-ledger.ts";
import type { SurfaceAdapters } from "./surface-adapters.ts";
import { Conversation, messagesOf, pausedPointer, type ToolPart } from "./surface-conversation.ts";
import { mcpPlayer } from "./surface-mcp.ts";
import {
  type Process,
  programSource,
  type Shape,
  type SurfaceAction,
  type SurfaceCase,
  surfaceOf,
} from "./surface-schedule.ts";
import { tanstackPlayer } from "./surface-tanstack.ts";

/** One call that reached the connector: a real effect. */
export interface Effect {
  executionId: string;
  seq: number;
  idempotencyKey: string;
  method: string;
  /** canonical codec text of the input as received */
  input: string;
  gated: boolean;
  at: number;
  step: number;
}

/** A call as a person (or the host) was shown it. */
export interface ShownCall {
  executionId: string;
  seq: number;
  connector: string;
  method: string;
  /** canonical codec text of the input shown */
  input: string;
  digest: string;
}

/** An approval card the chat showed: what the tool call's approval request asks about. */
export interface Card {
  toolCallId: string;
  code: string;
  approvalId: string;
  executionId?: string;
  shown: ShownCall[];
  step: number;
}

/** A decision that arrived, with what its sender was shown. */
export interface Decision {
  step: number;
  by: string;
  approves: boolean;
  shown: ShownCall[];
}

/** Calls a decision alone in its step must run: they waited as shown when it was sent. */
export interface Expectation {
  step: number;
  by: string;
  calls: ShownCall[];
}

/** A decision the runtime told `onEvent` about, with the step it came in. */
export interface DecisionEvent {
  step: number;
  executionId: string;
  decision: "approved" | "rejected" | "resolved" | "cancelled";
  seqs: number[];
  source: string;
}

export interface StepRecord {
  index: number;
  /** how many runs the step may start, at least and at most */
  minRuns: number;
  maxRuns: number;
  /** a continuation that started no run must stand for the run its conversation pointed at */
  continuation?: { toolCallId: string; target: string; resultId?: string };
}

export interface SurfaceTrace {
  effects: Effect[];
  decisions: Decision[];
  cards: Card[];
  expectations: Expectation[];
  /** each run's first pass (a new run), with the step that started it */
  starts: Array<{ executionId: string; at: number; step: number }>;
  /** runs the host or a person's denial ended, and when the call that ended them returned */
  endings: Array<{ executionId: string; at: number; how: string }>;
  steps: StepRecord[];
  /** the runtime's own account of each decision (`onEvent`) */
  decisionEvents: DecisionEvent[];
  /** every denial that reached the server, with the calls its card showed */
  denials: Array<{ step: number; shown: ShownCall[] }>;
  /** what went wrong at once: a tool or host call that threw, a card about another run */
  violations: string[];
  /**
   * decisions that must decide nothing: sent by who may not decide the run they name (an MCP session
   * about a run of another session, runs not shared), or with a handle that names no call as shown
   */
  refusals: Array<{ step: number; executionId: string; by: string; solo: boolean }>;
  /** what the TanStack interrupts and MCP replies showed (their cards) */
  shownCards: Array<{ surface: "tanstack" | "mcp"; step: number; shown: ShownCall[] }>;
}

/** What the TanStack and MCP players share with the driver. */
export interface SurfaceContext {
  testCase: SurfaceCase;
  trace: SurfaceTrace;
  /** the step being played */
  step(): number;
  /** the ledger's clock */
  tick(): number;
  runtime(on: Process): CodemodeRuntime;
  /** runs `run`; a throw becomes a violation of the step */
  guard<T>(what: string, run: () => Promise<T>): Promise<T | undefined>;
  violation(what: string): void;
  /** whether every shown call still waits, as shown, in a paused run */
  stillWaits(calls: readonly ShownCall[]): Promise<boolean>;
  /** every run started so far, and those started in this step */
  knownRuns(): string[];
  startedNow(): string[];
  /** an MCP question is open: the message a step delivers meanwhile arrives now */
  questionOpen(): Promise<void>;
}

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

const shownOf = (action: PendingAction): ShownCall => ({
  executionId: action.executionId,
  seq: action.seq,
  connector: action.connector,
  method: action.method,
  input: canonical(action.args),
  digest: action.digest,
});

/** The pending calls of each paused run, in the order `pending()` lists them. */
function byRun(pending: readonly PendingAction[]): PendingAction[][] {
  const runs = new Map<string, PendingAction[]>();
  for (const action of pending) {
    runs.set(action.executionId, [...(runs.get(action.executionId) ?? []), action]);
  }
  return [...runs.values()];
}

const isOutcome = (output: CodemodeToolOutput | undefined): output is CodeModeOutput =>
  output !== undefined && output.status !== "running";

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
  /** what arrives while the next MCP question is open, before its answer (armed by a step) */
  let onQuestion: (() => Promise<unknown>) | undefined;
  const watched = (store: JournalStore): JournalStore => ({
    scope: store.scope ?? store,
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
      return new Proxy(journal, {
        get(target, key) {
          if (key === "listEntries") return listEntries;
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
  const tools = runtimes.map((each) => each.tool());
  // a route that makes its tool per request, or one kept by the process
  const toolOf = (on: Process, fresh: boolean): CodemodeTool =>
    fresh ? runtime(on).tool() : (tools[on] as CodemodeTool);
  const modelOutput = (output: unknown) => (tools[0] as CodemodeTool).toModelOutput({ output });

  const conversation = new Conversation();
  const callIds: string[] = [];
  const codeOf = new Map<string, string>();
  /** the run each tool call stands for, as far as the suite knows */
  const runOf = new Map<string, string>();
  const answers: Array<{ card: Card; messages: unknown[]; approved: boolean }> = [];
  /** tool calls whose request is in flight now: their approval request may be on its way */
  const inFlight = new Set<string>();
  let tab: PendingAction[] | undefined;
  const knownRuns = () => [...new Set(trace.starts.map((start) => start.executionId))];

  const guard = async <T>(what: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      trace.violations.push(`step ${step}: ${what} threw: ${messageOf(error)}`);
      return undefined;
    }
  };

  const final = async (outputs: AsyncIterable<CodemodeToolOutput>) => {
    let last: CodemodeToolOutput | undefined;
    for await (const output of outputs) last = output;
    return isOutcome(last) ? last : undefined;
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

  const deniedRuns = () =>
    new Set(
      conversation
        .parts()
        .filter((part) => part.state === "output-denied")
        .map((part) => runOf.get(part.toolCallId)),
    );

  /**
   * The model's tool call as the AI SDK runs it: `needsApproval`; when it asks, the card (its
   * descriptor read at once); when it does not, `execute` with the same messages.
   */
  const modelCall = async (
    on: Process,
    fresh: boolean,
    toolCallId: string,
    code: string,
    messages: unknown[],
  ): Promise<string | undefined> => {
    inFlight.add(toolCallId);
    try {
      return await askOrRun(toolOf(on, fresh), on, toolCallId, code, messages);
    } finally {
      inFlight.delete(toolCallId);
    }
  };

  const askOrRun = async (
    tool: CodemodeTool,
    on: Process,
    toolCallId: string,
    code: string,
    messages: unknown[],
  ): Promise<string | undefined> => {
    const asks = await guard(`needsApproval of ${toolCallId}`, async () =>
      tool.needsApproval ? tool.needsApproval({ code }, { toolCallId, messages }) : false,
    );
    if (asks === undefined) return undefined;
    if (asks) {
      const descriptor = await guard("approvalDescriptor", () =>
        runtime(on).approvalDescriptor(toolCallId, code),
      );
      const card: Card = {
        toolCallId,
        code,
        approvalId: `approval-${toolCallId}-${trace.cards.length}`,
        ...(descriptor ? { executionId: descriptor.executionId } : {}),
        shown: (descriptor?.pending ?? []).map(shownOf),
        step,
      };
      trace.cards.push(card);
      const copies = conversation.get(toolCallId)?.copies;
      conversation.set({
        toolCallId,
        code,
        state: "approval-requested",
        approval: { id: card.approvalId },
        ...(copies ? { copies } : {}),
      });
      return card.executionId;
    }
    const output = await guard(`execute of ${toolCallId}`, () =>
      final(tool.execute({ code }, { toolCallId, messages })),
    );
    if (!output) return undefined;
    const before = conversation.get(toolCallId);
    conversation.set({
      toolCallId,
      code,
      state: "output-available",
      ...(before?.approval ? { approval: before.approval } : {}),
      ...(before?.copies ? { copies: before.copies } : {}),
      output,
    });
    return output.executionId || undefined;
  };

  const render = (parts: ToolPart[], shape: Shape) => messagesOf(parts, shape, modelOutput);

  /** The conversation holds `more` further tool calls under the id `toolCallId`. */
  const addCopies = (toolCallId: string, code: string, more: number) => {
    const part = conversation.get(toolCallId) ?? { toolCallId, code, state: "approval-requested" };
    conversation.set({ ...part, copies: (part.copies ?? 1) + more });
  };

  /**
   * The person's answer reaching the server: an approval runs the tool, a denial is rejected. Each
   * request parses its own copy of the conversation (one request hands every call the same array).
   */
  const deliverAnswer = async (
    on: Process,
    fresh: boolean,
    toolCallId: string,
    code: string,
    approved: boolean,
    sent: unknown[],
  ): Promise<CodeModeOutput | undefined> => {
    const messages = JSON.parse(JSON.stringify(sent)) as unknown[];
    if (approved) {
      return guard(`execute of the answer to ${toolCallId}`, () =>
        final(toolOf(on, fresh).execute({ code }, { toolCallId, messages })),
      );
    }
    const ended = await guard("rejectDenied", () => runtime(on).rejectDenied(messages));
    const at = tick();
    for (const executionId of ended ?? []) {
      trace.endings.push({ executionId, at, how: "a person's denial" });
    }
    return undefined;
  };

  const hostApprove = async (
    on: Process,
    solo: boolean,
    by: string,
    pending: PendingAction[],
    seqs?: number[],
  ) => {
    const [first] = pending;
    if (!first) return;
    const approved = seqs ? pending.filter((action) => seqs.includes(action.seq)) : pending;
    const shown = approved.map(shownOf);
    trace.decisions.push({ step, by, approves: true, shown });
    if (solo && (await stillWaits(shown))) trace.expectations.push({ step, by, calls: shown });
    const handle = decisionHandleOf(pending);
    await guard(by, () =>
      runtime(on).approve({ executionId: first.executionId, handle, ...(seqs ? { seqs } : {}) }),
    );
  };

  /**
   * The run a new call of `code` continues, if the conversation points at one that the journal
   * confirms: the earlier call stands for it (as far as the suite knows); `paused` when that run was
   * paused just before (read alone in its step), so the call must continue it.
   */
  const continues = async (parts: readonly ToolPart[], code: string, solo: boolean) => {
    const pointer = pausedPointer(parts, code);
    if (!pointer || pointer.executionId === "") return undefined;
    if (runOf.get(pointer.toolCallId) !== pointer.executionId) return undefined;
    const status = solo ? (await runtime(0).execution(pointer.executionId))?.status : undefined;
    return { target: pointer.executionId, paused: status === "paused" };
  };

  /** What a new tool call stands for, and how many runs it may start. */
  const settleNewCall = (
    record: StepRecord,
    toolCallId: string,
    pointer: { target: string; paused: boolean } | undefined,
    ids: Array<string | undefined>,
  ) => {
    const started = trace.starts.find((start) => start.step === step)?.executionId;
    const resultId = ids.find((id) => id !== undefined);
    const id = started ?? pointer?.target ?? resultId;
    if (id) runOf.set(toolCallId, id);
    for (const other of ids) {
      if (started && other !== undefined && other !== started) {
        trace.violations.push(
          `step ${step}: tool call ${toolCallId} started run ${started.slice(-8)} but its card or result is about run ${other.slice(-8)}`,
        );
      }
    }
    if (!pointer) return { min: 1, max: 1 };
    record.continuation = {
      toolCallId,
      target: pointer.target,
      ...(resultId !== undefined ? { resultId } : {}),
    };
    // a paused run the journal says the earlier call stands for is continued, not started again
    return { min: 0, max: pointer.paused ? 0 : 1 };
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
    switch (action.kind) {
      case "call": {
        const toolCallId = `call-${callIds.length}`;
        const code = programSource(testCase.program, action.variant);
        const parts = conversation.parts();
        callIds.push(toolCallId);
        codeOf.set(toolCallId, code);
        const messages = render(parts, action.shape);
        const once = () => modelCall(action.on, action.fresh, toolCallId, code, messages);
        const pointer = await continues(parts, code, solo);
        const ids = await Promise.all(action.twice ? [once(), once()] : [once()]);
        if (action.twice) addCopies(toolCallId, code, 1);
        return settleNewCall(record, toolCallId, pointer, ids);
      }
      case "repeat": {
        // nothing to repeat before the model's first AI SDK tool call (the first came elsewhere)
        if (callIds.length === 0) return { min: 0, max: 0 };
        const toolCallId = callIds[action.of % callIds.length] as string;
        const code = codeOf.get(toolCallId) as string;
        const messages = render(conversation.parts(), action.shape);
        const once = () => modelCall(action.on, action.fresh, toolCallId, code, messages);
        await Promise.all(action.twice ? [once(), once()] : [once()]);
        // the conversation now holds the call once more (twice more if it came twice at once)
        addCopies(toolCallId, code, action.twice ? 2 : 1);
        return { min: 0, max: 0 };
      }
      case "continue": {
        if (callIds.length === 0) return { min: 0, max: 0 };
        const earlier = callIds[action.of % callIds.length] as string;
        const code = codeOf.get(earlier) as string;
        const runs = knownRuns();
        const target =
          action.pointsAt === "own"
            ? (runOf.get(earlier) ?? "")
            : (runs[action.pointsAt % Math.max(runs.length, 1)] ?? "");
        const pointedBy = action.fake ? `ghost-${step}` : earlier;
        // the conversation's last result of this code says the run paused
        const parts = [
          ...conversation.parts().filter((part) => part.toolCallId !== pointedBy),
          {
            toolCallId: pointedBy,
            code,
            state: "output-available" as const,
            output: { status: "paused", executionId: target, pending: [] },
          },
        ];
        const messages = render(parts, action.shape);
        const toolCallId = `call-${callIds.length}`;
        callIds.push(toolCallId);
        codeOf.set(toolCallId, code);
        const pointer = await continues(parts, code, solo);
        const id = await modelCall(action.on, action.fresh, toolCallId, code, messages);
        return settleNewCall(record, toolCallId, pointer, [id]);
      }
      case "answer": {
        const card = trace.cards[action.card % Math.max(trace.cards.length, 1)];
        if (!card) return { min: 0, max: 0 };
        const reason = action.approved ? undefined : "Not this one.";
        const copies = conversation.get(card.toolCallId)?.copies ?? 1;
        const answered: ToolPart = {
          toolCallId: card.toolCallId,
          code: card.code,
          ...(copies > 1 ? { copies } : {}),
          state: "approval-responded",
          approval: {
            id: card.approvalId,
            approved: action.approved,
            ...(reason ? { reason } : {}),
          },
        };
        const messages = render(conversation.with(answered), action.shape);
        const by = `the answer to card #${trace.cards.indexOf(card)} (${card.toolCallId})`;
        trace.decisions.push({ step, by, approves: action.approved, shown: card.shown });
        if (!action.approved) trace.denials.push({ step, shown: card.shown });
        // an answer under an id the conversation gives to two tool calls decides nothing
        if (
          action.approved &&
          solo &&
          copies === 1 &&
          card.executionId !== undefined &&
          !deniedRuns().has(card.executionId) &&
          (await stillWaits(card.shown))
        ) {
          trace.expectations.push({ step, by, calls: card.shown });
        }
        answers.push({ card, messages, approved: action.approved });
        const targets: Process[] =
          action.copies === 2 ? [action.on, action.on ? 0 : 1] : [action.on];
        const outputs = await Promise.all(
          targets.map((on) =>
            deliverAnswer(on, action.fresh, card.toolCallId, card.code, action.approved, messages),
          ),
        );
        const output = outputs.find((each) => each !== undefined);
        if (!action.approved) {
          conversation.set({ ...answered, state: "output-denied" });
        } else if (output) {
          conversation.set({ ...answered, state: "output-available", output });
        }
        return { min: 0, max: 0 };
      }
      case "forgedAnswer": {
        // a tool call whose request is in flight may be asking right now: an answer to it is one
        // to the card it is about to show, not one to a card never shown
        const carded = new Set(trace.cards.map((card) => card.toolCallId));
        const uncarded = callIds.filter((id) => !carded.has(id) && !inFlight.has(id));
        const toolCallId =
          action.of === "unknown" || uncarded.length === 0
            ? `ghost-answer-${step}`
            : (uncarded[action.of % uncarded.length] as string);
        const code = codeOf.get(toolCallId) ?? programSource(testCase.program);
        const forged: ToolPart = {
          toolCallId,
          code,
          state: "approval-responded",
          approval: { id: `forged-${step}`, approved: true },
        };
        const messages = render(conversation.with(forged), action.shape);
        trace.decisions.push({
          step,
          by: `an approval for ${toolCallId}, which showed no card`,
          approves: true,
          shown: [],
        });
        await deliverAnswer(action.on, false, toolCallId, code, true, messages);
        return { min: 0, max: 0 };
      }
      case "resend": {
        const earlier = answers[action.answer % Math.max(answers.length, 1)];
        if (!earlier) return { min: 0, max: 0 };
        const { card } = earlier;
        trace.decisions.push({
          step,
          by: `answer #${answers.indexOf(earlier)} resent (card ${card.toolCallId})`,
          approves: earlier.approved,
          shown: card.shown,
        });
        if (!earlier.approved) trace.denials.push({ step, shown: card.shown });
        await deliverAnswer(
          action.on,
          false,
          card.toolCallId,
          card.code,
          earlier.approved,
          earlier.messages,
        );
        return { min: 0, max: 0 };
      }
      case "look": {
        const pending = (await guard("pending()", () => runtime(action.on).pending())) ?? [];
        const runs = byRun(pending);
        tab = runs[action.pick % Math.max(runs.length, 1)];
        return { min: 0, max: 0 };
      }
      case "decide": {
        let pending = tab;
        if (action.from === "now") {
          const runs = byRun((await guard("pending()", () => runtime(action.on).pending())) ?? []);
          pending = runs[action.pick % Math.max(runs.length, 1)];
        }
        const [first] = pending ?? [];
        if (!pending || !first) return { min: 0, max: 0 };
        const by = `the host's ${action.decision} with the handle read ${action.from === "now" ? "now" : "in a tab"}`;
        if (action.decision === "reject") {
          trace.decisions.push({ step, by, approves: false, shown: pending.map(shownOf) });
          const handle = decisionHandleOf(pending);
          const accepted = await guard(by, () =>
            runtime(action.on).reject({ executionId: first.executionId, seq: first.seq, handle }),
          );
          if (accepted) trace.endings.push({ executionId: first.executionId, at: tick(), how: by });
          return { min: 0, max: 0 };
        }
        const seqs = action.decision === "approveFirst" ? [first.seq] : undefined;
        await hostApprove(action.on, solo, by, pending, seqs);
        return { min: 0, max: 0 };
      }
      case "bare": {
        const runs = byRun((await guard("pending()", () => runtime(action.on).pending())) ?? []);
        const pending = runs[action.pick % Math.max(runs.length, 1)];
        const [first] = pending ?? [];
        if (!pending || !first) return { min: 0, max: 0 };
        const by = "the host's bare approve({ executionId })";
        const shown = pending.map(shownOf);
        // what waits when it is called is what the host read just before
        trace.decisions.push({ step, by, approves: true, shown });
        trace.expectations.push({ step, by, calls: shown });
        await guard(by, () => runtime(action.on).approve({ executionId: first.executionId }));
        return { min: 0, max: 0 };
      }
      case "end": {
        const runs = knownRuns();
        const executionId = runs[action.pick % Math.max(runs.length, 1)];
        if (executionId === undefined) return { min: 0, max: 0 };
        if (action.how === "delete") {
          const removed = await guard("deleteExecution", () =>
            runtime(action.on).deleteExecution(executionId),
          );
          if (removed) trace.endings.push({ executionId, at: tick(), how: "deleteExecution" });
        } else {
          try {
            await runtime(action.on).rollback({ executionId });
            trace.endings.push({ executionId, at: tick(), how: "rollback" });
          } catch {
            // refused (a running run, a run the journal no longer has): it ended nothing
          }
        }
        return { min: 0, max: 0 };
      }
      case "expire": {
        const expired = await guard("expirePaused", () =>
          runtime(action.on).expirePaused({ maxAgeMs: -1 }),
        );
        const at = tick();
        for (const executionId of expired ?? []) {
          trace.endings.push({ executionId, at, how: "expirePaused" });
        }
        return { min: 0, max: 0 };
      }
      case "prune":
        await guard("pruneExecutions", () => runtime(action.on).pruneExecutions(action.keep));
        return { min: 0, max: 0 };
      case "execute":
        await guard("execute", () =>
          runtime(action.on).execute({ code: programSource(testCase.program) }),
        );
        return { min: 1, max: 1 };
      default:
        return { min: 0, max: 0 };
    }
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
        // the second message arrives while the first reads what waits, or while an MCP question of
        // the first is open (or after it, if it reads or asks none)
        let arrived: Promise<{ min: number; max: number }> | undefined;
        const arrive = () => {
          arrived = play(other, false, record);
          return arrived;
        };
        if (planned.during === "read") onPendingRead = arrive;
        else onQuestion = arrive;
        const first = await play(planned.action, false, record);
        onPendingRead = undefined;
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
