// A run's events (RuntimeEvent[] from /api/executions/:id/timeline) as the timeline draws them:
// passes with their calls and steps, the waits between passes with the decision that ended them,
// and rollbacks with each revert. Pure data in, data out.

/**
 * Segments in order: `{ kind: "pass", number, start, end?, status?, error?, recorded, items[],
 * waiting[] }`, `{ kind: "wait", start, end?, for, calls[], decision? }`, `{ kind: "decision", … }`
 * (a decision with no wait before it) and `{ kind: "rollback", start, end?, reverts[], summary? }`.
 */
export function timelineSegments(events) {
  const segments = [];
  let pass;
  let wait;
  let rollback;
  let passes = 0;
  const openPass = (at) => {
    passes += 1;
    pass = { kind: "pass", number: passes, start: at, recorded: 0, items: [], waiting: [] };
    segments.push(pass);
    return pass;
  };
  for (const event of events ?? []) {
    switch (event.type) {
      case "pass-start":
        wait = undefined;
        rollback = undefined;
        openPass(event.at).recorded = event.recorded ?? 0;
        break;
      case "call":
        (pass ?? openPass(event.startedAt)).items.push({ ...event, kind: "call" });
        break;
      case "step":
        (pass ?? openPass(event.at)).items.push({ ...event, kind: "step" });
        break;
      case "waiting": {
        const current = pass ?? openPass(event.at);
        current.waiting.push(event);
        // the calls one pass waits for (a Promise.all pause has several) are one wait
        if (!wait || wait.pass !== current) {
          wait = { kind: "wait", pass: current, start: event.at, for: event.for, calls: [] };
          segments.push(wait);
        }
        wait.calls.push(event);
        break;
      }
      case "pass-end":
        if (pass) {
          pass.end = event.at;
          pass.status = event.status;
          if (event.error) pass.error = event.error;
        }
        pass = undefined;
        break;
      case "decision":
        if (wait && !wait.decision) {
          wait.decision = event;
          wait.end = event.at;
        } else {
          segments.push({ ...event, kind: "decision" });
        }
        wait = undefined;
        break;
      case "revert":
        if (!rollback) {
          rollback = { kind: "rollback", start: event.startedAt, reverts: [] };
          segments.push(rollback);
        }
        rollback.reverts.push(event);
        break;
      case "rollback-end":
        if (!rollback) {
          rollback = { kind: "rollback", start: event.at, reverts: [] };
          segments.push(rollback);
        }
        rollback.end = event.at;
        rollback.summary = event;
        rollback = undefined;
        break;
      default:
        break;
    }
  }
  return segments;
}

/** Where a time falls on a span, in percent (0–100), for a span of at least 1 ms. */
export function position(at, start, end) {
  const span = Math.max(1, end - start);
  return Math.min(100, Math.max(0, ((at - start) / span) * 100));
}

/** The end of a pass, or of its last item when it has not ended yet. */
export function passEnd(pass, now = Date.now()) {
  if (pass.end !== undefined) return pass.end;
  const times = pass.items.map((item) => item.endedAt ?? item.at ?? pass.start);
  for (const waiting of pass.waiting) times.push(waiting.at);
  return times.length ? Math.max(...times) : now;
}
