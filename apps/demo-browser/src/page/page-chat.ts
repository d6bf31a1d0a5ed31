// The chat panel's engine: the AI SDK's AbstractChat with a plain ChatState, talking to the Worker's
// /api/chat through DefaultChatTransport. The page's `codemode` tool is a client-side tool: its
// schema goes with every request, the model's call of it comes back in the stream, onToolCall runs
// it here (in the iframe sandbox) and adds its output, and sendAutomaticallyWhen sends the
// conversation again so the model can answer from that output.
import {
  AbstractChat,
  type ChatInit,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from "ai";
import type { ClientToolSchema, ClientToolsBody } from "../client-tools.ts";
import { ListenableChatState } from "./chat-state.ts";

/** What the chat needs of the descriptor createBrowserCodeTool returns. */
export interface CodeToolDescriptor {
  name: string;
  description: string;
  inputSchema: object;
  execute(input: { code: string }): Promise<unknown>;
}

export class PageChat extends AbstractChat<UIMessage> {
  readonly #state: ListenableChatState<UIMessage>;

  constructor(init: ChatInit<UIMessage>) {
    const state = new ListenableChatState(init.messages);
    super({ ...init, state });
    this.#state = state;
  }

  /** Calls `listener` after every change of messages, status or error. */
  subscribe(listener: () => void): () => void {
    return this.#state.subscribe(listener);
  }
}

export interface PageChatOptions {
  codeTool: CodeToolDescriptor;
  /** default "/api/chat" */
  api?: string;
  /** tests hand the Worker's handler in directly */
  fetch?: typeof globalThis.fetch;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createPageChat({ codeTool, api = "/api/chat", fetch }: PageChatOptions): PageChat {
  const schema: ClientToolSchema = {
    name: codeTool.name,
    description: codeTool.description,
    inputSchema: codeTool.inputSchema as Record<string, unknown>,
  };
  const body: ClientToolsBody = { clientTools: [schema] };
  const chat: PageChat = new PageChat({
    transport: new DefaultChatTransport({ api, body, ...(fetch ? { fetch } : {}) }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    async onToolCall({ toolCall }) {
      if (toolCall.toolName !== codeTool.name) return;
      // addToolOutput is not awaited: the chat runs it after this callback, in order, and awaiting
      // it here would wait for this very callback to end.
      try {
        const output = await codeTool.execute(toolCall.input as { code: string });
        void chat.addToolOutput({ tool: codeTool.name, toolCallId: toolCall.toolCallId, output });
      } catch (error) {
        void chat.addToolOutput({
          tool: codeTool.name,
          toolCallId: toolCall.toolCallId,
          state: "output-error",
          errorText: errorText(error),
        });
      }
    },
  });
  return chat;
}
