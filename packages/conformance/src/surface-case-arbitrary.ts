// The arbitraries of the surface-integrity suite's cases (see surface-case.ts): programs that pause
// several times, and schedules that start with the model's first tool call, then mix the AI SDK
// binding's messages, the host's decisions and, where given, the TanStack AI and MCP surfaces'.
import fc from "fast-check";
import type {
  ElicitAnswer,
  McpSessionSpec,
  PayloadShown,
  Process,
  Shape,
  SurfaceAction,
  SurfaceCall,
  SurfaceCase,
  SurfaceName,
  SurfaceProgram,
  SurfaceStatement,
  SurfaceStep,
} from "./surface-case.ts";

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
