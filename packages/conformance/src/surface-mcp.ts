// The surface-integrity suite's MCP messages: sessions of the codemode MCP server (each its own
// server over one process's runtime, connected to its own MCP client) through an `McpSurface`
// adapter, and the ledger entries they make.
//
// - With `approvals: "elicitation"`, the person is asked one question per waiting call while the
//   `codemode` call is open ("svc.write({...})", "Call i of n: ..."); approving the last question of
//   a round is a decision about the calls of that round, as their questions showed them (method and
//   input from the question's text; the call each question stands for is the one the server asks
//   about at its position, which the session's runtime observes: `observed`). A declined, denied or
//   cancelled question is a decision against the call it showed.
// - With `approvals: "client-tools"`, a reply that shows waiting calls (`codemode`, `codemode_pending`,
//   a refused `codemode_approve`) is a card, with its handle; `codemode_approve` and
//   `codemode_reject` with a card's handle are decisions about the calls it showed, by the session
//   that sends them. A session may decide only the runs it started, unless the host shared runs
//   across sessions: a decision by any other session (or one of a session without these tools)
//   names nothing and must decide nothing (a refusal).
import type {
  AbortSignalLike,
  CodeModeOutput,
  CodemodeRuntime,
  DecisionHandle,
  PendingAction,
} from "@codemode/core";
import { canonical } from "./integrity-ledger.ts";
import { type Forge, forgedRequest, type McpCard } from "./mcp-card.ts";
import { readQuestion } from "./mcp-question.ts";
import type {
  McpClientSession,
  McpElicitResult,
  McpReply,
  McpSurface,
} from "./surface-adapters.ts";
import {
  type ElicitAnswer,
  type McpSessionSpec,
  programSource,
  type SurfaceAction,
} from "./surface-case.ts";
import type { SurfaceContext } from "./surface-context.ts";
import type { ShownCall } from "./surface-trace.ts";

interface Canceller {
  readonly signal: AbortSignalLike;
  abort(): void;
}
declare const AbortController: new () => Canceller;

type Bound = { min: number; max: number };
const NONE: Bound = { min: 0, max: 0 };

/** A `codemode_approve` request sent, for a later resend. */
interface Approval {
  card: number;
  request: { executionId: string; handle: DecisionHandle };
  /** the calls the request names, as the card showed them; empty when it names none (forged) */
  names: ShownCall[];
}

interface Session {
  index: number;
  spec: McpSessionSpec;
  client?: Promise<McpClientSession | undefined>;
  /** the runs this session started (its `codemode` calls' runs, as its server counts them) */
  started: Set<string>;
  /** the run of the `codemode` call in flight, and the calls the server asks about now */
  run?: string;
  asked?: readonly PendingAction[];
  /** the server's next read of what waits in that run is what it asks about next */
  rereads?: boolean;
  /** the answers left for the questions of the call in flight, and the round being answered */
  answers: ElicitAnswer[];
  round: ShownCall[];
  /** a question of the round was answered with anything but an approval */
  refused?: boolean;
  solo: boolean;
  abort?: Canceller;
  call?: Promise<unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const shownOfReply = (executionId: string, action: Record<string, unknown>): ShownCall => ({
  executionId,
  seq: typeof action.seq === "number" ? action.seq : -1,
  connector: String(action.connector),
  method: String(action.method),
  input: canonical(action.args),
  digest: typeof action.digest === "string" ? action.digest : "",
});

/** Plays the MCP actions of one case; `play` returns how many runs an action may start. */
export function mcpPlayer(context: SurfaceContext, adapter: McpSurface) {
  const specs = context.testCase.sessions ?? [];
  const sessions: Session[] = specs.map((spec, index) => ({
    index,
    spec,
    started: new Set(),
    answers: [],
    round: [],
    solo: false,
  }));
  const cards: McpCard[] = [];
  const approvals: Approval[] = [];

  /** The session's runtime as its server uses it, observed: the runs it starts, what it asks about. */
  const observed = (session: Session): CodemodeRuntime => {
    const base = context.runtime(session.spec.on);
    const asking = (output: CodeModeOutput) => {
      if (output.status === "paused") session.asked = output.pending;
    };
    return {
      ...base,
      execute: async (input) => {
        const output = await base.execute(input);
        session.started.add(output.executionId);
        session.run = output.executionId;
        asking(output);
        return output;
      },
      // the server starts a run this way when it may answer before the run ends (a cancellable
      // call, a task)
      start: async (input) => {
        const { executionId, outcome } = await base.start(input);
        session.started.add(executionId);
        session.run = executionId;
        const observedOutcome = outcome.then((output) => {
          asking(output);
          return output;
        });
        return { executionId, outcome: observedOutcome };
      },
      approve: async (options) => {
        const output = await base.approve(options);
        if (options.executionId === session.run) {
          asking(output);
          // refused as stale, the server reads what waits now and asks about that
          session.rereads = output.status === "error" && output.code === "DECISION_STALE";
        }
        return output;
      },
      pending: async (executionId) => {
        const now = await base.pending(executionId);
        if (session.rereads && executionId !== undefined && executionId === session.run) {
          session.rereads = false;
          session.asked = now;
        }
        return now;
      },
    };
  };

  /** The person behind the session's client, answering the server's question. */
  const ask = async (session: Session, message: string): Promise<McpElicitResult> => {
    const { trace } = context;
    const step = context.step();
    const answer = session.answers.shift() ?? "fail";
    const question = readQuestion(message);
    if (!question) {
      context.violation(
        `MCP session ${session.index} was asked a question that shows no call: ${JSON.stringify(message.slice(0, 200))}`,
      );
      throw new Error("The client cannot read this question.");
    }
    const asked = session.asked ?? [];
    const at = asked[question.position - 1];
    // the call the question stands for: the one the server asks about at its position, when it
    // asks about as many; shown with the method and input the question's text gave
    const shown: ShownCall = {
      executionId: session.run ?? "",
      seq: at && asked.length === question.count ? at.seq : -1,
      connector: question.connector,
      method: question.method,
      input: question.input,
      digest: at?.digest ?? "",
    };
    if (question.position === 1) {
      session.round = [];
      session.refused = false;
    }
    session.round.push(shown);
    const by = `the MCP elicitation answers of session ${session.index}`;
    // what a step delivers while the question is open arrives before the person answers
    await context.questionOpen();
    switch (answer) {
      case "approve": {
        // every question of a round is asked (MCP's multi-round-trip requests carry them together):
        // the round approves its calls only when no answer in it was a "no"
        if (question.position === question.count && !session.refused) {
          const round = [...session.round];
          trace.decisions.push({ step, by, approves: true, shown: round });
          if (session.solo && (await context.stillWaits(round))) {
            trace.expectations.push({ step, by, calls: round });
          }
        }
        return { action: "accept", content: { approve: true } };
      }
      case "deny":
      case "decline":
      case "cancel":
        // the server takes anything but an approval as a "no" to the call the question showed
        session.refused = true;
        trace.decisions.push({ step, by: `${by} (${answer})`, approves: false, shown: [shown] });
        return answer === "deny"
          ? { action: "accept", content: { approve: false } }
          : { action: answer };
      case "fail":
        // a question that fails decides nothing, and the round with it
        session.refused = true;
        throw new Error("The client cannot show this question.");
      case "abort": {
        session.refused = true;
        session.abort?.abort();
        await session.call?.catch(() => undefined);
        throw new Error("The client cancelled the call.");
      }
    }
  };

  /** the session's client, connected at its first message */
  const connect = (session: Session): Promise<McpClientSession | undefined> => {
    session.client ??= context.guard(`connecting MCP session ${session.index}`, () =>
      adapter.connect(observed(session), {
        approvals: session.spec.approvals,
        shareRunsAcrossSessions: session.spec.share,
        elicitation: session.spec.elicits,
        ask: (message) => ask(session, message),
      }),
    );
    return session.client;
  };

  const sessionOf = (index: number) => sessions[index % Math.max(sessions.length, 1)];

  /** A session may decide a run: it serves the decision tools, and started the run or shares runs. */
  const entitled = (session: Session, executionId: string) =>
    session.spec.approvals === "client-tools" &&
    (session.spec.share || session.started.has(executionId));

  /** A reply that shows waiting calls with their handle becomes a card of the session. */
  const cardsOf = (session: Session, reply: McpReply | undefined) => {
    const body = reply?.structuredContent;
    if (!body) return;
    const pending = Array.isArray(body.pending) ? body.pending.filter(isRecord) : [];
    const handles: DecisionHandle[] = Array.isArray(body.handles)
      ? (body.handles as DecisionHandle[])
      : isRecord(body.handle)
        ? [body.handle as unknown as DecisionHandle]
        : [];
    for (const handle of handles) {
      const { executionId } = handle;
      if (!entitled(session, executionId)) {
        context.violation(
          `MCP session ${session.index} was shown a handle of run ${executionId.slice(-8)}, which it may not decide`,
        );
      }
      const shown = pending
        .filter((action) => (action.executionId ?? body.executionId) === executionId)
        .map((action) => shownOfReply(executionId, action));
      cards.push({ session: session.index, executionId, shown, handle });
      context.trace.shownCards.push({ surface: "mcp", step: context.step(), shown });
    }
    for (const action of pending) {
      const executionId = String(action.executionId ?? body.executionId);
      if (!(session.spec.share || session.started.has(executionId))) {
        context.violation(
          `MCP session ${session.index} was shown a call of run ${executionId.slice(-8)}, which another session started`,
        );
      }
    }
  };

  /** The request of a decision with `card`'s handle, as given or forged (see `forgedRequest`). */
  const forged = (card: McpCard, forge: Forge, pick: number) =>
    forgedRequest(card, forge, context.knownRuns(), pick);

  /**
   * Who may decide: the session may decide the run, and the decision names calls as they were
   * shown; otherwise it must decide nothing (a refusal), and why.
   */
  const refusal = (session: Session, executionId: string, names: readonly ShownCall[]) =>
    !entitled(session, executionId)
      ? "a run it may not decide"
      : names.length === 0
        ? "a handle that names no call as it was shown"
        : undefined;

  /** `codemode_approve` with `approval`'s request through `session`: a decision, or a refusal. */
  const sendApproval = async (
    session: Session,
    approval: Approval,
    copies: 1 | 2,
    solo: boolean,
    by: string,
  ) => {
    const { trace } = context;
    const step = context.step();
    const { executionId } = approval.request;
    const refused = refusal(session, executionId, approval.names);
    if (refused === undefined) {
      trace.decisions.push({ step, by, approves: true, shown: approval.names });
      if (solo && (await context.stillWaits(approval.names))) {
        trace.expectations.push({ step, by, calls: approval.names });
      }
    } else {
      trace.decisions.push({ step, by: `${by}, ${refused}`, approves: true, shown: [] });
      trace.refusals.push({ step, executionId, by: `${by}, ${refused}`, solo });
    }
    const client = await connect(session);
    if (!client) return;
    const replies = await Promise.all(
      Array.from({ length: copies }, () =>
        client.callTool("codemode_approve", approval.request).catch((error: unknown) => {
          // a server without the decision tools refuses the call: that decides nothing
          if (session.spec.approvals === "client-tools") {
            context.violation(
              `${by} threw: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
          return undefined;
        }),
      ),
    );
    for (const reply of replies) cardsOf(session, reply);
  };

  const play = async (action: SurfaceAction, solo: boolean): Promise<Bound> => {
    const { trace } = context;
    switch (action.kind) {
      case "mcpCall": {
        const session = sessionOf(action.session);
        if (!session) return NONE;
        const client = await connect(session);
        if (!client) return { min: 0, max: 0 };
        session.answers = [...action.answers];
        session.solo = solo;
        session.run = undefined;
        session.asked = undefined;
        const abort = new AbortController();
        session.abort = abort;
        const call = client.callTool(
          "codemode",
          { code: programSource(context.testCase.program) },
          abort.signal,
        );
        session.call = call;
        let reply: McpReply | undefined;
        try {
          reply = await call;
        } catch (error) {
          // the client cancelled its own call (an "abort" answer): it has no reply
          if (!abort.signal.aborted) {
            context.violation(
              `MCP session ${session.index}: codemode threw: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
        }
        const body = reply?.structuredContent;
        const executionId = typeof body?.executionId === "string" ? body.executionId : undefined;
        if (executionId !== undefined && !context.startedNow().includes(executionId)) {
          context.violation(
            `MCP session ${session.index}: codemode answered about run ${executionId.slice(-8)}, which it did not start`,
          );
        }
        if (
          executionId !== undefined &&
          body?.status === "error" &&
          typeof body.error === "string" &&
          /^The person did not approve call #\d+, .*; the run ended without running any of its waiting calls\.$/s.test(
            body.error,
          )
        ) {
          trace.endings.push({
            executionId,
            at: context.tick(),
            how: "a person's no to an MCP question",
          });
        }
        cardsOf(session, reply);
        session.abort = undefined;
        session.call = undefined;
        return { min: 1, max: 1 };
      }
      case "mcpList": {
        const session = sessionOf(action.session);
        const client = session && (await connect(session));
        if (!session || !client) return NONE;
        const runs = context.knownRuns();
        const executionId =
          action.run === undefined ? undefined : runs[action.run % Math.max(runs.length, 1)];
        const reply = await context.guard(`MCP session ${session.index}: codemode_pending`, () =>
          client.callTool("codemode_pending", executionId === undefined ? {} : { executionId }),
        );
        cardsOf(session, reply);
        return NONE;
      }
      case "mcpApprove": {
        const index = cards.length - 1 - (action.card % Math.max(cards.length, 1));
        const card = cards[index];
        const session =
          card && sessionOf(action.session === "card" ? card.session : action.session);
        if (!session || !card) return NONE;
        const { request, names } = forged(card, action.forge, action.pick);
        const approval: Approval = { card: index, request, names };
        approvals.push(approval);
        const by = `MCP session ${session.index}'s codemode_approve of MCP card #${index} (session ${card.session}'s)${action.forge === "none" ? "" : ` forged: ${action.forge}`}`;
        await sendApproval(session, approval, action.copies, solo, by);
        return NONE;
      }
      case "mcpResend": {
        const session = sessionOf(action.session);
        const which = action.approval % Math.max(approvals.length, 1);
        const approval = approvals[which];
        if (!session || !approval) return NONE;
        await sendApproval(
          session,
          approval,
          1,
          solo,
          `codemode_approve #${which} resent through MCP session ${session.index}`,
        );
        return NONE;
      }
      case "mcpReject": {
        const index = cards.length - 1 - (action.card % Math.max(cards.length, 1));
        const card = cards[index];
        const session =
          card && sessionOf(action.session === "card" ? card.session : action.session);
        if (!session || !card) return NONE;
        const step = context.step();
        const { request, names } = forged(card, action.forge, action.pick);
        const seq = request.handle.calls[0]?.seq ?? 0;
        const by = `MCP session ${session.index}'s codemode_reject of MCP card #${index} (session ${card.session}'s)${action.forge === "none" ? "" : ` forged: ${action.forge}`}`;
        const refused = refusal(session, request.executionId, names);
        trace.decisions.push({
          step,
          by: refused ? `${by}, ${refused}` : by,
          approves: false,
          shown: refused ? [] : names,
        });
        if (refused) {
          trace.refusals.push({
            step,
            executionId: request.executionId,
            by: `${by}, ${refused}`,
            solo,
          });
        }
        const client = await connect(session);
        if (!client) return NONE;
        let reply: McpReply | undefined;
        try {
          reply = await client.callTool("codemode_reject", { ...request, seq });
        } catch (error) {
          if (session.spec.approvals === "client-tools") {
            context.violation(
              `${by} threw: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
        }
        const body = reply?.structuredContent;
        if (body?.rejected === true) {
          if (refused) context.violation(`${by} rejected ${refused}`);
          trace.endings.push({ executionId: request.executionId, at: context.tick(), how: by });
        }
        cardsOf(session, reply);
        return NONE;
      }
      default:
        return NONE;
    }
  };

  const close = async () => {
    await Promise.all(
      sessions.map(async (session) => (await session.client)?.close().catch(() => undefined)),
    );
  };

  return { play, close };
}
