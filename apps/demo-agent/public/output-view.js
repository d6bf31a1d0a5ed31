// A run's outcome (CodeModeOutput) as a person reads it: the result as a tree, the calls that wait
// for approval (a call in doubt says it may already have run), or the error as text with its real
// line breaks; logs folded.
import { block, disclosure, h, status } from "./dom.js";
import { callName, callNumber, errorText } from "./format.js";
import { jsonView } from "./json-view.js";
import { runLink } from "./selection.js";

function logs(output) {
  const lines = output?.logs;
  if (!Array.isArray(lines) || lines.length === 0) return null;
  return disclosure(`logs (${lines.length})`, { className: "logs" }, block(lines.join("\n")));
}

/** The body of an outcome, without its status line. */
export function outcomeBody(output) {
  if (output?.status === "completed") {
    return [jsonView(output.result, { openDepth: 1, className: "tool-output" }), logs(output)];
  }
  if (output?.status === "paused") {
    return [
      h(
        "ul",
        { class: "waiting-calls" },
        (output.pending ?? []).map((call) =>
          h(
            "li",
            {},
            h("code", {}, callName(call)),
            ` (${callNumber(call.seq)} of the run) `,
            // in doubt: an earlier pass started it and never recorded what it gave
            typeof call.inDoubt === "string"
              ? h(
                  "span",
                  { class: "in-doubt-note" },
                  "may already have run: it waits for you to run it again or reject it",
                )
              : "waits for approval",
          ),
        ),
      ),
    ];
  }
  return [block(errorText(output?.error), "error-text"), logs(output)];
}

/** An outcome with its status and a link to its run. */
export function outputView(output, { className = "" } = {}) {
  return h(
    "div",
    { class: `outcome ${className}`.trim(), "data-status": output?.status ?? "error" },
    h(
      "div",
      { class: "outcome-head" },
      status(output?.status ?? "error"),
      output?.executionId ? [" ", runLink(output.executionId, "timeline →")] : null,
    ),
    outcomeBody(output).filter(Boolean),
  );
}

/** An API call's failure (`{ error }` answers, a network error) as a readable box. */
export function problemView(error, className = "") {
  return block(errorText(error), `error-text ${className}`.trim());
}
