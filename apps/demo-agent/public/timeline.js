// A run's timeline: each pass on its own time axis (live calls as bars with their durations,
// replayed calls and steps as marks), the wait for a person between passes with who decided, when
// and why, and a rollback with each revert. `pick(seq)` hears a click on a call.
import { h, status } from "./dom.js";
import { callName, callNumber, clock, duration, errorText, where } from "./format.js";
import { passEnd, position, timelineSegments } from "./timeline-model.js";

const place = (left, width) => `left:${left.toFixed(2)}%;width:${width.toFixed(2)}%`;

function row({ className, seq, label, tags = [], mark, note, pick, data = {} }) {
  const attributes = { class: `tl-row ${className}`, "data-seq": seq, ...data };
  const children = [
    h("span", { class: "tl-label" }, label),
    h("span", { class: "tl-track" }, mark),
    h(
      "span",
      { class: "tl-note", title: note ?? "" },
      tags.map((tag) => h("span", { class: `tag ${tag}` }, tag)),
      note ? ` ${note}` : "",
    ),
  ];
  if (seq === undefined || !pick) return h("div", attributes, children);
  return h(
    "button",
    { ...attributes, type: "button", title: "Show its input and result", onclick: () => pick(seq) },
    children,
  );
}

function itemRow(item, start, end, pick) {
  const live = item.live !== false;
  if (item.kind === "step") {
    return row({
      className: `step ${live ? "live" : "replayed"}`,
      seq: item.seq,
      label: [h("span", { class: "tl-seq" }, callNumber(item.seq)), ` step ${item.name}`],
      tags: live ? [] : ["replayed"],
      mark: h("span", {
        class: "tl-mark step-mark",
        style: `left:${position(item.at, start, end).toFixed(2)}%`,
      }),
      note: "step",
      pick,
      data: { "data-kind": "step", "data-live": String(live) },
    });
  }
  const left = position(item.startedAt, start, end);
  const width = Math.max(0.8, position(item.endedAt, start, end) - left);
  const took = item.endedAt - item.startedAt;
  return row({
    className: `call ${live ? "live" : "replayed"}${item.failed ? " failed" : ""}`,
    seq: item.seq,
    label: [
      h("span", { class: "tl-seq" }, callNumber(item.seq)),
      " ",
      h("code", {}, callName(item)),
    ],
    tags: [live ? null : "replayed", item.failed ? "failed" : null].filter(Boolean),
    mark: live
      ? h("span", {
          class: "tl-bar",
          style: place(left, width),
          title: `${duration(took)} at ${clock(item.startedAt)}`,
        })
      : h("span", {
          class: "tl-mark replay-mark",
          style: `left:${left.toFixed(2)}%`,
          title: "answered from the journal: its connector was not called",
        }),
    note: live ? duration(took) : "",
    pick,
    data: { "data-kind": "call", "data-live": String(live) },
  });
}

/**
 * A call the pass stopped at. One whose journal entry is `withdrawn` never ran: its run ended while
 * it waited (a rejection, a rollback, expiry), which is not a call that ran and was reverted.
 */
function waitingRow(waiting, start, end, pick, state) {
  const withdrawn = state === "withdrawn";
  return row({
    className: `waiting${withdrawn ? " withdrawn" : ""}`,
    seq: waiting.seq,
    label: [
      h("span", { class: "tl-seq" }, callNumber(waiting.seq)),
      " ",
      h("code", {}, callName(waiting)),
    ],
    tags: withdrawn ? ["withdrawn"] : ["waits"],
    mark: h("span", {
      class: "tl-mark wait-mark",
      style: `left:${position(waiting.at, start, end).toFixed(2)}%`,
    }),
    note: withdrawn
      ? "never ran: the run ended without it"
      : waiting.for === "approval"
        ? "for approval"
        : "for a result",
    pick,
    data: { "data-kind": "waiting", "data-state": state },
  });
}

function passView(pass, pick, stateOf) {
  const end = passEnd(pass);
  const replayed = pass.items.filter((item) => item.live === false).length;
  const live = pass.items.filter((item) => item.kind === "call" && item.live !== false).length;
  return h(
    "section",
    { class: "tl-pass", "data-pass": pass.number, "data-status": pass.status ?? "running" },
    h(
      "div",
      { class: "tl-head" },
      h("strong", {}, `Pass ${pass.number}`),
      ` · ${clock(pass.start)} · ${duration(end - pass.start)} · `,
      status(pass.status ?? "running"),
      h(
        "span",
        { class: "empty" },
        ` · ${live} live ${live === 1 ? "call" : "calls"}${replayed ? `, ${replayed} replayed from the journal` : ""}`,
      ),
    ),
    h(
      "div",
      { class: "tl-axis", "aria-hidden": "true" },
      h("span", {}),
      h(
        "span",
        { class: "tl-axis-scale" },
        h("span", {}, "0"),
        h("span", {}, duration(end - pass.start)),
      ),
      h("span", {}),
    ),
    pass.items.map((item) => itemRow(item, pass.start, end, pick)),
    pass.waiting.map((waiting) => waitingRow(waiting, pass.start, end, pick, stateOf(waiting.seq))),
    pass.items.length === 0 && pass.waiting.length === 0
      ? h("div", { class: "empty" }, "No calls in this pass.")
      : null,
    pass.error ? h("pre", { class: "block error-text tl-error" }, errorText(pass.error)) : null,
  );
}

function decisionText(decision) {
  const who = where(decision.by ?? decision.source);
  return [
    h("strong", { class: `decision ${decision.decision}` }, decision.decision),
    ` ${who} at ${clock(decision.at)}`,
    decision.reason ? [" · reason: ", h("q", { class: "tl-reason" }, decision.reason)] : null,
  ];
}

function waitView(wait) {
  const calls = wait.calls.map((call) => `${callNumber(call.seq)} ${callName(call)}`).join(", ");
  const what = wait.for === "approval" ? "approval" : "an outside result";
  const decision = wait.decision;
  return h(
    "div",
    {
      class: `tl-wait${decision ? "" : " open"}`,
      "data-decision": decision?.decision ?? "waiting",
      "data-by": decision ? (decision.by ?? decision.source) : undefined,
    },
    h("div", { class: "tl-wait-band", "aria-hidden": "true" }),
    h(
      "div",
      { class: "tl-wait-text" },
      decision
        ? [
            `Waited ${duration(wait.end - wait.start)} for ${what} of ${calls}: `,
            decisionText(decision),
          ]
        : `Waiting for ${what} of ${calls} since ${clock(wait.start)}.`,
    ),
  );
}

function rollbackView(rollback, pick) {
  const end = rollback.end ?? Math.max(rollback.start, ...rollback.reverts.map((r) => r.endedAt));
  const summary = rollback.summary;
  return h(
    "section",
    { class: "tl-rollback", "data-status": summary?.status ?? "running" },
    h(
      "div",
      { class: "tl-head" },
      h("strong", {}, "Rollback"),
      ` · ${clock(rollback.start)} · ${duration(end - rollback.start)}`,
      summary
        ? [
            " · ",
            status(summary.status),
            ` · ${summary.reverted} reverted, ${summary.notReverted} not reverted`,
          ]
        : null,
    ),
    rollback.reverts.map((revert) => {
      const left = position(revert.startedAt, rollback.start, end);
      const width = Math.max(0.8, position(revert.endedAt, rollback.start, end) - left);
      return row({
        className: `revert ${revert.outcome}`,
        seq: revert.seq,
        label: [
          h("span", { class: "tl-seq" }, callNumber(revert.seq)),
          " ",
          h("code", {}, callName(revert)),
        ],
        tags: [revert.outcome],
        mark:
          revert.outcome === "reverted"
            ? h("span", { class: "tl-bar", style: place(left, width) })
            : h("span", { class: "tl-mark", style: `left:${left.toFixed(2)}%` }),
        note: revert.reason ? revert.reason : duration(revert.endedAt - revert.startedAt),
        pick,
        data: { "data-kind": "revert", "data-outcome": revert.outcome },
      });
    }),
  );
}

/** What a run without events shows: its journal's times. */
function fallbackView(execution) {
  return h(
    "div",
    { class: "tl-fallback" },
    h(
      "p",
      { class: "empty" },
      "No timeline was recorded for this run (it ran before runs kept one). What its journal says:",
    ),
    h(
      "div",
      { class: "tl-head" },
      `Started ${clock(execution.createdAt)}, last changed ${clock(execution.updatedAt)} (${duration(execution.updatedAt - execution.createdAt)} later) · `,
      status(execution.status),
      ` · ${execution.calls.length} journaled ${execution.calls.length === 1 ? "call" : "calls"}`,
    ),
    h("div", { class: "tl-track wide" }, h("span", { class: "tl-bar", style: place(0, 100) })),
  );
}

/** The timeline of `{ execution, events }`. */
/** The run's status now, where the last segment does not already say it (a rejection ends a wait). */
function nowView(segments, execution) {
  const last = segments.at(-1);
  const said = last?.kind === "pass" ? last.status : last?.summary?.status;
  if (said === execution.status) return null;
  return h(
    "div",
    { class: "tl-now", "data-status": execution.status },
    "The run is now ",
    status(execution.status),
    ` (since ${clock(execution.updatedAt)}).`,
  );
}

export function timelineView({ execution, events }, pick) {
  const segments = timelineSegments(events);
  if (segments.length === 0) return h("div", { class: "timeline" }, fallbackView(execution));
  const states = new Map((execution.calls ?? []).map((call) => [call.seq, call.state]));
  const stateOf = (seq) => states.get(seq);
  return h(
    "div",
    { class: "timeline" },
    segments.map((segment) => {
      if (segment.kind === "pass") return passView(segment, pick, stateOf);
      if (segment.kind === "wait") return waitView(segment);
      if (segment.kind === "rollback") return rollbackView(segment, pick);
      return h(
        "div",
        { class: "tl-decision", "data-decision": segment.decision },
        decisionText(segment),
      );
    }),
    nowView(segments, execution),
  );
}
