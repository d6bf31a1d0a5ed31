// The surface-integrity suite's TanStack AI messages: the chat route's requests (the model calling
// the `codemode` tool, continuations answering `codemodeApproval` interrupts, later turns) through a
// `TanstackSurface` adapter, and the ledger entries they make. An interrupt is a card: the person is
// shown its payload's calls; an answer is a decision about the calls of the payload the client sent
// back (what it showed the person), approving, denying, or (cancel) deciding nothing.
import { canonical } from "./integrity-ledger.ts";
import type {
  TanstackAnswer,
  TanstackPayload,
  TanstackSurface,
  TanstackTurn,
} from "./surface-adapters.ts";
import { programSource, type SurfaceAction } from "./surface-case.ts";
import type { SurfaceContext } from "./surface-context.ts";
import type { ShownCall } from "./surface-trace.ts";

/** An interrupt a TanStack chat run ended with: a card. */
interface Interrupt {
  turn: TanstackTurn;
  index: number;
  payload: TanstackPayload;
}

/** A continuation sent: what it answered, and the decisions it carries (a cancel carries none). */
interface Continuation {
  card: number;
  answers: TanstackAnswer[];
  decisions: Array<{ at: number; approves: boolean; shown: ShownCall[] }>;
}

type Bound = { min: number; max: number };
const NONE: Bound = { min: 0, max: 0 };

const shownOf = (payload: TanstackPayload): ShownCall[] =>
  payload.calls.map((call) => ({
    executionId: payload.executionId,
    seq: call.seq,
    connector: call.connector,
    method: call.method,
    input: canonical(call.input),
    digest: call.digest,
  }));

/** Another input than the one shown: what a client that displayed something else sends back. */
function altered(input: unknown): unknown {
  if (typeof input === "object" && input !== null && !Array.isArray(input)) {
    const record = input as Record<string, unknown>;
    return { ...record, key: typeof record.key === "number" ? record.key + 100 : "altered" };
  }
  return { altered: input ?? null };
}

/** Plays the TanStack actions of one case; `play` returns how many runs an action may start. */
export function tanstackPlayer(context: SurfaceContext, adapter: TanstackSurface) {
  const interrupts: Interrupt[] = [];
  const continuations: Continuation[] = [];
  let requests = 0;

  /**
   * What a turn brought: its interrupts become cards; each must be about a run its request may
   * ask about (`about`); a rejection its decision events report ended that run.
   */
  const received = (turn: TanstackTurn | undefined, about: ReadonlySet<string>, what: string) => {
    if (!turn) return;
    for (const [index, payload] of turn.interrupts.entries()) {
      if (!about.has(payload.executionId)) {
        context.violation(
          `${what} ended with an interrupt about run ${payload.executionId.slice(-8)}, which it did not start or answer for`,
        );
      }
      interrupts.push({ turn, index, payload });
      context.trace.shownCards.push({
        surface: "tanstack",
        step: context.step(),
        shown: shownOf(payload),
      });
    }
    const at = context.tick();
    for (const decision of turn.decisions) {
      if (decision.decision === "rejected") {
        context.trace.endings.push({
          executionId: decision.executionId,
          at,
          how: "a person's denial of a TanStack interrupt",
        });
      }
    }
  };

  const play = async (action: SurfaceAction, solo: boolean): Promise<Bound> => {
    const { step, trace, runtime } = context;
    switch (action.kind) {
      case "tsCall": {
        const request = requests++;
        const ids =
          action.calls === 1
            ? [`ts-${request}`]
            : action.sameId
              ? [`ts-${request}`, `ts-${request}`]
              : [`ts-${request}-a`, `ts-${request}-b`];
        // the second call's code differs by one statement: two runs, each of its own code
        const toolCalls = ids.map((id, index) => ({
          id,
          code: programSource(context.testCase.program, index === 0 ? 0 : 1),
        }));
        const turn = await context.guard("TanStack chat() with the model's tool call", () =>
          adapter.start(runtime(action.on), toolCalls),
        );
        received(turn, new Set(context.startedNow()), `TanStack request ${request}`);
        // every tool call runs its code once; a turn of two calls under one id may run one of them
        return { min: action.sameId ? 1 : ids.length, max: ids.length };
      }
      case "tsAnswer": {
        const index = interrupts.length - 1 - (action.card % Math.max(interrupts.length, 1));
        const card = interrupts[index];
        if (!card) return NONE;
        let sent: TanstackPayload | undefined;
        if (action.shown === "altered") {
          sent = {
            ...card.payload,
            calls: card.payload.calls.map((call, at) =>
              at === 0 ? { ...call, input: altered(call.input) } : call,
            ),
          };
        } else if (action.shown === "otherRun") {
          const runs = context.knownRuns();
          const other = runs[action.pick % Math.max(runs.length, 1)];
          if (other !== undefined && other !== card.payload.executionId) {
            sent = { ...card.payload, executionId: other };
          }
        }
        const answerOf = (what: "approve" | "deny" | "cancel") =>
          what === "cancel" ? ("cancel" as const) : { approved: what === "approve" };
        // this interrupt, and with `others` every other interrupt of its chat run, as sent
        const others = action.others
          ? interrupts.flatMap((other, at) =>
              other.turn === card.turn && at !== index
                ? [
                    {
                      at,
                      card: other,
                      payload: other.payload,
                      answer: answerOf(action.others as "approve" | "deny"),
                    },
                  ]
                : [],
            )
          : [];
        const answered = [
          { at: index, card, payload: sent ?? card.payload, answer: answerOf(action.answer) },
          ...others,
        ];
        const continuation: Continuation = {
          card: index,
          answers: answered.map(({ card: each, payload, answer }) => ({
            interrupt: each.index,
            answer,
            ...(payload !== each.payload ? { payload } : {}),
          })),
          decisions: [],
        };
        for (const { at, payload, answer } of answered) {
          if (answer === "cancel") continue;
          const shown = shownOf(payload);
          const by = `the TanStack answer to interrupt #${at}${at === index && sent ? ` (payload ${action.shown})` : ""}`;
          continuation.decisions.push({ at, approves: answer.approved, shown });
          trace.decisions.push({ step: step(), by, approves: answer.approved, shown });
          // an approval of exactly what the server showed, whose calls still wait so, runs them
          // (unless another answer of the same request names the same run: one of them loses)
          const asShown = at !== index || !sent;
          const alone =
            answered.filter((other) => other.payload.executionId === payload.executionId).length ===
            1;
          if (answer.approved && solo && asShown && alone && (await context.stillWaits(shown))) {
            trace.expectations.push({ step: step(), by, calls: shown });
          }
          // an approval of an input the run does not wait with decides nothing
          if (answer.approved && !asShown && action.shown === "altered" && alone) {
            trace.refusals.push({ step: step(), executionId: payload.executionId, by, solo });
          }
        }
        continuations.push(continuation);
        const about = new Set(answered.map(({ payload }) => payload.executionId));
        const targets = action.copies === 2 ? [action.on, action.on ? 0 : 1] : [action.on];
        const turns = await Promise.all(
          targets.map((on) =>
            context.guard(`the TanStack continuation answering interrupt #${index}`, () =>
              adapter.resume(runtime(on as 0 | 1), card.turn, continuation.answers),
            ),
          ),
        );
        for (const turn of turns) {
          received(turn, about, `the continuation answering interrupt #${index}`);
        }
        return NONE;
      }
      case "tsResend": {
        const which = action.answer % Math.max(continuations.length, 1);
        const earlier = continuations[which];
        if (!earlier) return NONE;
        const card = interrupts[earlier.card] as Interrupt;
        for (const decision of earlier.decisions) {
          trace.decisions.push({
            step: step(),
            by: `TanStack continuation #${which} resent (interrupt #${decision.at})`,
            approves: decision.approves,
            shown: decision.shown,
          });
        }
        const turn = await context.guard(`TanStack continuation #${which} resent`, () =>
          adapter.resume(runtime(action.on), card.turn, earlier.answers),
        );
        const about = new Set(
          earlier.decisions.flatMap((decision) => decision.shown.map((call) => call.executionId)),
        );
        for (const answer of earlier.answers) {
          const payload = answer.payload ?? card.turn.interrupts[answer.interrupt];
          if (payload) about.add(payload.executionId);
        }
        received(turn, about, `TanStack continuation #${which} resent`);
        return NONE;
      }
      case "tsSay": {
        const index = interrupts.length - 1 - (action.card % Math.max(interrupts.length, 1));
        const card = interrupts[index];
        if (!card) return NONE;
        // the user writes that they approve: a message, not an answer to the interrupt
        const turn = await context.guard("a later TanStack turn", () =>
          adapter.say(runtime(action.on), card.turn, "Yes, I approve: go ahead and write it."),
        );
        received(turn, new Set(), `a later TanStack turn after interrupt #${index}`);
        return NONE;
      }
      default:
        return NONE;
    }
  };

  return { play };
}
