// What the demos share, safe to bundle into a Worker: the scripted offline demo model, its scenario
// helpers, the model selection, and the check every request to a demo's Worker passes first. The
// end-to-end test helpers are in "@codemode/demo-kit/testing".
export type { ModelInfo, ModelProvider } from "./model-info.ts";
export {
  MAX_TOOL_CALLS_PER_TURN,
  OFFLINE_MODEL_LABEL,
  OfflineDemoModel,
  type OfflineDemoModelOptions,
  type ScenarioScript,
} from "./offline-demo-model.ts";
export {
  allowedHostsFrom,
  type RequestOriginPolicy,
  type RouteClients,
  refuseForeignRequest,
} from "./refuse-foreign-request.ts";
export { program, type Scenario } from "./scenario.ts";
export {
  DEFAULT_WORKERS_AI_MODEL,
  type ModelSettings,
  type SelectedModel,
  selectModel,
} from "./select-model.ts";
