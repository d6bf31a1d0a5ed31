// The chat's transcript: messages, streamed text, tool calls and approval cards, drawn from live
// events or from the stored conversation (AI SDK model messages) when a page connects.
import { approvalCardView } from "./approval-card.js";
import { h } from "./dom.js";
import { toolCallView } from "./tool-call-view.js";

/** The parts of a stored message's content (a string or parts). */
const partsOf = (content) =>
  typeof content === "string" ? [{ type: "text", text: content }] : (content ?? []);

/** The CodeModeOutput in a stored tool result, whatever shape the result part took. */
function storedOutput(output) {
  if (output?.type === "json") return output.value;
  if (output?.type === "error-text" || output?.type === "text") {
    return { status: "error", error: output.value };
  }
  if (output?.type === "error-json") return { status: "error", error: output.value };
  if (output?.type === "execution-denied") return { status: "denied", reason: output.reason };
  return output;
}

/**
 * The transcript in `log`; `answer(card, approved, reason)` sends a card's answer (with the handle
 * the card showed) and returns whether it could. `onChange` hears that the transcript was drawn
 * anew, grew, or a card was answered.
 */
export function createTranscript({ log, answer, onChange = () => {} }) {
  /** the assistant bubble that text deltas go to, until a tool call or the end of the turn */
  let bubble;
  const tools = new Map();
  /** tool calls that paused for a card: their outcome goes in a view after the card */
  const continued = new Map();
  /** the view each tool call paused in, for its card's answer */
  const latest = new Map();
  const cards = new Map();
  /** the conversation's cards by approvalId, as the agent last sent them */
  const approvals = new Map();

  const nearBottom = () => log.scrollHeight - log.scrollTop - log.clientHeight < 80;
  const append = (element) => {
    const stick = nearBottom();
    log.append(element);
    if (stick) log.scrollTop = log.scrollHeight;
    onChange();
    return element;
  };
  const message = (kind, text) => {
    bubble = undefined;
    return append(h("div", { class: `msg ${kind}`, "data-role": kind }, text));
  };
  const text = (delta) => {
    const stick = nearBottom();
    bubble ??= append(h("div", { class: "msg assistant", "data-role": "assistant" }));
    bubble.textContent += delta;
    if (stick) log.scrollTop = log.scrollHeight;
  };
  const toolCall = (toolCallId, code) => {
    bubble = undefined;
    const existing = tools.get(toolCallId);
    if (existing) return existing;
    const view = toolCallView(toolCallId, code);
    tools.set(toolCallId, view);
    append(view.element);
    return view;
  };
  /** where a tool call's progress and outcome go: after its card, once it has one */
  const target = (toolCallId) => {
    if (!continued.has(toolCallId)) return tools.get(toolCallId);
    let view = continued.get(toolCallId);
    if (!view) {
      bubble = undefined;
      view = toolCallView(toolCallId, "", { continued: true });
      continued.set(toolCallId, view);
      append(view.element);
    }
    return view;
  };
  /** the view a card's answer settles: the tool call, or its newest continuation */
  const settleAnswered = (toolCallId, value) => {
    const view = latest.get(toolCallId);
    if (!view) return;
    if (value.approved)
      view.settle("paused", "Paused for approval: approved, the run goes on below.");
    else
      view.settle(
        "rejected",
        `Rejected${value.reason ? `: ${value.reason}` : ""}. No waiting call ran.`,
      );
  };
  const card = (value) => {
    bubble = undefined;
    approvals.set(value.approvalId, value);
    const existing = cards.get(value.approvalId);
    if (existing) {
      if (value.answer) answered(value.approvalId, value.answer);
      return;
    }
    const view = approvalCardView(value, (approved, reason) => answer(value, approved, reason));
    cards.set(value.approvalId, view);
    // the view that paused: the tool call, or (a loop of gated calls) the run's newest continuation
    const paused = continued.get(value.toolCallId) ?? tools.get(value.toolCallId);
    paused?.settle("paused", "Paused: a call waits for your answer below.");
    if (paused) latest.set(value.toolCallId, paused);
    continued.set(value.toolCallId, undefined);
    append(view.element);
    if (value.answer) settleAnswered(value.toolCallId, value.answer);
  };
  function answered(approvalId, value) {
    const stored = approvals.get(approvalId);
    if (stored && !stored.answer) stored.answer = value;
    cards.get(approvalId)?.answered(value);
    if (stored) settleAnswered(stored.toolCallId, value);
    onChange();
  }

  const storedMessage = (stored) => {
    for (const part of partsOf(stored.content)) {
      if (part.type === "text" && part.text) {
        if (stored.role === "user") message("user", part.text);
        // the agent's own note (noteMessage), not the model's words
        else if (part.providerOptions?.demo?.note === true) message("note", part.text);
        else text(part.text);
      } else if (part.type === "tool-call") {
        toolCall(part.toolCallId, part.input?.code ?? JSON.stringify(part.input));
      } else if (part.type === "tool-result") {
        const output = storedOutput(part.output);
        // a denied call has no outcome of its own: its card says it was rejected
        if (output?.status === "denied") continue;
        const view = target(part.toolCallId);
        // a stored preliminary result is progress, not the outcome
        if (output?.status === "running") view?.progress(output);
        else view?.result(output);
      } else if (part.type === "tool-approval-request") {
        const value = approvals.get(part.approvalId);
        if (value) card(value);
      } else if (part.type === "tool-approval-response") {
        const value = approvals.get(part.approvalId);
        if (value && !value.answer) {
          answered(part.approvalId, {
            approved: part.approved,
            reason: part.reason,
            at: Date.now(),
          });
        }
      }
    }
    bubble = undefined;
  };

  return {
    isEmpty: () => log.childElementCount === 0,
    /** whether a card of the conversation waits for its answer (the agent takes no message then) */
    waitsForCard: () => [...approvals.values()].some((value) => !value.answer),
    /** draws the stored conversation and its cards (cards the history does not place go last) */
    show(history = [], cardList = []) {
      log.replaceChildren();
      tools.clear();
      continued.clear();
      latest.clear();
      cards.clear();
      approvals.clear();
      bubble = undefined;
      for (const value of cardList) approvals.set(value.approvalId, value);
      for (const stored of history) storedMessage(stored);
      for (const value of cardList) if (!cards.has(value.approvalId)) card(value);
      log.scrollTop = log.scrollHeight;
      onChange();
    },
    /** one live chat event; returns false for events the transcript does not draw */
    apply(event) {
      switch (event.type) {
        case "user":
          message("user", event.text);
          return true;
        case "text-delta":
          text(event.text);
          return true;
        case "tool-call":
          toolCall(event.toolCallId, event.code);
          return true;
        case "tool-progress":
          target(event.toolCallId)?.progress(event.progress);
          return true;
        case "tool-result":
          target(event.toolCallId)?.result(event.output);
          return true;
        case "tool-error":
          target(event.toolCallId)?.error(event.error);
          return true;
        case "approval-request":
          card(event.card);
          return true;
        case "approval-answered":
          answered(event.approvalId, event.answer);
          return true;
        case "approval-stale":
          cards.get(event.approvalId)?.stale(event.message);
          return true;
        case "note":
          message("note", event.text);
          return true;
        case "error":
          message("error", event.message);
          return true;
        case "done":
          bubble = undefined;
          return true;
        default:
          return false;
      }
    },
    /** a line of its own (what started a turn that is replayed) */
    note(textValue) {
      message("note", textValue);
    },
  };
}
