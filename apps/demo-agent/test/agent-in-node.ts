// The agent's pieces wired as the Durable Object wires them, in Node: the stores over better-sqlite3,
// the same connectors (the notes MCP server reached in process), the durable runtime with QuickJS
// instead of the Worker Loader, and a `say` that runs one chat turn with the offline model.
import Database from "better-sqlite3";
import { createCodemodeRuntime, sqliteStore } from "codemode";
import { QuickJSExecutor } from "codemode/quickjs";
import type { ChatEvent } from "../src/chat-event.ts";
import { ChatHistory } from "../src/chat-history.ts";
import { demoConnectors } from "../src/demo-connectors.ts";
import { createDemoStores } from "../src/demo-stores.ts";
import { offlineAgentModel } from "../src/offline-demo-model.ts";
import { runChatTurn } from "../src/run-chat-turn.ts";
import { sqlOver } from "./sqlite-adapter.ts";

export function agentInNode() {
  const db = new Database(":memory:");
  const sql = sqlOver(db);
  const stores = createDemoStores(sql);
  const history = new ChatHistory(sql);
  const runtime = createCodemodeRuntime({
    store: sqliteStore(db),
    executor: new QuickJSExecutor(),
    connectors: demoConnectors(stores),
    name: "demo",
  });
  const say = async (text: string) => {
    const events: ChatEvent[] = [];
    await runtime.ready();
    const messages = await runChatTurn({
      model: offlineAgentModel(),
      tool: runtime.tool({ approvals: "host" }),
      history: history.list(),
      text,
      send: (event) => events.push(event),
    });
    history.append(messages);
    const answer = events
      .filter((event) => event.type === "text-delta")
      .map((event) => event.text)
      .join("");
    const result = events.find((event) => event.type === "tool-result");
    const output = result?.type === "tool-result" ? result.output : undefined;
    return { events, answer, output };
  };
  return { ...stores, stores, history, runtime, say };
}
