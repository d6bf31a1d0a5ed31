import { CodemodeError } from "../../codemode-error.ts";
import type { CallContext } from "../../connector.ts";
import { messageOf } from "../../invariants.ts";
import type { JournalEntry, LeaseClaim } from "../../journal-store.ts";
import { after, createAbortController, every, randomHex } from "../../platform.ts";
import type { Cancellation, PassTicket } from "../context/cancellation.ts";
import type { RunContext } from "../context/run-context.ts";

/** A pass's lease owner: random, new for every pass. */
export const leaseOwner = (): string => `pass_${randomHex()}${randomHex()}`;

/** Why a pass stops when its lease is gone. */
export const LEASE_LOST =
  "This pass lost its lease on the run (it was not renewed in time and the run was ended or taken by another process); nothing after this point ran.";

/** The shortest time an ended pass waits for its calls to settle before it gives up on them. */
export const MIN_ABANDON_MS = 5_000;

/**
 * What one pass of a run knows: its numbering, what earlier passes recorded, why it must stop, the
 * host calls it started (it reports only once they have settled), the step tokens it handed out,
 * and its lease on the run with its heartbeat. Every host function of the pass goes through it.
 */
export class PassState {
  readonly executionId: string;
  /** the sandbox's signal: aborted once the pass stops, so nothing after that point runs */
  readonly controller = createAbortController();
  /**
   * The signal of the connector calls the pass started: aborted when the run is cancelled or its
   * lease lost, or a while after the pass ended (`end`), never by a pause or a failure. A call in
   * flight beside the call a pass paused at is one the program made: it settles, and what it gave is
   * recorded and replayed, as it would have been had nothing waited.
   */
  readonly #calls = createAbortController();
  #abandonedCalls = false;
  /** what earlier passes recorded, read once: a pass starts only by taking the run */
  readonly recorded: ReadonlyMap<number, JournalEntry>;
  /** a gated call was recorded pending: the run pauses once the pass has settled */
  paused = false;
  /** the pass has reported its run cancelled (by this process or another) */
  endedCancelled = false;
  /** the owner of the run's lease: this pass, chosen by the write that took the run */
  readonly owner: string;
  #cursor = 0;
  /** `codemode.search`, `describe` and `run` lookups asked of the host in this pass */
  #lookups = 0;
  /** saved programs `codemode.run` started in this pass */
  #snippetRuns = 0;
  #stopped: string | undefined;
  readonly #context: RunContext;
  readonly #inflight = new Set<Promise<unknown>>();
  readonly #tokens = new Map<number, string>();
  #renewed: number;
  #endsInFailure: string | undefined;
  /** false once a write under the lease was refused: the run is someone else's now */
  #holdsLease = true;
  /** settles once the outcome of the last numbered call has been handed to the program */
  #lastDelivery: Promise<void> = Promise.resolve();
  #cancelHeartbeat: () => void = () => {};
  /** settled and reported: no heartbeat any more */
  #ended = false;
  /** recorded calls the executor may still answer in the sandbox (see `ReplayHint`) */
  #replayable = 0;
  #live = false;
  /** the calls this pass made wait, kept from approvals asked before it reports */
  readonly #waits: (() => void)[] = [];
  /** the run was cancelled while this pass ran (`runtime.cancel` in this process) */
  #cancellation: Cancellation | undefined;

  constructor(
    context: RunContext,
    executionId: string,
    recorded: ReadonlyMap<number, JournalEntry>,
    options: {
      owner: string;
      /** when the run's lease, as the write that took it for this pass set it, ends */
      leaseExpiresAt?: number;
      /** what `runtime.cancel` stops in this process (taken before the run was) */
      ticket?: PassTicket;
    },
  ) {
    this.#context = context;
    this.executionId = executionId;
    this.recorded = recorded;
    this.owner = options.owner;
    // the lease was taken when the run was created or claimed, which may be a while before its pass
    // starts (a busy process): the heartbeat counts from then, so a lease already a third old is
    // renewed as the pass starts instead of lapsing under it
    const now = context.now();
    const taken =
      options.leaseExpiresAt === undefined ? now : options.leaseExpiresAt - context.leaseMs;
    this.#renewed = Math.min(now, taken);
    context.live.add(executionId);
    // a store that fails to answer leaves the lease to lapse: the next claim decides
    this.#cancelHeartbeat = every(
      this.#heartbeatMs,
      () => this.renew(),
      Math.max(0, this.#renewed + this.#heartbeatMs - now),
    );
    // a cancellation that came before the pass started stops it at once
    options.ticket?.onCancel((cancellation) => this.cancel(cancellation));
  }

  /**
   * The cancellation that stopped this pass: the run ends `cancelled` once the pass has settled,
   * and no call of it starts any more, not even one whose entry was written before it came.
   */
  get cancellation(): Cancellation | undefined {
    return this.#cancellation;
  }

  /** `runtime.cancel`: the pass stops now (its signal aborts the executor and every call in flight). */
  cancel(cancellation: Cancellation): void {
    this.#cancellation ??= cancellation;
    this.#stopWithCalls(cancellation.text);
  }

  /** What each connector call of the pass is given as its signal. */
  get callSignal(): CallContext["signal"] {
    return this.#calls.signal;
  }

  /**
   * The pass ended with calls still running, gave them a while, then aborted their signal itself
   * (`end`): a call that fails after that fails because the pass stopped waiting, not as the
   * program would have seen it, and what it did is unknown.
   */
  get abandonedCalls(): boolean {
    return this.#abandonedCalls;
  }

  #abortCalls(reason: string): void {
    if (!this.#calls.signal.aborted) this.#calls.abort(new CodemodeError("ABORTED", reason));
  }

  /** The run is no longer this pass's to go on with: the sandbox and the calls it started stop now. */
  #stopWithCalls(reason: string): void {
    this.stop(reason);
    this.#abortCalls(reason);
  }

  /**
   * How long an ended pass waits for its calls to settle before it gives up on them: a third of a
   * lease, and at least `MIN_ABANDON_MS`, time for a connector to honour its aborted signal.
   */
  get #abandonAfterMs(): number {
    return Math.max(this.#heartbeatMs, MIN_ABANDON_MS);
  }

  /** How often the lease is renewed: a third of its length, so two renewals may fail before it lapses. */
  get #heartbeatMs(): number {
    return this.#context.leaseMs / 3;
  }

  get stopped(): string | undefined {
    return this.#stopped;
  }

  /** False once a write under the lease was refused (a renewal, an entry's write): the run is someone else's. */
  get holdsLease(): boolean {
    return this.#holdsLease;
  }

  /** Ends the pass for good: no host call of it reaches a connector from now on. */
  stop(reason: string): void {
    if (this.#stopped) return;
    this.#stopped = reason;
    this.controller.abort(new CodemodeError("ABORTED", reason));
  }

  /** Throws once the pass has stopped. */
  guard(): void {
    if (this.#stopped) throw new CodemodeError("ABORTED", this.#stopped);
  }

  /** The next number of the run's calls and steps; throws once stopped or over budget. */
  nextSeq(): number {
    this.guard();
    const { maxCalls } = this.#context;
    if (this.#cursor >= maxCalls) {
      throw new CodemodeError(
        "BUDGET_EXCEEDED",
        `This run made more than ${maxCalls} connector calls and steps. Do less per run, or ask for a larger budget.`,
      );
    }
    this.#live = true;
    return this.#cursor++;
  }

  /**
   * Counts one lookup the program asked of the host (`codemode.search`, `codemode.describe`, the
   * saved program of a `codemode.run`); throws `BUDGET_EXCEEDED` past the pass's budgets, before
   * any host work. Called as the request reaches the host, in the order the program made them, so
   * every pass of the same program is refused at the same lookup.
   */
  lookup(kind: "search" | "describe" | "run"): void {
    const { maxLookups, maxSnippetRuns } = this.#context;
    if (this.#lookups >= maxLookups) {
      throw new CodemodeError(
        "BUDGET_EXCEEDED",
        `This run asked codemode.search, codemode.describe and codemode.run more than ${maxLookups} times. Keep what a search or describe answered instead of asking again, or ask for a larger budget.`,
      );
    }
    if (kind === "run" && this.#snippetRuns >= maxSnippetRuns) {
      throw new CodemodeError(
        "BUDGET_EXCEEDED",
        `A run may start ${maxSnippetRuns} saved programs (codemode.run) at most; run fewer, or do the work in the code itself.`,
      );
    }
    this.#lookups++;
    if (kind === "run") this.#snippetRuns++;
  }

  /**
   * Marks the run failed (while it is still running under this pass's lease) and stops the pass. A
   * write the store fails is made again when the pass reports (`endsInFailure`).
   */
  async failRun(message: string): Promise<void> {
    this.endInFailure(message);
    await this.#context.journal
      .updateExecution(
        this.executionId,
        ["running"],
        { status: "error", error: message, updatedAt: this.#context.now(), lease: undefined },
        { owner: this.owner },
      )
      .catch(() => false);
  }

  /**
   * The journal's part of one host call of the pass (a call's decision, a step's), started while
   * the pass runs. The pass stops on purpose only after it stopped itself (`stop`: a pause, a
   * divergence, a lost lease); any other failure comes from underneath (the store failed a read or
   * a write, which may or may not have applied) and ends the run in failure: nothing after it runs.
   * The program never gets such an error: a program that caught it would go on past a call whose
   * entry is missing or unknown, doing its work another way (a retry, a fallback), and a later
   * pass would then run that call as a new one, the work done twice.
   */
  async journalPart<T>(what: string, part: () => Promise<T>): Promise<T> {
    try {
      return await part();
    } catch (error) {
      if (this.#stopped !== undefined) throw error;
      const message = `${what} failed in the journal (${messageOf(error)}), so the run stops here; nothing after it runs.`;
      this.endInFailure(message);
      throw new CodemodeError("ABORTED", message);
    }
  }

  /** A write under the lease was refused: the pass stops here, nothing after it runs. */
  leaseLost(): never {
    this.#holdsLease = false;
    this.#stopWithCalls(LEASE_LOST);
    throw new CodemodeError("ABORTED", LEASE_LOST);
  }

  /**
   * The claim an entry write of this pass makes: only while it holds the lease, renewing it in the
   * same write when the heartbeat is due. The renewal counts once the write succeeded (`held`).
   */
  claim(): LeaseClaim {
    if (!this.renewDue()) return { owner: this.owner };
    return { owner: this.owner, renewUntil: this.#context.now() + this.#context.leaseMs };
  }

  /** An entry write made with `claim` succeeded: a renewal it carried counts from when it was made. */
  held(claim: LeaseClaim): void {
    if (claim.renewUntil !== undefined) {
      this.#renewed = Math.max(this.#renewed, claim.renewUntil - this.#context.leaseMs);
    }
  }

  /**
   * A call or step ran but what it gave cannot be recorded: its entry says so (`error`, which a
   * rollback reports as unrecorded) and the run fails.
   */
  async failEntry(seq: number, message: string): Promise<void> {
    this.endInFailure(message);
    // a write the store fails leaves the entry `executing`, which a rollback reports the same way
    await this.#context.journal
      .updateEntry(this.executionId, seq, ["executing"], {
        state: "error",
        error: message,
        updatedAt: this.#context.now(),
      })
      .catch(() => false);
    await this.failRun(message);
  }

  /**
   * The outcome of a host call (a connector call, a step's decision or record, a search), handed to
   * the program only after those made before it in this pass, whatever order they settle in. Live,
   * results of calls made at once would reach the program in the order they arrive, which no replay
   * can know; in the order they were made, a replay hands them over as the live pass did, and the
   * calls the program makes from them get the same numbers. Call it when the call is made.
   */
  inOrder<T>(outcome: Promise<T>): Promise<T> {
    const delivered = this.#lastDelivery.then(() => outcome);
    this.#lastDelivery = delivered.then(
      () => undefined,
      () => undefined,
    );
    return delivered;
  }

  /** Follows a host call of this pass until it settles: the pass reports only after. */
  track<T>(call: Promise<T>): Promise<T> {
    this.#inflight.add(call);
    const done = () => this.#inflight.delete(call);
    call.then(done, done);
    return call;
  }

  /** Resolves once every host call the pass started has settled (calls started meanwhile too). */
  async settle(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
  }

  /**
   * Ends the pass: stopped, then settled. The run stays renewed until its last call has settled,
   * so nothing expires it while a call is still running. A call still running when the pass ends
   * (beside the call it paused at, or one the program did not wait for) gets a while to settle by
   * itself; then its signal is aborted (at once when the run was cancelled or its lease lost), and it
   * gets as long again.
   */
  async end(): Promise<void> {
    this.stop("The pass has ended.");
    try {
      if (!this.#calls.signal.aborted) {
        if (await this.#settledWithin(this.#abandonAfterMs)) return;
        this.#abandonedCalls = true;
        this.#abortCalls("The pass has ended.");
      }
      if (!(await this.#settledWithin(this.#abandonAfterMs))) await this.#abandon();
    } finally {
      this.#ended = true;
      this.#cancelHeartbeat();
    }
  }

  /**
   * Why the run must end in failure when this pass reports, whatever the program did: a call whose
   * outcome is unknown (it did not settle, or what it gave could not be recorded), which nothing may
   * run again. Set by `endInFailure`; `finishPass` ends the run with it.
   */
  get endsInFailure(): string | undefined {
    return this.#endsInFailure;
  }

  /** The run ends in failure with `message` when this pass reports, and the pass stops now. */
  endInFailure(message: string): void {
    this.#endsInFailure ??= message;
    this.stop(message);
  }

  /** Waits for the pass's calls to settle, at most `ms`. */
  async #settledWithin(ms: number): Promise<boolean> {
    let cancel = () => {};
    const timedOut = new Promise<false>((resolve) => {
      cancel = after(ms, () => resolve(false));
    });
    try {
      return await Promise.race([this.settle().then(() => true as const), timedOut]);
    } finally {
      cancel();
    }
  }

  /**
   * The pass has ended and its signal was aborted, yet a call it started has not settled a third of a
   * lease later (a connector that ignores its signal and never answers): the pass stops waiting, so
   * it reports on time. Each such call's entry records that its outcome is unknown (a rollback
   * reports it as unrecorded); what the call answers later is not recorded, and it never runs again.
   */
  async #abandon(): Promise<void> {
    // a journal that cannot answer now leaves the entries `executing`: in doubt for a later pass
    const open = await this.#context.journal
      .listEntries(this.executionId, { states: ["executing"] })
      .catch(() => []);
    const names = open.map((entry) => `#${entry.seq} ${entry.connector}.${entry.method}`);
    const message = `${names.length ? names.join(", ") : "A call"} did not settle within ${Math.round(this.#abandonAfterMs)} ms after its signal was aborted: whether it took effect is unknown, so the run ends here and nothing runs it again.`;
    this.#endsInFailure ??= message;
    // a pass whose run was taken writes nothing more: its entries stay `executing`, in doubt
    if (!this.#holdsLease) return;
    for (const entry of open) {
      await this.#context.journal
        .updateEntry(this.executionId, entry.seq, ["executing"], {
          state: "error",
          error: message,
          updatedAt: this.#context.now(),
        })
        .catch(() => false);
    }
  }

  /**
   * The call at `seq` starts to wait (written pending next): no approval asked before this pass
   * has reported covers it (see `ApprovalAsks`).
   */
  waitAt(seq: number): void {
    this.#waits.push(this.#context.asks.waiting(this.executionId, seq));
  }

  /** The pass has reported: its run is no longer live in this process, its pause is shown. */
  release(): void {
    this.#context.live.delete(this.executionId);
    for (const release of this.#waits.splice(0)) release();
  }

  /** A token for the step at `seq`: only it records the step's value, once. */
  stepToken(seq: number): string {
    const token = randomHex() + randomHex();
    this.#tokens.set(seq, token);
    return token;
  }

  /** Whether `token` is the one handed out for the step at `seq` (it is spent). */
  takeStepToken(seq: unknown, token: unknown): seq is number {
    if (typeof seq !== "number" || typeof token !== "string") return false;
    const expected = this.#tokens.get(seq);
    if (expected === undefined || expected !== token) return false;
    this.#tokens.delete(seq);
    return true;
  }

  /** Whether the run's heartbeat is due (then `renew` it): checked on every call, cheaply. */
  renewDue(): boolean {
    return this.#context.now() - this.#renewed >= this.#heartbeatMs;
  }

  /**
   * The executor's heartbeat while the program holds the host's thread: renews the run when due. A
   * store over synchronous SQLite (or memory) writes at once, without the event loop.
   */
  beat(): void {
    if (this.renewDue()) void this.renew().catch(() => {});
  }

  /**
   * Renews the lease (a write that succeeds only while the run is running under this pass's
   * lease); a run someone else ended stops this pass. Tells whether the pass still holds it.
   */
  async renew(): Promise<boolean> {
    if (this.#ended) return !this.#stopped;
    // counted only once the write succeeded: a renewal the store failed leaves the heartbeat due,
    // so the next call renews (or finds the lease lost) before it runs
    const at = this.#context.now();
    const alive = await this.#context.journal.updateExecution(
      this.executionId,
      ["running"],
      {
        updatedAt: at,
        lease: { owner: this.owner, expiresAt: at + this.#context.leaseMs },
      },
      { owner: this.owner },
    );
    if (alive) this.#renewed = Math.max(this.#renewed, at);
    else {
      this.#holdsLease = false;
      this.#stopWithCalls("The run was ended from outside (expired, deleted or rolled back).");
    }
    return alive;
  }

  /** The executor may answer up to `count` leading recorded calls in the sandbox. */
  offerReplay(count: number): void {
    this.#replayable = count;
  }

  /**
   * The executor answered `count` more recorded calls in the sandbox. The count is checked against
   * what was offered and what this pass already numbered: it can never move the numbering past the
   * recorded calls or after a call the host numbered itself.
   */
  advance(count: unknown): void {
    if (
      typeof count !== "number" ||
      !Number.isSafeInteger(count) ||
      count < 0 ||
      count > this.#replayable - this.#cursor ||
      (this.#live && count > 0)
    ) {
      void this.failRun(
        `The executor reported ${preview(count)} replayed calls, which this pass cannot have answered; the pass was stopped.`,
      );
      return;
    }
    const at = this.#context.now();
    for (let seq = this.#cursor; seq < this.#cursor + count; seq++) {
      const entry = this.recorded.get(seq);
      if (!entry) continue;
      const { executionId } = this;
      this.#context.emit(
        entry.kind === "step"
          ? { type: "step", executionId, seq, name: entry.method, live: false, at }
          : {
              type: "call",
              executionId,
              seq,
              connector: entry.connector,
              method: entry.method,
              live: false,
              startedAt: at,
              endedAt: at,
              failed: entry.error !== undefined,
            },
      );
    }
    this.#cursor += count;
  }
}

function preview(value: unknown): string {
  return typeof value === "number" ? String(value) : typeof value;
}
