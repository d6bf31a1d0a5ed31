// The guarantees of ARCHITECTURE §7 as checks over one trace (what the connector's ledger saw, what
// the runtime reported and what the journal holds). Each returns the violations it finds, in words
// that name the run, the seq and the moment.
import type { Invocation } from "./integrity-ledger.ts";
import { canonical } from "./integrity-ledger.ts";
import type { Report, Trace } from "./integrity-schedule.ts";

export type Guarantee = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export const GUARANTEES: Record<Guarantee, string> = {
  1: "consent: a gated call runs only after an approve that followed its pause, with the input and operation shown; no call starts once a cancellation was decided",
  2: "at most once: each (executionId, seq) reaches its connector once, under one idempotency key",
  3: "the journal records what happened: results as returned, failures as failures, nothing forged",
  4: "settled before reported: no call in flight or unrecorded when a pass reports, none after",
  5: "replay equals live: a replayed call gives the program what the live call gave it",
  6: "accountability: a rollback report names every call that reached a connector",
  7: "liveness: expiry never takes a run whose pass is live",
};

const where = (invocation: Invocation) =>
  `${invocation.executionId.slice(-8)} #${invocation.seq} svc.${invocation.method}`;

function pausedReports(trace: Trace, executionId: string): Report[] {
  return trace.reports.filter(
    (report) => report.executionId === executionId && report.output.status === "paused",
  );
}

function approveStarts(trace: Trace, executionId: string): number[] {
  return trace.ledger.events
    .filter((event) => event.kind === "approve" && event.executionId === executionId)
    .map((event) => event.at);
}

export function consent(trace: Trace): string[] {
  const out: string[] = [];
  for (const invocation of trace.ledger.invocations) {
    if (!invocation.gated) continue;
    const approvals = approveStarts(trace, invocation.executionId).filter(
      (at) => at < invocation.startedAt,
    );
    const shown = pausedReports(trace, invocation.executionId)
      .filter((report) => approvals.some((at) => at > report.at))
      .flatMap((report) =>
        report.output.status === "paused"
          ? report.output.pending.filter((action) => action.seq === invocation.seq)
          : [],
      );
    if (shown.length === 0) {
      out.push(
        `${where(invocation)} reached its connector (t=${invocation.startedAt}) without an approve that came after a pause showing it`,
      );
      continue;
    }
    const last = shown[shown.length - 1];
    if (last && canonical(last.args) !== invocation.input) {
      out.push(
        `${where(invocation)} ran with ${invocation.input}, but the approved pause showed ${canonical(last.args)}`,
      );
    }
    if (last && last.operation !== invocation.operation) {
      out.push(
        `${where(invocation)} was sent to ${invocation.operation}, but the approved pause showed ${last.operation ?? "no operation"}`,
      );
    }
  }
  for (const reject of trace.rejects) {
    if (!reject.accepted) continue;
    for (const invocation of trace.ledger.of(reject.executionId)) {
      if (invocation.seq === reject.seq) {
        out.push(`${where(invocation)} ran although its rejection was accepted`);
      } else if (invocation.gated && invocation.startedAt > reject.startedAt) {
        out.push(`${where(invocation)} ran after the run was rejected (t=${reject.at})`);
      }
    }
  }
  out.push(...cancellations(trace));
  const statusOf = new Map(trace.executions.map((execution) => [execution.id, execution.status]));
  const listed = [...trace.pendingAll, ...Object.values(trace.pendingOf).flat()];
  const said = new Set<string>();
  for (const action of listed) {
    const status = statusOf.get(action.executionId);
    const text = `pending() lists #${action.seq} ${action.connector}.${action.method} of run ${action.executionId.slice(-8)}, which is ${status ?? "gone"}: no approval can run it`;
    if (status !== "paused" && !said.has(text)) {
      said.add(text);
      out.push(text);
    }
  }
  return out;
}

/**
 * A cancellation is a decision against every call the run had not started: from this process, no
 * call of the run starts once `cancel` was called (its passes here are stopped before it reads
 * anything); from another process, none starts once `cancel` has returned and the pass it found
 * has reported (the pass stops at its next journal write). A run `cancel` says it cancelled ends
 * cancelled (or rolled back later), never completed or paused.
 */
export function cancellations(trace: Trace): string[] {
  const out: string[] = [];
  const statusOf = new Map(trace.executions.map((execution) => [execution.id, execution.status]));
  for (const cancel of trace.cancels) {
    const id = cancel.executionId.slice(-8);
    if (cancel.threw !== undefined) {
      out.push(`cancel of ${id} threw instead of returning its result: ${cancel.threw}`);
    }
    // from here: nothing starts after the call; from elsewhere: nothing after it returned and the
    // pass live then reported
    const liveThen = trace.reports
      .filter(
        (report) =>
          report.executionId === cancel.executionId &&
          report.startedAt < cancel.at &&
          report.at > cancel.at,
      )
      .map((report) => report.at);
    const from = cancel.from === "here" ? cancel.startedAt : Math.max(cancel.at, ...liveThen);
    for (const invocation of trace.ledger.of(cancel.executionId)) {
      if (invocation.startedAt > from) {
        out.push(
          `${where(invocation)} reached its connector (t=${invocation.startedAt}) after a cancel ${cancel.from === "here" ? "from this process was called" : "from another process returned"} (t=${cancel.startedAt}–${cancel.at})`,
        );
      }
    }
    if (cancel.result?.cancelled) {
      const status = statusOf.get(cancel.executionId);
      if (status !== undefined && status !== "cancelled" && status !== "rolled_back") {
        out.push(`cancel said it cancelled ${id}, but the run ended ${status}`);
      }
    }
  }
  return out;
}

export function atMostOnce(trace: Trace): string[] {
  const out: string[] = [];
  const bySeq = new Map<string, Invocation[]>();
  const byKey = new Map<string, string>();
  for (const invocation of trace.ledger.invocations) {
    const id = `${invocation.executionId}:${invocation.seq}`;
    bySeq.set(id, [...(bySeq.get(id) ?? []), invocation]);
    const other = byKey.get(invocation.idempotencyKey);
    if (other !== undefined && other !== id) {
      out.push(`the idempotency key ${invocation.idempotencyKey} was given to ${other} and ${id}`);
    }
    byKey.set(invocation.idempotencyKey, id);
  }
  for (const invocations of bySeq.values()) {
    const first = invocations[0] as Invocation;
    if (invocations.length > 1) {
      out.push(
        `${where(first)} reached its connector ${invocations.length} times (t=${invocations.map((i) => i.startedAt).join(", ")})`,
      );
    }
    const keys = new Set(invocations.map((invocation) => invocation.idempotencyKey));
    if (keys.size > 1) out.push(`${where(first)} got idempotency keys ${[...keys].join(", ")}`);
  }
  return out;
}

export function journalRecords(trace: Trace): string[] {
  const out: string[] = [];
  for (const execution of trace.executions) {
    const invocations = trace.ledger.of(execution.id);
    const seen = new Map(invocations.map((invocation) => [invocation.seq, invocation]));
    const entries = new Map(execution.calls.map((entry) => [entry.seq, entry]));
    for (const entry of execution.calls) {
      if (entry.kind !== "call") continue;
      const invocation = seen.get(entry.seq);
      const at = `${execution.id.slice(-8)} #${entry.seq} ${entry.connector}.${entry.method}`;
      if (entry.state === "applied" && entry.error === undefined) {
        if (!invocation) {
          out.push(
            `${at} is applied with ${canonical(entry.result)}, but no call reached the connector`,
          );
        } else if (invocation.outcome && "threw" in invocation.outcome) {
          out.push(
            `${at} failed at the connector but is recorded applied with ${canonical(entry.result)}`,
          );
        } else if (
          invocation.outcome &&
          canonical(entry.result) !== canonical(invocation.outcome.returned)
        ) {
          out.push(
            `${at} is recorded with ${canonical(entry.result).slice(0, 200)}, but the connector returned ${canonical(invocation.outcome.returned).slice(0, 200)}`,
          );
        }
      } else if (entry.state === "applied") {
        if (!invocation) out.push(`${at} is recorded as failed, but no call reached the connector`);
        else if (invocation.outcome && "returned" in invocation.outcome) {
          const text = canonical(invocation.outcome.returned);
          if (!text.startsWith("<unencodable") && text.length <= 1_000_000)
            out.push(
              `${at} returned ${text.slice(0, 120)} but is recorded as the failure "${entry.error}"`,
            );
        }
      } else if (entry.state === "executing" && invocation?.settledAt !== undefined) {
        const how = invocation.outcome && "threw" in invocation.outcome ? "failed" : "returned";
        out.push(`${at} ${how} at the connector long ago but is still recorded executing`);
      } else if (
        (entry.state === "pending" || entry.state === "approved" || entry.state === "withdrawn") &&
        invocation
      ) {
        out.push(`${at} reached the connector but is recorded ${entry.state}`);
      } else if (entry.state === "reverted" && invocation) {
        const reverted = trace.ledger.reverts.some(
          (revert) => revert.executionId === execution.id && revert.seq === entry.seq,
        );
        if (!reverted) out.push(`${at} ran, was never reverted, but is recorded reverted`);
      }
    }
    for (const invocation of invocations) {
      const entry = entries.get(invocation.seq);
      if (entry?.kind !== "call" || entry.method !== invocation.method) {
        out.push(
          `${where(invocation)} reached the connector but the journal has ${entry ? `${entry.kind} ${entry.connector}.${entry.method}` : "no entry"} at that seq`,
        );
      }
    }
  }
  return out;
}

export function settledBeforeReported(trace: Trace): string[] {
  const out: string[] = [];
  for (const report of trace.reports) {
    const id = report.executionId.slice(-8);
    if (report.threw !== undefined) {
      out.push(
        `${report.call} of ${id || "a new run"} threw instead of reporting: ${report.threw}`,
      );
      continue;
    }
    if (!report.ranPass) continue;
    for (const invocation of report.unsettled) {
      out.push(
        `${report.call} reported ${report.output.status} (t=${report.at}) while ${where(invocation)} (started t=${invocation.startedAt}) was still running`,
      );
    }
    for (const entry of report.entries) {
      if (entry.kind !== "call" || entry.state !== "executing") continue;
      const invocation = trace.ledger
        .of(report.executionId)
        .find((candidate) => candidate.seq === entry.seq);
      if (invocation?.settledAt !== undefined && invocation.settledAt < report.at) {
        out.push(
          `${report.call} reported ${report.output.status} with ${id} #${entry.seq} svc.${entry.method} settled at the connector but recorded executing`,
        );
      }
    }
  }
  // nothing acts on a run between a report and the next decision to resume it
  for (const invocation of trace.ledger.invocations) {
    const reported = trace.reports.filter(
      (report) =>
        report.ranPass &&
        report.executionId === invocation.executionId &&
        report.at < invocation.startedAt,
    );
    const last = reported[reported.length - 1];
    if (!last) continue;
    const resumed = approveStarts(trace, invocation.executionId).some(
      (at) => at > last.at && at < invocation.startedAt,
    );
    if (!resumed) {
      out.push(
        `${where(invocation)} reached its connector (t=${invocation.startedAt}) after its run reported ${last.output.status} (t=${last.at}) and before any approve`,
      );
    }
  }
  // a cancellation in this process returns once the pass it stopped has settled
  for (const cancel of trace.cancels) {
    if (!cancel.result?.cancelled || cancel.result.pass !== "settled") continue;
    for (const invocation of cancel.unsettled) {
      out.push(
        `cancel of ${cancel.executionId.slice(-8)} returned (t=${cancel.at}) while ${where(invocation)} (started t=${invocation.startedAt}) was still running`,
      );
    }
  }
  return out;
}

/**
 * The codes of what a program sees when its pass is refused or stopped rather than answered (the
 * run paused, cancelled, expired or taken, the pass aborted, a replay that diverged): such an
 * observation may differ from one pass to the next. Read by code, never by wording.
 */
const REFUSALS: ReadonlySet<string | undefined> = new Set(["ABORTED", "DIVERGENCE"]);

function refused(observed: { ok?: string; err?: Record<string, string | undefined> }): boolean {
  return observed.err !== undefined && REFUSALS.has(observed.err.code);
}

export function replayEqualsLive(trace: Trace): string[] {
  const out: string[] = [];
  const reference = new Map<string, { pass: number; text: string }>();
  trace.passes.forEach((pass, index) => {
    const count = new Map<string, number>();
    for (const { label, observed } of pass.observations) {
      if (label.startsWith("setup")) continue;
      const nth = (count.get(label) ?? 0) + 1;
      count.set(label, nth);
      if (refused(observed)) continue;
      const key = `${label}#${nth}`;
      const text = JSON.stringify(observed);
      const first = reference.get(key);
      if (!first) reference.set(key, { pass: index, text });
      else if (first.text !== text) {
        out.push(
          `${label} gave the program ${first.text} in pass ${first.pass}, then ${text} in pass ${index}`,
        );
      }
    }
  });
  return out;
}

export function accountability(trace: Trace): string[] {
  const out: string[] = [];
  const checked = new Set<string>();
  for (const rollback of trace.rollbacks) {
    if (!rollback.report || checked.has(rollback.executionId)) continue;
    checked.add(rollback.executionId);
    const report = rollback.report;
    const listed = (key: string) => {
      const value = (report as unknown as Record<string, unknown>)[key];
      return Array.isArray(value)
        ? value.filter((seq): seq is number => typeof seq === "number")
        : [];
    };
    const named = new Set([
      ...listed("reverted"),
      ...listed("skipped"),
      ...listed("unrecorded"),
      ...listed("failed"),
      ...rollback.failed,
    ]);
    for (const invocation of trace.ledger.of(rollback.executionId)) {
      if (invocation.startedAt < rollback.at && !named.has(invocation.seq)) {
        out.push(
          `rollback of ${rollback.executionId.slice(-8)} (report ${JSON.stringify(report)}) does not name ${where(invocation)}, which reached the connector`,
        );
      }
    }
  }
  for (const revert of trace.ledger.reverts) {
    const ran = trace.ledger
      .of(revert.executionId)
      .some((invocation) => invocation.seq === revert.seq);
    if (!ran)
      out.push(`#${revert.seq} svc.${revert.method} was reverted but never reached the connector`);
  }
  return out;
}

export function liveness(trace: Trace): string[] {
  const out: string[] = [];
  for (const expiry of trace.expiries) {
    for (const id of expiry.expired) {
      const live = trace.reports.find(
        (report) =>
          report.executionId === id &&
          report.ranPass &&
          report.startedAt < expiry.startedAt &&
          report.at > expiry.at,
      );
      if (live) {
        out.push(
          `expirePaused (t=${expiry.startedAt}–${expiry.at}) took ${id.slice(-8)} while its ${live.call} pass was live (t=${live.startedAt}–${live.at})`,
        );
      }
      for (const invocation of trace.ledger.of(id)) {
        if (invocation.startedAt > expiry.at) {
          out.push(
            `${where(invocation)} reached its connector (t=${invocation.startedAt}) after expirePaused took its run (t=${expiry.at})`,
          );
        }
      }
    }
  }
  return out;
}

export const CHECKS: Record<Guarantee, (trace: Trace) => string[]> = {
  1: consent,
  2: atMostOnce,
  3: journalRecords,
  4: settledBeforeReported,
  5: replayEqualsLive,
  6: accountability,
  7: liveness,
};
