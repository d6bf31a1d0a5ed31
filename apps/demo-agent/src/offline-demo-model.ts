// The agent demo's offline model: the kit's scripted OfflineDemoModel playing the agent's scenarios,
// which read the `codemode` tool's result part: the run's compact model output (completed, paused,
// error; `next` when a run paused again after an approval in the chat), the AI SDK's
// `execution-denied` when the person rejected the approval request, or the error of a tool that threw.
import type { LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import { OfflineDemoModel, type ScenarioScript } from "@codemode/demo-kit";
import { matchScenario } from "./demo-scenarios.ts";
import type { PendingCall, ToolOutcome } from "./scenario.ts";

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.map(String) : undefined;

const unreadable = (what: string): ToolOutcome => ({
  status: "error",
  executionId: "",
  error: `its result was ${what}, not a run's outcome`,
});

function pendingOf(value: unknown): PendingCall[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((call) => ({
    seq: Number(call.seq),
    connector: String(call.connector),
    method: String(call.method),
    args: call.args,
  }));
}

/** A run's outcome from the JSON the tool gave the model. */
function outcomeOf(value: unknown): ToolOutcome {
  if (!isObject(value)) return unreadable(`the JSON ${JSON.stringify(value)?.slice(0, 200)}`);
  const executionId = typeof value.executionId === "string" ? value.executionId : "";
  const logs = strings(value.logs);
  switch (value.status) {
    case "completed":
      return {
        status: "completed",
        executionId,
        result: value.result ?? null,
        ...(logs ? { logs } : {}),
      };
    case "paused":
      return {
        status: "paused",
        executionId,
        pending: pendingOf(value.pending),
        ...(typeof value.next === "string" ? { next: value.next } : {}),
      };
    case "error":
      return {
        status: "error",
        executionId,
        error: typeof value.error === "string" ? value.error : JSON.stringify(value.error),
        ...(logs ? { logs } : {}),
      };
    default:
      return unreadable(`an object with the status ${JSON.stringify(value.status)}`);
  }
}

/** The codemode tool's result part as the scenarios read it. */
export function toolOutcomeOf(output: LanguageModelV3ToolResultOutput): ToolOutcome {
  switch (output.type) {
    case "json":
      return outcomeOf(output.value);
    case "execution-denied":
      return { status: "denied", ...(output.reason ? { reason: output.reason } : {}) };
    case "error-text":
      return { status: "error", executionId: "", error: output.value };
    case "error-json":
      return { status: "error", executionId: "", error: JSON.stringify(output.value) };
    case "text":
      return unreadable(`the text ${JSON.stringify(output.value.slice(0, 200))}`);
    default:
      return unreadable(`${output.type} content`);
  }
}

export const agentScenarios: ScenarioScript<ToolOutcome> = {
  match: matchScenario,
  readOutput: toolOutcomeOf,
};

/** The scripted model that plays the agent's scenarios; `delayMs` paces the streamed text. */
export const offlineAgentModel = (options: { delayMs?: number } = {}) =>
  new OfflineDemoModel({ ...agentScenarios, ...options });
