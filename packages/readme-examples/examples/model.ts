// "./model" of the README examples: the AI SDK model the application talks to (a hosted provider's,
// such as openai("gpt-5.5") from @ai-sdk/openai, which needs an API key).
import type { LanguageModel } from "ai";

export declare const model: LanguageModel;
