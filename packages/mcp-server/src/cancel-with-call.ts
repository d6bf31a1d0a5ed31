// A `codemode` call's run is cancelled with the call: when the client cancels the call while code
// runs for it (the run's first pass, or the pass the person's answers approved), `runtime.cancel`
// stops the pass, no call starts after, and what ran is recorded.
import type { CodeModeOutput, CodemodeRuntime } from "@codemode/core";

/** The run of a `codemode` call, cancelled when the client cancels the call. */
export async function runUntilCancelled(
  runtime: CodemodeRuntime,
  code: string,
  signal: AbortSignal,
): Promise<CodeModeOutput> {
  const { executionId, outcome } = await runtime.start({ code });
  if (!executionId) return outcome;
  if (signal.aborted) cancelRun(runtime, executionId);
  return untilCancelled(runtime, executionId, signal, outcome);
}

/**
 * `work` for the run `executionId` (its pass, or the approval that resumes it), the run cancelled if
 * the client cancels the call before `work` settles.
 */
export async function untilCancelled<T>(
  runtime: CodemodeRuntime,
  executionId: string,
  signal: AbortSignal | undefined,
  work: Promise<T>,
): Promise<T> {
  if (!signal) return work;
  const cancel = () => cancelRun(runtime, executionId);
  signal.addEventListener("abort", cancel, { once: true });
  try {
    return await work;
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

function cancelRun(runtime: CodemodeRuntime, executionId: string): void {
  runtime
    .cancel({
      executionId,
      by: "an MCP client",
      reason: "The client cancelled the codemode call.",
    })
    .catch(() => {
      // the run's state stays in the journal; nothing more to tell a client that left
    });
}
