// One `codemode` tool call in the chat: its program (folded), the calls it makes while it runs, and
// its outcome: the result as a tree, the calls that wait for approval, or the error as text. A run
// that paused for a card goes on in a second view after the card (`continued`), where its outcome
// is read in order.
import { block, disclosure, h, status } from "./dom.js";
import { callName } from "./format.js";
import { outcomeBody } from "./output-view.js";
import { runLink } from "./selection.js";

/** Progress lines shown at most (the newest). */
const PROGRESS_SHOWN = 8;

/** A tool call element with `progress`, `result`, `error` and `settle` to update it as the run goes. */
export function toolCallView(toolCallId, code, { continued = false } = {}) {
  const state = h("span", { class: "tool-state" }, status("running"));
  const run = h("span", { class: "tool-run" });
  const progress = h("div", { class: "tool-progress" }, h("span", { class: "empty" }, "starting…"));
  const outcome = h("div", { class: "tool-result" });
  const element = h(
    "div",
    {
      class: `tool${continued ? " continued" : ""}`,
      ...(continued ? { "data-continues": toolCallId } : { "data-tool-call": toolCallId }),
      "data-state": "running",
    },
    h(
      "div",
      { class: "tool-head" },
      h("strong", {}, continued ? "codemode, after your answer" : "codemode"),
      " ",
      state,
      run,
    ),
    continued
      ? null
      : disclosure("program", { className: "tool-program" }, block(code, "tool-code code")),
    progress,
    outcome,
  );
  const showRun = (executionId) => {
    if (executionId && !run.dataset.execution) {
      run.dataset.execution = executionId;
      run.replaceChildren(" ", runLink(executionId, "timeline →"));
    }
  };
  const setState = (value) => {
    element.dataset.state = value;
    state.replaceChildren(status(value));
  };

  const view = {
    element,
    /** the calls so far: `{ status: "running", executionId?, callCount, calls: [...] }` */
    progress(value) {
      showRun(value?.executionId);
      // a preliminary result that is already the outcome: the tool result follows
      if (value?.status !== "running") return;
      const calls = value.calls ?? [];
      const count = value.callCount ?? calls.length;
      const shown = calls.slice(-PROGRESS_SHOWN);
      progress.replaceChildren(
        h("span", { class: "empty" }, `${count} ${count === 1 ? "call" : "calls"} so far`),
        h(
          "ul",
          { class: "progress-calls" },
          count > shown.length
            ? h("li", { class: "empty" }, `… ${count - shown.length} earlier`)
            : null,
          shown.map((call) =>
            h(
              "li",
              { class: call.failed ? "failed" : "" },
              h("code", {}, callName(call)),
              call.failed ? " failed" : "",
            ),
          ),
        ),
      );
    },
    /** the pass's outcome, a CodeModeOutput */
    result(output) {
      setState(output?.status ?? "error");
      showRun(output?.executionId);
      progress.replaceChildren();
      outcome.replaceChildren(...outcomeBody(output).filter(Boolean));
    },
    /** the tool call failed before a run had an outcome */
    error(message) {
      view.result({ status: "error", error: message });
    },
    /** a state with a line of text and no outcome of its own (it waits for a card, or was denied) */
    settle(value, text) {
      setState(value);
      progress.replaceChildren();
      outcome.replaceChildren(h("span", { class: "empty tool-note" }, text));
    },
  };
  return view;
}
