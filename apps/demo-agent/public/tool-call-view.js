// One `codemode` tool call in the chat: its program (folded), the calls it makes while it runs, and
// its outcome: the result as a tree, the calls that wait for approval, or the error as text.
import { block, disclosure, h, status } from "./dom.js";
import { callName } from "./format.js";
import { outcomeBody } from "./output-view.js";
import { runLink } from "./selection.js";

/** Progress lines shown at most (the newest). */
const PROGRESS_SHOWN = 8;

/** A tool call element with `progress`, `result` and `error` to update it as the run goes. */
export function toolCallView(toolCallId, code) {
  const state = h("span", { class: "tool-state" }, status("running"));
  const run = h("span", { class: "tool-run" });
  const progress = h("div", { class: "tool-progress" }, h("span", { class: "empty" }, "starting…"));
  const outcome = h("div", { class: "tool-result" });
  const element = h(
    "div",
    { class: "tool", "data-tool-call": toolCallId, "data-state": "running" },
    h("div", { class: "tool-head" }, h("strong", {}, "codemode"), " ", state, run),
    disclosure("program", { className: "tool-program" }, block(code, "tool-code code")),
    progress,
    outcome,
  );
  const showRun = (executionId) => {
    if (executionId && !run.dataset.execution) {
      run.dataset.execution = executionId;
      run.replaceChildren(" ", runLink(executionId, "timeline →"));
    }
  };

  return {
    element,
    /** the calls so far: `{ executionId?, callCount, calls: [{ connector, method, failed }] }` */
    progress(value) {
      showRun(value?.executionId);
      const calls = value?.calls ?? [];
      const count = value?.callCount ?? calls.length;
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
      const value = output?.status ?? "error";
      element.dataset.state = value;
      state.replaceChildren(status(value));
      showRun(output?.executionId);
      if (value !== "running") progress.replaceChildren();
      outcome.replaceChildren(...outcomeBody(output).filter(Boolean));
    },
    /** the tool call failed before a run had an outcome */
    error(message) {
      this.result({ status: "error", error: message });
    },
  };
}
