import { encodeForJournal } from "../../invariants.ts";
import type { JournalEntry } from "../../journal-store.ts";
import type { ResolvedConnector } from "../context/configuration.ts";
import type { RunContext } from "../context/run-context.ts";
import { callContext } from "./invoke-connector.ts";
import type { PassState } from "./pass-state.ts";

/** What a call an earlier pass started and never recorded does in this pass. */
export type InDoubtDecision =
  /** its connector read back that it ran: recorded now, and replayed */
  | { kind: "replay"; entry: JournalEntry }
  /** its connector read back that it did not run: it runs now, under the same key */
  | { kind: "execute" }
  /** nobody can tell: recorded `pending`, in doubt, for a person to decide */
  | { kind: "wait" };

/** What a call in doubt says to the person asked about it. */
export const IN_DOUBT =
  "A pass started this call and its outcome was never recorded (its process stopped, the journal could not be written, or the pass stopped waiting for it), so it may already have run. Approving runs it again under the same idempotency key; rejecting ends the run.";

/**
 * A recorded `executing` call: an earlier pass started it and never recorded what it gave. No pass
 * runs it again by itself. Its connector's `reconcile` may read back what became of it (by its
 * idempotency key); otherwise it waits for a person, as a pending call with `inDoubt` set.
 */
export async function decideInDoubt(
  context: RunContext,
  pass: PassState,
  resolved: ResolvedConnector,
  method: string,
  input: unknown,
  recorded: JournalEntry,
): Promise<InDoubtDecision> {
  const { journal, now } = context;
  const { executionId } = pass;
  const { seq } = recorded;
  const reconciled = await reconcile(pass, resolved, method, input, seq);
  pass.guard();
  if (reconciled?.status === "not-applied") return { kind: "execute" };
  if (reconciled?.status === "applied") {
    let result: string | undefined;
    try {
      result = encodeForJournal(
        reconciled.result,
        `The reconciled result of ${resolved.name}.${method}`,
      );
    } catch {
      // what it gave cannot be recorded: a person decides
    }
    if (
      result !== undefined &&
      (await journal.applyEntry(executionId, seq, { result, updatedAt: now() }))
    ) {
      return { kind: "replay", entry: { ...recorded, state: "applied", result, error: undefined } };
    }
  }
  pass.waitAt(seq);
  await journal.updateEntry(executionId, seq, ["executing"], {
    state: "pending",
    requiresApproval: true,
    error: IN_DOUBT,
    updatedAt: now(),
  });
  return { kind: "wait" };
}

/** The connector's `reconcile`, if it has one; what it cannot tell (or throws) is undefined. */
async function reconcile(
  pass: PassState,
  resolved: ResolvedConnector,
  method: string,
  input: unknown,
  seq: number,
) {
  const { connector } = resolved;
  if (typeof connector.reconcile !== "function") return undefined;
  const original = resolved.methods.get(method)?.original ?? method;
  try {
    const found = await connector.reconcile(original, input, callContext(pass, seq));
    return found?.status === "applied" || found?.status === "not-applied" ? found : undefined;
  } catch {
    return undefined;
  }
}
