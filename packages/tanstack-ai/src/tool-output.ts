// What the `codemode` tool hands TanStack AI: the runtime's output as plain JSON, so the engine's
// JSON.stringify for the model and the stream to the client cannot lose or choke on a value.
import { type CodeModeOutput, shownValue } from "@codemode/core";

/** The `codemode` tool's output: the runtime's `CodeModeOutput`, a paused run with a note for the model. */
export type CodemodeToolOutput = CodeModeOutput & { message?: string };

/** What a paused run tells the model. */
export const PAUSED_MESSAGE =
  "The run is paused: the calls in `pending` wait for a person to approve or reject them. Do not run the code again; tell the user what waits. The run resumes from where it stopped once they decide.";

/**
 * A value as plain JSON: JSON data stays as it is; `Date`, `Map`, `Set`, `bigint`, `undefined` and
 * binary data become the value codec's tagged objects (`{ "$codemode": "Date", ... }`).
 */
export const asJson = shownValue;

/** The runtime's output as the tool returns it; a value that cannot be sent becomes an error. */
export function toolOutput(output: CodeModeOutput): CodemodeToolOutput {
  let plain: CodeModeOutput;
  try {
    plain = asJson(output) as CodeModeOutput;
  } catch (error) {
    return {
      status: "error",
      executionId: output.executionId,
      error:
        `The run ended ${output.status}, but its output cannot be sent as JSON (${error instanceof Error ? error.message : String(error)}).` +
        (output.status === "completed"
          ? " Its calls ran and are recorded: do not run the code again for their effects. Return plain data (objects, arrays, strings, numbers)."
          : ""),
    };
  }
  if (plain.status !== "paused") return plain;
  // the digests are for decisions, not for the model: they would only cost it tokens
  const pending = plain.pending.map(({ digest: _digest, ...action }) => action);
  return { ...plain, pending, message: PAUSED_MESSAGE } as CodemodeToolOutput;
}
