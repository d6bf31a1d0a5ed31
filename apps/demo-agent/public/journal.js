// A run's journal: every call it made, in order, with its state, input and result (folded trees),
// and one call's detail for the timeline's click.
import { h, status } from "./dom.js";
import { callName, callNumber, errorText } from "./format.js";
import { jsonView } from "./json-view.js";

function resultOf(call, openDepth) {
  if (call.error !== undefined)
    return h("pre", { class: "block error-text" }, `error: ${errorText(call.error)}`);
  if (call.result === undefined) return h("span", { class: "empty" }, "none");
  return jsonView(call.result, { openDepth });
}

/** The journal table. */
export function journalView(calls, pick) {
  if (!calls?.length) return h("p", { class: "empty" }, "No calls were journaled.");
  return h(
    "table",
    { class: "journal" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        ["call", "method", "state", "input", "result"].map((name) =>
          h("th", { scope: "col" }, name),
        ),
      ),
    ),
    h(
      "tbody",
      {},
      calls.map((call) =>
        h(
          "tr",
          { "data-seq": call.seq },
          h("td", { title: `seq ${call.seq} in the journal` }, String(call.seq + 1)),
          h(
            "td",
            {},
            h(
              "button",
              { type: "button", class: "link", onclick: () => pick(call.seq) },
              h("code", {}, call.kind === "step" ? `step ${call.method}` : callName(call)),
            ),
          ),
          h("td", {}, status(call.state)),
          h(
            "td",
            { class: "journal-args" },
            call.args === undefined
              ? h("span", { class: "empty" }, "–")
              : jsonView(call.args, { openDepth: 0 }),
          ),
          h("td", { class: "journal-result" }, resultOf(call, 0)),
        ),
      ),
    ),
  );
}

/** One call's input and result, as the timeline shows it when a call is clicked. */
export function callDetailView(call, close) {
  if (!call)
    return h(
      "div",
      { class: "call-detail" },
      h("p", { class: "empty" }, "The journal has no such call."),
    );
  return h(
    "div",
    { class: "call-detail", "data-seq": call.seq },
    h(
      "div",
      { class: "call-detail-head" },
      h("strong", {}, `${callNumber(call.seq)} · `, h("code", {}, callName(call))),
      " ",
      status(call.state),
      h(
        "button",
        {
          type: "button",
          class: "small secondary close-detail",
          onclick: close,
          "aria-label": "Close the call's detail",
        },
        "Close",
      ),
    ),
    h("div", { class: "label" }, "input"),
    call.args === undefined
      ? h("span", { class: "empty" }, "none")
      : jsonView(call.args, { openDepth: 2, className: "call-input" }),
    h("div", { class: "label" }, call.error !== undefined ? "error" : "result"),
    h("div", { class: "call-result" }, resultOf(call, 2)),
  );
}
