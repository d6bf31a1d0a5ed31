import type { ExecutionRecord } from "../../journal-store.ts";
import type { CodeModeOutput } from "../../types.ts";
import type { RunContext } from "../context/run-context.ts";
import { codec } from "../context/values.ts";
import { pendingEntries } from "../pending-calls.ts";

/**
 * What a run's last pass reported, read back from the journal: the pending calls of a paused run,
 * the recorded result of a completed one (shaped by `transformResult`, as it was then), the error of
 * one that ended otherwise. A run that is still `running` has a pass on it somewhere: it says so.
 */
export async function recordedOutcome(
  context: RunContext,
  record: ExecutionRecord,
): Promise<CodeModeOutput> {
  const executionId = record.id;
  const logs = record.logs?.length ? { logs: record.logs } : {};
  switch (record.status) {
    case "paused":
      return { status: "paused", executionId, pending: await pendingEntries(context, executionId) };
    case "completed": {
      let result = record.result === undefined ? undefined : codec.decode(record.result);
      if (context.transformResult) {
        try {
          result = context.transformResult(result);
        } catch {
          // as the pass did: the model gets the recorded result untransformed
        }
      }
      return { status: "completed", executionId, result, ...logs };
    }
    case "running":
      return {
        status: "error",
        executionId,
        error: "The run is still running: another pass has it. Ask again once it has ended.",
      };
    case "cancelled":
      // as the cancelled pass reported it
      return {
        status: "error",
        executionId,
        error: record.error ?? "The run was cancelled.",
        code: "ABORTED",
        ...logs,
      };
    default:
      return {
        status: "error",
        executionId,
        error: record.error ?? `The run ended ${record.status.replace("_", " ")}.`,
        ...logs,
      };
  }
}
