// What a scripted scenario of the offline demo model is. `Output` is the tool's output as the app's
// scenarios read it: the runtime's CodeModeOutput in the agent demo, `{ code, result, logs }` (or an
// error) in the browser demo.

export interface Scenario<Output> {
  name: string;
  /** the program sent to the `codemode` tool; none when the model answers at once */
  code?: string;
  /** the answer, from the tool's output (undefined when there was no tool call) */
  answer(output: Output | undefined): string;
}

/** An async arrow function with these lines as its body. */
export const program = (lines: string[]) =>
  ["async () => {", ...lines.map((l) => `  ${l}`), "}"].join("\n");
