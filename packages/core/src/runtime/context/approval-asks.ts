/**
 * What an approval asked now could have been shown, for one store in this process. An approval
 * covers the calls that waited when it was asked; it reads them from the journal a little later,
 * and by then another approval's pass may have run those calls and paused the run again at new
 * ones. Every pass records here each call it starts to make wait, until it has reported; an
 * approval asked before that report never covers such a call, whenever its read comes.
 */
export interface ApprovalAsks {
  /** An approval of run `executionId` is asked now; `done` once it has taken the run or lost. */
  ask(executionId: string): ApprovalAsk;
  /** A pass of the run starts to make the call at `seq` wait; `release` once the pass reported. */
  waiting(executionId: string, seq: number): () => void;
}

export interface ApprovalAsk {
  /** the calls of the run that started to wait while this approval was in flight, or just before */
  readonly unseen: ReadonlySet<number>;
  done(): void;
}

interface Run {
  asks: Set<Set<number>>;
  /** how many passes are making each seq wait and have not reported yet */
  waiting: Map<number, number>;
}

/**
 * The approvals and pausing passes of the runtimes over one storage in this process, kept in that
 * storage's `StoreLocal` (see store-local.ts).
 */
export function createApprovalAsks(): ApprovalAsks {
  const runs = new Map<string, Run>();
  const runOf = (id: string): Run => {
    let run = runs.get(id);
    if (!run) {
      run = { asks: new Set(), waiting: new Map() };
      runs.set(id, run);
    }
    return run;
  };
  const forget = (id: string, run: Run) => {
    if (run.asks.size === 0 && run.waiting.size === 0) runs.delete(id);
  };
  return {
    ask(executionId) {
      const run = runOf(executionId);
      const unseen = new Set(run.waiting.keys());
      run.asks.add(unseen);
      let done = false;
      return {
        unseen,
        done() {
          if (done) return;
          done = true;
          run.asks.delete(unseen);
          forget(executionId, run);
        },
      };
    },
    waiting(executionId, seq) {
      const run = runOf(executionId);
      for (const unseen of run.asks) unseen.add(seq);
      run.waiting.set(seq, (run.waiting.get(seq) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const count = (run.waiting.get(seq) ?? 1) - 1;
        if (count > 0) run.waiting.set(seq, count);
        else run.waiting.delete(seq);
        forget(executionId, run);
      };
    },
  };
}
