// The agent's pieces wired as the Durable Object wires them, in Node: the stores over better-sqlite3,
// the same connectors (the notes MCP server reached in process), the durable runtime with QuickJS
// instead of the Worker Loader, the chat session with its approval cards, and the runs' events.
// `say` runs one chat turn with the offline model; `answer` answers the newest approval card.
import type { LanguageModelV3 } from "@ai-sdk/provider";
import Database from "better-sqlite3";
import { createCodemodeRuntime, sqliteStore } from "codemode";
import { QuickJSExecutor } from "codemode/quickjs";
import { ApprovalCards } from "../src/approval-cards.ts";
import type { ChatEvent } from "../src/chat-event.ts";
import { ChatHistory } from "../src/chat-history.ts";
import { ChatSession } from "../src/chat-session.ts";
import { demoConnectors } from "../src/demo-connectors.ts";
import { createDemoStores } from "../src/demo-stores.ts";
import type { AgentApi } from "../src/handle-api.ts";
import { offlineAgentModel } from "../src/offline-demo-model.ts";
import { RunEvents } from "../src/run-events.ts";
import { sqlOver } from "./sqlite-adapter.ts";

/** What one turn streamed: its events, the answer's text and the last run outcome. */
function turnOf(events: ChatEvent[]) {
  const answer = events
    .filter((event) => event.type === "text-delta")
    .map((event) => event.text)
    .join("");
  const result = events.findLast((event) => event.type === "tool-result");
  const output = result?.type === "tool-result" ? result.output : undefined;
  const request = events.findLast((event) => event.type === "approval-request");
  const card = request?.type === "approval-request" ? request.card : undefined;
  return { events, answer, output, card };
}

export function agentInNode(options: { model?: () => LanguageModelV3 } = {}) {
  const db = new Database(":memory:");
  const sql = sqlOver(db);
  const stores = createDemoStores(sql);
  const history = new ChatHistory(sql);
  const cards = new ApprovalCards(sql);
  const events = new RunEvents(sql);
  let chat: ChatSession | undefined;
  // the runtime's journal: a test may put an entry back as a process that stopped would leave it
  const store = sqliteStore(db);
  const runtime = createCodemodeRuntime({
    store,
    executor: new QuickJSExecutor(),
    connectors: demoConnectors(stores),
    name: "demo",
    onEvent: (event) => events.append(chat?.attribute(event) ?? event),
  });
  let streamed: ChatEvent[] = [];
  chat = new ChatSession({
    runtime,
    stores,
    history,
    cards,
    model: options.model ?? (() => offlineAgentModel()),
    broadcast: (event) => streamed.push(event),
  });
  const session = chat;
  /** runs `act` and returns what the turns it caused streamed */
  const turn = async (act: () => unknown) => {
    streamed = [];
    await act();
    await session.idle();
    return turnOf(streamed);
  };
  const say = (text: string) => turn(() => session.say(text));
  const answer = (approved: boolean, reason?: string) =>
    turn(async () => {
      const card = cards.list().findLast((each) => !each.answer);
      if (!card) throw new Error("no approval card waits for an answer");
      // as the page sends it: with the handle the card showed
      const answered = await session.answer(card.approvalId, {
        approved,
        reason,
        via: "chat",
        handle: card.handle,
      });
      if (answered !== "answered") throw new Error(`the card was not answered: ${answered}`);
    });
  return {
    ...stores,
    stores,
    store,
    history,
    cards,
    events,
    runtime,
    chat: session,
    say,
    answer,
    turn,
  };
}

/** What the page's HTTP API is given in Node, as the Durable Object gives it; `changed` hears notes. */
export function nodeAgent(
  demo: ReturnType<typeof agentInNode>,
  changed: AgentApi["changed"] = () => {},
): AgentApi {
  return {
    runtime: demo.runtime,
    stores: demo.stores,
    connectors: ["tracker", "notes", "catalog"],
    events: demo.events,
    model: () => ({ provider: "offline", label: "offline" }),
    changed,
    decide: (executionId, decision) => demo.chat.decide(executionId, decision),
  };
}
