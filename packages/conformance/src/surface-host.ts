// The host's decisions in a surface-integrity case, as its queue and API make them: reading what
// waits (now, or in a tab read earlier), approving or rejecting with that handle, the bare approve,
// rollback and delete, expiry, prune, and a run the host starts itself.
import { decisionHandleOf, type PendingAction } from "@codemode/core";
import { type Process, programSource, type SurfaceAction } from "./surface-case.ts";
import type { SurfaceContext } from "./surface-context.ts";
import { shownOf } from "./surface-trace.ts";

/** The actions of the host: `hostPlayer`'s `play` takes these. */
export type HostAction = Extract<
  SurfaceAction,
  { kind: "look" | "decide" | "bare" | "end" | "expire" | "prune" | "execute" }
>;

/** The pending calls of each paused run, in the order `pending()` lists them. */
function byRun(pending: readonly PendingAction[]): PendingAction[][] {
  const runs = new Map<string, PendingAction[]>();
  for (const action of pending) {
    runs.set(action.executionId, [...(runs.get(action.executionId) ?? []), action]);
  }
  return [...runs.values()];
}

/** Plays the host's actions of one case; `play` returns how many runs an action may start. */
export function hostPlayer(context: SurfaceContext) {
  const { testCase, trace, tick, runtime, guard, stillWaits, knownRuns } = context;
  /** the calls of one run as a tab the host opened read them */
  let tab: PendingAction[] | undefined;

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
    trace.decisions.push({ step: context.step(), by, approves: true, shown });
    if (solo && (await stillWaits(shown))) {
      trace.expectations.push({ step: context.step(), by, calls: shown });
    }
    const handle = decisionHandleOf(pending);
    await guard(by, () =>
      runtime(on).approve({ executionId: first.executionId, handle, ...(seqs ? { seqs } : {}) }),
    );
  };

  const play = async (action: HostAction, solo: boolean): Promise<{ min: number; max: number }> => {
    switch (action.kind) {
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
          trace.decisions.push({
            step: context.step(),
            by,
            approves: false,
            shown: pending.map(shownOf),
          });
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
        trace.decisions.push({ step: context.step(), by, approves: true, shown });
        trace.expectations.push({ step: context.step(), by, calls: shown });
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

  return { play };
}
