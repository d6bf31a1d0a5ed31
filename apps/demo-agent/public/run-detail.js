// The run detail beside the chat: the selected run's status, program and outcome, its timeline,
// one call's input and result, its journal, Cancel (a run that runs or waits), and Roll back (with
// a preview) or Save as snippet.
import { api } from "./api.js";
import { confirmDialog } from "./confirm-dialog.js";
import { block, disclosure, fill, h, labelled, status } from "./dom.js";
import { clock, errorText } from "./format.js";
import { callDetailView, journalView } from "./journal.js";
import { jsonView } from "./json-view.js";
import { rollbackResultView, rollbackWithPreview } from "./rollback-flow.js";
import { onRunSelected, selectedRun } from "./selection.js";
import { serial } from "./serial.js";
import { timelineView } from "./timeline.js";

const target = document.getElementById("run-detail-body");
const title = document.getElementById("run-detail-title");

/** A run's journal and events; the journal alone when the server keeps no timeline. */
async function load(executionId) {
  const id = encodeURIComponent(executionId);
  try {
    return await api(`executions/${id}/timeline`);
  } catch (error) {
    if (!/404|No API route/.test(error.message)) throw error;
    return { execution: await api(`executions/${id}`), events: [] };
  }
}

const firstLine = (code) =>
  code
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line && !line.startsWith("async")) ?? code;

export function createRunDetail({ refreshAll }) {
  /** what the detail shows now, so a refresh repaints only when the run changed */
  let shown;
  let picked;
  let data;
  // kept across repaints, so a refresh never loses what is typed or reported
  const report = h("div", { class: "run-report", "aria-live": "polite" });
  const name = h("input", {
    class: "snippet-name",
    placeholder: "e.g. weekly-summary",
    maxlength: 64,
    autocomplete: "off",
  });
  const nameField = labelled("Snippet name", name);
  const detailSlot = h("div", { class: "call-detail-slot" });

  const pick = (seq) => {
    picked = seq;
    showPicked();
  };
  const showPicked = () => {
    if (picked === undefined || !data) {
      detailSlot.replaceChildren();
      return;
    }
    const call = data.execution.calls.find((item) => item.seq === picked);
    detailSlot.replaceChildren(callDetailView(call, () => pick(undefined)));
  };

  const act = async (work) => {
    try {
      const value = await work();
      if (value !== undefined) report.replaceChildren(value);
    } catch (error) {
      report.replaceChildren(h("pre", { class: "block error-text" }, errorText(error)));
    }
    await refreshAll();
  };
  const rollback = (executionId) =>
    act(async () => {
      const answer = await rollbackWithPreview(executionId);
      return answer === undefined ? undefined : rollbackResultView(answer);
    });
  /** Ends a run that runs or waits, after a confirm: nothing of it starts any more. */
  const cancel = (execution) =>
    act(async () => {
      const waiting = execution.status === "paused";
      const confirmed = await confirmDialog({
        title: "Cancel this run?",
        body: h(
          "p",
          {},
          waiting
            ? "It waits for a person: cancelling ends it now, and the calls it waits for never run."
            : "Its pass is stopped now: a call already running gets its abort signal and is recorded as it ends, and no call starts after. What it did stays done (roll it back after, if you want it undone).",
        ),
        confirmLabel: "Cancel the run",
      });
      if (!confirmed) return undefined;
      let answer;
      try {
        answer = await api("cancel", { method: "POST", body: { executionId: execution.id } });
      } catch (error) {
        // a run that ended meanwhile: the server says so, and nothing changed
        answer = error.answer;
        if (!answer) throw error;
      }
      return h(
        "p",
        { class: "cancel-result", "data-cancelled": String(answer.cancelled === true) },
        // a cancellation's own words say who cancelled and when
        answer.cancelled ? null : "Not cancelled: ",
        answer.error ?? "",
      );
    });
  const saveSnippet = (executionId) =>
    act(async () => {
      await api("snippets", { method: "POST", body: { name: name.value.trim(), executionId } });
      return h(
        "p",
        { class: "saved" },
        `Saved as the snippet "${name.value.trim()}": the model can run it with codemode.run.`,
      );
    });

  const paint = () => {
    const { execution } = data;
    title.replaceChildren("Run ", h("code", {}, execution.id), " ", status(execution.status));
    fill(
      target,
      h(
        "div",
        { class: "run-meta empty" },
        `started ${clock(execution.createdAt)} · ${execution.calls.length} journaled ${execution.calls.length === 1 ? "call" : "calls"} · `,
        h("code", {}, firstLine(execution.code)),
      ),
      disclosure(
        "The program",
        { className: "run-program" },
        block(execution.code, "code execution-code"),
      ),
      execution.error
        ? h("pre", { class: "block error-text execution-error" }, errorText(execution.error))
        : null,
      execution.status === "completed"
        ? disclosure(
            "Result",
            { open: true, className: "execution-result" },
            jsonView(execution.result, { openDepth: 1 }),
          )
        : null,
      h("h3", {}, "Timeline"),
      timelineView(data, pick),
      detailSlot,
      disclosure(
        `Journal (${execution.calls.length})`,
        { className: "journal-panel" },
        journalView(execution.calls, pick),
      ),
      h(
        "div",
        { class: "row run-actions" },
        execution.status === "running" || execution.status === "paused"
          ? h(
              "button",
              { type: "button", class: "cancel-run danger", onclick: () => cancel(execution) },
              "Cancel run…",
            )
          : null,
        h(
          "button",
          { type: "button", class: "rollback danger", onclick: () => rollback(execution.id) },
          "Roll back…",
        ),
        h("span", { class: "grow-space" }),
        nameField.label,
        name,
        h(
          "button",
          {
            type: "button",
            class: "save-snippet secondary",
            onclick: () => saveSnippet(execution.id),
          },
          "Save as snippet",
        ),
      ),
      report,
    );
    showPicked();
  };

  // one load at a time, so an older answer never paints over a newer one
  const refresh = serial(async () => {
    const executionId = selectedRun();
    if (!executionId) {
      shown = undefined;
      title.textContent = "Run detail";
      fill(
        target,
        h(
          "p",
          { class: "empty" },
          "Pick a run: it shows here with its timeline and journal. The chat's newest run shows by itself.",
        ),
      );
      return;
    }
    let loaded;
    try {
      loaded = await load(executionId);
    } catch (error) {
      shown = undefined;
      fill(
        target,
        h(
          "pre",
          { class: "block error-text" },
          `Run ${executionId} could not be loaded: ${errorText(error)}`,
        ),
      );
      return;
    }
    const signature = JSON.stringify(loaded);
    if (signature === shown) return;
    shown = signature;
    data = loaded;
    paint();
  });

  onRunSelected(() => {
    picked = undefined;
    report.replaceChildren();
    name.value = "";
    refresh();
  });
  return refresh;
}
