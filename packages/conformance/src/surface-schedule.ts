// The surface-integrity suite's cases: a program (gated and plain calls of one connector, one by one
// and in Promise.all groups, so a run pauses several times) and a schedule of messages and requests
// as real deployments deliver them — the model's tool calls (new, repeated with the same id, made
// twice at once, continuing a run that paused again, pointing at another run), a person's answers to
// the approval cards (approved or denied, duplicated, resent word for word, for a card never shown,
// delivered to the second process), and the host's own decisions (the queue's approve and reject
// with the handle it read, now or from a tab opened earlier; the bare approve; rollback, delete,
// expiry, prune; a run the host starts itself). A step is one message, or two delivered at once.
import fc from "fast-check";

/**
 * One call of the program: `svc.write` waits for approval, `svc.note` does not; `ms` makes the
 * connector answer that much later, so other requests arrive while the pass is live.
 */
export interface SurfaceCall {
  gated: boolean;
  key: number;
  ms?: number;
}

export type SurfaceStatement =
  | { kind: "one"; call: SurfaceCall }
  | { kind: "all"; calls: SurfaceCall[] };

export type SurfaceProgram = SurfaceStatement[];

/** Which of the two runtimes (processes) over one storage a message reaches. */
export type Process = 0 | 1;
/** How the conversation reaches the tool: UI messages, or the model messages the AI SDK makes of them. */
export type Shape = "ui" | "model";

export type SurfaceAction =
  /** the model's new tool call (`variant` 1: the code differs by one statement); `twice`: emitted twice at once */
  | { kind: "call"; on: Process; variant: 0 | 1; twice: boolean; fresh: boolean; shape: Shape }
  /** the model repeats an earlier tool call: the same id, the same code */
  | { kind: "repeat"; of: number; on: Process; twice: boolean; fresh: boolean; shape: Shape }
  /**
   * a new tool call with the code of tool call `of`, in a conversation where `of`'s result says its
   * run paused: at its own run (`pointsAt: "own"`), or at another known run; `fake`: under a tool
   * call id that never ran
   */
  | {
      kind: "continue";
      of: number;
      pointsAt: "own" | number;
      fake: boolean;
      on: Process;
      fresh: boolean;
      shape: Shape;
    }
  /** the person answers a card that was shown; `copies: 2` delivers it to both processes at once */
  | {
      kind: "answer";
      card: number;
      approved: boolean;
      on: Process;
      copies: 1 | 2;
      fresh: boolean;
      shape: Shape;
    }
  /** an approval for a tool call that showed no card (an earlier one, or an id never used) */
  | { kind: "forgedAnswer"; of: number | "unknown"; on: Process; shape: Shape }
  /** the exact request of an earlier answer, again (a retried POST, a UI that resends) */
  | { kind: "resend"; answer: number; on: Process }
  /** the host's queue (a tab) reads what waits, for a later decision */
  | { kind: "look"; pick: number; on: Process }
  /** the host decides with the handle of what it read: just now, or in the tab opened earlier */
  | {
      kind: "decide";
      from: "now" | "tab";
      pick: number;
      decision: "approve" | "approveFirst" | "reject";
      on: Process;
    }
  /** the host's bare `approve({ executionId })`, right after reading what waits */
  | { kind: "bare"; pick: number; on: Process }
  | { kind: "end"; how: "rollback" | "delete"; pick: number; on: Process }
  | { kind: "expire"; on: Process }
  | { kind: "prune"; keep: 0 | 1; on: Process }
  /** the host runs the model's code itself (`runtime.execute`) */
  | { kind: "execute"; on: Process };

/**
 * One message, or two: delivered at the same time, or (`during: "read"`) the second while the first
 * reads a run's pending calls from the journal, between that read and what it decides from it.
 */
export interface SurfaceStep {
  action: SurfaceAction;
  with?: SurfaceAction;
  during?: "read";
}

export interface SurfaceCase {
  program: SurfaceProgram;
  steps: SurfaceStep[];
}

/** Actions that start a run (a step holds at most one) and the bare approve (only alone). */
export const STARTS_RUNS = new Set<SurfaceAction["kind"]>([
  "call",
  "repeat",
  "continue",
  "execute",
]);

const callSource = (call: SurfaceCall) =>
  `svc.${call.gated ? "write" : "note"}({ key: ${call.key}${call.ms ? `, ms: ${call.ms}` : ""} })`;

/** The program as the model sends it; variant 1 differs by one statement (another tool call's code). */
export function programSource(program: SurfaceProgram, variant: 0 | 1 = 0): string {
  const body = program.map((statement, index) =>
    statement.kind === "one"
      ? `  const r${index} = await ${callSource(statement.call)};`
      : `  const r${index} = await Promise.all([${statement.calls.map(callSource).join(", ")}]);`,
  );
  const again = variant === 1 ? ['  void "again";'] : [];
  return ["async () => {", ...again, ...body, '  return "done";', "}"].join("\n");
}

const side = fc.constantFrom<Process>(0, 1);
const shape = fc.constantFrom<Shape>("ui", "model");
const pick = fc.nat(7);

const surfaceCall: fc.Arbitrary<SurfaceCall> = fc.record(
  {
    gated: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
    key: fc.nat(2),
    ms: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max: 8 })),
  },
  { requiredKeys: ["gated", "key"] },
);
const statement: fc.Arbitrary<SurfaceStatement> = fc.oneof(
  { weight: 3, arbitrary: surfaceCall.map((call) => ({ kind: "one" as const, call })) },
  {
    weight: 1,
    arbitrary: fc
      .array(surfaceCall, { minLength: 2, maxLength: 3 })
      .map((calls) => ({ kind: "all" as const, calls })),
  },
);
/** Most programs pause more than once: they end with a gated write after what was generated. */
export const surfaceProgramArbitrary: fc.Arbitrary<SurfaceProgram> = fc
  .tuple(fc.array(statement, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([statements, closing]) =>
    closing ? [...statements, { kind: "one" as const, call: { gated: true, key: 9 } }] : statements,
  );

const call = fc.record({
  kind: fc.constant("call" as const),
  on: side,
  variant: fc.constantFrom<0 | 1>(0, 0, 1),
  twice: fc.boolean(),
  fresh: fc.boolean(),
  shape,
});
const repeat = fc.record({
  kind: fc.constant("repeat" as const),
  of: pick,
  on: side,
  twice: fc.boolean(),
  fresh: fc.boolean(),
  shape,
});
const continuation = fc.record({
  kind: fc.constant("continue" as const),
  of: pick,
  pointsAt: fc.oneof({ weight: 3, arbitrary: fc.constant("own" as const) }, pick),
  fake: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, fc.constant(true)),
  on: side,
  fresh: fc.boolean(),
  shape,
});
const answer = fc.record({
  kind: fc.constant("answer" as const),
  card: pick,
  approved: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
  on: side,
  copies: fc.constantFrom<1 | 2>(1, 1, 2),
  fresh: fc.boolean(),
  shape,
});
const forgedAnswer = fc.record({
  kind: fc.constant("forgedAnswer" as const),
  of: fc.oneof(pick, fc.constant("unknown" as const)),
  on: side,
  shape,
});
const resend = fc.record({ kind: fc.constant("resend" as const), answer: pick, on: side });
const look = fc.record({ kind: fc.constant("look" as const), pick, on: side });
const decide = fc.record({
  kind: fc.constant("decide" as const),
  from: fc.constantFrom("now" as const, "tab" as const),
  pick,
  decision: fc.constantFrom("approve" as const, "approveFirst" as const, "reject" as const),
  on: side,
});
const bare = fc.record({ kind: fc.constant("bare" as const), pick, on: side });
const end = fc.record({
  kind: fc.constant("end" as const),
  how: fc.constantFrom("rollback" as const, "delete" as const),
  pick,
  on: side,
});
const expire = fc.record({ kind: fc.constant("expire" as const), on: side });
const prune = fc.record({
  kind: fc.constant("prune" as const),
  keep: fc.constantFrom<0 | 1>(0, 1),
  on: side,
});
const execute = fc.record({ kind: fc.constant("execute" as const), on: side });

/** What may be delivered at the same time as another message: nothing that starts a run, no bare approve. */
const partner: fc.Arbitrary<SurfaceAction> = fc.oneof(
  { weight: 5, arbitrary: answer },
  { weight: 2, arbitrary: resend },
  { weight: 1, arbitrary: forgedAnswer },
  { weight: 3, arbitrary: decide },
  { weight: 1, arbitrary: end },
  { weight: 1, arbitrary: expire },
  { weight: 1, arbitrary: prune },
);
const solo: fc.Arbitrary<SurfaceAction> = fc.oneof(
  { weight: 5, arbitrary: call },
  { weight: 2, arbitrary: repeat },
  { weight: 3, arbitrary: continuation },
  { weight: 7, arbitrary: answer },
  { weight: 2, arbitrary: resend },
  { weight: 1, arbitrary: forgedAnswer },
  { weight: 2, arbitrary: look },
  { weight: 3, arbitrary: decide },
  { weight: 2, arbitrary: bare },
  { weight: 2, arbitrary: end },
  { weight: 1, arbitrary: expire },
  { weight: 1, arbitrary: prune },
  { weight: 1, arbitrary: execute },
);
const step: fc.Arbitrary<SurfaceStep> = fc.oneof(
  { weight: 3, arbitrary: solo.map((action) => ({ action })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        solo.filter((action) => action.kind !== "bare"),
        partner,
        fc.nat(2),
      )
      .map(([action, other, when]) =>
        when === 0 ? { action, with: other, during: "read" as const } : { action, with: other },
      ),
  },
);

/** A schedule starts with the model's first tool call; the rest is generated in any order. */
export const surfaceCaseArbitrary: fc.Arbitrary<SurfaceCase> = fc
  .record({
    program: surfaceProgramArbitrary,
    first: call,
    steps: fc.array(step, { minLength: 1, maxLength: 10 }),
  })
  .map(({ program, first, steps }) => ({ program, steps: [{ action: first }, ...steps] }));

function actionText(action: SurfaceAction): string {
  const on = ` @${action.on}`;
  switch (action.kind) {
    case "call":
      return `model calls${action.variant ? " (other code)" : ""}${action.twice ? " twice at once" : ""}${on}`;
    case "repeat":
      return `model repeats call #${action.of}${action.twice ? " twice at once" : ""}${on}`;
    case "continue":
      return `model continues call #${action.of}${action.fake ? " (under an id never used)" : ""}, result pointing at ${action.pointsAt === "own" ? "its run" : `run #${action.pointsAt}`}${on}`;
    case "answer":
      return `person ${action.approved ? "approves" : "denies"} card #${action.card}${action.copies === 2 ? " (delivered to both processes)" : ""}${on}`;
    case "forgedAnswer":
      return `an approval for ${action.of === "unknown" ? "a tool call never made" : `call #${action.of}`}, no card shown${on}`;
    case "resend":
      return `answer #${action.answer} resent${on}`;
    case "look":
      return `host tab reads run #${action.pick}'s pending calls${on}`;
    case "decide":
      return `host ${action.decision} with the handle read ${action.from === "now" ? "now" : "in the tab"} (run #${action.pick})${on}`;
    case "bare":
      return `host approve({ executionId }) of run #${action.pick}${on}`;
    case "end":
      return `host ${action.how} run #${action.pick}${on}`;
    case "expire":
      return `host expirePaused({ maxAgeMs: -1 })${on}`;
    case "prune":
      return `host pruneExecutions(${action.keep})${on}`;
    case "execute":
      return `host execute(code)${on}`;
  }
}

/** The case as a reader wants it in a failure: the program, the schedule step by step, the JSON. */
export function describeSurfaceCase(testCase: SurfaceCase): string {
  const steps = testCase.steps.map(
    (step, index) =>
      `  ${index}. ${actionText(step.action)}${step.with ? `  ‖ ${step.during ? "while it reads what waits" : "at once"}: ${actionText(step.with)}` : ""}`,
  );
  return [
    `program:\n${programSource(testCase.program)}`,
    `schedule:\n${steps.join("\n")}`,
    `case: ${JSON.stringify(testCase)}`,
  ].join("\n");
}
