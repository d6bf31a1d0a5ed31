// What every scripted scenario of the offline demo model is, and the helpers they share.
import type { CodeModeOutput } from "codemode";

export interface Scenario {
  name: string;
  /** the program sent to the `codemode` tool; none when the model answers at once */
  code?: string;
  /** the answer, from the tool's output (undefined when there was no tool call) */
  answer(output: CodeModeOutput | undefined): string;
}

/** An async arrow function with these lines as its body. */
export const program = (lines: string[]) =>
  ["async () => {", ...lines.map((l) => `  ${l}`), "}"].join("\n");

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
