import { DurableObject } from "cloudflare:workers";
import { DynamicWorkerExecutor, sandboxLoader } from "@codemode/executor-dynamic-worker";
import { type CodemodeRuntime, createCodemodeRuntime } from "codemode";
import type { ChatEvent, ChatRequest } from "./chat-event.ts";
import { ChatHistory } from "./chat-history.ts";
import { demoConnectors } from "./demo-connectors.ts";
import { createDemoStores, type DemoStores } from "./demo-stores.ts";
import { type AgentApi, handleApi } from "./handle-api.ts";
import { handleServices } from "./handle-services.ts";
import { runChatTurn } from "./run-chat-turn.ts";

import { type ModelSettings, type SelectedModel, selectModel } from "./select-model.ts";

/** Messages the page gets when it connects. */
const HISTORY_SHOWN = 200;

/**
 * The agent: a Durable Object that keeps the tracker, the notes, the catalog, the chat and the
 * runtime's journal in its own SQLite, chats over hibernatable WebSockets, answers the page's HTTP API
 * and serves the notes MCP server and the catalog REST API its `notes` and `catalog` connectors use.
 */
export class DemoAgent extends DurableObject<Env> {
  private readonly stores: DemoStores;
  private readonly history: ChatHistory;
  private readonly runtime: CodemodeRuntime;
  private readonly connectorNames: string[];
  /** chat turns run one after another */
  private turns: Promise<void> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.stores = createDemoStores(ctx.storage.sql);
    this.history = new ChatHistory(ctx.storage.sql);
    const connectors = demoConnectors(this.stores);
    this.connectorNames = connectors.map((connector) => connector.name);
    this.runtime = createCodemodeRuntime({
      ctx,
      // each pass's sandbox worker is loaded in a request of its own (SandboxLoader, exported in index.ts)
      executor: new DynamicWorkerExecutor({ loader: sandboxLoader(ctx.exports.SandboxLoader) }),
      connectors,
      name: "demo",
    });
  }

  private model(): SelectedModel {
    return selectModel(this.env as Env & ModelSettings);
  }

  private broadcast(event: ChatEvent): void {
    const text = JSON.stringify(event);
    for (const socket of this.ctx.getWebSockets()) {
      try {
        socket.send(text);
      } catch {
        // a socket that is closing misses the event
      }
    }
  }

  private api(): AgentApi {
    return {
      runtime: this.runtime,
      stores: this.stores,
      connectors: this.connectorNames,
      model: () => {
        const { provider, label } = this.model();
        return { provider, label };
      },
      changed: (note) => {
        if (note) {
          this.history.append([{ role: "assistant", content: [{ type: "text", text: note }] }]);
          this.broadcast({ type: "note", text: note });
        }
        this.broadcast({ type: "changed" });
      },
    };
  }

  override async fetch(request: Request): Promise<Response> {
    const served = handleServices(request, this.stores);
    if (served) return served;
    const { pathname } = new URL(request.url);
    if (pathname === "/chat") {
      if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
        return new Response("Open /chat as a WebSocket.", { status: 426 });
      }
      const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
      this.ctx.acceptWebSocket(server);
      return new Response(null, { status: 101, webSocket: client });
    }
    return handleApi(request, this.api());
  }

  override async webSocketMessage(socket: WebSocket, data: string | ArrayBuffer): Promise<void> {
    let request: ChatRequest | undefined;
    try {
      const value: unknown = JSON.parse(
        typeof data === "string" ? data : new TextDecoder().decode(data),
      );
      if (typeof value === "object" && value !== null) request = value as ChatRequest;
    } catch {
      // answered below
    }
    if (!request) {
      const error: ChatEvent = { type: "error", message: "Send chat requests as JSON objects." };
      socket.send(JSON.stringify(error));
      return;
    }
    if (request.type === "hello") {
      let event: ChatEvent;
      try {
        const { provider, label } = this.model();
        event = {
          type: "hello",
          model: { provider, label },
          history: this.history.list(HISTORY_SHOWN),
        };
      } catch (error) {
        event = { type: "error", message: (error as Error).message };
      }
      socket.send(JSON.stringify(event));
    } else if (request.type === "clear") {
      this.history.clear();
      this.broadcast({ type: "cleared" });
    } else if (request.type === "chat" && typeof request.text === "string" && request.text.trim()) {
      const text = request.text.trim();
      this.turns = this.turns.then(() => this.chat(text));
      await this.turns;
    }
  }

  override async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    try {
      socket.close(code, reason);
    } catch {
      // already closed
    }
  }

  /** One user message: the model's tool loop, streamed to every open page, then kept. */
  private async chat(text: string): Promise<void> {
    this.broadcast({ type: "user", text });
    try {
      const history = this.history.list();
      // the notes and catalog connectors list their methods asynchronously: the tool's description
      // names them once this resolves
      await this.runtime.ready();
      const messages = await runChatTurn({
        model: this.model().model,
        // the page decides paused runs in its side panel (approvals in the chat: the demo issue)
        tool: this.runtime.tool({ approvals: "host" }),
        history,
        text,
        send: (event) => this.broadcast(event),
      });
      this.history.append(messages);
    } catch (error) {
      this.history.append([{ role: "user", content: text }]);
      this.broadcast({ type: "error", message: (error as Error).message });
    }
    this.broadcast({ type: "done" });
  }
}
