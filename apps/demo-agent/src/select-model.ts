import { type ModelSettings, type SelectedModel, selectModel as select } from "@codemode/demo-kit";
import { offlineAgentModel } from "./offline-demo-model.ts";

export {
  DEFAULT_WORKERS_AI_MODEL,
  type ModelSettings,
  type SelectedModel,
} from "@codemode/demo-kit";

/**
 * The chat model: an OpenAI-compatible endpoint when OPENAI_BASE_URL is set, Workers AI when an AI
 * binding is configured, and otherwise the offline demo model with the agent's scenarios
 * (MODEL_PROVIDER forces one).
 */
export const selectModel = (settings: ModelSettings): SelectedModel =>
  select(settings, () => offlineAgentModel({ delayMs: 15 }));
