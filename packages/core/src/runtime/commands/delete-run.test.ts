import { describe, expect, it } from "vitest";
import { mockConnector } from "../../test/mock-connector.ts";
import { callEntry, runningRun, testContext } from "../../test/run-context.ts";
import { deleteExecution } from "./delete-run.ts";

describe("deleteExecution", () => {
  it("removes a run and its journal; the connectors hear that a run that had not ended ended", async () => {
    const ended: string[] = [];
    const gate = Object.assign(mockConnector({ name: "gate", methods: { open: {} } }), {
      disposeExecution: (id: string, status: string) => ended.push(`${id} ${status}`),
    });
    const context = testContext([gate]);
    const running = await runningRun(context, "exec_running");
    await context.journal.putEntry(callEntry(running, 0, { connector: "gate", method: "open" }));
    const paused = await runningRun(context, "exec_paused");
    await context.journal.updateExecution(paused, ["running"], { status: "paused" });
    const completed = await runningRun(context, "exec_completed");
    await context.journal.updateExecution(completed, ["running"], { status: "completed" });
    expect(await deleteExecution(context, running)).toBe(true);
    expect(await deleteExecution(context, paused)).toBe(true);
    expect(await deleteExecution(context, completed)).toBe(true);
    expect(await deleteExecution(context, "exec_unknown")).toBe(false);
    expect(await context.journal.getExecution(running)).toBeUndefined();
    expect(await context.journal.listEntries(running)).toEqual([]);
    expect(ended).toEqual([`${running} error`, `${paused} rejected`]);
  });
});
