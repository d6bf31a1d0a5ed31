// The hosted model providers the README examples import and this package does not install (each
// brings a provider's SDK and needs an API key to do anything): only what the examples use of them.
declare module "@tanstack/ai-openai" {
  import type { AnyTextAdapter } from "@tanstack/ai";
  /** a text adapter for one of OpenAI's models; reads OPENAI_API_KEY */
  export function openaiText(model: string, config?: { apiKey?: string }): AnyTextAdapter;
}
