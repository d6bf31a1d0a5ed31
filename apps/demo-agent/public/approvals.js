// Pending approvals: each waiting call with its connector, method and arguments; approve or reject.
import { api } from "./api.js";
import { fill, h, pretty } from "./dom.js";

const list = document.getElementById("approvals");
const output = document.getElementById("approval-output");

function show(value) {
  output.hidden = false;
  output.textContent = pretty(value);
}

export function createApprovals({ refreshAll }) {
  const act = async (path, body) => {
    try {
      show(await api(path, { method: "POST", body }));
    } catch (error) {
      show({ error: error.message });
    }
    await refreshAll();
  };

  return async function refreshApprovals() {
    const pending = await api("pending");
    if (pending.length === 0) {
      fill(list, h("p", { class: "empty" }, "Nothing waits for approval."));
      return;
    }
    fill(
      list,
      pending.map((action) =>
        h(
          "div",
          { class: "approval", "data-execution": action.executionId, "data-seq": action.seq },
          h(
            "div",
            {},
            h("strong", { class: "approval-call" }, `${action.connector}.${action.method}`),
            ` call #${action.seq} of `,
            h("code", {}, action.executionId),
          ),
          h("pre", { class: "approval-args" }, pretty(action.args)),
          h(
            "div",
            { class: "row" },
            h(
              "button",
              {
                class: "approve",
                onclick: () => act("approve", { executionId: action.executionId }),
              },
              "Approve",
            ),
            h(
              "button",
              {
                class: "reject danger",
                onclick: () => act("reject", { executionId: action.executionId, seq: action.seq }),
              },
              "Reject",
            ),
          ),
        ),
      ),
    );
  };
}
