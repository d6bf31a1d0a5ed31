// What a scripted scenario of the offline demo model is. `Output` is the tool's output as the app's
// scenarios read it: the runtime's outcome in the agent demo, `{ code, result, logs }` (or an error)
// in the browser demo.

export interface Scenario<Output> {
  name: string;
  /** the program sent to the `codemode` tool; none when the model answers at once */
  code?: string;
  /**
   * The answer, from the tool's output (undefined when there was no tool call). `earlier` holds what
   * the tool gave this turn's earlier calls, oldest first: a run that paused again and was continued
   * by calling the tool again.
   */
  answer(output: Output | undefined, earlier?: readonly Output[]): string;
  /**
   * Whether the model calls the tool again, with exactly the code of the call this output answered,
   * instead of answering (a run that paused again and asks to be continued). Default: never.
   */
  again?(output: Output): boolean;
}

/** An async arrow function with these lines as its body. */
export const program = (lines: string[]) =>
  ["async () => {", ...lines.map((l) => `  ${l}`), "}"].join("\n");
