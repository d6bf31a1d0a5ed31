// What a client is told when a decision it sends no longer matches the calls that wait: nothing was
// decided, and these calls wait now.
import type { PendingAction } from "@codemode/core";
import { describeCall } from "./describe-call.ts";

/** how much of the reply limit one waiting call may take in the message */
const CALLS_SHOWN = 10;

/**
 * The message for a decision refused because the calls it names no longer wait as the person was
 * shown them (decided elsewhere, or this decision was sent before), with the calls that wait now.
 */
export function alreadyDecided(now: readonly PendingAction[], limit: number): string {
  const refused =
    "Already decided: the calls this decision names no longer wait as they were shown (they were approved, rejected or changed elsewhere, or this decision was sent before), so it decided nothing.";
  if (now.length === 0) return `${refused} Nothing waits now.`;
  const each = Math.floor(limit / (2 * CALLS_SHOWN));
  const calls = now
    .slice(0, CALLS_SHOWN)
    .map(
      (action) =>
        `#${action.seq} ${describeCall(action, each) ?? `${action.connector}.${action.method}(…)`}`,
    );
  const more = now.length > CALLS_SHOWN ? `; and ${now.length - CALLS_SHOWN} more` : "";
  return `${refused} These calls wait now: ${calls.join("; ")}${more}. A person decides them as this reply shows them, with its handle.`;
}
