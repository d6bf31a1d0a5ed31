// The AI SDK's own chat, end to end in one process: an `AbstractChat` (what useChat wraps) with the
// AI SDK's `DefaultChatTransport`, whose fetch reaches a route handler (Request in, Response out),
// so every request and every approval answer crosses the wire as the AI SDK's JSON and SSE. The
// chat sends again by itself once every approval request is answered, as the AI SDK's docs set it
// up. Works with AI SDK 6 and 7.
import {
  AbstractChat,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from "ai";

/** A chat state without a UI framework: plain fields, copies of what the chat hands in. */
class PlainChatState implements ChatState<UIMessage> {
  status: ChatStatus = "ready";
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, this.snapshot(message)];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = this.messages.map((each, at) => (at === index ? this.snapshot(message) : each));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** A route: what the app serves at its chat endpoint. */
export type ChatRoute = (request: Request) => Promise<Response>;

export class TestChat extends AbstractChat<UIMessage> {
  /** every request the chat sent, in order: the messages it carried */
  readonly requests: UIMessage[][];

  constructor(route: ChatRoute) {
    const requests: UIMessage[][] = [];
    super({
      state: new PlainChatState(),
      transport: new DefaultChatTransport({
        api: "https://app.example/api/chat",
        fetch: async (input, init) => {
          const request = new Request(input as string, init as RequestInit);
          requests.push((await request.clone().json()).messages);
          return route(request);
        },
      }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    this.requests = requests;
  }

  /** Resolves once the chat is idle (an automatic request after an answer has finished too). */
  async settled(): Promise<void> {
    // an outer bound for a loaded machine: the wait ends as soon as the chat is idle
    const deadline = Date.now() + 60_000;
    let idle = 0;
    while (idle < 3) {
      if (Date.now() > deadline) {
        throw new Error(`the chat did not settle within 60 s (status: ${this.status})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
      idle = this.status === "ready" || this.status === "error" ? idle + 1 : 0;
    }
    if (this.status === "error") throw this.error;
  }

  /** Sends the person's message and waits for the chat to settle. */
  async say(text: string): Promise<void> {
    await this.sendMessage({ text });
    await this.settled();
  }

  /** Answers the approval request of every part that waits for one, and waits for the chat. */
  async answerAll(approved: boolean, reason?: string): Promise<void> {
    for (const part of this.toolParts()) {
      if (part.state === "approval-requested" && part.approval?.id) {
        await this.addToolApprovalResponse({
          id: part.approval.id,
          approved,
          ...(reason ? { reason } : {}),
        });
      }
    }
    await this.settled();
  }

  /** Every tool part of every message, in order. */
  toolParts(): ToolPart[] {
    return this.messages.flatMap((message) =>
      (message.parts as unknown as ToolPart[]).filter(
        (part) => typeof part.type === "string" && part.type.startsWith("tool-"),
      ),
    );
  }

  /** The text the assistant wrote last. */
  lastText(): string | undefined {
    const parts = this.messages.at(-1)?.parts ?? [];
    const text = [...parts].reverse().find((part) => part.type === "text") as
      | { text: string }
      | undefined;
    return text?.text;
  }
}

/** A tool part of a UI message, as this harness reads it. */
export interface ToolPart {
  type: string;
  toolCallId: string;
  state: string;
  input?: { code?: string };
  output?: unknown;
  errorText?: string;
  preliminary?: boolean;
  approval?: {
    id: string;
    approved?: boolean;
    reason?: string;
    requestReason?: string;
    descriptor?: unknown;
  };
}
