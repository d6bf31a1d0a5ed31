// Rollback a person can trust: a preview of what will be reverted and what cannot be (and why),
// Confirm or Cancel, then the server's own status and message.
import { api } from "./api.js";
import { confirmDialog } from "./confirm-dialog.js";
import { h, status } from "./dom.js";
import { callName, callNumber, errorText } from "./format.js";
import { jsonView } from "./json-view.js";

const groups = [
  ["revert", "Will be reverted", "Each runs its connector's revert, newest first."],
  ["cannot_revert", "Cannot be reverted", "These stay as they are."],
  [
    "unrecorded",
    "Outcome unknown",
    "They may have run; nothing reverts them. Check them by their idempotency key.",
  ],
];

/** A paused run rolled back ends: the calls it waits for are withdrawn and never run. */
function pausedNote(preview) {
  if (preview.status !== "paused") return null;
  return h(
    "p",
    { class: "preview-paused" },
    "It waits for a person: rolling back ends it, and the calls it waits for are withdrawn (they never run).",
  );
}

function previewView(preview) {
  const calls = preview.calls ?? [];
  if (calls.length === 0) {
    return [
      h(
        "p",
        { class: "empty" },
        "No call of this run reached a connector: rolling back changes nothing outside the run, it only marks the run rolled back.",
      ),
      pausedNote(preview),
    ];
  }
  return [
    pausedNote(preview),
    h(
      "p",
      {},
      "The run is ",
      status(preview.status),
      `; ${calls.length} ${calls.length === 1 ? "call" : "calls"} reached a connector.`,
    ),
    groups.map(([action, title, hint]) => {
      const some = calls.filter((call) => call.action === action);
      if (some.length === 0) return null;
      return h(
        "div",
        { class: `preview-group ${action}`, "data-action": action },
        h("h4", {}, `${title} (${some.length})`),
        h("p", { class: "hint" }, hint),
        h(
          "ul",
          {},
          some.map((call) =>
            h(
              "li",
              { "data-seq": call.seq },
              h("strong", {}, `${callNumber(call.seq)} · `, h("code", {}, callName(call))),
              call.reason ? h("div", { class: "preview-reason" }, `Why: ${call.reason}`) : null,
              call.input === undefined
                ? null
                : jsonView(call.input, { openDepth: action === "revert" ? 1 : 0 }),
            ),
          ),
        ),
      );
    }),
  ];
}

/** What the rollback did: the status and the message exactly as the server gives them, then each call. */
export function rollbackResultView(answer) {
  const calls = answer?.report?.calls ?? [];
  return h(
    "div",
    { class: "rollback-result", "data-status": answer?.status },
    h("div", {}, h("strong", {}, "Rollback: "), status(answer?.status)),
    h("p", { class: "rollback-message" }, answer?.message ?? ""),
    calls.length
      ? h(
          "ul",
          { class: "rollback-calls" },
          calls.map((call) =>
            h(
              "li",
              { "data-seq": call.seq, "data-outcome": call.outcome },
              `${callNumber(call.seq)} `,
              h("code", {}, callName(call)),
              " ",
              status(call.outcome),
              call.reason ? ` · ${call.reason}` : "",
            ),
          ),
        )
      : null,
  );
}

/**
 * Opens the preview for a run; on Confirm rolls it back. Resolves with the server's answer, or
 * undefined when the person cancelled; rejects with the server's error.
 */
export async function rollbackWithPreview(executionId) {
  const sure = await confirmDialog({
    title: `Roll back run ${executionId}?`,
    body: [h("p", { class: "empty" }, "Asking the runtime what a rollback would do…")],
    confirmLabel: "Roll back",
    ready: async (content, confirm) => {
      try {
        const preview = await api(`executions/${encodeURIComponent(executionId)}/rollback-preview`);
        content.replaceChildren(...[previewView(preview)].flat(2).filter(Boolean));
        const reverts = (preview.calls ?? []).some((call) => call.action === "revert");
        if (!reverts && preview.calls?.length) {
          content.prepend(
            h(
              "p",
              { class: "preview-warning" },
              "Nothing of this run can be undone: a rollback will revert no call.",
            ),
          );
          confirm.textContent = "Roll back anyway";
        }
        return true;
      } catch (error) {
        content.replaceChildren(
          h("p", {}, "The preview could not be made, so nothing will be rolled back:"),
          h("pre", { class: "block error-text" }, errorText(error)),
        );
        return false;
      }
    },
  });
  if (!sure) return undefined;
  return api("rollback", { method: "POST", body: { executionId } });
}
