// Which run the run detail shows: the chat's newest run, unless the person picked one since their
// last message.
import { h } from "./dom.js";

const listeners = new Set();
let selected;
/** the person picked a run (in the list, a queue card or a tool call): the chat no longer moves it */
let pinned = false;

export const selectedRun = () => selected;

/** Shows a run in the run detail; `follow` is the chat moving on to its newest run. */
export function selectRun(executionId, { follow = false } = {}) {
  if (!executionId) return;
  if (follow && pinned) return;
  if (!follow) pinned = true;
  if (executionId === selected) return;
  selected = executionId;
  for (const listener of listeners) listener(executionId);
}

/** Forgets the selection (the run is gone). */
export function clearSelection() {
  selected = undefined;
  pinned = false;
  for (const listener of listeners) listener(undefined);
}

/** A new chat message: the run detail follows the chat again. */
export function followChat() {
  pinned = false;
}

export function onRunSelected(listener) {
  listeners.add(listener);
}

/** A button that opens a run in the run detail. */
export function runLink(executionId, label = "Show run") {
  return h(
    "button",
    {
      type: "button",
      class: "link show-run",
      "data-execution": executionId,
      title: `Show run ${executionId} in the run detail`,
      onclick: () => {
        selectRun(executionId);
        document.getElementById("run-detail")?.scrollIntoView({ block: "start" });
      },
    },
    label,
  );
}
