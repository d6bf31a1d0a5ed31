import { CodemodeError } from "../../codemode-error.ts";
import { MAX_RECORDED_LENGTH, wellFormed } from "../../invariants.ts";
import { randomHex } from "../../platform.ts";
import type { CodeModeOutput } from "../../types.ts";
import type { PassTicket } from "../context/cancellation.ts";
import type { RunContext } from "../context/run-context.ts";
import type { CallObserver } from "../pass/host-globals.ts";
import { leaseOwner } from "../pass/pass-state.ts";
import { runPass } from "../pass/run-pass.ts";
import { recordedOutcome } from "../views/recorded-outcome.ts";

/** A new run's id: its start time (so ids sort by it) and 64 random bits. */
export const newRunId = (time: number): string =>
  `exec_${String(time).padStart(16, "0")}_${randomHex()}`;

/** Why the journal cannot take this code as it is, if it cannot. */
export function refusedCode(
  code: string,
): { error: string; code: "TOO_LARGE" | "INVALID_INPUT" } | undefined {
  if (code.length > MAX_RECORDED_LENGTH) {
    return {
      error: `The code is too large to record (${code.length} characters, the limit is ${MAX_RECORDED_LENGTH}). Move data out of the code and pass a reference.`,
      code: "TOO_LARGE",
    };
  }
  if (!wellFormed(code)) {
    return {
      error:
        "The code contains a lone surrogate or a NUL character, which the journal cannot store as it is; write it as an escape (\\u…) in a string.",
      code: "INVALID_INPUT",
    };
  }
  return undefined;
}

/**
 * `begin` of ARCHITECTURE §3: checks the code, records the run `running` and runs its first
 * pass. With an `id` (a tool call's run), a run the journal already has under it is not started
 * again: its recorded outcome comes back.
 */
export async function begin(
  context: RunContext,
  input: { code: string },
  options: {
    id?: string;
    onCall?: CallObserver;
    /** cancels the run when it aborts (an AI SDK tool call's `abortSignal`) */
    signal?: unknown;
    /** told once the run is recorded (before its first pass runs): a reader of the journal finds it */
    onStarted?: (executionId: string) => void;
  } = {},
): Promise<CodeModeOutput> {
  const config = await context.configurator.configure();
  const code: unknown = (input as { code?: unknown } | null | undefined)?.code;
  if (typeof code !== "string") {
    const given = typeof input === "string" ? "a string" : `{ code: ${typeof code} }`;
    return {
      status: "error",
      executionId: "",
      code: "INVALID_INPUT",
      error: `execute takes { code: "async () => …" }, not ${given}.`,
    };
  }
  const refused = refusedCode(code);
  if (refused) return { status: "error", executionId: "", ...refused };
  const time = context.now();
  const id = options.id ?? newRunId(time);
  // the run is taken with its first pass's lease, in the write that creates it; a cancellation
  // finds the pass from before that write on
  const owner = leaseOwner();
  const ticket = context.live.enter(id);
  try {
    ticket.cancelOn(options.signal, context.now);
    const connectors = [...config.connectors.keys()];
    return await firstPass(context, { id, code, owner, ticket, time, connectors }, options);
  } finally {
    ticket.leave();
  }
}

/** Records the run `running` under `owner`'s lease and runs its first pass. */
async function firstPass(
  context: RunContext,
  run: {
    id: string;
    code: string;
    owner: string;
    ticket: PassTicket;
    time: number;
    connectors: string[];
  },
  options: { id?: string; onCall?: CallObserver; onStarted?: (executionId: string) => void },
): Promise<CodeModeOutput> {
  const { id, code, owner, ticket, time } = run;
  try {
    await context.journal.createExecution({
      id,
      code,
      status: "running",
      connectors: run.connectors,
      createdAt: time,
      updatedAt: time,
      lease: { owner, expiresAt: time + context.leaseMs },
      // 128 secret bits for the sandbox's generator (never shown, unlike the id)
      seed: randomHex() + randomHex(),
    });
  } catch (error) {
    // a run under a chosen id may exist already (another request of the same tool call won)
    const existing = options.id === undefined ? undefined : await context.journal.getExecution(id);
    if (!existing) throw error;
    return recordedOutcome(context, existing);
  }
  await context.journal.pruneExecutions(context.maxExecutions, id);
  const record = await context.journal.getExecution(id);
  if (!record) throw new CodemodeError("STORE_FAILED", `The journal lost execution "${id}".`);
  options.onStarted?.(id);
  return runPass(context, record, {
    owner,
    ticket,
    ...(options.onCall ? { onCall: options.onCall } : {}),
  });
}
