// The queue of everything waiting for a person, across runs: each run's waiting calls with their
// input, a link to the run, Approve (all N) or Reject with a reason. A run that belongs to a chat
// card is answered there too: the agent answers the card and the chat goes on.
import { api } from "./api.js";
import { reasonField } from "./approval-card.js";
import { fill, h, status } from "./dom.js";
import { callName, callNumber, errorText } from "./format.js";
import { jsonView } from "./json-view.js";
import { runLink } from "./selection.js";

const list = document.getElementById("approvals");
const output = document.getElementById("approval-output");
const count = document.getElementById("approvals-count");
const panel = document.getElementById("approvals-panel");

/** Pending actions grouped by their run, in the order the API lists them. */
function byRun(pending) {
  const runs = new Map();
  for (const action of pending) {
    const calls = runs.get(action.executionId) ?? [];
    calls.push(action);
    runs.set(action.executionId, calls);
  }
  return [...runs.entries()];
}

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

export function createApprovals({ refreshAll }) {
  const act = async (path, body) => {
    output.hidden = false;
    try {
      output.replaceChildren(decisionView(path, await api(path, { method: "POST", body })));
    } catch (error) {
      output.replaceChildren(h("pre", { class: "block error-text" }, errorText(error)));
    }
    await refreshAll();
  };

  const group = ([executionId, calls]) => {
    const reason = reasonField("Reason", "queue-reason", "why (optional)");
    const many = calls.length > 1;
    return h(
      "div",
      { class: "approval", "data-execution": executionId, "data-seq": calls[0].seq },
      h(
        "div",
        { class: "approval-head" },
        many ? `${calls.length} calls of run ` : "Run ",
        h("code", {}, executionId),
        " ",
        runLink(executionId),
      ),
      calls.map((call) =>
        h(
          "div",
          { class: "queue-call", "data-seq": call.seq },
          h("strong", { class: "approval-call" }, callName(call)),
          h("span", { class: "empty" }, ` · ${callNumber(call.seq)} of the run`),
          jsonView(call.args, { openDepth: 2, className: "approval-args" }),
        ),
      ),
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
            // the calls shown: a run that moved on since is not approved blind
            onclick: () => {
              const why = reason.value();
              return act("approve", {
                executionId,
                seqs: calls.map((call) => call.seq),
                ...(why ? { reason: why } : {}),
              });
            },
          },
          many ? `Approve all ${calls.length} calls` : "Approve",
        ),
        h(
          "button",
          {
            type: "button",
            class: "reject danger",
            onclick: () => {
              const why = reason.value();
              return act("reject", {
                executionId,
                seq: calls[0].seq,
                ...(why ? { reason: why } : {}),
              });
            },
          },
          "Reject",
        ),
      ),
    );
  };

  return async function refreshApprovals() {
    const pending = await api("pending");
    const runs = byRun(pending);
    count.textContent = String(pending.length);
    count.className = `badge ${pending.length ? "attention" : "muted"}`;
    if (pending.length > 0) panel.open = true;
    if (runs.length === 0) {
      fill(list, h("p", { class: "empty" }, "Nothing waits for approval."));
      return;
    }
    // a repaint keeps a reason being typed
    const typed = new Map(
      [...list.querySelectorAll(".approval")].map((item) => [
        item.dataset.execution,
        item.querySelector(".queue-reason")?.value ?? "",
      ]),
    );
    fill(list, runs.map(group));
    for (const item of list.querySelectorAll(".approval")) {
      const value = typed.get(item.dataset.execution);
      const field = item.querySelector(".queue-reason");
      if (value && field) field.value = value;
    }
  };
}
