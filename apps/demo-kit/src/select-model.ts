import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3, LanguageModelV4 } from "@ai-sdk/provider";
import { createWorkersAI } from "workers-ai-provider";
import type { ModelInfo, ModelProvider } from "./model-info.ts";
import { OFFLINE_MODEL_LABEL } from "./offline-demo-model.ts";

/** The settings that pick the model: vars (wrangler.jsonc, .dev.vars) and an optional AI binding. */
export interface ModelSettings {
  /** "auto" (default), "offline", "workers-ai" or "openai-compatible" */
  MODEL_PROVIDER?: string;
  AI?: Ai;
  WORKERS_AI_MODEL?: string;
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  OPENAI_MODEL?: string;
}

export interface SelectedModel extends ModelInfo {
  model: LanguageModelV3 | LanguageModelV4;
}

export const DEFAULT_WORKERS_AI_MODEL = "@cf/meta/llama-4-scout-17b-16e-instruct";

function providerOf(settings: ModelSettings): ModelProvider {
  const wanted = settings.MODEL_PROVIDER ?? "auto";
  if (wanted === "offline" || wanted === "workers-ai" || wanted === "openai-compatible") {
    return wanted;
  }
  if (wanted !== "auto") {
    throw new Error(
      `MODEL_PROVIDER is "${wanted}"; use auto, offline, workers-ai or openai-compatible.`,
    );
  }
  if (settings.OPENAI_BASE_URL) return "openai-compatible";
  if (settings.AI) return "workers-ai";
  return "offline";
}

/**
 * The chat model: an OpenAI-compatible endpoint when OPENAI_BASE_URL is set, Workers AI when an AI
 * binding is configured, and otherwise the app's offline demo model, made by `offlineModel`
 * (MODEL_PROVIDER forces one).
 */
export function selectModel(
  settings: ModelSettings,
  offlineModel: () => LanguageModelV3,
): SelectedModel {
  const provider = providerOf(settings);
  if (provider === "openai-compatible") {
    const baseURL = settings.OPENAI_BASE_URL;
    const modelId = settings.OPENAI_MODEL;
    if (!baseURL || !modelId) {
      throw new Error("An OpenAI-compatible model needs OPENAI_BASE_URL and OPENAI_MODEL.");
    }
    const openai = createOpenAICompatible({
      name: "openai-compatible",
      baseURL,
      ...(settings.OPENAI_API_KEY ? { apiKey: settings.OPENAI_API_KEY } : {}),
    });
    return { provider, label: `${modelId} (${baseURL})`, model: openai.chatModel(modelId) };
  }
  if (provider === "workers-ai") {
    if (!settings.AI) {
      throw new Error('Workers AI needs an AI binding: add "ai": { "binding": "AI" }.');
    }
    const modelId = settings.WORKERS_AI_MODEL ?? DEFAULT_WORKERS_AI_MODEL;
    const workersAi = createWorkersAI({ binding: settings.AI });
    return { provider, label: `${modelId} (Workers AI)`, model: workersAi(modelId) };
  }
  return { provider, label: OFFLINE_MODEL_LABEL, model: offlineModel() };
}
