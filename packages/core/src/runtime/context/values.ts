import type { ExecutionEndStatus, PassEndStatus } from "../../connector.ts";
import { after } from "../../platform.ts";
import { createValueCodec } from "../../value-codec.ts";
import type { RunContext } from "./run-context.ts";

/** The value codec every step encodes and decodes the journal's values with. */
export const codec = createValueCodec();

/** The idempotency key of a call: the same for every pass of the run. */
export const idempotencyKey = (executionId: string, seq: number) => `${executionId}:${seq}`;

/** The idempotency key of a call's revert. */
export const revertKey = (executionId: string, seq: number) =>
  `${idempotencyKey(executionId, seq)}:revert`;

export function preview(text: string | undefined, length = 120): string {
  if (text === undefined) return "";
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/** How many times the write of a call's outcome is tried before the run gives up on recording it. */
export const RECORD_ATTEMPTS = 3;
/** The wait before the second try (ms); each later wait is four times longer. */
const FIRST_RETRY_MS = 50;

/**
 * A journal write tried again after a store error (a dropped connection, a restarting server), up
 * to `RECORD_ATTEMPTS` times in all; the last error is thrown.
 */
export async function retried<T>(write: () => Promise<T>): Promise<T> {
  let last: unknown;
  for (let attempt = 0; attempt < RECORD_ATTEMPTS; attempt++) {
    if (attempt > 0) {
      await new Promise<void>((resolve) => {
        after(FIRST_RETRY_MS * 4 ** (attempt - 1), resolve);
      });
    }
    try {
      return await write();
    } catch (error) {
      last = error;
    }
  }
  throw last;
}

/** Runs the hooks of `connectors` in order, swallowing their failures. */
export function connectorHooks(
  connectors: readonly {
    onPassEnd?(executionId: string, status: PassEndStatus): unknown;
    disposeExecution?(executionId: string, status: ExecutionEndStatus): unknown;
  }[],
): RunContext["hooks"] {
  return async (executionId, pass, end) => {
    for (const connector of connectors) {
      try {
        if (pass) await connector.onPassEnd?.(executionId, pass);
      } catch {
        // a failing cleanup never turns the outcome into an error
      }
      try {
        if (end) await connector.disposeExecution?.(executionId, end);
      } catch {
        // idem
      }
    }
  };
}
