import {
  type ModelSettings,
  OfflineDemoModel,
  type SelectedModel,
  selectModel as select,
} from "@codemode/demo-kit";
import { pageScenarios } from "./page-scenarios.ts";

/** The scripted model that plays the page's scenarios; `delayMs` paces the streamed text. */
export const offlinePageModel = (options: { delayMs?: number } = {}) =>
  new OfflineDemoModel({ ...pageScenarios, ...options });

/**
 * The chat model: an OpenAI-compatible endpoint when OPENAI_BASE_URL is set, Workers AI when an AI
 * binding is configured, and otherwise the offline demo model with the page's scenarios
 * (MODEL_PROVIDER forces one).
 */
export const selectModel = (settings: ModelSettings): SelectedModel =>
  select(settings, () => offlinePageModel({ delayMs: 15 }));
