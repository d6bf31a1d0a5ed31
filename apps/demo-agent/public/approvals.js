// The queue of everything waiting for a person, across runs: each run as its card in the chat shows
// it (each waiting call's input and effect, the calls made before it paused, the program), a link to
// the run, and Approve (all N) or Reject (all N) with a reason. A decision carries the handle of the
// calls shown, so it decides those or nothing ("already decided"). A run that belongs to a chat card
// is answered there too: the agent answers the card and the chat goes on. A call in doubt says it
// may already have run, as its card does, and Approve reads "Run again".
import { api } from "./api.js";
import {
  approveLabel,
  inDoubtCount,
  pendingCallsView,
  reasonField,
  rejectLabel,
  runAgainTitle,
  runContextView,
} from "./approval-card.js";
import { fill, h, status } from "./dom.js";
import { errorText } from "./format.js";
import { runLink } from "./selection.js";

const list = document.getElementById("approvals");
const output = document.getElementById("approval-output");
const count = document.getElementById("approvals-count");
const panel = document.getElementById("approvals-panel");
/** the run each drawn item shows (as the queue answered it), so an item is drawn anew only when it changed */
const drawn = new WeakMap();

/** What a queue decision did: `{ status, executionId, via }` from the API. */
function decisionView(path, decided) {
  const what = path === "approve" ? "Approved" : "Rejected";
  return h(
    "p",
    { class: "queue-decision", "data-status": decided.status },
    `${what}: run `,
    h("code", {}, decided.executionId),
    " is now ",
    status(decided.status),
    decided.via === "chat"
      ? " (it was asked in the chat: its card shows the answer and the chat goes on)."
      : ".",
    " ",
    runLink(decided.executionId),
  );
}

/** An answer the agent refused because the calls shown no longer wait as shown. */
function staleView(decided) {
  return h(
    "p",
    { class: "queue-decision stale", "data-stale": "true", "data-status": decided.status },
    decided.error,
    " ",
    runLink(decided.executionId),
  );
}

/** Posts a decision; the API answers 409 with `{ stale: true }` for an answer already decided. */
async function decide(path, body) {
  try {
    return decisionView(path, await api(path, { method: "POST", body }));
  } catch (error) {
    if (error.answer?.stale) return staleView(error.answer);
    throw error;
  }
}

export function createApprovals({ refreshAll }) {
  const act = async (path, body) => {
    output.hidden = false;
    try {
      output.replaceChildren(await decide(path, body));
    } catch (error) {
      output.replaceChildren(h("pre", { class: "block error-text" }, errorText(error)));
    }
    await refreshAll();
  };

  const runView = (run) => {
    const { executionId, pending, handle } = run;
    const reason = reasonField("Reason", "queue-reason", "why (optional)");
    const many = pending.length > 1;
    const again = inDoubtCount(pending);
    // the handle of the calls shown: a run that moved on since is not decided blind
    const answer = (path) => {
      const why = reason.value();
      return act(path, { executionId, handle, ...(why ? { reason: why } : {}) });
    };
    return h(
      "div",
      {
        class: "approval",
        "data-execution": executionId,
        "data-seq": pending[0]?.seq,
        "data-in-doubt": again > 0 || undefined,
      },
      h(
        "div",
        { class: "approval-head" },
        many ? `${pending.length} calls of run ` : "Run ",
        h("code", {}, executionId),
        " ",
        runLink(executionId),
      ),
      pendingCallsView(pending),
      runContextView(run),
      h(
        "div",
        { class: "row" },
        reason.label,
        reason.input,
        h(
          "button",
          {
            type: "button",
            class: "approve",
            title: runAgainTitle(again),
            onclick: () => answer("approve"),
          },
          approveLabel(pending.length, again),
        ),
        h(
          "button",
          { type: "button", class: "reject danger", onclick: () => answer("reject") },
          rejectLabel(pending.length),
        ),
      ),
    );
  };

  return async function refreshApprovals() {
    const runs = await api("queue");
    const waiting = runs.reduce((sum, run) => sum + run.pending.length, 0);
    count.textContent = String(waiting);
    count.className = `badge ${waiting ? "attention" : "muted"}`;
    if (waiting > 0) panel.open = true;
    if (runs.length === 0) {
      fill(list, h("p", { class: "empty" }, "Nothing waits for approval."));
      return;
    }
    // a repaint keeps the item of a run that waits as it did (with the reason being typed, and its
    // focus), and a reason typed for a run drawn anew
    const shown = new Map(
      [...list.querySelectorAll(".approval")].map((item) => [item.dataset.execution, item]),
    );
    const typed = new Map(
      [...shown].map(([id, item]) => [id, item.querySelector(".queue-reason")?.value ?? ""]),
    );
    fill(
      list,
      runs.map((run) => {
        const old = shown.get(run.executionId);
        const signature = JSON.stringify(run);
        if (old && drawn.get(old) === signature) return old;
        const item = runView(run);
        drawn.set(item, signature);
        const value = typed.get(run.executionId);
        const field = item.querySelector(".queue-reason");
        if (value && field) field.value = value;
        return item;
      }),
    );
  };
}
