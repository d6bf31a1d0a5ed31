/** Where the chat model comes from. */
export type ModelProvider = "offline" | "workers-ai" | "openai-compatible";

/** The active model as a page shows it. */
export interface ModelInfo {
  provider: ModelProvider;
  label: string;
}
