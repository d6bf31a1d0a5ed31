// What every scripted scenario of the agent's offline model is, and the helpers they share.
import type { Scenario as DemoScenario } from "@codemode/demo-kit";
import type { CodeModeOutput } from "codemode";

export { program } from "@codemode/demo-kit";

/** A scenario that reads the runtime's output. */
export type Scenario = DemoScenario<CodeModeOutput>;

/** What went wrong, or undefined when the run completed. */
export function unfinished(
  output: CodeModeOutput | undefined,
  pausedText: string,
): string | undefined {
  if (!output) return "The tool gave no result.";
  if (output.status === "error") return `The program failed: ${output.error}`;
  if (output.status === "paused") {
    const calls = output.pending
      .map((p) => `${p.connector}.${p.method}(${JSON.stringify(p.args)})`)
      .join(", ");
    return `${pausedText} The run ${output.executionId} is paused: ${calls} waits for your approval. Approve or reject it under Pending approvals.`;
  }
  return undefined;
}
