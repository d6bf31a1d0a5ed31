// The runs, newest first: pick one to show it in the run detail.
import { api } from "./api.js";
import { fill, h, status } from "./dom.js";
import { clock } from "./format.js";
import { onRunSelected, selectedRun, selectRun } from "./selection.js";

const list = document.getElementById("executions");

const firstLine = (code) =>
  code
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line && !line.startsWith("async")) ?? code;

/** "3 calls: list_projects, list_tasks, …" */
function callSummary(calls) {
  if (calls.length === 0) return "no calls";
  const names = [...new Set(calls.map((call) => call.method))];
  const shown = names.slice(0, 3).join(", ") + (names.length > 3 ? ", …" : "");
  return `${calls.length} ${calls.length === 1 ? "call" : "calls"}: ${shown}`;
}

function markSelected() {
  for (const item of list.querySelectorAll("li[data-execution]")) {
    const selected = item.dataset.execution === selectedRun();
    item.classList.toggle("selected", selected);
    item.querySelector("button")?.setAttribute("aria-pressed", String(selected));
  }
}

export function createExecutions() {
  onRunSelected(markSelected);
  const refreshExecutions = async () => {
    const runs = await api("executions?limit=30");
    if (runs.length === 0) {
      fill(list, h("li", { class: "empty" }, "No runs yet: chat, or run some code."));
      return;
    }
    fill(
      list,
      runs.map((run) =>
        h(
          "li",
          { "data-execution": run.id, "data-status": run.status },
          h(
            "button",
            { type: "button", class: "run-pick", onclick: () => selectRun(run.id) },
            status(run.status),
            h("span", { class: "grow" }, h("code", {}, firstLine(run.code))),
            h("span", { class: "empty" }, `${callSummary(run.calls)} · ${clock(run.createdAt)}`),
          ),
        ),
      ),
    );
    // a page that opens shows the newest run until the chat or the person picks another
    if (!selectedRun()) selectRun(runs[0].id, { follow: true });
    markSelected();
  };
  document
    .getElementById("executions-refresh")
    .addEventListener("click", () => refreshExecutions());
  return refreshExecutions;
}
