// The surface-integrity suite's cases: a program (gated and plain calls of one connector, one by one
// and in Promise.all groups, so a run pauses several times) and a schedule of messages and requests
// as real deployments deliver them — the model's tool calls (new, repeated with the same id, made
// twice at once, continuing a run that paused again, pointing at another run), a person's answers to
// the approval cards (approved or denied, duplicated, resent word for word, for a card never shown,
// delivered to the second process), and the host's own decisions (the queue's approve and reject
// with the handle it read, now or from a tab opened earlier; the bare approve; rollback, delete,
// expiry, prune; a run the host starts itself). With the TanStack AI and MCP surfaces given
// (`surface-adapters.ts`), schedules also carry their messages: TanStack chat requests whose model
// calls the `codemode` tool, continuations answering its interrupts (approved, denied, cancelled,
// sent twice, resent, with a payload the client altered or pointed at another run) and later turns
// that only say "approve"; MCP sessions over either process (elicitation, or `client-tools`, runs
// shared across sessions or not) whose client runs code, answers the server's questions, lists what
// waits and approves or rejects with a handle, its own or another session's, forged, twice, resent.
// A step is one message, or two delivered at once.
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

/** How the person behind an MCP client answers one elicitation question of the server. */
export type ElicitAnswer =
  /** accepts the form with `approve: true` */
  | "approve"
  /** accepts the form with `approve: false` */
  | "deny"
  | "decline"
  | "cancel"
  /** the client fails the question (an error response) */
  | "fail"
  /** the client cancels its `codemode` call while the question is open, and never answers */
  | "abort";

/**
 * An MCP session of a case: a codemode MCP server (`registerCodemodeTools`) over one process's
 * runtime, connected to its own MCP client.
 */
export interface McpSessionSpec {
  on: Process;
  approvals: "elicitation" | "client-tools";
  /** the host's `shareRunsAcrossSessions` for this session: it may decide every run */
  share: boolean;
  /** whether the client said at `initialize` that it answers form elicitation */
  elicits: boolean;
}

/** What a TanStack continuation sends back for an interrupt it answers. */
export type PayloadShown =
  /** the payload as the server sent it, shown to the person */
  | "asSent"
  /** a client that showed (and sends back) another input for the first call */
  | "altered"
  /** the payload pointing at another known run (`pick`), with the calls of the card */
  | "otherRun";

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
  | { kind: "execute"; on: Process }
  /**
   * TanStack AI: a new chat request whose model turn calls the `codemode` tool (once, or twice in
   * one turn, under two ids or `sameId`); every run that pauses becomes an interrupt (a card)
   */
  | { kind: "tsCall"; on: Process; calls: 1 | 2; sameId: boolean }
  /**
   * TanStack AI: the continuation answering interrupt `card` (counted back from the newest, 0),
   * approved, denied or cancelled; `others`: it also answers every other interrupt its chat run
   * ended with, so; `copies: 2` sends it to both processes at once; `shown` says what the client
   * sent back as the payload (and showed); `pick` names the other run of `shown: "otherRun"`
   */
  | {
      kind: "tsAnswer";
      card: number;
      answer: "approve" | "deny" | "cancel";
      others?: "approve" | "deny";
      on: Process;
      copies: 1 | 2;
      shown: PayloadShown;
      pick: number;
    }
  /** TanStack AI: the exact continuation of an earlier `tsAnswer` again */
  | { kind: "tsResend"; answer: number; on: Process }
  /**
   * TanStack AI: a later request with interrupt `card`'s history (counted back from the newest) and
   * "approve it" from the user, no resume
   */
  | { kind: "tsSay"; card: number; on: Process }
  /**
   * MCP: session `session`'s client calls `codemode`; an elicitation session's person answers the
   * questions in turn with `answers` (then fails any further one)
   */
  | { kind: "mcpCall"; session: number; answers: ElicitAnswer[] }
  /**
   * MCP: the session's client calls `codemode_pending` (for known run `run`, perhaps another
   * session's); every run it lists becomes a card
   */
  | { kind: "mcpList"; session: number; run?: number }
  /**
   * MCP: the client of session `session` (`"card"`: the session that was shown the card) calls
   * `codemode_approve` with MCP card `card`'s handle (counted back from the newest, 0), as given
   * (`forge: "none"`), with a digest changed, or pointed at another known run (`pick`); `copies: 2`
   * sends the request twice at once
   */
  | {
      kind: "mcpApprove";
      session: number | "card";
      card: number;
      forge: "none" | "digest" | "otherRun";
      pick: number;
      copies: 1 | 2;
    }
  /**
   * MCP: the session's client (as for `mcpApprove`) calls `codemode_reject` for the first call of
   * MCP card `card`, with its handle forged as `mcpApprove` may
   */
  | {
      kind: "mcpReject";
      session: number | "card";
      card: number;
      forge: "none" | "digest" | "otherRun";
      pick: number;
    }
  /** MCP: the exact request of an earlier `mcpApprove` again, through session `session` */
  | { kind: "mcpResend"; approval: number; session: number };

/**
 * One message, or two: delivered at the same time, or (`during: "read"`) the second while the first
 * reads a run's pending calls from the journal, between that read and what it decides from it, or
 * (`during: "question"`) while a question of the first (an MCP elicitation) waits for its answer.
 */
export interface SurfaceStep {
  action: SurfaceAction;
  with?: SurfaceAction;
  during?: "read" | "question";
}

export interface SurfaceCase {
  program: SurfaceProgram;
  steps: SurfaceStep[];
  /** the MCP sessions the schedule's MCP actions go through (session `i % sessions.length`) */
  sessions?: McpSessionSpec[];
}

/**
 * Actions that start a run: a step holds at most one, but for two of the TanStack, MCP and host
 * ones at once (the AI SDK binding's are always alone); the bare approve is only alone.
 */
export const STARTS_RUNS = new Set<SurfaceAction["kind"]>([
  "call",
  "repeat",
  "continue",
  "execute",
  "tsCall",
  "mcpCall",
]);

/** The surfaces a case's actions need besides the AI SDK binding and the host API. */
export type SurfaceName = "tanstack" | "mcp";

export function surfaceOf(action: SurfaceAction): SurfaceName | undefined {
  if (action.kind.startsWith("ts")) return "tanstack";
  if (action.kind.startsWith("mcp")) return "mcp";
  return undefined;
}

/** The surfaces `testCase` needs. */
export function surfacesOf(testCase: SurfaceCase): Set<SurfaceName> {
  const needed = new Set<SurfaceName>();
  for (const step of testCase.steps) {
    for (const action of step.with ? [step.action, step.with] : [step.action]) {
      const surface = surfaceOf(action);
      if (surface) needed.add(surface);
    }
  }
  return needed;
}

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

const session = fc.nat(2);
/** the session a decision goes through: mostly the one that was shown the card */
const decider = fc.oneof(
  { weight: 2, arbitrary: fc.constant("card" as const) },
  { weight: 1, arbitrary: session },
);
/** a TanStack or MCP card, counted back from the newest (0): mostly the one just shown */
const recent = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, pick);
/** `recent` as a failure names it */
const back = (card: number) => {
  const nth = card + 1;
  return card === 0
    ? "the newest"
    : `the ${nth}${nth === 2 ? "nd" : nth === 3 ? "rd" : "th"} newest`;
};
const tsCall = fc.record({
  kind: fc.constant("tsCall" as const),
  on: side,
  calls: fc.constantFrom<1 | 2>(1, 1, 1, 2),
  sameId: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, fc.constant(true)),
});
const tsAnswer = fc.record(
  {
    kind: fc.constant("tsAnswer" as const),
    card: recent,
    others: fc.constantFrom("approve" as const, "deny" as const),
    answer: fc.constantFrom(
      "approve" as const,
      "approve" as const,
      "approve" as const,
      "deny" as const,
      "cancel" as const,
    ),
    on: side,
    copies: fc.constantFrom<1 | 2>(1, 1, 2),
    shown: fc.constantFrom<PayloadShown>("asSent", "asSent", "asSent", "altered", "otherRun"),
    pick,
  },
  { requiredKeys: ["kind", "card", "answer", "on", "copies", "shown", "pick"] },
);
const tsResend = fc.record({ kind: fc.constant("tsResend" as const), answer: pick, on: side });
const tsSay = fc.record({ kind: fc.constant("tsSay" as const), card: recent, on: side });
const elicitAnswer = fc.oneof(
  { weight: 6, arbitrary: fc.constant<ElicitAnswer>("approve") },
  fc.constantFrom<ElicitAnswer>("deny", "decline", "cancel", "fail", "abort"),
);
const mcpCall = fc.record({
  kind: fc.constant("mcpCall" as const),
  session,
  answers: fc.array(elicitAnswer, { minLength: 1, maxLength: 4 }),
});
const mcpList = fc.record(
  { kind: fc.constant("mcpList" as const), session, run: pick },
  { requiredKeys: ["kind", "session"] },
);
const mcpApprove = fc.record({
  kind: fc.constant("mcpApprove" as const),
  session: decider,
  card: recent,
  forge: fc.constantFrom(
    "none" as const,
    "none" as const,
    "none" as const,
    "digest" as const,
    "otherRun" as const,
  ),
  pick,
  copies: fc.constantFrom<1 | 2>(1, 1, 2),
});
const mcpReject = fc.record({
  kind: fc.constant("mcpReject" as const),
  session: decider,
  card: recent,
  forge: fc.constantFrom("none" as const, "none" as const, "digest" as const, "otherRun" as const),
  pick,
});
const mcpResend = fc.record({
  kind: fc.constant("mcpResend" as const),
  approval: pick,
  session,
});
const sessionSpec: fc.Arbitrary<McpSessionSpec> = fc.record({
  on: side,
  approvals: fc.constantFrom(
    "elicitation" as const,
    "client-tools" as const,
    "client-tools" as const,
  ),
  share: fc.oneof({ weight: 2, arbitrary: fc.constant(false) }, fc.constant(true)),
  elicits: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
});

type Weighted = { weight: number; arbitrary: fc.Arbitrary<SurfaceAction> };

/** The actions of each surface: solo (any step) and partner (delivered beside another). */
const SURFACE_ACTIONS: Record<
  SurfaceName,
  { solo: Weighted[]; partner: Weighted[]; first: fc.Arbitrary<SurfaceAction> }
> = {
  tanstack: {
    first: tsCall,
    solo: [
      { weight: 4, arbitrary: tsCall },
      { weight: 6, arbitrary: tsAnswer },
      { weight: 1, arbitrary: tsResend },
      { weight: 1, arbitrary: tsSay },
    ],
    partner: [
      { weight: 3, arbitrary: tsAnswer },
      { weight: 1, arbitrary: tsResend },
    ],
  },
  mcp: {
    first: mcpCall,
    solo: [
      { weight: 5, arbitrary: mcpCall },
      { weight: 2, arbitrary: mcpList },
      { weight: 5, arbitrary: mcpApprove },
      { weight: 2, arbitrary: mcpReject },
      { weight: 1, arbitrary: mcpResend },
    ],
    partner: [
      { weight: 3, arbitrary: mcpApprove },
      { weight: 1, arbitrary: mcpReject },
      { weight: 1, arbitrary: mcpResend },
      { weight: 1, arbitrary: mcpList },
    ],
  },
};

/**
 * Cases whose schedules also carry the messages of `surfaces` (the TanStack AI chat route, MCP
 * sessions): the first tool call comes through any of them, and so may every later message.
 */
export function surfaceCaseArbitraryWith(
  surfaces: ReadonlySet<SurfaceName>,
): fc.Arbitrary<SurfaceCase> {
  if (surfaces.size === 0) return surfaceCaseArbitrary;
  const extra = [...surfaces].map((name) => SURFACE_ACTIONS[name]);
  const soloWith = fc.oneof(
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
    ...extra.flatMap((each) => each.solo),
  );
  const partnerWith = fc.oneof(
    { weight: 5, arbitrary: answer },
    { weight: 2, arbitrary: resend },
    { weight: 1, arbitrary: forgedAnswer },
    { weight: 3, arbitrary: decide },
    { weight: 1, arbitrary: end },
    { weight: 1, arbitrary: expire },
    { weight: 1, arbitrary: prune },
    ...extra.flatMap((each) => each.partner),
  );
  const stepWith: fc.Arbitrary<SurfaceStep> = fc.oneof(
    { weight: 3, arbitrary: soloWith.map((action) => ({ action })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          soloWith.filter((action) => action.kind !== "bare"),
          partnerWith,
          fc.nat(2),
        )
        .map(([action, other, when]) =>
          when === 0
            ? { action, with: other, during: "read" as const }
            : when === 1 && action.kind === "mcpCall"
              ? { action, with: other, during: "question" as const }
              : { action, with: other },
        ),
    },
  );
  // two new runs at once through the TanStack route, MCP sessions (two of them) or the host
  const starter = fc.oneof(execute, ...extra.map((each) => each.first));
  const startersAtOnce: fc.Arbitrary<SurfaceStep> = fc
    .tuple(starter, starter, fc.nat(2))
    .map(([action, other, when]) => ({
      action,
      with:
        action.kind === "mcpCall" && other.kind === "mcpCall"
          ? { ...other, session: action.session + 1 }
          : other,
      ...(when === 0 ? { during: "read" as const } : {}),
      ...(when === 1 && action.kind === "mcpCall" ? { during: "question" as const } : {}),
    }));
  return fc
    .record({
      program: surfaceProgramArbitrary,
      first: fc.oneof(
        { weight: 2, arbitrary: call },
        ...extra.map((each) => ({ weight: 1, arbitrary: each.first })),
      ),
      steps: fc.array(
        fc.oneof({ weight: 12, arbitrary: stepWith }, { weight: 1, arbitrary: startersAtOnce }),
        { minLength: 1, maxLength: 12 },
      ),
      sessions: fc.array(sessionSpec, { minLength: 2, maxLength: 3 }),
    })
    .map(({ program, first, steps, sessions }) => ({
      program,
      steps: [{ action: first }, ...steps],
      ...(surfaces.has("mcp") ? { sessions } : {}),
    }));
}

function actionText(action: SurfaceAction): string {
  const on = "on" in action ? ` @${action.on}` : "";
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
    case "tsCall":
      return `TanStack: model calls codemode${action.calls === 2 ? ` twice in one turn${action.sameId ? " under one id" : ""}` : ""}${on}`;
    case "tsAnswer":
      return `TanStack: person ${action.answer === "approve" ? "approves" : action.answer === "deny" ? "denies" : "cancels"} ${back(action.card)} interrupt${action.others ? ` and ${action.others === "approve" ? "approves" : "denies"} the others of its chat run` : ""}${action.shown === "altered" ? " (the client showed and sends back another input)" : action.shown === "otherRun" ? ` (its payload pointed at run #${action.pick})` : ""}${action.copies === 2 ? " (sent to both processes)" : ""}${on}`;
    case "tsResend":
      return `TanStack: continuation #${action.answer} resent${on}`;
    case "tsSay":
      return `TanStack: a later turn after ${back(action.card)} interrupt says "approve it" (no resume)${on}`;
    case "mcpCall":
      return `MCP session ${action.session}: codemode (elicitation answers ${action.answers.join(", ")})`;
    case "mcpList":
      return `MCP session ${action.session}: codemode_pending${action.run === undefined ? "" : ` of run #${action.run}`}`;
    case "mcpApprove":
      return `MCP ${action.session === "card" ? "the card's session" : `session ${action.session}`}: codemode_approve with ${back(action.card)} MCP card's handle${action.forge === "digest" ? " (a digest changed)" : action.forge === "otherRun" ? ` (pointed at run #${action.pick})` : ""}${action.copies === 2 ? " twice at once" : ""}`;
    case "mcpReject":
      return `MCP ${action.session === "card" ? "the card's session" : `session ${action.session}`}: codemode_reject of ${back(action.card)} MCP card${action.forge === "digest" ? " (a digest changed)" : action.forge === "otherRun" ? ` (pointed at run #${action.pick})` : ""}`;
    case "mcpResend":
      return `MCP session ${action.session}: codemode_approve #${action.approval} resent`;
  }
}

/** The case as a reader wants it in a failure: the program, the schedule step by step, the JSON. */
export function describeSurfaceCase(testCase: SurfaceCase): string {
  const steps = testCase.steps.map(
    (step, index) =>
      `  ${index}. ${actionText(step.action)}${step.with ? `  ‖ ${step.during === "read" ? "while it reads what waits" : step.during === "question" ? "while its question is open" : "at once"}: ${actionText(step.with)}` : ""}`,
  );
  const sessions = (testCase.sessions ?? []).map(
    (spec, index) =>
      `  ${index}. @${spec.on} approvals: "${spec.approvals}"${spec.share ? ", shareRunsAcrossSessions" : ""}${spec.elicits ? "" : ", the client does not elicit"}`,
  );
  return [
    `program:\n${programSource(testCase.program)}`,
    ...(sessions.length > 0 ? [`MCP sessions:\n${sessions.join("\n")}`] : []),
    `schedule:\n${steps.join("\n")}`,
    `case: ${JSON.stringify(testCase)}`,
  ].join("\n");
}
