// The chat panel: a WebSocket to the agent (reconnecting), the transcript it draws, the first
// screen's suggestions, and Clear (after an in-page confirm). Send waits while a turn streams and
// while an approval card waits for its answer.
import { chatUrl } from "./api.js";
import { confirmDialog } from "./confirm-dialog.js";
import { h } from "./dom.js";
import { followChat, selectRun } from "./selection.js";
import { showSuggestions } from "./suggestions.js";
import { createTranscript } from "./transcript.js";

/** Characters a chat message may have. */
const MESSAGE_LIMIT = 4_000;

const log = document.getElementById("chat-log");
const welcome = document.getElementById("welcome");
const form = document.getElementById("chat-form");
const input = document.getElementById("chat-input");
const send = document.getElementById("chat-send");
const connection = document.getElementById("connection");
const modelBadge = document.getElementById("model");

const waits = document.getElementById("chat-waits");

/** Whether a turn streams now, and whether a card waits for its answer: either holds Send. */
const held = { busy: false, card: false };

function hold(change) {
  Object.assign(held, change);
  send.disabled = held.busy || held.card;
  log.dataset.busy = held.busy ? "true" : "false";
  waits.hidden = !held.card;
  form.dataset.waits = held.card ? "true" : "false";
}

function busy(value) {
  hold({ busy: value });
}

function online(value) {
  connection.textContent = value ? "connected" : "reconnecting…";
  connection.className = `badge ${value ? "online" : "muted"}`;
}

/** Connects (and reconnects) the chat; `onChanged` hears that runs or approvals changed. */
export function startChat({ onChanged }) {
  let socket;
  let retry = 500;
  const post = (value) => {
    if (socket?.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(value));
    return true;
  };
  const transcript = createTranscript({
    log,
    answer: (card, approved, reason) =>
      post({
        type: "approval",
        approvalId: card.approvalId,
        approved,
        ...(reason ? { reason } : {}),
        // what the card showed: the agent decides these calls or nothing
        ...(card.handle ? { handle: card.handle } : {}),
      }),
    onChange: () => {
      welcome.hidden = !transcript.isEmpty();
      // the agent takes no new message while a card waits: the person answers it first
      hold({ card: transcript.waitsForCard() });
    },
  });
  const chat = (text) => {
    const value = text.trim().slice(0, MESSAGE_LIMIT);
    return value ? post({ type: "chat", text: value }) : false;
  };
  showSuggestions(welcome, chat);

  const follow = (executionId) => {
    if (executionId) selectRun(executionId, { follow: true });
  };
  const handle = (event) => {
    if (event.type === "user") {
      followChat();
      busy(true);
    }
    if (event.type === "tool-progress") follow(event.progress?.executionId);
    if (event.type === "tool-result") follow(event.output?.executionId);
    if (event.type === "approval-request") follow(event.card?.executionId);
    transcript.apply(event);
    if (event.type === "done") {
      busy(false);
      log.dataset.turns = String(Number(log.dataset.turns ?? 0) + 1);
    }
  };

  const connect = () => {
    socket = new WebSocket(chatUrl());
    socket.addEventListener("open", () => {
      retry = 500;
      online(true);
      socket.send(JSON.stringify({ type: "hello" }));
    });
    socket.addEventListener("close", () => {
      online(false);
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8_000);
    });
    socket.addEventListener("message", (raw) => {
      let event;
      try {
        event = JSON.parse(raw.data);
      } catch {
        return;
      }
      switch (event.type) {
        case "hello": {
          modelBadge.textContent = event.model.label;
          modelBadge.className = `badge ${event.model.provider === "offline" ? "offline" : ""}`;
          modelBadge.dataset.provider = event.model.provider;
          transcript.show(event.history, event.approvals);
          const turn = event.inProgress;
          busy(Boolean(turn));
          log.dataset.resumed = turn ? "true" : "false";
          if (turn) {
            // a turn streams now: what it has sent so far, then the live events that follow
            if (!turn.events?.some((item) => item.type === "user") && turn.text) {
              transcript.note(turn.text);
            }
            for (const item of turn.events ?? []) handle(item);
          }
          document.body.dataset.chatReady = "true";
          break;
        }
        case "cleared":
          transcript.show([], []);
          break;
        case "changed":
          onChanged();
          break;
        default:
          handle(event);
      }
    });
  };
  connect();

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (send.disabled) return;
    if (chat(input.value)) input.value = "";
  });
  document.getElementById("chat-clear").addEventListener("click", async () => {
    const sure = await confirmDialog({
      title: "Clear the conversation?",
      body: [
        h(
          "p",
          {},
          "The chat's messages are deleted for every open page. Runs, their journal and the data stay.",
        ),
      ],
      confirmLabel: "Clear chat",
    });
    if (sure) post({ type: "clear" });
  });
}
