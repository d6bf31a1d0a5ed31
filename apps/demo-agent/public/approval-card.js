// An approval card in the chat: what the run wants to do and why, so a person can decide there.
// The program, the calls it made before it paused, each waiting call's exact input and effect (and
// where it goes, when its method names an operation), when it was asked and the message that led
// to it; Approve (all N calls) or Reject with a reason.
// A call in doubt (an earlier pass started it and never recorded its outcome) says it may already
// have run and the key it runs again under, and the button says "Run again".
import { block, disclosure, h, labelled, status } from "./dom.js";
import { ago, callName, callNumber, clock, where } from "./format.js";
import { jsonView } from "./json-view.js";
import { runLink } from "./selection.js";

/** Characters a reason may have: what the agent keeps with the decision (`MAX_REASON_CHARS`). */
const REASON_LIMIT = 1_000;

function side(label, value, className) {
  const body =
    value === null ? h("span", { class: "empty" }, "gone") : jsonView(value, { openDepth: 2 });
  return h("div", { class: className }, h("span", { class: "label" }, label), body);
}

/** What the call would change: `before` → `after` where the connector can say. */
function effectView(effect) {
  if (!effect) return null;
  const hasBefore = effect.before !== undefined;
  const hasAfter = effect.after !== undefined;
  return h(
    "div",
    { class: "effect" },
    h("div", { class: "effect-summary" }, effect.summary),
    hasBefore || hasAfter
      ? h(
          "div",
          { class: "effect-change" },
          hasBefore ? side("now", effect.before, "effect-before") : null,
          hasBefore && hasAfter
            ? h("span", { class: "arrow", "aria-label": "becomes" }, "→")
            : null,
          hasAfter ? side(hasBefore ? "after" : "adds", effect.after, "effect-after") : null,
        )
      : null,
  );
}

/** How many of the waiting calls are in doubt: they may already have run (`PendingAction.inDoubt`). */
export const inDoubtCount = (pending) =>
  (pending ?? []).filter((call) => typeof call.inDoubt === "string").length;

/**
 * The label of the button that approves `count` calls, `again` of them in doubt (approving runs
 * those again); the card and the queue say the same.
 */
export function approveLabel(count, again = 0) {
  if (again === 0) return count > 1 ? `Approve all ${count} calls` : "Approve";
  if (count <= 1) return "Run again";
  if (again === count) return `Run all ${count} calls again`;
  return `Approve all ${count} calls (${again} ${again === 1 ? "runs" : "run"} again)`;
}

/** The approve button's tooltip when calls are in doubt. */
export const runAgainTitle = (again) =>
  again === 0
    ? undefined
    : `${again === 1 ? "A call" : `${again} calls`} may already have run: this runs ${again === 1 ? "it" : "them"} again under the same idempotency key.`;

/** The label of the button that rejects them: a rejection ends the run without any of them. */
export const rejectLabel = (count) => (count > 1 ? `Reject all ${count}` : "Reject");

/**
 * A call that may already have run: an earlier pass started it and its outcome was never recorded.
 * Why (the runtime's words), the idempotency key it runs again under, and what each answer does.
 */
function inDoubtView(call) {
  const key = call.idempotencyKey;
  return h(
    "div",
    { class: "in-doubt", role: "note" },
    h("strong", { class: "in-doubt-title" }, "⚠ This call may already have run"),
    h("div", { class: "in-doubt-reason" }, call.inDoubt),
    h(
      "div",
      {},
      "Run again sends it with the same idempotency key",
      key ? [", ", h("code", { class: "in-doubt-key" }, key)] : null,
      ". A service that honours the key does it once; one that does not may do it twice. Check first whether it happened; Reject ends the run without running it again.",
    ),
  );
}

function pendingView(call) {
  const inDoubt = typeof call.inDoubt === "string";
  return h(
    "li",
    { class: "pending-call", "data-seq": call.seq, "data-in-doubt": inDoubt || undefined },
    h(
      "div",
      {},
      h("strong", { class: "approval-call" }, callName(call)),
      h("span", { class: "empty" }, ` · ${callNumber(call.seq)} of the run`),
    ),
    // where the call goes (an OpenAPI method's HTTP method and URL): approving runs it only there
    typeof call.operation === "string"
      ? h("div", { class: "call-operation" }, `sends ${call.operation}`)
      : null,
    inDoubt ? inDoubtView(call) : null,
    h("div", { class: "label" }, "input"),
    jsonView(call.args, { openDepth: 3, className: "approval-args" }),
    effectView(call.effect),
  );
}

/** Each waiting call with where it goes, its exact input and what it would change. */
export function pendingCallsView(pending) {
  return h("ul", { class: "pending-calls" }, (pending ?? []).map(pendingView));
}

function doneView(done) {
  if (!done?.length) return h("p", { class: "empty" }, "No calls before this one.");
  return h(
    "ol",
    { class: "done-calls" },
    done.map((call) =>
      h(
        "li",
        { "data-seq": call.seq },
        h("code", {}, callName(call)),
        " ",
        status(call.state),
        h("span", { class: "empty" }, ` · ${callNumber(call.seq)}`),
        disclosure(
          "input and result",
          {},
          h("div", { class: "label" }, "input"),
          jsonView(call.args),
          h("div", { class: "label" }, "result"),
          jsonView(call.result),
        ),
      ),
    ),
  );
}

/** The calls a run made before it paused, folded, and its program, folded: what a card shows below its calls. */
export function runContextView(run) {
  return [
    disclosure(
      `Calls made before it paused (${run.done?.length ?? 0})`,
      { className: "card-done" },
      doneView(run.done),
    ),
    disclosure("The program", { className: "card-program" }, block(run.code, "code")),
  ];
}

/** What the answer was: "Approved in the chat at 10:42:13 — reason". */
function answerView(answer) {
  return h(
    "div",
    { class: `card-answer ${answer.approved ? "approved" : "rejected"}` },
    h("strong", {}, answer.approved ? "Approved" : "Rejected"),
    ` ${where(answer.via)} at ${clock(answer.at)} (`,
    h("span", { "data-ago": answer.at }, ago(answer.at)),
    ")",
    answer.reason
      ? h("div", { class: "card-reason" }, "Reason: ", h("q", {}, answer.reason))
      : null,
    answer.stale
      ? h(
          "div",
          { class: "card-stale" },
          "Already decided: these calls no longer waited as shown, so nothing ran for this answer.",
        )
      : null,
  );
}

/** The reason field of a decision: its label, its input, and its text trimmed and cut to the limit. */
export function reasonField(text, className, placeholder) {
  const input = h("input", {
    class: className,
    maxlength: REASON_LIMIT,
    placeholder,
    autocomplete: "off",
  });
  const { label } = labelled(text, input);
  return { label, input, value: () => input.value.trim().slice(0, REASON_LIMIT) };
}

/** "A call waits for your approval", or that it may already have run. */
function cardTitle(count, again) {
  if (again === 0) {
    return count > 1 ? `${count} calls wait for your approval` : "A call waits for your approval";
  }
  if (count <= 1) return "A call that may already have run waits for your answer";
  return `${count} calls wait for your approval (${again} may already have run)`;
}

/**
 * The card for an ApprovalCard; `send(approved, reason)` answers it over the chat (with the card's
 * handle). Returns the element, `answered(answer)` for the agent's `approval-answered` and
 * `stale(message)` for its `approval-stale`.
 */
export function approvalCardView(card, send) {
  const count = card.pending?.length ?? 0;
  const again = inDoubtCount(card.pending);
  const reason = reasonField(
    "Reason (optional)",
    "card-reason-input",
    "why (kept with the decision; the model reads it)",
  );
  const approve = h(
    "button",
    { type: "button", class: "card-approve", title: runAgainTitle(again) },
    approveLabel(count, again),
  );
  const reject = h("button", { type: "button", class: "card-reject danger" }, rejectLabel(count));
  const problem = h("div", { class: "card-problem error-text", hidden: true });
  const actions = h(
    "div",
    { class: "card-actions" },
    h("div", { class: "reason-row" }, reason.label, reason.input),
    h("div", { class: "row" }, approve, reject),
    problem,
  );
  const element = h(
    "section",
    {
      class: "approval-card",
      "data-approval-id": card.approvalId,
      "data-execution": card.executionId,
      "data-in-doubt": again > 0 || undefined,
      "aria-label": "Approval request",
    },
    h(
      "div",
      { class: "card-head" },
      h("strong", { class: "card-title" }, cardTitle(count, again)),
      h(
        "span",
        { class: "empty" },
        " · asked ",
        h("span", { "data-ago": card.askedAt, title: clock(card.askedAt) }, ago(card.askedAt)),
      ),
      " ",
      runLink(card.executionId, "timeline →"),
    ),
    card.request
      ? h("div", { class: "card-request" }, "Because you asked: ", h("q", {}, card.request))
      : null,
    pendingCallsView(card.pending),
    runContextView(card),
    actions,
  );

  const decide = (approved) => {
    const text = reason.value();
    approve.disabled = true;
    reject.disabled = true;
    problem.hidden = true;
    const sent = send(approved, text || undefined);
    if (!sent) {
      approve.disabled = false;
      reject.disabled = false;
      problem.hidden = false;
      problem.textContent = "Not connected to the agent: try again when the page says connected.";
    }
  };
  approve.addEventListener("click", () => decide(true));
  reject.addEventListener("click", () => decide(false));

  // the buttons, then the answer in their place
  let slot = actions;
  const answered = (answer) => {
    element.dataset.answered = answer.approved ? "approved" : "rejected";
    const title = element.querySelector(".card-title");
    if (title)
      title.textContent =
        count > 1 ? `${count} calls asked for your approval` : "A call asked for your approval";
    const view = answerView(answer);
    slot.replaceWith(view);
    slot = view;
  };
  /** the agent took no answer: the card was answered before, or no longer shows what waits */
  const stale = (message) => {
    element.dataset.stale = "true";
    if (problem.isConnected) {
      problem.hidden = false;
      problem.textContent = message;
    } else element.append(h("div", { class: "card-problem error-text" }, message));
  };
  if (card.answer) answered(card.answer);
  return { element, answered, stale };
}
