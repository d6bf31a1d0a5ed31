// One store fault at every journal operation of an approval and of the pass it runs: lost before it
// committed, or committed and then reported failed; once, a few times, or beyond the retries. Then
// the store heals and the host drives the run to an end the only ways it can (approve what waits,
// expire what is held). Whatever the fault: no call reaches its connector twice; STORE_FAILED means
// nothing ran and either the run waits for every call as before (it says so) or it is held until its
// lease lapses (it says that); and no ended run keeps an `approved` call.
import { describe, expect, it } from "vitest";
import { decisionHandleOf } from "../../decision-handle.ts";
import type { Journal } from "../../journal-store.ts";
import { memoryStore } from "../../memory-store.ts";
import { mockConnector } from "../../test/mock-connector.ts";
import { MockExecutor } from "../../test/mock-executor.ts";
import { withJournal } from "../../test/with-journal.ts";
import { createCodemodeRuntime } from "../create-codemode-runtime.ts";

const READS = ["getExecution", "getEntry", "listEntries"] as const;
const WRITES = ["updateExecution", "putEntry", "updateEntry", "applyEntry"] as const;
const ENDED = ["completed", "error", "rejected", "cancelled", "rolled_back"];

interface Fault {
  /** the operation (counted from the approval's first) that fails first */
  at: number;
  /** how many operations in a row fail from there */
  span: number;
  /** the first failed write commits before it reports the failure */
  committed: boolean;
}

async function approveThrough(fault: Fault): Promise<string[]> {
  let clock = 1_000_000;
  let counting = false;
  let index = 0;
  let failing = 0;
  const store = withJournal(memoryStore(), (journal) => {
    const wrapped: Partial<Record<(typeof READS)[number] | (typeof WRITES)[number], unknown>> = {};
    for (const name of [...READS, ...WRITES]) {
      const original = (journal[name] as (...args: unknown[]) => Promise<unknown>).bind(journal);
      wrapped[name] = async (...args: unknown[]) => {
        if (counting) {
          const mine = index++;
          if (mine === fault.at) failing = fault.span;
          if (failing > 0) {
            failing--;
            const write = (WRITES as readonly string[]).includes(name);
            if (fault.committed && mine === fault.at && write) await original(...args);
            throw new Error(`injected fault at operation ${mine} (${name})`);
          }
        }
        return original(...args);
      };
    }
    return wrapped as Partial<Journal>;
  });
  const mail = mockConnector({ name: "mail", methods: { send: { requiresApproval: true } } });
  const runtime = createCodemodeRuntime({
    store,
    executor: new MockExecutor(async ({ mail }) =>
      Promise.all([mail.send?.({ to: "a" }), mail.send?.({ to: "b" })]),
    ),
    connectors: [mail],
    leaseMs: 3_000,
    now: () => clock,
  });
  const { executionId } = await runtime.execute({ code: "async () => 0" });
  const handle = decisionHandleOf(await runtime.pending(executionId));
  const problems: string[] = [];
  counting = true;
  const first = await runtime.approve({ executionId, handle }).then(
    (output) => ({ code: output.status === "error" ? output.code : undefined, message: "" }),
    (error: { code?: string; message?: string }) => ({
      code: error.code ?? "threw",
      message: String(error.message),
    }),
  );
  counting = false;
  failing = 0;
  if (first.code === "STORE_FAILED") {
    const after = await runtime.execution(executionId);
    if (mail.calls.length > 0) problems.push("STORE_FAILED, but a call ran");
    if (first.message.includes("the run still waits")) {
      const shown = (await runtime.pending(executionId)).map((call) => call.seq);
      if (after?.status !== "paused" || shown.join() !== "0,1") {
        problems.push(`said the run waits, but it is ${after?.status} showing [${shown}]`);
      }
    } else if (!first.message.includes("held by this approval") || after?.status !== "running") {
      problems.push(`STORE_FAILED saying "${first.message}" with the run ${after?.status}`);
    }
  }
  for (let round = 0; round < 6; round++) {
    const run = await runtime.execution(executionId);
    if (!run || ENDED.includes(run.status)) break;
    if (run.status === "paused") {
      const pending = await runtime.pending(executionId);
      await runtime
        .approve(
          pending.length > 0 ? { executionId, handle: decisionHandleOf(pending) } : { executionId },
        )
        .catch(() => undefined);
    } else {
      clock += 10_000;
      await runtime.expirePaused();
    }
  }
  const end = await runtime.execution(executionId);
  const ran = mail.calls.map((call) => call.seq);
  if (new Set(ran).size !== ran.length) problems.push(`a call ran twice: seqs ${ran}`);
  const approved = end?.calls.filter((call) => call.state === "approved") ?? [];
  if (end && ENDED.includes(end.status) && approved.length > 0) {
    problems.push(`ended ${end.status} with approved calls ${approved.map((call) => call.seq)}`);
  }
  return problems.map(
    (problem) =>
      `${fault.committed ? "committed" : "lost"} x${fault.span} at ${fault.at}: ${problem}`,
  );
}

describe("an approval through a store fault at each of its operations", () => {
  it("runs no call twice, says what STORE_FAILED left, and leaves no approved call in an ended run", async () => {
    const problems: string[] = [];
    for (const span of [1, 3, 8, 20]) {
      for (const committed of span < 8 ? [false, true] : [false]) {
        for (let at = 0; at < 26; at++)
          problems.push(...(await approveThrough({ at, span, committed })));
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
