import type { ModelInfo } from "@codemode/demo-kit";
import type { ModelMessage } from "ai";
import type { CodeModeOutput } from "codemode";

/** What the page sends over the chat WebSocket. */
export type ChatRequest = { type: "hello" } | { type: "chat"; text: string } | { type: "clear" };

/** What the agent sends over the chat WebSocket. */
export type ChatEvent =
  | {
      type: "hello";
      model: ModelInfo;
      history: ModelMessage[];
    }
  | { type: "user"; text: string }
  | { type: "text-delta"; text: string }
  | { type: "tool-call"; toolCallId: string; code: string }
  | { type: "tool-result"; toolCallId: string; output: CodeModeOutput }
  | { type: "tool-error"; toolCallId: string; error: string }
  | { type: "note"; text: string }
  | { type: "done" }
  | { type: "error"; message: string }
  | { type: "cleared" }
  /** runs, approvals or snippets changed: the page refreshes its panels */
  | { type: "changed" };
