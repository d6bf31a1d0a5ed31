import { normalizeCode } from "@codemode/typegen";
import type { ExecuteResult, Executor, RecordedCall, ReplayHint } from "../../executor.ts";
import { messageOf } from "../../invariants.ts";
import type { ExecutionRecord, JournalEntry } from "../../journal-store.ts";
import { determinismPrelude } from "../../sandbox-determinism.ts";
import { SANDBOX_PRELUDE } from "../../sandbox-protocol.ts";
import type { CodeModeOutput } from "../../types.ts";
import type { PassTicket } from "../context/cancellation.ts";
import { type Configuration, missingConnectors } from "../context/configuration.ts";
import type { RunContext } from "../context/run-context.ts";
import { codec } from "../context/values.ts";
import { failPass, finishPass } from "./finish-pass.ts";
import { type CallObserver, hostGlobals } from "./host-globals.ts";
import { PassState } from "./pass-state.ts";

/**
 * The leading calls of a journal that a pass will replay as they are: applied, recorded, without an
 * error, of connectors and methods still configured, from seq 0 on without a gap or a step.
 */
export function replayHint(
  recorded: ReadonlyMap<number, JournalEntry>,
  config: Configuration,
  pass: PassState,
): ReplayHint | undefined {
  const replayable = (entry: JournalEntry | undefined): entry is JournalEntry & { args: string } =>
    entry?.kind === "call" &&
    entry.state === "applied" &&
    entry.replay === "record" &&
    entry.error === undefined &&
    entry.args !== undefined &&
    config.connectors.get(entry.connector)?.methods.has(entry.method) === true;
  if (!replayable(recorded.get(0))) return undefined;
  let calls: RecordedCall[] | undefined;
  // built on first read: an executor that ignores the hint does not pay for the canonical texts
  const build = () => {
    const list: RecordedCall[] = [];
    for (let entry = recorded.get(0); replayable(entry); entry = recorded.get(list.length)) {
      list.push({
        namespace: entry.connector,
        method: entry.method,
        input: codec.encode(codec.decode(entry.args), { canonical: true }),
        result: entry.result ?? codec.encode(undefined),
      });
    }
    pass.offerReplay(list.length);
    return list;
  };
  return {
    get calls() {
      calls ??= build();
      return calls;
    },
    // the count is checked by the pass: it never moves the numbering past what was offered
    advance: (count) => pass.advance(count),
  };
}

/** The outcome of a resumed pass whose run was deleted before it read the journal: nothing ran. */
const deletedMeanwhile = (executionId: string): CodeModeOutput => ({
  status: "error",
  executionId,
  error: `Execution "${executionId}" was deleted before this pass read its journal: nothing ran, and the run does not start again.`,
  code: "NOT_FOUND",
});

/** What runs instead of the executor in a pass cancelled before it started: nothing. */
const notStarted = (message: string): Pick<Executor, "execute"> => ({
  execute: async () => ({ error: { name: "Error", code: "ABORTED", message }, logs: [] }),
});

/**
 * One pass of a run whose status is `running` (the caller took it): the code runs in the executor
 * with the pass's host functions; the pass reports once every call it started has settled.
 */
export async function runPass(
  context: RunContext,
  execution: ExecutionRecord,
  options: {
    owner: string;
    onCall?: CallObserver;
    /** what `runtime.cancel` stops in this process (taken before the run was) */
    ticket?: PassTicket;
    /** a decision took the run from `paused` (not its first pass): its journal holds entries */
    resumed?: boolean;
  },
): Promise<CodeModeOutput> {
  const { owner } = options;
  const config = await context.configurator.configure();
  const executionId = execution.id;
  const missing = missingConnectors(config, execution.connectors);
  if (missing.length > 0) {
    return failPass(
      context,
      executionId,
      `This run needs connectors that are not configured now: ${missing.join(", ")}.`,
      owner,
    );
  }
  let code: string;
  try {
    code = normalizeCode(execution.code);
  } catch (error) {
    return failPass(context, executionId, messageOf(error), owner);
  }
  const recorded = new Map(
    (await context.journal.listEntries(executionId)).map((entry) => [entry.seq, entry]),
  );
  // a paused run holds the call it waits at, and a store removes a run with its entries at once:
  // a resumed pass that reads no entry of a run the journal no longer has read after a deletion
  // that came between the decision's take and this read. Run over that empty journal, the program
  // would start again from nothing, as a new run
  if (
    options.resumed &&
    recorded.size === 0 &&
    (await context.journal.getExecution(executionId)) === undefined
  ) {
    return deletedMeanwhile(executionId);
  }
  context.emit({ type: "pass-start", executionId, at: context.now(), recorded: recorded.size });
  const pass = new PassState(context, executionId, recorded, {
    owner,
    ...(execution.lease?.owner === owner ? { leaseExpiresAt: execution.lease.expiresAt } : {}),
    ...(options.ticket ? { ticket: options.ticket } : {}),
  });
  let outcome: ExecuteResult;
  try {
    const replay = replayHint(recorded, config, pass);
    // cancelled before it started: the program does not run at all
    const executor = pass.cancellation ? notStarted(pass.cancellation.text) : context.executor;
    outcome = await executor.execute({
      code,
      globals: hostGlobals(context, pass, config, options.onCall),
      // the clock and chance the code reads are the run's, the same on every pass
      prelude: `${determinismPrelude({ seed: execution.seed ?? executionId, time: execution.createdAt })}\n${SANDBOX_PRELUDE}`,
      signal: pass.controller.signal,
      ...(context.limits ? { limits: context.limits } : {}),
      ...(replay ? { replay } : {}),
      heartbeat: () => pass.beat(),
    });
  } catch (error) {
    // an executor that throws broke its contract; the run fails with what it said
    outcome = {
      error: { name: "Error", code: "THROWN", message: `The executor failed: ${messageOf(error)}` },
      logs: [],
    };
  } finally {
    // nothing the pass left running reaches a connector any more, and what it started settles
    await pass.end();
  }
  try {
    // still live here: no expiry in this process takes the run while its outcome is written
    const output = await finishPass(context, pass, config, outcome);
    context.emit({
      type: "pass-end",
      executionId,
      at: context.now(),
      status: pass.endedCancelled ? "cancelled" : output.status,
      ...(output.status === "error" ? { error: output.error } : {}),
    });
    return output;
  } finally {
    pass.release();
  }
}
