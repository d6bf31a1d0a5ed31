// The chat panel: a WebSocket to the agent; streamed text, tool calls and their results.
import { chatUrl } from "./api.js";
import { fill, h, pretty, status } from "./dom.js";

const log = document.getElementById("chat-log");
const form = document.getElementById("chat-form");
const input = document.getElementById("chat-input");
const send = document.getElementById("chat-send");
const connection = document.getElementById("connection");
const modelBadge = document.getElementById("model");

/** the assistant bubble that text deltas go to, until a tool call or the end of the turn */
let bubble;
const tools = new Map();

function scroll() {
  log.scrollTop = log.scrollHeight;
}

function message(kind, text) {
  const element = h("div", { class: `msg ${kind}`, "data-role": kind }, text);
  log.append(element);
  scroll();
  return element;
}

function toolCall(toolCallId, code) {
  const result = h("div", { class: "tool-result" }, h("span", { class: "empty" }, "running…"));
  const element = h(
    "details",
    { class: "tool", open: true, "data-tool-call": toolCallId },
    h("summary", {}, "codemode tool call"),
    h("pre", { class: "tool-code" }, code),
    result,
  );
  tools.set(toolCallId, result);
  log.append(element);
  bubble = undefined;
  scroll();
}

function toolResult(toolCallId, output) {
  const target = tools.get(toolCallId);
  if (!target) return;
  const state = output?.status ?? "error";
  fill(
    target,
    h("div", {}, "result: ", status(state), " ", h("code", {}, output?.executionId ?? "")),
    h("pre", { class: "tool-output" }, pretty(output)),
  );
  scroll();
}

function text(delta) {
  bubble ??= message("assistant", "");
  bubble.textContent += delta;
  scroll();
}

/** Text of a stored message's content (a string or parts). */
function partsOf(content) {
  return typeof content === "string" ? [{ type: "text", text: content }] : (content ?? []);
}

function showHistory(history) {
  fill(log);
  tools.clear();
  bubble = undefined;
  for (const stored of history) {
    for (const part of partsOf(stored.content)) {
      if (part.type === "text" && part.text) {
        if (stored.role === "user") message("user", part.text);
        else text(part.text);
      } else if (part.type === "tool-call") {
        toolCall(part.toolCallId, part.input?.code ?? pretty(part.input));
      } else if (part.type === "tool-result") {
        const output = part.output?.type === "json" ? part.output.value : part.output;
        toolResult(part.toolCallId, output);
      }
    }
    bubble = undefined;
  }
}

function busy(value) {
  send.disabled = value;
  log.dataset.busy = value ? "true" : "false";
}

/** Connects (and reconnects) the chat; `onChanged` hears that runs or approvals changed. */
export function startChat({ onChanged }) {
  let socket;
  const connect = () => {
    socket = new WebSocket(chatUrl());
    socket.addEventListener("open", () => {
      connection.textContent = "connected";
      connection.className = "badge online";
      socket.send(JSON.stringify({ type: "hello" }));
    });
    socket.addEventListener("close", () => {
      connection.textContent = "disconnected";
      connection.className = "badge muted";
      setTimeout(connect, 1000);
    });
    socket.addEventListener("message", (raw) => {
      const event = JSON.parse(raw.data);
      switch (event.type) {
        case "hello":
          modelBadge.textContent = event.model.label;
          modelBadge.className = `badge ${event.model.provider === "offline" ? "offline" : ""}`;
          modelBadge.dataset.provider = event.model.provider;
          showHistory(event.history);
          busy(false);
          break;
        case "user":
          bubble = undefined;
          message("user", event.text);
          busy(true);
          break;
        case "text-delta":
          text(event.text);
          break;
        case "tool-call":
          toolCall(event.toolCallId, event.code);
          break;
        case "tool-result":
          toolResult(event.toolCallId, event.output);
          break;
        case "tool-error":
          toolResult(event.toolCallId, { status: "error", error: event.error });
          break;
        case "note":
          bubble = undefined;
          message("note", event.text);
          break;
        case "error":
          bubble = undefined;
          message("error", event.message);
          break;
        case "done":
          bubble = undefined;
          busy(false);
          log.dataset.turns = String(Number(log.dataset.turns ?? 0) + 1);
          break;
        case "cleared":
          showHistory([]);
          break;
        case "changed":
          onChanged();
          break;
      }
    });
  };
  connect();

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (!value || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: "chat", text: value }));
    input.value = "";
  });
  document.getElementById("chat-clear").addEventListener("click", () => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "clear" }));
  });
}
