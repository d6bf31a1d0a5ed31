// The agent demo's offline model: the kit's scripted OfflineDemoModel playing the agent's scenarios,
// which read the runtime's CodeModeOutput from the `codemode` tool's result.
import type { LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import { OfflineDemoModel, type ScenarioScript } from "@codemode/demo-kit";
import type { CodeModeOutput } from "codemode";
import { matchScenario } from "./demo-scenarios.ts";

/** The codemode tool's output, whatever shape the result part took. */
function codeModeOutputOf(output: LanguageModelV3ToolResultOutput): CodeModeOutput | undefined {
  if (output.type === "json") return output.value as unknown as CodeModeOutput;
  if (output.type === "error-text" || output.type === "text") {
    return { status: "error", executionId: "", error: output.value };
  }
  if (output.type === "error-json") {
    return { status: "error", executionId: "", error: JSON.stringify(output.value) };
  }
  return undefined;
}

export const agentScenarios: ScenarioScript<CodeModeOutput> = {
  match: matchScenario,
  readOutput: codeModeOutputOf,
};

/** The scripted model that plays the agent's scenarios; `delayMs` paces the streamed text. */
export const offlineAgentModel = (options: { delayMs?: number } = {}) =>
  new OfflineDemoModel({ ...agentScenarios, ...options });
