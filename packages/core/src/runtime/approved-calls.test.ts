import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { decisionHandleOf } from "../decision-handle.ts";
import type { JournalStore } from "../journal-store.ts";
import { memoryStore } from "../memory-store.ts";
import { sqliteStore } from "../sql-store/sqlite-store.ts";
import { mockConnector } from "../test/mock-connector.ts";
import { MockExecutor } from "../test/mock-executor.ts";
import { createCodemodeRuntime } from "./create-codemode-runtime.ts";

const stores: [string, () => JournalStore][] = [
  ["memoryStore", () => memoryStore()],
  ["sqliteStore", () => sqliteStore(new Database(":memory:"))],
];

/** a run paused at #0 with #1 (made a turn later) approved and not yet reached */
async function approvedAhead(store: JournalStore) {
  const mail = mockConnector({
    name: "mail",
    methods: { send: { requiresApproval: true, revert: () => undefined } },
  });
  const executor = new MockExecutor(async ({ mail }) => {
    const first = mail.send?.({ to: "a" });
    await null;
    const second = mail.send?.({ to: "b" });
    await Promise.all([first, second]);
    return "sent";
  });
  const runtime = createCodemodeRuntime({ store, executor, connectors: [mail] });
  const { executionId } = await runtime.execute({ code: "async () => 0" });
  await runtime.approve({ executionId, seqs: [1] });
  expect((await runtime.execution(executionId))?.calls.map((call) => call.state)).toEqual([
    "pending",
    "approved",
  ]);
  return { runtime, mail, executionId };
}

describe.each(stores)("on %s, an approved call no pass reached yet", (_, store) => {
  it("rollback withdraws it; the preview does not count it as maybe-run", async () => {
    const { runtime, mail, executionId } = await approvedAhead(store());
    expect((await runtime.previewRollback({ executionId })).calls).toEqual([]);
    await runtime.rollback({ executionId });
    expect((await runtime.execution(executionId))?.calls.map((c) => c.state)).toEqual([
      "withdrawn",
      "withdrawn",
    ]);
    expect(await runtime.approve({ executionId })).toMatchObject({ status: "error" });
    expect(mail.calls).toEqual([]);
  });

  it("expiry withdraws it", async () => {
    const { runtime, mail, executionId } = await approvedAhead(store());
    expect(await runtime.expirePaused({ maxAgeMs: -1 })).toEqual([executionId]);
    expect((await runtime.execution(executionId))?.calls.map((c) => c.state)).toEqual([
      "withdrawn",
      "withdrawn",
    ]);
    expect(mail.calls).toEqual([]);
  });

  it("cancel withdraws it; a late approval of #0 decides nothing", async () => {
    const { runtime, mail, executionId } = await approvedAhead(store());
    const handle = decisionHandleOf(await runtime.pending(executionId));
    await runtime.cancel({ executionId });
    expect(await runtime.approve({ executionId, handle })).toMatchObject({ status: "error" });
    expect((await runtime.execution(executionId))?.calls.map((c) => c.state)).toEqual([
      "withdrawn",
      "withdrawn",
    ]);
    expect(mail.calls).toEqual([]);
  });

  it("two approvals of #0 at once: each call runs once, #1 is never asked again", async () => {
    const { runtime, mail, executionId } = await approvedAhead(store());
    const pending = await runtime.pending(executionId);
    expect(pending.map((call) => call.seq)).toEqual([0]);
    const handle = decisionHandleOf(pending);
    const outcomes = await Promise.all([
      runtime.approve({ executionId, handle }),
      runtime.approve({ executionId, handle }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["completed", "error"]);
    expect(mail.calls.map((call) => call.input)).toEqual([{ to: "a" }, { to: "b" }]);
  });
});
