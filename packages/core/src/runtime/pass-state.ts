import { CodemodeError } from "../codemode-error.ts";
import { HEARTBEAT_MS } from "../invariants.ts";
import type { JournalEntry } from "../journal-store.ts";
import { after, createAbortController, randomHex } from "../platform.ts";
import type { RunContext } from "./run-context.ts";

/**
 * What one pass of a run knows: its numbering, what earlier passes recorded, why it must stop, the
 * host calls it started (it reports only once they have settled), the step tokens it handed out,
 * and its heartbeat. Every host function of the pass goes through it.
 */
export class PassState {
  readonly executionId: string;
  readonly controller = createAbortController();
  /** what earlier passes recorded, read once: a pass starts only by taking the run */
  readonly recorded: ReadonlyMap<number, JournalEntry>;
  /** a gated call was recorded pending: the run pauses once the pass has settled */
  paused = false;
  /** the pending calls a person approved for this pass (an approval pass: all that were listed) */
  readonly approved: ReadonlySet<number>;
  #cursor = 0;
  #stopped: string | undefined;
  readonly #context: RunContext;
  readonly #inflight = new Set<Promise<unknown>>();
  readonly #tokens = new Map<number, string>();
  #renewed: number;
  #cancelHeartbeat: () => void = () => {};
  /** settled and reported: no heartbeat any more */
  #ended = false;
  /** recorded calls the executor may still answer in the sandbox (see `ReplayHint`) */
  #replayable = 0;
  #live = false;

  constructor(
    context: RunContext,
    executionId: string,
    recorded: ReadonlyMap<number, JournalEntry>,
    approved: ReadonlySet<number> = new Set(),
  ) {
    this.#context = context;
    this.executionId = executionId;
    this.recorded = recorded;
    this.approved = approved;
    this.#renewed = context.now();
    context.live.add(executionId);
    const beat = () => {
      this.#cancelHeartbeat = after(HEARTBEAT_MS, () => {
        void this.renew().finally(() => {
          if (!this.#ended) beat();
        });
      });
    };
    beat();
  }

  get stopped(): string | undefined {
    return this.#stopped;
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

  /** Marks the run failed (while it is still running) and stops the pass. */
  async failRun(message: string): Promise<void> {
    this.stop(message);
    await this.#context.journal.updateExecution(this.executionId, ["running"], {
      status: "error",
      error: message,
      updatedAt: this.#context.now(),
    });
  }

  /**
   * A call or step ran but what it gave cannot be recorded: its entry says so (`error`, which a
   * rollback reports as unrecorded) and the run fails.
   */
  async failEntry(seq: number, message: string): Promise<void> {
    await this.#context.journal.updateEntry(this.executionId, seq, ["executing"], {
      state: "error",
      error: message,
      updatedAt: this.#context.now(),
    });
    await this.failRun(message);
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
   * so nothing expires it while a call is still running.
   */
  async end(): Promise<void> {
    this.stop("The pass has ended.");
    try {
      await this.settle();
    } finally {
      this.#ended = true;
      this.#cancelHeartbeat();
    }
  }

  /** The pass has reported: its run is no longer live in this process. */
  release(): void {
    this.#context.live.delete(this.executionId);
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
    return this.#context.now() - this.#renewed >= HEARTBEAT_MS;
  }

  /**
   * The executor's heartbeat while the program holds the host's thread: renews the run when due. A
   * store over synchronous SQLite (or memory) writes at once, without the event loop.
   */
  beat(): void {
    if (this.renewDue()) void this.renew().catch(() => {});
  }

  /** Renews the run (a conditional write); a run someone else ended stops this pass. */
  async renew(): Promise<void> {
    if (this.#ended) return;
    this.#renewed = this.#context.now();
    const alive = await this.#context.journal.updateExecution(this.executionId, ["running"], {
      updatedAt: this.#renewed,
    });
    if (!alive) this.stop("The run was ended from outside (expired, deleted or rolled back).");
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
    this.#cursor += count;
  }
}

function preview(value: unknown): string {
  return typeof value === "number" ? String(value) : typeof value;
}
