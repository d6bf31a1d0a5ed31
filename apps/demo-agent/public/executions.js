// Executions and their journal: pick one to see its calls; roll it back or save it as a snippet.
import { api } from "./api.js";
import { fill, h, pretty, status } from "./dom.js";

const list = document.getElementById("executions");
const detail = document.getElementById("execution-detail");

const time = (ms) => new Date(ms).toLocaleTimeString();
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

function journal(calls) {
  if (calls.length === 0) return h("p", { class: "empty" }, "No calls were journaled.");
  return h(
    "table",
    { class: "journal" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["seq", "call", "state", "args", "result"].map((name) => h("th", {}, name)),
      ),
    ),
    h(
      "tbody",
      {},
      calls.map((call) =>
        h(
          "tr",
          { "data-seq": call.seq },
          h("td", {}, String(call.seq)),
          h("td", {}, h("code", {}, `${call.connector}.${call.method}`)),
          h("td", {}, status(call.state)),
          h("td", {}, h("pre", {}, pretty(call.args))),
          h("td", {}, h("pre", {}, call.error ? `error: ${call.error}` : pretty(call.result))),
        ),
      ),
    ),
  );
}

export function createExecutions({ refreshAll }) {
  let selected;
  /** what the detail shows now, so a refresh repaints it only when the run changed */
  let shown;
  // kept across repaints, so a refresh never loses what is being typed or reported
  const message = h("pre", { class: "output execution-message", hidden: true });
  const name = h("input", {
    class: "snippet-name",
    placeholder: "snippet name, e.g. weekly-summary",
  });

  const report = (value) => {
    message.hidden = false;
    message.textContent = pretty(value);
  };
  const act = async (work) => {
    try {
      report(await work());
    } catch (error) {
      report({ error: error.message });
    }
    await refreshAll();
  };

  const showDetail = async () => {
    if (!selected) {
      detail.hidden = true;
      shown = undefined;
      return;
    }
    let run;
    try {
      run = await api(`executions/${encodeURIComponent(selected)}`);
    } catch {
      selected = undefined;
      detail.hidden = true;
      shown = undefined;
      return;
    }
    const signature = JSON.stringify(run);
    if (signature === shown) return;
    shown = signature;
    detail.hidden = false;
    fill(
      detail,
      h("h3", {}, "Execution ", h("code", {}, run.id), " ", status(run.status)),
      h("pre", { class: "execution-code" }, run.code),
      run.error ? h("pre", { class: "execution-error" }, `error: ${run.error}`) : null,
      run.status === "completed"
        ? h("pre", { class: "execution-result" }, pretty(run.result))
        : null,
      h("h4", {}, "Journal"),
      journal(run.calls),
      h(
        "div",
        { class: "row" },
        h(
          "button",
          {
            class: "rollback danger",
            onclick: () =>
              act(() => api("rollback", { method: "POST", body: { executionId: run.id } })),
          },
          "Roll back",
        ),
        name,
        h(
          "button",
          {
            class: "save-snippet secondary",
            onclick: () =>
              act(() =>
                api("snippets", {
                  method: "POST",
                  body: { name: name.value.trim(), executionId: run.id },
                }),
              ),
          },
          "Save as snippet",
        ),
      ),
      message,
    );
  };

  const refreshExecutions = async () => {
    const runs = await api("executions?limit=30");
    if (runs.length === 0) {
      fill(list, h("li", { class: "empty" }, "No runs yet: chat, or run some code."));
    } else {
      fill(
        list,
        runs.map((run) =>
          h(
            "li",
            {
              class: `selectable${run.id === selected ? " selected" : ""}`,
              "data-execution": run.id,
              onclick: () => {
                if (selected !== run.id) {
                  message.hidden = true;
                  name.value = "";
                }
                selected = run.id;
                refreshAll();
              },
            },
            status(run.status),
            h("span", { class: "grow" }, h("code", {}, firstLine(run.code))),
            h("span", { class: "empty" }, `${callSummary(run.calls)} · ${time(run.createdAt)}`),
          ),
        ),
      );
    }
    await showDetail();
  };

  document
    .getElementById("executions-refresh")
    .addEventListener("click", () => refreshExecutions());
  return refreshExecutions;
}
