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
// A step is one message, or two delivered at once. The arbitraries that generate cases are in
// surface-case-arbitrary.ts, how a failure prints one in describe-surface-case.ts.

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
 * reads a run's pending calls from the journal, between that read and what it decides from it,
 * (`during: "take"`) once the first has taken a paused run (its conditional write to `running`),
 * before its pass reads the run's journal, or (`during: "question"`) while a question of the first
 * (an MCP elicitation) waits for its answer.
 */
export interface SurfaceStep {
  action: SurfaceAction;
  with?: SurfaceAction;
  during?: "read" | "take" | "question";
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
