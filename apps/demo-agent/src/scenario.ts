// What every scripted scenario of the agent's offline model is, what it reads of the `codemode`
// tool's result, and how it answers each outcome of a run: completed, failed, paused (for the page's
// approvals, or again after an approval in the chat) and rejected by the person.
import type { Scenario as DemoScenario } from "@codemode/demo-kit";

export { program } from "@codemode/demo-kit";

/** A call a paused run waits for, as the model reads it. */
export interface PendingCall {
  seq: number;
  connector: string;
  method: string;
  args: unknown;
}

/**
 * The `codemode` tool's result as the scenarios read it: the run's outcome (the compact model output
 * of `runtime.tool()`, `next` when a run paused again after an approval in the chat), or the person's
 * rejection of the approval request (the AI SDK's `execution-denied`).
 */
export type ToolOutcome =
  | { status: "completed"; executionId: string; result: unknown; logs?: string[] }
  | { status: "paused"; executionId: string; pending: PendingCall[]; next?: string }
  | { status: "error"; executionId: string; error: string; logs?: string[] }
  | { status: "denied"; reason?: string };

/** A scenario that reads the tool's outcome. */
export type Scenario = DemoScenario<ToolOutcome>;

/** What a matcher makes of the words: a scenario, or a refusal saying why it cannot do them. */
export type Matched = Scenario | { cannot: string };

/** How a scenario answers each outcome of its program. */
export interface Answers {
  /** what the program asks for, as in "I asked to …": the pause and rejection texts name it */
  asked?: string;
  /** what its approval-gated call does, as in "You rejected …": 'creating "X" in mobile' */
  gate?: string;
  /** whether the program changes anything (a failure then says that earlier calls stay done) */
  writes?: boolean;
  /**
   * What a rejection left, from this turn's earlier outcomes (each a pause after an approval). By
   * default: nothing, because the program only reads before its approval-gated call.
   */
  rejected?: (earlier: readonly ToolOutcome[]) => string;
  /** the answer from a completed run's result */
  completed(result: unknown): string;
}

const callText = (call: PendingCall) =>
  `${call.connector}.${call.method}(${JSON.stringify(call.args)})`;

/** The answer to one outcome of a scenario's program. */
export function answerOf(
  output: ToolOutcome | undefined,
  earlier: readonly ToolOutcome[],
  answers: Answers,
): string {
  const asked = answers.asked ? `I asked to ${answers.asked}. ` : "";
  if (!output) return "I have no codemode tool in this chat, so I ran nothing.";
  switch (output.status) {
    case "completed":
      return answers.completed(output.result);
    case "error": {
      if (!output.executionId) return `The codemode tool failed: ${output.error}`;
      const after = answers.writes
        ? " If it changed anything before failing, that stays: the run's journal under Executions shows every call it made."
        : "";
      return `The program failed: ${output.error}${after}`;
    }
    case "paused": {
      const calls = output.pending.map(callText).join(", ") || "a call";
      if (output.next !== undefined) {
        return `${asked}The run ${output.executionId} paused again: ${calls} waits for your approval. Send the same request again to continue it.`;
      }
      return `${asked}The run ${output.executionId} is paused: ${calls} waits for your approval. Approve or reject it under Pending approvals.`;
    }
    case "denied": {
      const last = earlier.at(-1);
      const what =
        last?.status === "paused" && last.pending.length > 0
          ? last.pending.map(callText).join(", ")
          : (answers.gate ?? "the run's approval-gated call");
      const why = output.reason ? ` (your reason: "${output.reason}")` : "";
      const left =
        answers.rejected?.(earlier) ??
        "nothing was changed: before it the program had only read data.";
      return `You rejected ${what}${why}. The run stopped there, so that call did not run; ${left}`;
    }
  }
}

/** A scenario that runs `code` and answers each outcome; a run that paused again is continued. */
export function scenario(name: string, code: string, answers: Answers): Scenario {
  return {
    name,
    code,
    again: (output) => output.status === "paused" && output.next !== undefined,
    answer: (output, earlier = []) => answerOf(output, earlier, answers),
  };
}

/** "1 task", "2 tasks". */
export const plural = (n: number, word: string, many = `${word}s`) =>
  `${n} ${n === 1 ? word : many}`;
