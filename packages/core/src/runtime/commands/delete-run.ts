import type { RunContext } from "../context/run-context.ts";

/** `runtime.deleteExecution`: removes a run; a run that had not ended hears it ended. */
export async function deleteExecution(context: RunContext, id: string): Promise<boolean> {
  const record = await context.journal.getExecution(id);
  if (!record) return false;
  const removed = await context.journal.deleteExecution(id);
  if (record.status === "running" || record.status === "paused") {
    await context.hooks(id, undefined, record.status === "paused" ? "rejected" : "error");
  }
  return removed;
}
