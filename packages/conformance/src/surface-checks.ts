// The surface-integrity suite's oracle: what the ledger of real effects must agree with, given what
// each person and the host were shown and answered. Each check returns its violations in words that
// name the step, the run and the call.
import type { Effect, ShownCall, SurfaceTrace } from "./surface-trace.ts";

export const SURFACE_CHECKS = {
  consent:
    "every gated effect ran in the step of an approval whose card (or the host's read of pending) showed that exact call: run, seq, connector, method and input",
  once: "each (executionId, seq) reached its connector at most once, under one idempotency key",
  runs: "no answer or host decision starts a run: each step started exactly the runs its new tool calls and host executes stand for, and no run started twice",
  denial:
    "a person's denial rejects a run only while the calls its card showed wait: it never ends a later pause",
  ended: "a run the host (or a person's denial) ended executes no call afterwards",
  liveness:
    "an approval alone in its step whose calls still waited as shown runs them, and a continuation of a paused run continues it",
  refused:
    "a decision that names no call as it was shown (a forged handle), or that an MCP session sends about a run it may not decide (another session's, runs not shared), decides nothing",
  surface: "no tool or host call threw, and a card or result is about its own tool call's run",
} as const;

export type SurfaceCheck = keyof typeof SURFACE_CHECKS;

const where = (call: Pick<Effect, "executionId" | "seq" | "method">) =>
  `run ${call.executionId.slice(-8)} #${call.seq} svc.${call.method}`;

const sameCall = (effect: Effect, shown: ShownCall) =>
  shown.executionId === effect.executionId &&
  shown.seq === effect.seq &&
  shown.connector === "svc" &&
  shown.method === effect.method &&
  shown.input === effect.input;

export function consent(trace: SurfaceTrace): string[] {
  const out: string[] = [];
  for (const effect of trace.effects) {
    if (!effect.gated) continue;
    const approvals = trace.decisions.filter(
      (decision) => decision.step === effect.step && decision.approves,
    );
    if (approvals.some((decision) => decision.shown.some((shown) => sameCall(effect, shown)))) {
      continue;
    }
    const seen = approvals.flatMap((decision) =>
      decision.shown
        .filter((shown) => shown.executionId === effect.executionId && shown.seq === effect.seq)
        .map((shown) => `${decision.by} showed it with ${shown.input}`),
    );
    out.push(
      `step ${effect.step}: ${where(effect)} ran with ${effect.input}, approved by nothing that showed it${
        approvals.length === 0
          ? " (no approval arrived in that step)"
          : seen.length > 0
            ? ` (${seen.join("; ")})`
            : ` (the step's approvals: ${approvals.map((decision) => `${decision.by} showing ${decision.shown.map((shown) => `#${shown.seq} of ${shown.executionId.slice(-8)}`).join(", ") || "nothing"}`).join("; ")})`
      }`,
    );
  }
  return out;
}

export function once(trace: SurfaceTrace): string[] {
  const out: string[] = [];
  const byCall = new Map<string, Effect[]>();
  const callOfKey = new Map<string, string>();
  for (const effect of trace.effects) {
    const id = `${effect.executionId}:${effect.seq}`;
    byCall.set(id, [...(byCall.get(id) ?? []), effect]);
    const other = callOfKey.get(effect.idempotencyKey);
    if (other !== undefined && other !== id) {
      out.push(`the idempotency key ${effect.idempotencyKey} was given to ${other} and ${id}`);
    }
    callOfKey.set(effect.idempotencyKey, id);
  }
  for (const effects of byCall.values()) {
    const [first] = effects;
    if (first && effects.length > 1) {
      out.push(
        `${where(first)} reached its connector ${effects.length} times (steps ${effects.map((effect) => effect.step).join(", ")}, keys ${[...new Set(effects.map((effect) => effect.idempotencyKey))].join(", ")})`,
      );
    }
  }
  return out;
}

export function runs(trace: SurfaceTrace): string[] {
  const out: string[] = [];
  const seen = new Map<string, number>();
  for (const start of trace.starts) {
    const before = seen.get(start.executionId);
    if (before !== undefined) {
      out.push(
        `run ${start.executionId.slice(-8)} started again in step ${start.step} (first in step ${before})`,
      );
    }
    seen.set(start.executionId, start.step);
  }
  for (const record of trace.steps) {
    const started = trace.starts.filter((start) => start.step === record.index).length;
    if (started < record.minRuns || started > record.maxRuns) {
      out.push(
        `step ${record.index} started ${started} run(s); it may start ${record.minRuns === record.maxRuns ? record.minRuns : `${record.minRuns} to ${record.maxRuns}`}`,
      );
    }
    const { continuation } = record;
    if (
      continuation?.resultId !== undefined &&
      started === 0 &&
      continuation.resultId !== continuation.target
    ) {
      out.push(
        `step ${record.index}: continuation ${continuation.toolCallId} started no run, yet stands for ${continuation.resultId.slice(-8)}, not the run ${continuation.target.slice(-8)} its conversation pointed at`,
      );
    }
  }
  return out;
}

export function denial(trace: SurfaceTrace): string[] {
  const out: string[] = [];
  for (const event of trace.decisionEvents) {
    if (event.decision !== "rejected" || event.source !== "tool-approval") continue;
    const shownBy = trace.denials.some(
      (denied) =>
        denied.step <= event.step &&
        denied.shown.length > 0 &&
        denied.shown.every(
          (shown) => shown.executionId === event.executionId && event.seqs.includes(shown.seq),
        ),
    );
    if (!shownBy) {
      out.push(
        `step ${event.step}: a denial rejected run ${event.executionId.slice(-8)} waiting at ${event.seqs.map((seq) => `#${seq}`).join(", ") || "nothing"}, which no denied card showed`,
      );
    }
  }
  return out;
}

export function ended(trace: SurfaceTrace): string[] {
  const out: string[] = [];
  // a call whose start was sent to the journal before the ending returned may have been committed
  // before it (a deletion of a running run waits for the take's lock, and its answer can reach
  // this process first): it is in flight, not started by an ended run
  const sentBefore = (effect: Effect, at: number) =>
    trace.takes.some(
      (take) => take.executionId === effect.executionId && take.seq === effect.seq && take.at < at,
    );
  for (const ending of trace.endings) {
    for (const effect of trace.effects) {
      if (
        effect.executionId === ending.executionId &&
        effect.at > ending.at &&
        !sentBefore(effect, ending.at)
      ) {
        out.push(
          `step ${effect.step}: ${where(effect)} ran after ${ending.how} ended its run (t=${ending.at} < ${effect.at})`,
        );
      }
    }
  }
  return out;
}

export function liveness(trace: SurfaceTrace): string[] {
  const out: string[] = [];
  for (const expectation of trace.expectations) {
    const missing = expectation.calls.filter(
      (call) =>
        !trace.effects.some(
          (effect) =>
            effect.step === expectation.step &&
            effect.executionId === call.executionId &&
            effect.seq === call.seq,
        ),
    );
    if (missing.length > 0) {
      out.push(
        `step ${expectation.step}: ${expectation.by} found ${missing.map((call) => `#${call.seq} of ${call.executionId.slice(-8)}`).join(", ")} waiting as shown, yet did not run ${missing.length === 1 ? "it" : "them"}`,
      );
    }
  }
  return out;
}

/**
 * A refused decision alone in its step decides nothing about its run (an approval beside other
 * messages is held by `consent`: it names no call; a rejection by its reply).
 */
export function refused(trace: SurfaceTrace): string[] {
  const out: string[] = [];
  for (const refusal of trace.refusals) {
    if (!refusal.solo) continue;
    const decided = trace.decisionEvents.filter(
      (event) => event.step === refusal.step && event.executionId === refusal.executionId,
    );
    for (const event of decided) {
      out.push(
        `step ${refusal.step}: ${refusal.by}: yet run ${event.executionId.slice(-8)} was ${event.decision} (${event.seqs.map((seq) => `#${seq}`).join(", ")})`,
      );
    }
  }
  return out;
}

const CHECKS: Record<SurfaceCheck, (trace: SurfaceTrace) => string[]> = {
  consent,
  once,
  runs,
  denial,
  ended,
  liveness,
  refused,
  surface: (trace) => trace.violations,
};

/** Every violation the trace shows, each prefixed with the check it breaks. */
export function surfaceViolations(trace: SurfaceTrace): string[] {
  return (Object.keys(CHECKS) as SurfaceCheck[]).flatMap((check) =>
    CHECKS[check](trace).map((violation) => `${check}: ${violation}`),
  );
}
