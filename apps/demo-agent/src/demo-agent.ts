import { DurableObject } from "cloudflare:workers";
import { DynamicWorkerExecutor, sandboxLoader } from "@codemode/executor-dynamic-worker";
import { type CodemodeRuntime, createCodemodeRuntime } from "codemode";
import { ApprovalCards } from "./approval-cards.ts";
import type { ChatEvent, ChatRequest } from "./chat-event.ts";
import { ChatHistory, noteMessage } from "./chat-history.ts";
import { ChatSession } from "./chat-session.ts";
import { demoConnectors } from "./demo-connectors.ts";
import { LEASE_MS, RUN_TIMEOUT_MS } from "./demo-limits.ts";
import { createDemoStores, type DemoStores } from "./demo-stores.ts";
import { type AgentApi, handleApi } from "./handle-api.ts";
import { handleServices } from "./handle-services.ts";
import { RunEvents } from "./run-events.ts";
import { type ModelSettings, type SelectedModel, selectModel } from "./select-model.ts";

/** Messages the page gets when it connects. */
const HISTORY_SHOWN = 200;

/**
 * The agent: a Durable Object that keeps the tracker, the notes, the catalog, the chat, its approval
 * cards, the runs' events and the runtime's journal in its own SQLite, chats over hibernatable
 * WebSockets, asks for approvals in the chat (the AI SDK's tool approval), answers the page's HTTP
 * API and serves the notes MCP server and the catalog REST API its `notes` and `catalog` connectors use.
 */
export class DemoAgent extends DurableObject<Env> {
  private readonly stores: DemoStores;
  private readonly history: ChatHistory;
  private readonly cards: ApprovalCards;
  private readonly events: RunEvents;
  private readonly runtime: CodemodeRuntime;
  private readonly chat: ChatSession;
  private readonly connectorNames: string[];

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.stores = createDemoStores(ctx.storage.sql);
    this.history = new ChatHistory(ctx.storage.sql);
    this.cards = new ApprovalCards(ctx.storage.sql);
    this.events = new RunEvents(ctx.storage.sql);
    const connectors = demoConnectors(this.stores);
    this.connectorNames = connectors.map((connector) => connector.name);
    this.runtime = createCodemodeRuntime({
      ctx,
      // each pass's sandbox worker is loaded in a request of its own (SandboxLoader, exported in index.ts)
      executor: new DynamicWorkerExecutor({
        loader: sandboxLoader(ctx.exports.SandboxLoader),
        timeout: RUN_TIMEOUT_MS,
      }),
      connectors,
      name: "demo",
      leaseMs: LEASE_MS,
      onEvent: (event) => this.events.append(this.chat.attribute(event)),
    });
    this.chat = new ChatSession({
      runtime: this.runtime,
      stores: this.stores,
      history: this.history,
      cards: this.cards,
      model: () => this.model().model,
      broadcast: (event) => this.broadcast(event),
    });
    // runs a process that died left `running` end once their lease has lapsed: now, and again
    // when a lease taken just before the restart would have
    void ctx.blockConcurrencyWhile(() => this.recover());
    setTimeout(() => void this.recover(), LEASE_MS + 1_000);
  }

  private async recover(): Promise<void> {
    try {
      const ended = await this.runtime.expirePaused();
      if (ended.length > 0) this.broadcast({ type: "changed" });
    } catch (error) {
      console.error("recovering runs failed:", (error as Error).message);
    }
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
      events: this.events,
      model: () => {
        const { provider, label } = this.model();
        return { provider, label };
      },
      changed: (note) => {
        if (note) {
          this.history.append([noteMessage(note)]);
          this.broadcast({ type: "note", text: note });
        }
        this.broadcast({ type: "changed" });
      },
      decide: (executionId, decision) => this.chat.decide(executionId, decision),
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
    const refuse = (message: string) =>
      socket.send(JSON.stringify({ type: "error", message } satisfies ChatEvent));
    if (!request) return refuse("Send chat requests as JSON objects.");
    if (request.type === "hello") {
      try {
        const { provider, label } = this.model();
        const event: ChatEvent = {
          type: "hello",
          model: { provider, label },
          history: this.history.list(HISTORY_SHOWN),
          approvals: this.cards.list(),
          ...(this.chat.current ? { inProgress: this.chat.current } : {}),
        };
        socket.send(JSON.stringify(event));
      } catch (error) {
        refuse((error as Error).message);
      }
    } else if (request.type === "clear") {
      this.chat.clear();
    } else if (request.type === "chat" && typeof request.text === "string" && request.text.trim()) {
      await this.chat.say(request.text);
    } else if (request.type === "approval" && typeof request.approvalId === "string") {
      const { approvalId, approved, reason, handle } = request;
      const answered = await this.chat.answer(approvalId, {
        approved: approved === true,
        reason,
        via: "chat",
        handle,
      });
      if (answered === "unknown") refuse("That approval is not in this conversation.");
      else if (answered === "stale") {
        const event: ChatEvent = {
          type: "approval-stale",
          approvalId,
          message:
            "Already decided: this card was answered before, or its calls no longer wait as it showed them. Nothing ran for this answer.",
        };
        socket.send(JSON.stringify(event));
      } else await this.chat.idle();
    } else {
      refuse(`Unknown chat request "${String((request as { type?: unknown }).type)}".`);
    }
  }

  override async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    try {
      socket.close(code, reason);
    } catch {
      // already closed
    }
  }
}
